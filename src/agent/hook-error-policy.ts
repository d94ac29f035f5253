/**
 * What happens when an in-process hook throws or runs past its timeout: the builder's `onHookError` policy.
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
import { DEFAULT_HOOK_TIMEOUT_MS, timeoutFor, withTimeout } from './hook-timeout.js';

/**
 * What a hook's failure — it threw, broke the middleware contract, or ran past its timeout (a `HookError` with code
 * `timeout`) — does:
 * - `'fail'` (default): the run fails: AgentFailed fires, then ExecutionEnd, and `run` rejects with a `HookError`
 *   naming the hook and the event.
 * - `'ignore'`: a `warning` is emitted (code `hook-error`, or `timeout`) and the chain goes on as if the hook had not
 *   been there.
 * - `'block'`: the hook's failure counts as a block (the tool call is refused, the prompt rejected, …); a timeout is
 *   also reported as a `timeout` warning.
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
      const code = failure.code ?? 'hook-error';
      if (this.policy === 'block') {
        // A hang is worth a warning even where it blocks, as a script hook's timeout is, failing closed.
        if (code === 'timeout') {
          scope.report({ level: 'warning', hookName: this.innerName, event: ctx.event, code, message: `${failure.message} (onHookError 'block': the action is blocked)`, data: { error } });
        }
        return HookOutcome.block(failure.message);
      }
      scope.report({
        level: 'warning',
        hookName: this.innerName,
        event: ctx.event,
        code,
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

// The hooks guardStack made: a stack guarded again (a subagent's, holding its parent's) keeps them as they are.
const guarded = new WeakSet<Hook>();

/**
 * The same hooks, in the same order, each run against its timeout (its own `timeout`, else `hookTimeout`; none for a
 * script hook, whose own timeout stays the effective one) and guarded by `policy`.
 *
 * @internal
 */
export function guardStack(stack: HookStack, policy: HookErrorPolicy, hookTimeout: number = DEFAULT_HOOK_TIMEOUT_MS): HookStack {
  let changed = false;
  const entries = stack.all().map((entry) => {
    if (guarded.has(entry.hook)) return entry;
    let hook = entry.hook;
    const ms = timeoutFor(hook, entry.name, hookTimeout);
    if (ms !== undefined) hook = withTimeout(hook, { name: entry.name, priority: entry.priority }, ms);
    if (policy !== 'fail') hook = new GuardedHook(hook, entry.name, policy);
    if (hook === entry.hook) return entry;
    guarded.add(hook);
    changed = true;
    return { hook, priority: entry.priority };
  });
  return changed ? new HookStack(entries) : stack;
}
