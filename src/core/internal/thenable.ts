// Internal: not exported from the package.
import { HookOutcome } from '../outcome.js';
import { ownClass } from './brand.js';

const OwnOutcome = ownClass(HookOutcome);

/**
 * Whether a hook's (or terminal's) result is a promise-like. An outcome of this copy is checked first: it is the common
 * case (another copy's outcome has no `then` either, and is only told apart a step later).
 */
export const isThenable = (value: unknown): value is PromiseLike<HookOutcome> =>
  value instanceof Promise ||
  (value !== null && typeof value === 'object' && !(value instanceof OwnOutcome) && typeof (value as PromiseLike<unknown>).then === 'function');
