/**
 * The first half of the bridge: another agent's stdin payload, read into one of our contexts.
 *
 * @module
 */
import { agentProfile } from '../agents/registry.js';
import type { AnyHookContext } from '../core/index.js';
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

/**
 * Reads the JSON `agent` sends its hooks on stdin into a context of ours, by the reader of its profile
 * (`src/agents/<id>/`). The event comes from the payload
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
  const { event: canonical, eventName, fields } = agentProfile(agent).readPayload(payload, event, (message) => new BridgeInputError(message));
  const clean = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
  try {
    // Strict: a hook sees what the agent sent and nothing else; what the event cannot do without must be there.
    const ctx = sampleContext(canonical, clean, { strict: true }).withOrigin({ agent, eventName, payload, fields: new Set(Object.keys(clean)) });
    return { ctx, eventName };
  } catch (error) {
    throw new BridgeInputError(error instanceof Error ? error.message : String(error));
  }
}
