/**
 * The first half of the bridge: another agent's stdin payload, read into one of our contexts.
 *
 * @module
 */
import { agentProfile } from '../agents/registry.js';
import { readWirePayload, type BridgedEvent } from './wire-payload.js';
import type { BridgeAgent } from './bridge-answer.js';

export { BridgeInputError, type BridgedEvent } from './wire-payload.js';

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
  return readWirePayload(agent, agentProfile(agent), payload, event);
}
