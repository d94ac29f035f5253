/**
 * The matcher contract.
 *
 * @module
 */
import type { AnyHookContext } from '../context/any-hook-context.js';
import type { HookEventName } from '../events.js';

/**
 * What a matcher can tell about itself before any context exists. A {@link HookStack} uses hints to leave a hook out
 * of the chains of events and tools it can never match, so that a stack of a thousand hooks costs, for one tool,
 * about what a stack of only that tool's hooks costs.
 */
export interface MatcherHints {
  /** The matcher can only match these events. */
  readonly events?: ReadonlySet<HookEventName> | undefined;
  /**
   * The matcher can only match tool events whose tool has one of these exact names. A stack trusts this only for names
   * of at most `MATCH_INPUT_LIMIT` (16 KiB) characters: for a longer one (which a regex counts as a match without testing
   * it) it calls {@link HookMatcher.matches} of every hook.
   */
  readonly toolNames?: ReadonlySet<string> | undefined;
  /**
   * The hints describe the matcher completely: a context whose event (and tool name, when `toolNames` is set) is
   * within them always matches, so the stack need not call {@link HookMatcher.matches} at all.
   */
  readonly exact?: boolean;
}

/** Decides whether a hook applies to a context. Compile in the constructor; `matches` runs on every dispatch. */
export interface HookMatcher {
  /** Whether the hook applies to `ctx`. */
  matches(ctx: AnyHookContext): boolean;
  /** What the matcher can tell about itself in advance; absent means nothing. */
  readonly hints?: MatcherHints | undefined;
  /** A short description for listings and errors, e.g. `tool:bash`. */
  toString(): string;
}

/**
 * Whether `value` looks like a {@link HookMatcher}.
 *
 * @internal
 */
export function isHookMatcher(value: unknown): value is HookMatcher {
  return value !== null && typeof value === 'object' && typeof (value as HookMatcher).matches === 'function';
}
