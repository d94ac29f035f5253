/**
 * A transcript of the run's conversation as Copilot CLI 1.0.102 keeps its session's events
 * (`~/.copilot/session-state/<session>/events.jsonl`, recorded in `test/bridge/fixtures/copilot/transcript.jsonl`): a
 * line per event, `{ type, data, id, timestamp, parentId }` — `session.start`, then `user.message`, `system.message`,
 * `assistant.message` (its `content` and `toolRequests`) and `tool.execution_complete` (its `result.content`). A hook
 * finds the last answer as in Copilot: the last `assistant.message` with content.
 *
 * @internal
 * @module
 */
import { join } from 'node:path';
import type { AgentState, Message } from '../core/index.js';
import { transcriptDir } from './claude-transcript.js';
import { keepTranscript, safeName } from './transcript-file.js';
import { nodeCrypto } from '../core/internal/node-crypto.js';

/** Each file's last event id: the next event's `parentId`. */
const lastIds = new Map<string, string | null>();

/**
 * The transcript of `state`'s conversation in Copilot CLI's events format, written (or brought up to date) now: its
 * path, or `null` when it cannot be written.
 *
 * @internal
 */
export function writeCopilotTranscript(state: AgentState, cwd: string): string | null {
  const sessionId = state.sessionId ?? state.agentId;
  const path = join(transcriptDir(), `copilot-events-${safeName(sessionId)}.jsonl`);
  const event = (type: string, data: object): object => {
    const id = nodeCrypto().randomUUID();
    const parentId = lastIds.get(path) ?? null;
    lastIds.set(path, id);
    return { type, data, id, timestamp: new Date().toISOString(), parentId };
  };
  const header = () => {
    lastIds.set(path, null);
    return [event('session.start', { sessionId, version: 1, producer: 'agent-hooks', startTime: new Date().toISOString(), context: { cwd } })];
  };
  const lines = (message: Message): object[] => {
    switch (message.role) {
      case 'assistant': {
        const toolRequests = (message.toolCalls ?? []).map((call) => ({ toolCallId: call.id, name: call.name, arguments: call.args, type: 'function' }));
        return [event('assistant.message', { messageId: nodeCrypto().randomUUID(), content: message.content, toolRequests })];
      }
      case 'tool':
        return [event('tool.execution_complete', { toolCallId: message.toolCallId, success: true, result: { content: message.content } })];
      case 'system':
        return [event('system.message', { role: 'system', content: message.content })];
      default:
        return [event('user.message', { content: message.content })];
    }
  };
  return keepTranscript(path, state.messages, header, lines);
}
