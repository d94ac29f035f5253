/**
 * A transcript of the run's conversation as Codex CLI 0.171.0 keeps its rollout (`$CODEX_HOME/sessions/…/rollout-….jsonl`,
 * recorded in `test/bridge/fixtures/codex/transcript.jsonl`): a line per item, `{ timestamp, ordinal, type, payload }`
 * — first the `session_meta`, then a `response_item` per message (`message` with `input_text` or `output_text`
 * parts, `function_call` with its arguments as a JSON string, `function_call_output`). A hook finds the last answer
 * as in Codex: the last assistant `message`.
 *
 * @internal
 * @module
 */
import { join } from 'node:path';
import type { AgentState, Message } from '../core/index.js';
import { transcriptDir } from './claude-transcript.js';
import { keepTranscript, safeName } from './transcript-file.js';

/** A line's ordinal, counting on from the lines already written for the same file. */
const ordinals = new Map<string, number>();

/**
 * The transcript of `state`'s conversation in Codex CLI's rollout format, written (or brought up to date) now: its
 * path, or `null` when it cannot be written.
 *
 * @internal
 */
export function writeCodexTranscript(state: AgentState, cwd: string): string | null {
  const sessionId = state.sessionId ?? state.agentId;
  const path = join(transcriptDir(), `codex-rollout-${safeName(sessionId)}.jsonl`);
  const item = (type: string, payload: object): object => {
    const ordinal = ordinals.get(path) ?? 0;
    ordinals.set(path, ordinal + 1);
    return { timestamp: new Date().toISOString(), ordinal, type, payload };
  };
  const header = () => {
    ordinals.set(path, 0);
    return [item('session_meta', { session_id: sessionId, id: sessionId, timestamp: new Date().toISOString(), cwd })];
  };
  const lines = (message: Message): object[] => {
    switch (message.role) {
      case 'assistant': {
        const text = message.content === '' ? [] : [item('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: message.content }] })];
        const calls = (message.toolCalls ?? []).map((call) => item('response_item', { type: 'function_call', name: call.name, arguments: JSON.stringify(call.args) ?? '{}', call_id: call.id }));
        return [...text, ...calls];
      }
      case 'tool':
        return [item('response_item', { type: 'function_call_output', call_id: message.toolCallId, output: message.content })];
      case 'system':
        return [item('response_item', { type: 'message', role: 'developer', content: [{ type: 'input_text', text: message.content }] })];
      default:
        return [item('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: message.content }] })];
    }
  };
  return keepTranscript(path, state.messages, header, lines);
}
