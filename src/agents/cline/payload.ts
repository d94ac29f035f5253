/**
 * Cline's CLI hook payload read into the fields of one of our contexts.
 *
 * @module
 * @internal
 */
import type { HookEventName } from '../../core/index.js';
import type { Json } from '../light-profile.js';
import type { ReadPayload } from '../profile.js';
import { CLINE_FILE_EVENTS, CLINE_HOOK_NAMES, clineEventOf, clineFields, clineHookNameOf } from './light.js';

/**
 * Cline's payload: its event is its `hookName` (`tool_call`), or `given` (a `hookName` or a hook file's name,
 * `PreToolUse`).
 *
 * @internal
 */
export function readClinePayload(payload: Json, given: string | undefined, fail: (message: string) => Error): ReadPayload {
  const hookName = clineHookNameOf(payload);
  const written = given ?? hookName;
  if (written === undefined) {
    throw fail(`This Cline payload names no event Cline 3.0 sends (hookName is ${JSON.stringify(payload.hookName)}): pass --event with one of ${Object.keys(CLINE_FILE_EVENTS).join(', ')}.`);
  }
  const event = clineEventOf(written) as HookEventName | undefined;
  if (event === undefined) {
    throw fail(`Unknown Cline event '${written}': use a hookName (${Object.keys(CLINE_HOOK_NAMES).join(', ')}) or a hook file's name (${Object.keys(CLINE_FILE_EVENTS).join(', ')}).`);
  }
  return { event, eventName: written, fields: clineFields(payload, hookName ?? written) };
}
