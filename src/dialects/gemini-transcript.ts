/**
 * A transcript of the run's conversation as Gemini CLI 0.61.0 keeps its chat (`~/.gemini/tmp/<project>/chats/
 * session-….jsonl`, recorded in `test/bridge/fixtures/gemini/transcript.jsonl`): a first line with the session, then a
 * line per message — `type` `user` (its `content` a list of parts: `{ text }`, or a tool's `{ functionResponse }`) or
 * `gemini` (its `content` the answer's text, with its `toolCalls`). A hook finds the last answer as in Gemini: the last
 * `gemini` line.
 *
 * @internal
 * @module
 */
import { join } from 'node:path';
import type { AgentState, Message } from '../core/index.js';
import { transcriptDir } from './claude-transcript.js';
import { keepTranscript, safeName } from './transcript-file.js';
import { nodeCrypto } from '../core/internal/node-crypto.js';

/**
 * The transcript of `state`'s conversation in Gemini CLI's chat format, written (or brought up to date) now: its path,
 * or `null` when it cannot be written.
 *
 * @internal
 */
export function writeGeminiTranscript(state: AgentState, cwd: string, model: string): string | null {
  const sessionId = state.sessionId ?? state.agentId;
  const path = join(transcriptDir(), `gemini-session-${safeName(sessionId)}.jsonl`);
  const messages = state.messages;
  const now = (): string => new Date().toISOString();
  const header = () => {
    const at = now();
    return [{ sessionId, projectHash: nodeCrypto().createHash('sha256').update(cwd).digest('hex'), startTime: at, lastUpdated: at, kind: 'main' }];
  };
  const lines = (message: Message): object[] => {
    const base = { id: nodeCrypto().randomUUID(), timestamp: now() };
    switch (message.role) {
      case 'assistant': {
        const calls = (message.toolCalls ?? []).map((call) => ({ id: call.id, name: call.name, args: call.args, status: 'success', timestamp: base.timestamp }));
        return [{ ...base, type: 'gemini', content: message.content, thoughts: [], model, ...(calls.length > 0 ? { toolCalls: calls } : {}) }];
      }
      case 'tool':
        return [{ ...base, type: 'user', content: [{ functionResponse: { id: message.toolCallId, name: message.name ?? '', response: { output: message.content } } }] }];
      default:
        return [{ ...base, type: 'user', content: [{ text: message.content }] }];
    }
  };
  return keepTranscript(path, messages, header, lines);
}
