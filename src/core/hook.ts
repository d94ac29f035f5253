/**
 * The hook contract.
 *
 * @module
 */
import type { AnyHookContext } from './context/any-hook-context.js';
import type { HookEventName } from './events.js';
import type { HookScope } from './hook-scope.js';
import type { MatcherLike } from './matchers/matcher.js';
import type { HookOutcome } from './outcome.js';

/** A value, or a promise of it. Hooks stay synchronous until one of them returns a promise. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Calls the rest of the chain (later hooks, then the terminal) with `ctx`, or with the current context when called
 * with none. Call it at most once; not calling it short-circuits the chain.
 */
export type NextFn<C extends AnyHookContext = AnyHookContext> = (ctx?: C) => MaybePromise<HookOutcome>;

/**
 * A middleware of the {@link HookStack}: it sees the context, may act before calling `next`, after it, or instead of
 * it, and returns the outcome.
 *
 * ```ts
 * class RateLimitHook implements Hook {
 *   readonly events = ['PreToolUse'] as const;
 *   handle(ctx: AnyHookContext, next: NextFn) {
 *     if (!limiter.check()) return HookOutcome.block('Rate limit exceeded');
 *     return next(ctx);
 *   }
 * }
 * ```
 *
 * The stack honours two optional properties before it calls `handle`: `events` (the hook runs only for these) and
 * `matcher` (the hook runs only where it matches; elsewhere the chain goes on without it). A `handle` called directly
 * runs whatever it does: the built-in hook classes check their matcher there too, a class of yours decides for itself.
 */
export interface Hook<C extends AnyHookContext = AnyHookContext> {
  /**
   * Handles one dispatch. Must return an outcome: `next(ctx)`'s, or its own. `scope` carries the run's abort signal,
   * a channel for notes, and `waitUntil` for work that outlives the dispatch; most hooks ignore it.
   */
  handle(ctx: C, next: NextFn<C>, scope: HookScope): MaybePromise<HookOutcome>;
  /** A name for listings and errors; defaults to the class name. */
  readonly name?: string | undefined;
  /** The priority to register the hook at when the registration names none (a script hook's manifest priority). */
  readonly priority?: number | undefined;
  /** The events the hook runs for; all when absent. */
  readonly events?: readonly HookEventName[] | undefined;
  /**
   * Where the hook applies; everywhere when absent. Anything the builder's `matcher` option takes: a tool-name pattern
   * (`'Bash'`, `'read_*'`, `'/^mcp__/'`), a RegExp, a `(ctx) => boolean` predicate, a {@link HookMatcher}, or a list
   * of these. A stack turns it into a matcher once, when the hook is registered.
   */
  readonly matcher?: MatcherLike | undefined;
  /**
   * How long the hook's own work may take, in milliseconds (`Infinity` for no limit), when its registration names
   * none. An agent enforces it, and gives a hook that declares none its `withOptions({ hookTimeout })` (60 000 ms by
   * default): past it, the hook's `scope.signal` is aborted and its failure, a {@link HookError} with code `timeout`,
   * follows the agent's `onHookError` policy. The time spent inside `next` (later hooks, the model, the tool) is not
   * the hook's own. A bare {@link HookStack} enforces no timeout.
   */
  readonly timeout?: number | undefined;
}

/** A hook written as a bare `(ctx, next)` function. */
export type HookFn<C extends AnyHookContext = AnyHookContext> = (ctx: C, next: NextFn<C>, scope: HookScope) => MaybePromise<HookOutcome>;

/**
 * Whether `value` is a {@link Hook} (an object with a `handle` method).
 *
 * @internal
 */
export function isHook(value: unknown): value is Hook {
  return value !== null && typeof value === 'object' && typeof (value as Hook).handle === 'function';
}
