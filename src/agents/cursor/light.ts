/**
 * Cursor's payload as the bridge's first stage reads it. Node's own modules only.
 *
 * @module
 * @internal
 */
import type { Json, LightAgentProfile } from '../light-profile.js';

/**
 * The fields of Cursor's payload for its event `written`, with the MCP tool's arguments as given: its tool-specific
 * events become tool calls — `beforeShellExecution` a `Shell` call with the `command`, `beforeReadFile` a `Read`
 * call, `afterFileEdit` a `Write` call.
 *
 * @internal
 */
export function cursorFields(payload: Json, written: string, mcpInput: unknown): Json {
  const common = { session_id: payload.conversation_id, prompt: payload.prompt, stop_hook_active: typeof payload.loop_count === 'number' ? payload.loop_count > 0 : undefined };
  const tool = (() => {
    switch (written) {
      case 'beforeShellExecution':
      case 'afterShellExecution':
        return { tool_name: 'Shell', tool_input: { command: payload.command, ...(payload.cwd !== undefined ? { cwd: payload.cwd } : {}) }, tool_response: payload.output };
      case 'beforeMCPExecution':
      case 'afterMCPExecution':
        return { tool_name: payload.tool_name, tool_input: mcpInput, tool_response: payload.result_json };
      case 'beforeReadFile':
        return { tool_name: 'Read', tool_input: { file_path: payload.file_path } };
      case 'afterFileEdit':
        return { tool_name: 'Write', tool_input: { file_path: payload.file_path, edits: payload.edits ?? [] }, tool_response: 'edited' };
      default:
        return { tool_name: payload.tool_name, tool_input: payload.tool_input, tool_response: payload.tool_output, error: payload.error_message };
    }
  })();
  return { ...common, ...tool };
}

/**
 * Whether `written` is one of Cursor's MCP events, whose `tool_input` is a JSON string.
 *
 * @internal
 */
export const isCursorMcpEvent = (written: string): boolean => written === 'beforeMCPExecution' || written === 'afterMCPExecution';

/**
 * Cursor, for the first stage.
 *
 * @internal
 */
export const cursorLight: LightAgentProfile<'cursor'> = {
  id: 'cursor',
  projectVariables: ['CURSOR_PROJECT_DIR'],
  writtenEvent(payload, given) {
    const written = given ?? payload.hook_event_name;
    if (typeof written !== 'string') return undefined;
    return { rule: 'cursor', written, reader: 'cursor' };
  },
  fields(payload, _event, written) {
    let toolInput: unknown = payload.tool_input;
    if (isCursorMcpEvent(written) && typeof toolInput === 'string') {
      try {
        toolInput = JSON.parse(toolInput);
      } catch {
        return undefined;
      }
    }
    return cursorFields(payload, written, toolInput);
  },
  async learnEvent(_rule, written) {
    const { CURSOR_EVENTS } = await import('../../dialects/cursor.js');
    const event: unknown = Object.hasOwn(CURSOR_EVENTS, written) ? CURSOR_EVENTS[written] : undefined;
    return typeof event === 'string' ? event : null;
  },
};
