/**
 * Claude Code's hook payload read into the fields of one of our contexts — and the payload shape VS Code and Gemini
 * CLI share with it.
 *
 * @module
 * @internal
 */
import { HookEvent, type EventDialect, type HookEventName } from '../../core/index.js';
import type { Json } from '../light-profile.js';
import type { ReadPayload } from '../profile.js';
import { claudeOwnFields, claudeShapedFields } from './light.js';

/**
 * Reads a Claude-shaped payload: its event (`given`, else `hook_event_name` or `hookEventName`) by `dialect`'s names
 * (then any dialect's), its fields as they are; `extra` adds an agent's own fields for the event.
 *
 * @internal
 */
export function readClaudeShapedPayload(
  payload: Json,
  given: string | undefined,
  dialect: EventDialect,
  fail: (message: string) => Error,
  extra: (event: HookEventName) => Json = () => ({}),
): ReadPayload {
  const written = given ?? payload.hook_event_name ?? payload.hookEventName;
  if (typeof written !== 'string' || written === '') throw fail('The payload has no hook_event_name; pass --event.');
  const event = HookEvent.tryParse(written, dialect) ?? HookEvent.tryParse(written);
  if (event === undefined) throw fail(`Unknown event '${written}'.`);
  return { event, eventName: written, fields: claudeShapedFields(payload, extra(event)) };
}

/**
 * Claude Code's payload.
 *
 * @internal
 */
export const readClaudePayload = (payload: Json, given: string | undefined, fail: (message: string) => Error): ReadPayload =>
  readClaudeShapedPayload(payload, given, 'claude', fail, () => claudeOwnFields(payload));
