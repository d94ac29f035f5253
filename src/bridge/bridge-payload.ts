/**
 * The first half of the bridge: another agent's stdin payload, read into one of our contexts.
 *
 * @module
 */
import { HookEvent, type AnyHookContext, type EventDialect, type HookEventName } from '../core/index.js';
import { readCodexPayload } from '../dialects/codex.js';
import { CURSOR_EVENTS } from '../dialects/cursor.js';
import { readGeminiModelPayload } from '../dialects/gemini-llm.js';
import { isRecord } from '../dialects/wire-output.js';
import { sampleContext } from '../script/sample-context.js';
import type { BridgeAgent } from './bridge-answer.js';

/**
 * A payload read: the context to dispatch, and the event's name as the agent calls it (for the answer).
 *
 * @internal
 */
export interface BridgedEvent {
  /** The context, with the payload's fields. */
  readonly ctx: AnyHookContext;
  /** The event as the agent named it (`PreToolUse`, `preToolUse`, `BeforeTool`, `beforeShellExecution`, …). */
  readonly eventName: string;
}

/**
 * Thrown when a payload cannot be read: not JSON, not an object, no event, or a field of the wrong type.
 *
 * @internal
 */
export class BridgeInputError extends Error {
  /** Always `BridgeInputError`. */
  override readonly name = 'BridgeInputError';
}

const parseJsonString = (value: unknown, field: string): unknown => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw new BridgeInputError(`${field} is a string that is not JSON; it should hold the tool's arguments.`);
  }
};

/** Copilot's payload names no event; what it holds says which one it is, when `--event` does not. */
function copilotEventOf(payload: Record<string, unknown>): string | undefined {
  if (payload.toolResult !== undefined) return 'postToolUse';
  if (payload.toolName !== undefined) return 'preToolUse';
  if (payload.prompt !== undefined) return 'userPromptSubmitted';
  if (payload.error !== undefined) return 'errorOccurred';
  if (payload.source !== undefined) return 'sessionStart';
  if (payload.reason !== undefined) return 'sessionEnd';
  return undefined;
}

const isModelEvent = (event: HookEventName): event is 'BeforeModel' | 'BeforeToolSelection' | 'AfterModel' =>
  event === 'BeforeModel' || event === 'BeforeToolSelection' || event === 'AfterModel';

/** Gemini CLI's `llm_request` (and `llm_response`) as the request and answer a model event's context is built from. */
function geminiModelFields(payload: Record<string, unknown>, event: 'BeforeModel' | 'BeforeToolSelection' | 'AfterModel'): Record<string, unknown> {
  try {
    return readGeminiModelPayload(payload, event);
  } catch (error) {
    throw new BridgeInputError((error as Error).message);
  }
}

function parseEvent(name: string, dialect: EventDialect): HookEventName {
  const event = HookEvent.tryParse(name, dialect) ?? HookEvent.tryParse(name);
  if (event === undefined) throw new BridgeInputError(`Unknown event '${name}'.`);
  return event;
}

