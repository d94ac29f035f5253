// Internal: not exported from the package.
import type { AnyHookContext } from '../context/any-hook-context.js';
import type { MaybePromise, NextFn } from '../hook.js';
import { HookOutcome } from '../outcome.js';

/**
 * What a hook that decided `outcome` returns: a block or stop ends the chain; otherwise the rest of the chain runs with
 * the outcome's context, and the outcome's decision (ask, grant) and extras are merged with what the later hooks
 * decide. A plain proceed returns the later hooks' outcome untouched.
 */
export function continueChain(outcome: HookOutcome, ctx: AnyHookContext, next: NextFn): MaybePromise<HookOutcome> {
  if (outcome.type === 'block' || outcome.type === 'stop') return outcome;
  const rest = next(outcome.context ?? ctx);
  if (outcome.type === 'proceed' && !outcome.granted && outcome.additionalContext.length === 0 && outcome.systemMessages.length === 0) {
    return rest;
  }
  return rest instanceof Promise ? rest.then((r) => HookOutcome.merge(outcome, r)) : HookOutcome.merge(outcome, rest);
}
