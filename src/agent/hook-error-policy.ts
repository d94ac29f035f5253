/**
 * What happens when an in-process hook throws: the builder's `onHookError` policy.
 *
 * @module
 */
import {
  HookError,
  HookOutcome,
  HookStack,
  type AnyHookContext,
  type Hook,
  type HookScope,
  type MaybePromise,
  type NextFn,
} from '../core/index.js';
import { isThenable } from '../core/internal/thenable.js';

/**
 * - `'fail'` (default): the run fails: AgentFailed fires, then ExecutionEnd, and `run` rejects with a `HookError`
 *   naming the hook and the event.
 * - `'ignore'`: a `warning` is emitted and the chain goes on as if the hook had not been there.
 * - `'block'`: the hook's failure counts as a block (the tool call is refused, the prompt rejected, …).
 */
export type HookErrorPolicy = 'fail' | 'ignore' | 'block';

// Errors that came out of `next` belong to a later hook (or the terminal): the guard around this hook rethrows them.
const downstream = new WeakSet<object>();

const markDownstream = (error: unknown): unknown => {
  if (error !== null && typeof error === 'object') downstream.add(error);
  return error;
};

/** A hook wrapped so that its own errors follow a policy other than `'fail'`. */
class GuardedHook implements Hook {
  constructor(
    private readonly inner: Hook,
    private readonly innerName: string,
    private readonly policy: 'ignore' | 'block',
  ) {}

  get name(): string {
    return this.innerName;
  }

  get events() {
    return this.inner.events;
  }

  get matcher() {
    return this.inner.matcher;
  }

  handle(ctx: AnyHookContext, next: NextFn, scope: HookScope): MaybePromise<HookOutcome> {
    let forwarded: MaybePromise<HookOutcome> | undefined;
    const guardedNext: NextFn = (c) => {
      let result: MaybePromise<HookOutcome>;
      try {
        result = next(c);
      } catch (error) {
        throw markDownstream(error);
      }
      forwarded = isThenable(result) ? Promise.resolve(result).catch((error: unknown) => Promise.reject(markDownstream(error))) : result;
      return forwarded;
    };
    const recover = (error: unknown): MaybePromise<HookOutcome> => {
      if (error !== null && typeof error === 'object' && downstream.has(error)) throw error;
      const failure = HookError.isHookError(error) ? error : HookError.fromThrown(error, { hookName: this.innerName, event: ctx.event });
      if (this.policy === 'block') return HookOutcome.block(failure.message);
      scope.report({
        level: 'warning',
        hookName: this.innerName,
        event: ctx.event,
        code: 'hook-error',
        message: `${failure.message} (ignored: the chain went on without it)`,
        data: { error },
      });
      return forwarded ?? next(ctx);
    };
    const check = (value: unknown): MaybePromise<HookOutcome> => {
      // Another copy's outcome too: the stack adopts it.
      if (HookOutcome.isOutcome(value)) return value;
      return recover(
        new HookError(`returned ${String(value)} instead of a HookOutcome`, { hookName: this.innerName, event: ctx.event }),
      );
    };
    let result: MaybePromise<HookOutcome>;
    try {
      result = this.inner.handle(ctx, guardedNext, scope);
    } catch (error) {
      return recover(error);
    }
    if (isThenable(result)) return Promise.resolve(result).then(check, recover);
    return check(result);
  }
}

/**
 * The same hooks, in the same order, each guarded by `policy` (the stack itself when the policy is `'fail'`).
 *
 * @internal
 */
export function guardStack(stack: HookStack, policy: HookErrorPolicy): HookStack {
  if (policy === 'fail') return stack;
  return new HookStack(
    stack.all().map((entry) => ({
      hook: entry.hook instanceof GuardedHook ? entry.hook : new GuardedHook(entry.hook, entry.name, policy),
      priority: entry.priority,
    })),
  );
}
