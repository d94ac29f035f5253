/**
 * GitHub Copilot CLI's hook payload read into the fields of one of our contexts.
 *
 * @module
 * @internal
 */
import { HookEvent } from '../../core/index.js';
import { parseJsonString } from '../answer-json.js';
import type { Json } from '../light-profile.js';
import type { ReadPayload } from '../profile.js';
import { vscodeProfile } from '../vscode/profile.js';
import { copilotEventOf, copilotFields, isVscodeEventName } from './light.js';

/**
 * Copilot's payload. It names no event: `given` does, or what the payload holds. A PascalCase event switches it to
 * VS Code's payload.
 *
 * @internal
 */
export function readCopilotPayload(payload: Json, given: string | undefined, fail: (message: string) => Error): ReadPayload {
  const written = given ?? copilotEventOf(payload);
  if (written === undefined) throw fail('Copilot payloads name no event and this one does not say which it is: pass --event (e.g. --event agentStop).');
  if (isVscodeEventName(written)) return vscodeProfile.readPayload(payload, written, fail);
  const event = HookEvent.tryParse(written, 'copilot') ?? HookEvent.tryParse(written);
  if (event === undefined) throw fail(`Unknown event '${written}'.`);
  return { event, eventName: written, fields: copilotFields(payload, parseJsonString(payload.toolArgs, 'toolArgs', fail)) };
}
