// Internal: not exported from the package.
import { HookOutcome } from '../../core/index.js';
import type { LimitBehaviour } from '../limit-behaviour.js';

/** The outcome a limit or rule answers with: a block or a stop, carrying `reason`. */
export const refuse = (behaviour: LimitBehaviour, reason: string): HookOutcome => (behaviour === 'stop' ? HookOutcome.stop(reason) : HookOutcome.block(reason));

/** Checks a `behaviour` option where it is given, so a typo fails at construction rather than at the first call. */
export function checkBehaviour(hook: string, behaviour: unknown): LimitBehaviour {
  if (behaviour === undefined) return 'block';
  if (behaviour !== 'block' && behaviour !== 'stop') {
    throw new TypeError(`${hook}: behaviour must be 'block' or 'stop', got ${JSON.stringify(behaviour)}.`);
  }
  return behaviour;
}

/** Checks a priority option. */
export function checkPriority(hook: string, priority: unknown, fallback: number): number {
  if (priority === undefined) return fallback;
  if (typeof priority !== 'number' || !Number.isFinite(priority)) {
    throw new TypeError(`${hook}: priority must be a finite number, got ${String(priority)}.`);
  }
  return priority;
}
