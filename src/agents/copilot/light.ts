/**
 * GitHub Copilot CLI's payload as the bridge's first stage reads it. Node's own modules only.
 *
 * @module
 * @internal
 */
import { claudeShapedEvent } from '../claude/light.js';
import { learnByDialect } from '../light-events.js';
import { isJsonObject, type Json, type LightAgentProfile } from '../light-profile.js';

/**
 * The event a Copilot payload is about, by what it holds: its payloads name none. `undefined` when it cannot be told.
 *
 * @internal
 */
export function copilotEventOf(payload: Json): string | undefined {
  if (payload.toolResult !== undefined) return 'postToolUse';
  if (payload.toolName !== undefined) return 'preToolUse';
  if (payload.prompt !== undefined) return 'userPromptSubmitted';
  if (payload.error !== undefined) return 'errorOccurred';
  if (payload.source !== undefined) return 'sessionStart';
  if (payload.reason !== undefined) return 'sessionEnd';
  return undefined;
}

/**
 * Whether Copilot's event `written` is a PascalCase one, which switches Copilot to VS Code's payload.
 *
 * @internal
 */
export const isVscodeEventName = (written: string): boolean => /^[A-Z]/.test(written);

/**
 * The fields of Copilot's own (camelCase) payload, with its tool arguments as given (a JSON string or an object).
 *
 * @internal
 */
export function copilotFields(payload: Json, toolInput: unknown): Json {
  const result = isJsonObject(payload.toolResult) ? payload.toolResult : undefined;
  const error = isJsonObject(payload.error) ? payload.error : undefined;
  return {
    // Copilot CLI 1.0.x writes some fields in snake_case (stop_hook_active, session_id) and others in camelCase.
    session_id: payload.sessionId ?? payload.session_id,
    tool_name: payload.toolName,
    tool_input: toolInput,
    tool_response: result?.textResultForLlm,
    ...(result?.resultType === 'failure' ? { error: result.textResultForLlm } : {}),
    prompt: payload.prompt,
    source: payload.source === 'new' ? 'startup' : payload.source,
    reason: payload.reason,
    stop_hook_active: payload.stop_hook_active ?? payload.stopHookActive,
    error_message: error?.message,
    error_class: error?.name,
    subagent_name: payload.agentName,
    subagent_type: payload.agentType,
    message: payload.message,
    notification_type: payload.notificationType,
  };
}

/**
 * Copilot CLI, for the first stage.
 *
 * @internal
 */
export const copilotLight: LightAgentProfile<'copilot'> = {
  id: 'copilot',
  // Copilot runs hooks in the repository's root and sets no variable for it.
  projectVariables: [],
  writtenEvent(payload, given) {
    const written = given ?? copilotEventOf(payload);
    if (written === undefined) return undefined;
    if (isVscodeEventName(written)) return claudeShapedEvent(payload, written, 'claude', 'vscode');
    return { rule: 'copilot', written, reader: 'copilot' };
  },
  fields(payload) {
    let toolInput: unknown = payload.toolArgs;
    if (typeof toolInput === 'string') {
      try {
        toolInput = JSON.parse(toolInput);
      } catch {
        return undefined;
      }
    }
    return copilotFields(payload, toolInput);
  },
  learnEvent: (_rule, written) => learnByDialect('copilot', written),
};