/** The payload in the snake_case fields {@link sampleContext} reads, and the event. */
function normalize(agent: BridgeAgent, payload: Record<string, unknown>, given: string | undefined): { event: HookEventName; eventName: string; fields: Record<string, unknown> } {
  switch (agent) {
    case 'claude':
    case 'vscode':
    case 'gemini': {
      const written = given ?? payload.hook_event_name ?? payload.hookEventName;
      if (typeof written !== 'string' || written === '') throw new BridgeInputError('The payload has no hook_event_name; pass --event.');
      const event = parseEvent(written, agent === 'gemini' ? 'gemini' : 'claude');
      return {
        event,
        eventName: written,
        fields: {
          ...payload,
          session_id: payload.session_id ?? payload.sessionId,
          subagent_name: payload.agent_id,
          ...(agent === 'gemini' && event === 'Stop' ? { final_message: payload.prompt_response } : {}),
          ...(agent === 'gemini' && isModelEvent(event) ? geminiModelFields(payload, event) : {}),
          hook_event_name: undefined,
          hookEventName: undefined,
        },
      };
    }
    case 'copilot': {
      const written = given ?? copilotEventOf(payload);
      if (written === undefined) throw new BridgeInputError('Copilot payloads name no event and this one does not say which it is: pass --event (e.g. --event agentStop).');
      // A PascalCase event switches Copilot to VS Code's payload.
      if (/^[A-Z]/.test(written)) return normalize('vscode', payload, written);
      const event = parseEvent(written, 'copilot');
      const result = isRecord(payload.toolResult) ? payload.toolResult : undefined;
      const error = isRecord(payload.error) ? payload.error : undefined;
      return {
        event,
        eventName: written,
        fields: {
          // Copilot CLI 1.0.x writes some fields in snake_case (stop_hook_active, session_id) and others in camelCase.
          session_id: payload.sessionId ?? payload.session_id,
          tool_name: payload.toolName,
          tool_input: parseJsonString(payload.toolArgs, 'toolArgs'),
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
        },
      };
    }
    case 'codex':
      return readCodexPayload(payload, given, (message) => new BridgeInputError(message));
    case 'cursor': {
      const written = given ?? payload.hook_event_name;
      if (typeof written !== 'string' || CURSOR_EVENTS[written] === undefined) {
        throw new BridgeInputError(`The payload's hook_event_name ${JSON.stringify(written)} is not a Cursor event (${Object.keys(CURSOR_EVENTS).join(', ')}).`);
      }
      const event = CURSOR_EVENTS[written]!;
      const common = { session_id: payload.conversation_id, prompt: payload.prompt, stop_hook_active: typeof payload.loop_count === 'number' ? payload.loop_count > 0 : undefined };
      const tool = (() => {
        switch (written) {
          case 'beforeShellExecution':
          case 'afterShellExecution':
            return { tool_name: 'Shell', tool_input: { command: payload.command, ...(payload.cwd !== undefined ? { cwd: payload.cwd } : {}) }, tool_response: payload.output };
          case 'beforeMCPExecution':
          case 'afterMCPExecution':
            return { tool_name: payload.tool_name, tool_input: parseJsonString(payload.tool_input, 'tool_input'), tool_response: payload.result_json };
          case 'beforeReadFile':
            return { tool_name: 'Read', tool_input: { file_path: payload.file_path } };
          case 'afterFileEdit':
            return { tool_name: 'Write', tool_input: { file_path: payload.file_path, edits: payload.edits ?? [] }, tool_response: 'edited' };
          default:
            return { tool_name: payload.tool_name, tool_input: payload.tool_input, tool_response: payload.tool_output, error: payload.error_message };
        }
      })();
      return { event, eventName: written, fields: { ...common, ...tool } };
    }
  }
}

/**
 * Reads the JSON `agent` sends its hooks on stdin into a context of ours. The event comes from the payload
 * (`hook_event_name`; Copilot's payloads name none, so `event` or the payload's shape says which), or from `event`,
 * which wins. Cursor's tool-specific events become tool calls: `beforeShellExecution` a `Shell` call with the
 * `command`, `beforeReadFile` a `Read` call, `afterFileEdit` a `Write` call. Gemini CLI's BeforeModel,
 * BeforeToolSelection and AfterModel become model events whose request is its `llm_request` — the text of the
 * conversation and three settings; no system prompt, no tools, for it sends neither — and whose answer (AfterModel)
 * is the text of its `llm_response`, one streamed chunk's.
 *
 * Nothing is invented: a field the agent left out stays out (see `sampleContext`'s `strict`), the context's
 * `origin` holds the payload as sent and the fields it had, and a payload without what its event needs (a tool
 * event's `tool_name` and `tool_input`, a prompt's `prompt`) is refused.
 *
 * @throws {@link BridgeInputError} naming what is wrong.
 *
 * @internal
 */
export function readBridgePayload(agent: BridgeAgent, payload: unknown, event?: string): BridgedEvent {
  if (!isRecord(payload)) throw new BridgeInputError('The hook input must be a JSON object.');
  const { event: canonical, eventName, fields } = normalize(agent, payload, event);
  const clean = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
  try {
    // Strict: a hook sees what the agent sent and nothing else; what the event cannot do without must be there.
    const ctx = sampleContext(canonical, clean, { strict: true }).withOrigin({ agent, eventName, payload, fields: new Set(Object.keys(clean)) });
    return { ctx, eventName };
  } catch (error) {
    throw new BridgeInputError(error instanceof Error ? error.message : String(error));
  }
}
