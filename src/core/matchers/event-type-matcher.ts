/**
 * Matching by event.
 *
 * @module
 */
import type { AnyHookContext } from '../context/any-hook-context.js';
import { HookEvent, type HookEventName } from '../events.js';
import type { HookMatcher, MatcherHints } from './hook-matcher.js';

/**
 * Matches contexts of the given events. Any dialect's name is accepted (`'before_tool'` is PreToolUse).
 *
 * ```ts
 * new EventTypeMatcher('BeforeStep', 'AfterStep');
 * ```
 *
 * @throws {@link UnknownEventError} for an unknown name, with close matches.
 */
export class EventTypeMatcher implements HookMatcher {
  /** The canonical events matched. */
  readonly events: ReadonlySet<HookEventName>;
  /** Exactly these events. */
  readonly hints: MatcherHints;

  constructor(...events: string[]) {
    if (events.length === 0) throw new TypeError('EventTypeMatcher needs at least one event.');
    this.events = new Set(events.map((e) => HookEvent.parse(e)));
    this.hints = { events: this.events, exact: true };
  }

  matches(ctx: AnyHookContext): boolean {
    return this.events.has(ctx.event);
  }

  toString(): string {
    return `event:${[...this.events].join('|')}`;
  }
}
