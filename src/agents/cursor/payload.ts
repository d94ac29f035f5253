/**
 * Cursor's hook payload read into the fields of one of our contexts.
 *
 * @module
 * @internal
 */
import { CURSOR_EVENTS } from '../../dialects/cursor.js';
import { parseJsonString } from '../answer-json.js';
import type { Json } from '../light-profile.js';
import type { ReadPayload } from '../profile.js';
import { cursorFields, isCursorMcpEvent } from './light.js';

/**
 * Cursor's payload: its event is one of its own names (`CURSOR_EVENTS`), which `given` may name instead.
 *
 * @internal
 */
export function readCursorPayload(payload: Json, given: string | undefined, fail: (message: string) => Error): ReadPayload {
  const written = given ?? payload.hook_event_name;
  if (typeof written !== 'string' || CURSOR_EVENTS[written] === undefined) {
    throw fail(`The payload's hook_event_name ${JSON.stringify(written)} is not a Cursor event (${Object.keys(CURSOR_EVENTS).join(', ')}).`);
  }
  const event = CURSOR_EVENTS[written]!;
  const mcpInput = isCursorMcpEvent(written) ? parseJsonString(payload.tool_input, 'tool_input', fail) : undefined;
  return { event, eventName: written, fields: cursorFields(payload, written, mcpInput) };
}
