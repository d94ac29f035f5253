/**
 * An agent's names for the canonical events, taken from the core alias table: what a room's install shape lists.
 *
 * @module
 * @internal
 */
import { HookEvent, type EventDialect, type HookEventName } from '../core/index.js';

/**
 * The names `dialect` gives the canonical events in `events` (all it has, when omitted).
 *
 * @internal
 */
export function dialectNames(dialect: EventDialect, events: readonly HookEventName[] = HookEvent.all): Partial<Record<HookEventName, string>> {
  const names: Partial<Record<HookEventName, string>> = {};
  for (const event of events) {
    const name = HookEvent.toDialect(event, dialect);
    if (name !== undefined) names[event] = name;
  }
  return names;
}

/**
 * The entry shape of Claude Code's settings, which Codex and Gemini CLI share: an event holds matcher groups, each
 * `{ matcher, hooks: [{ type: 'command', command }] }`, and the payload names its event.
 *
 * @internal
 */
export const GROUPED_ENTRIES = { layout: 'grouped', version: undefined, typed: true, commandField: 'command', eventArgument: false } as const;

/**
 * The canonical event `written` is in `dialect`'s names, then in any dialect's: how an agent whose payloads carry an
 * alias-table name reads it.
 *
 * @internal
 */
export const eventIn = (dialect: EventDialect, written: string): HookEventName | undefined => HookEvent.tryParse(written, dialect) ?? HookEvent.tryParse(written);
