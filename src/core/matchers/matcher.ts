/**
 * Turning what users write into matchers.
 *
 * @module
 */
import type { AnyHookContext } from '../context/any-hook-context.js';
import { CallableMatcher } from './callable-matcher.js';
import { CompositeMatcher } from './composite-matcher.js';
import { isHookMatcher, type HookMatcher } from './hook-matcher.js';
import { ToolNameMatcher } from './tool-name-matcher.js';

/**
 * Anything accepted where a matcher is expected: a tool-name pattern (string or RegExp), a predicate, a matcher, or
 * a list of these (any of them).
 */
export type MatcherLike =
  | string
  | RegExp
  | ((ctx: AnyHookContext) => boolean)
  | HookMatcher
  | readonly MatcherLike[];

/** Helpers for matchers. */
export const Matcher = Object.freeze({
  /**
   * A matcher from what a user wrote, following the PHP AgentBuilder's rules: a string or RegExp is a
   * {@link ToolNameMatcher} pattern, a function a {@link CallableMatcher}, an array the OR of its items; a matcher is
   * returned as is, and `undefined`/`null` mean "match everything" (`undefined` is returned).
   *
   * @throws {@link MatcherSyntaxError} for an invalid pattern; `TypeError` for anything else.
   */
  from(value: MatcherLike | null | undefined): HookMatcher | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string' || value instanceof RegExp) return new ToolNameMatcher(value);
    if (typeof value === 'function') return new CallableMatcher(value);
    if (Array.isArray(value)) {
      const parts = value.map((v: MatcherLike) => Matcher.from(v)).filter((m): m is HookMatcher => m !== undefined);
      if (parts.length === 0) return undefined;
      return parts.length === 1 ? parts[0] : CompositeMatcher.or(...parts);
    }
    if (isHookMatcher(value)) return value;
    throw new TypeError(
      `Cannot make a matcher from ${typeof value}: give a tool-name pattern, a RegExp, a (ctx) => boolean function or a HookMatcher.`,
    );
  },
});
