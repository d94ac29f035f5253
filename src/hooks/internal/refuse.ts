// Internal: not exported from the package.
import { HookOutcome, type AnyHookContext, type HookMatcher, type MaybePromise, type NextFn, type ToolCall } from '../../core/index.js';
import { isThenable } from '../../core/internal/thenable.js';
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

/**
 * A PreToolUse guard: refuses the call when `refusal` finds a reason; else lets the chain go on and, when a later hook
 * rewrote the call, checks the rewritten one — the call that would run is what counts. A rewrite that takes the call
 * out of `matcher` (a tool the guard does not watch) is not checked again.
 */
export function guardToolCall(
  ctx: AnyHookContext,
  next: NextFn,
  refusal: (call: ToolCall) => HookOutcome | undefined,
  matcher: HookMatcher | undefined,
): MaybePromise<HookOutcome> {
  if (ctx.event !== 'PreToolUse') return next(ctx);
  const checked = ctx.toolCall;
  const refused = refusal(checked);
  if (refused !== undefined) return refused;
  const recheck = (outcome: HookOutcome): HookOutcome => {
    const after = outcome.context;
    if ((outcome.type !== 'proceed' && outcome.type !== 'ask') || after?.event !== 'PreToolUse' || after.toolCall === checked) return outcome;
    if (matcher !== undefined && !matcher.matches(after)) return outcome;
    return refusal(after.toolCall) ?? outcome;
  };
  const outcome = next(ctx);
  return isThenable(outcome) ? Promise.resolve(outcome).then(recheck) : recheck(outcome);
}
