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
import { VSCODE_WIRE } from '../vscode/wire.js';
import { copilotClaudeCompatible, copilotEventOf, copilotFields, isCamelCasePayload, isVscodeEventName } from './light.js';

/**
 * Copilot's payload. It names no event (but on permissionRequest): `given` does, or what the payload holds. A
 * PascalCase event switches it to its Claude-compatible payload, read as VS Code's with Copilot's own values, except
 * on permissionRequest, which is camelCase under either name.
 *
 * @internal
 */
export function readCopilotPayload(payload: Json, given: string | undefined, fail: (message: string) => Error): ReadPayload {
  const written = given ?? copilotEventOf(payload);
  if (written === undefined) throw fail('Copilot payloads name no event and this one does not say which it is: pass --event (e.g. --event agentStop).');
  if (isVscodeEventName(written) && !isCamelCasePayload(payload)) return VSCODE_WIRE.readPayload(copilotClaudeCompatible(payload), written, fail);
  const event = (isVscodeEventName(written) ? HookEvent.tryParse(written, 'claude') : HookEvent.tryParse(written, 'copilot')) ?? HookEvent.tryParse(written);
  if (event === undefined) throw fail(`Unknown event '${written}'.`);
  const toolInput = payload.toolArgs !== undefined ? parseJsonString(payload.toolArgs, 'toolArgs', fail) : payload.toolInput;
  return { event, eventName: written, fields: copilotFields(payload, toolInput) };
}
