// Internal: not exported from the package.
import { HookOutcome } from '../outcome.js';

/** Whether a hook's (or terminal's) result is a promise-like. An outcome is checked first: it is the common case. */
export const isThenable = (value: unknown): value is PromiseLike<HookOutcome> =>
  value instanceof Promise ||
  (value !== null && typeof value === 'object' && !(value instanceof HookOutcome) && typeof (value as PromiseLike<unknown>).then === 'function');
