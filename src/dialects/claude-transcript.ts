/**
 * A transcript file of the run's conversation, as Claude Code writes one: a JSONL line per message, each with `type`
 * (`user` or `assistant`), `message` (role and content blocks), `uuid`, `parentUuid`, `timestamp`, `sessionId` and
 * `cwd`; and, as Claude Code 2.1.332 writes them around the messages, a `queue-operation` line pair (`enqueue` with
 * the prompt, then `dequeue`) before each prompt and a `last-prompt` line after each answer. Its other lines
 * (attachments, API requests, hook summaries) describe its own workings and are not written. Claude Code hooks read it
 * from `transcript_path` (Stop gates that look at the last answer, loop hooks that keep their state beside it); the
 * file is brought up to date each time a payload names it.
 *
 * @internal
 * @module
 */
import { nodeFs } from '../core/internal/node-fs.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentState, Message } from '../core/index.js';
import { userEnvOf } from './project-set-env.js';
import { isHookFeedback } from '../core/internal/hook-feedback.js';
import { nodeCrypto } from '../core/internal/node-crypto.js';

const { appendFileSync, mkdirSync, writeFileSync } = nodeFs;

/** What is on disk for one transcript: the messages written, and the uuid of the last line. */
interface Written {
  count: number;
  lastUuid: string | null;
  first: Message | undefined;
  /** The text of the last prompt written, for the `last-prompt` lines. */
  lastPrompt: string | undefined;
}

const written = new Map<string, Written>();

/**
 * The file name of session `id`'s transcript in this process: a UUID of its own, as Claude Code names a session's
 * transcript. Session ids here (`session_1`, `agent_1`) repeat from one process to the next, and two processes
 * writing one file would each read the other's lines as their last answer (a Stop gate that looks for a marker
 * there would never see its own).
 */
const names = new Map<string, string>();
const fileName = (id: string): string => {
  let name = names.get(id);
  if (name === undefined) {
    name = `${nodeCrypto().randomUUID()}.jsonl`;
    names.set(id, name);
  }
  return name;
};

/**
 * The folder transcripts go to: `$AGENT_HOOKS_TRANSCRIPT_DIR`, else `agent-hooks/transcripts` in the temporary
 * directory. One a project file set (see `userEnvOf`) is not honoured: the conversation is not the repository's to
 * collect.
 *
 * @internal
 */
export function transcriptDir(): string {
  return userEnvOf(process.env)['AGENT_HOOKS_TRANSCRIPT_DIR'] ?? join(tmpdir(), 'agent-hooks', 'transcripts');
}

/** One message as Claude Code's transcript line; system messages (summaries, context) are user-side meta lines. */
function line(message: Message, sessionId: string, cwd: string, parentUuid: string | null, uuid: string): Record<string, unknown> {
  const base = { parentUuid, isSidechain: false, userType: 'external', cwd, sessionId, version: 'agent-hooks' };
  const timestamp = new Date().toISOString();
  switch (message.role) {
    case 'assistant': {
      const content: Record<string, unknown>[] = [];
      if (message.content.length > 0) content.push({ type: 'text', text: message.content });
      for (const call of message.toolCalls ?? []) content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.args });
      // The message's fields in Claude Code 2.1.332's order (test/agents/fixtures/claude/2.1.332/transcript.jsonl).
      const stop = (message.toolCalls ?? []).length > 0 ? 'tool_use' : 'end_turn';
      return { parentUuid, isSidechain: false, message: { id: `msg_${uuid.replaceAll('-', '')}`, type: 'message', role: 'assistant', content, stop_reason: stop, stop_sequence: null }, type: 'assistant', uuid, timestamp, userType: 'external', cwd, sessionId, version: 'agent-hooks' };
    }
    case 'tool':
      return {
        ...base,
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content }] },
        toolUseResult: message.content,
        uuid,
        timestamp,
      };
    case 'system':
      return { ...base, type: 'user', isMeta: true, message: { role: 'user', content: message.content }, uuid, timestamp };
    default:
      // A hook's feedback (a Stop hook's) as Claude Code 2.1.332 writes it: a meta line of the hook's, not a prompt.
      if (isHookFeedback(message)) {
        return { parentUuid, isSidechain: false, type: 'user', message: { role: 'user', content: message.content }, isMeta: true, rowSource: 'hook', hookText: true, uuid, timestamp, userType: 'external', cwd, sessionId, version: 'agent-hooks' };
      }
      return { ...base, type: 'user', message: { role: 'user', content: message.content }, uuid, timestamp };
  }
}

/**
 * The transcript of `state`'s conversation, written (or brought up to date) now: its path. Messages already written
 * are appended to, never rewritten, unless the conversation was replaced (a compaction), which starts the file again.
 * `null` when the file cannot be written: a hook then finds no transcript rather than a stale one.
 *
 * @internal
 */
export function writeTranscript(state: AgentState, cwd: string): string | null {
  const sessionId = state.sessionId ?? state.agentId;
  const path = join(transcriptDir(), fileName(sessionId));
  try {
    const messages = state.messages;
    let known = written.get(path);
    // A conversation that no longer starts with what was written (compacted, or another run's) is written afresh.
    if (known !== undefined && (messages.length < known.count || (known.count > 0 && messages[0] !== known.first))) known = undefined;
    if (known === undefined) {
      // Private to the user: the conversation is no other account's to read. A new name is made with `wx`, so a file
      // or link someone put there first is never written through; a conversation replaced here starts its file again.
      mkdirSync(transcriptDir(), { recursive: true, mode: 0o700 });
      writeFileSync(path, '', { mode: 0o600, flag: written.has(path) ? 'w' : 'wx' });
      known = { count: 0, lastUuid: null, first: messages[0], lastPrompt: undefined };
      written.set(path, known);
    }
    let text = '';
    for (let i = known.count; i < messages.length; i++) {
      const message = messages[i]!;
      const uuid = nodeCrypto().randomUUID();
      if (message.role === 'user' && !isHookFeedback(message)) {
        // The prompt went through Claude Code's queue before it became the conversation's line.
        const timestamp = new Date().toISOString();
        text += `${JSON.stringify({ type: 'queue-operation', operation: 'enqueue', timestamp, sessionId, content: message.content })}\n`;
        text += `${JSON.stringify({ type: 'queue-operation', operation: 'dequeue', timestamp, sessionId })}\n`;
        known.lastPrompt = message.content;
      }
      text += `${JSON.stringify(line(message, sessionId, cwd, known.lastUuid, uuid))}\n`;
      known.lastUuid = uuid;
      if (message.role === 'assistant' && known.lastPrompt !== undefined) {
        text += `${JSON.stringify({ type: 'last-prompt', lastPrompt: known.lastPrompt, leafUuid: uuid, sessionId })}\n`;
      }
    }
    if (text.length > 0) appendFileSync(path, text);
    known.count = messages.length;
    known.first = messages[0];
    return path;
  } catch {
    return null;
  }
}
