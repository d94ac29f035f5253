/**
 * A hook made from a `(ctx, next)` function.
 *
 * @module
 */
import type { AnyHookContext } from '../context/any-hook-context.js';
import { HookEvent, type HookEventName } from '../events.js';
import type { Hook, HookFn, MaybePromise, NextFn } from '../hook.js';
import type { HookScope } from '../hook-scope.js';
import { applies } from '../internal/matched.js';
import type { HookMatcher } from '../matchers/hook-matcher.js';
import { Matcher, type MatcherLike } from '../matchers/matcher.js';
import type { HookOutcome } from '../outcome.js';

/** Options of a {@link CallableHook}. */
export interface CallableHookOptions {
  /** A name for listings and errors; defaults to the function's name. */
  name?: string;
  /** The events the hook runs for (any dialect's names); all when omitted. */
  events?: readonly string[];
}

/**
 * Wraps a `(ctx, next)` middleware function, with an optional matcher, into a {@link Hook}.
 *
 * ```ts
 * new CallableHook(async (ctx, next) => {
 *   const started = performance.now();
 *   const outcome = await next();
 *   console.log(ctx.event, performance.now() - started);
 *   return outcome;
 * });
 * ```
 */
export class CallableHook<C extends AnyHookContext = AnyHookContext> implements Hook<C> {
  /** The function's name, or the one given. */
  readonly name: string;
  /** Where the hook applies. */
  readonly matcher: HookMatcher | undefined;
  /** The events it runs for, when restricted. */
  readonly events: readonly HookEventName[] | undefined;
  private readonly fn: HookFn<C>;

  constructor(fn: HookFn<C>, matcher?: MatcherLike, options: CallableHookOptions = {}) {
    if (typeof fn !== 'function') throw new TypeError(`CallableHook needs a (ctx, next) function, got ${typeof fn}.`);
    this.fn = fn;
    this.matcher = Matcher.from(matcher);
    this.name = options.name ?? (fn.name || 'anonymous hook');
    this.events = options.events ? Object.freeze(options.events.map((e) => HookEvent.parse(e))) : undefined;
  }

  /**
   * Calls the function where the matcher matches; elsewhere the chain goes on without it. Called directly, or by a hook
   * that wraps this one, the hook still honours its matcher, as a stack does; a stack that has just checked the matcher
   * does not have it evaluated twice.
   */
  handle(ctx: C, next: NextFn<C>, scope: HookScope): MaybePromise<HookOutcome> {
    if (!applies(this.matcher, ctx)) return next(ctx);
    return this.fn(ctx, next, scope);
  }
}
