/**
 * Matching by a function.
 *
 * @module
 */
import type { AnyHookContext } from '../context/any-hook-context.js';
import type { HookMatcher } from './hook-matcher.js';

/** A predicate over a context. */
export type MatchPredicate = (ctx: AnyHookContext) => boolean;

/**
 * Matches when a function says so. The function runs on every dispatch that reaches the hook, so keep it cheap.
 *
 * ```ts
 * new CallableMatcher((ctx) => ctx.state.stepCount < 5);
 * ```
 */
export class CallableMatcher implements HookMatcher {
  /** The predicate. */
  readonly predicate: MatchPredicate;

  constructor(predicate: MatchPredicate) {
    if (typeof predicate !== 'function') throw new TypeError(`CallableMatcher needs a function, got ${typeof predicate}.`);
    this.predicate = predicate;
  }

  matches(ctx: AnyHookContext): boolean {
    return Boolean(this.predicate(ctx));
  }

  toString(): string {
    return `fn:${this.predicate.name || 'anonymous'}`;
  }
}
