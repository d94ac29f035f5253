// Internal: not exported from the package.
import type { AnyHookContext } from '../context/any-hook-context.js';
import type { Hook, MaybePromise, NextFn } from '../hook.js';
import type { HookScope } from '../hook-scope.js';
import type { HookMatcher } from '../matchers/hook-matcher.js';
import type { HookOutcome } from '../outcome.js';

/*
 * A built-in hook checks its own matcher in `handle`, so that calling it directly (or from a hook that wraps it) skips
 * it where the matcher does not match, as the PHP hooks did. A stack has already checked the matcher before it calls
 * `handle`, and a matcher may be a costly predicate or regex: the stack says so through this mark, which a built-in
 * hook reads before it evaluates its matcher.
 *
 * The mark is the pair (matcher, context) the stack found matching, set only while `handle` runs synchronously, and
 * put back as it was when `handle` returns, so nested dispatches and `next` calls keep their own. Two module variables
 * rather than an object per dispatch: the mark costs no allocation on the hot path. A stale mark cannot skip a check
 * it should not: it names the very matcher and context object that matched.
 */
let markedMatcher: HookMatcher | undefined;
let markedCtx: AnyHookContext | undefined;

/** Calls `hook.handle`, telling a built-in hook that `matcher` (its own) already matched `ctx`. */
export function handleMatched(hook: Hook, matcher: HookMatcher, ctx: AnyHookContext, next: NextFn, scope: HookScope): MaybePromise<HookOutcome> {
  const outerMatcher = markedMatcher;
  const outerCtx = markedCtx;
  markedMatcher = matcher;
  markedCtx = ctx;
  try {
    return hook.handle(ctx, next, scope);
  } finally {
    markedMatcher = outerMatcher;
    markedCtx = outerCtx;
  }
}

/** Whether the caller already found `matcher` matching `ctx` (see {@link handleMatched}). */
export const alreadyMatched = (matcher: HookMatcher, ctx: AnyHookContext): boolean => markedMatcher === matcher && markedCtx === ctx;

/**
 * Whether a built-in hook with `matcher` applies to `ctx`: no matcher, a matcher its caller already checked, or one
 * that matches now.
 */
export const applies = (matcher: HookMatcher | undefined, ctx: AnyHookContext): boolean =>
  matcher === undefined || (markedMatcher === matcher && markedCtx === ctx) || matcher.matches(ctx);
