/**
 * GitHub Copilot CLI's payload as the bridge's first stage reads it. Node's own modules only.
 *
 * @module
 * @internal
 */
import { claudeShapedEvent, claudeShapedFields } from '../claude/light.js';
import { learnByDialect } from '../light-events.js';
import { isJsonObject, type Json, type LightAgentProfile } from '../light-profile.js';

/**
 * The event a Copilot payload is about, by what it holds: its payloads name none. `undefined` when it cannot be told.
 *
 * @internal
 */
export function copilotEventOf(payload: Json): string | undefined {
  // permissionRequest's payload names its event; the others name none.
  if (typeof payload.hookName === 'string' && payload.hookName !== '') return payload.hookName;
  if (payload.toolResult !== undefined) return 'postToolUse';
  if (payload.toolName !== undefined) return 'preToolUse';
  if (payload.prompt !== undefined) return 'userPromptSubmitted';
  if (payload.error !== undefined) return 'errorOccurred';
  if (payload.source !== undefined) return 'sessionStart';
  if (payload.reason !== undefined) return 'sessionEnd';
  return undefined;
}

/**
 * Whether Copilot's event `written` is a PascalCase one, which switches Copilot to its Claude-compatible payload.
 *
 * @internal
 */
export const isVscodeEventName = (written: string): boolean => /^[A-Z]/.test(written);

/**
 * Whether a payload is Copilot's own camelCase one. Copilot CLI 1.0.102 sends its Claude-compatible (snake_case)
 * payload to a hook configured under a PascalCase name, except on permissionRequest, whose payload is camelCase
 * under either name (`hookName`, `toolName`, `toolInput`).
 *
 * @internal
 */
export const isCamelCasePayload = (payload: Json): boolean =>
  payload.hook_event_name === undefined && payload.session_id === undefined && payload.tool_name === undefined && (payload.sessionId !== undefined || payload.hookName !== undefined || payload.toolName !== undefined);

/**
 * Copilot CLI's Claude-compatible payload with its values in the words our contexts read: a new session's `source`
 * `new` is `startup`, a turn the model ended (`end_turn`) is `no_tool_calls`, and the tool's result
 * (`tool_result.text_result_for_llm`, an error when `result_type` is `failure`) is `tool_response`.
 *
 * @internal
 */
export function copilotClaudeCompatible(payload: Json): Json {
  const result = isJsonObject(payload.tool_result) ? payload.tool_result : undefined;
  const failed = result?.result_type === 'failure';
  return {
    ...payload,
    ...(payload.source === 'new' ? { source: 'startup' } : {}),
    ...(payload.stop_reason === 'end_turn' ? { stop_reason: 'no_tool_calls' } : {}),
    ...(result !== undefined && payload.tool_response === undefined && !failed ? { tool_response: result.text_result_for_llm } : {}),
    ...(failed && payload.error === undefined ? { error: result.text_result_for_llm } : {}),
  };
}

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
    initial_prompt: payload.initialPrompt,
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
    // A PascalCase name reads by Claude's names, its payload (Claude-compatible or not) by Copilot's own reading.
    if (isVscodeEventName(written)) return claudeShapedEvent(payload, written, 'claude', 'copilot');
    return { rule: 'copilot', written, reader: 'copilot' };
  },
  fields(payload, _event, written) {
    if (isVscodeEventName(written) && !isCamelCasePayload(payload)) return claudeShapedFields(copilotClaudeCompatible(payload));
    let toolInput: unknown = payload.toolArgs ?? payload.toolInput;
    if (typeof toolInput === 'string') {
      try {
        toolInput = JSON.parse(toolInput);
      } catch {
        return undefined;
      }
    }
    return copilotFields(payload, toolInput);
  },
  learnEvent: (rule, written) => learnByDialect(rule === 'claude' ? 'claude' : 'copilot', written),
};
