/**
 * A transcript file kept up to date with a run's conversation, for agents whose hooks read one (`transcript_path`):
 * the lines of each message appended once, the file started again when the conversation was replaced (a compaction,
 * or another run's). Each agent's format is its own file (`gemini-transcript.ts`, `codex-transcript.ts`).
 *
 * @internal
 * @module
 */
import { nodeFs } from '../core/internal/node-fs.js';
import { dirname } from 'node:path';
import type { Message } from '../core/index.js';

const { appendFileSync, mkdirSync, writeFileSync } = nodeFs;

/** What is on disk for one transcript: how many messages were written, and the first of them. */
interface Written {
  count: number;
  first: Message | undefined;
}

const written = new Map<string, Written>();

/** A session id safe as part of a file name. */
export const safeName = (id: string): string => id.replace(/[^A-Za-z0-9_.-]/g, '_') || 'session';

/**
 * Brings the transcript at `path` up to date with `messages`: `header` starts a new file, `lines` gives each message's
 * lines. Its path, or `null` when the file cannot be written: a hook then finds no transcript rather than a stale one.
 *
 * @internal
 */
export function keepTranscript(path: string, messages: readonly Message[], header: () => readonly object[], lines: (message: Message, index: number) => readonly object[]): string | null {
  try {
    let known = written.get(path);
    // A conversation that no longer starts with what was written (compacted, or another run's) is written afresh.
    if (known !== undefined && (messages.length < known.count || (known.count > 0 && messages[0] !== known.first))) known = undefined;
    if (known === undefined) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, header().map((line) => `${JSON.stringify(line)}\n`).join(''));
      known = { count: 0, first: messages[0] };
      written.set(path, known);
    }
    let text = '';
    for (let i = known.count; i < messages.length; i++) for (const line of lines(messages[i]!, i)) text += `${JSON.stringify(line)}\n`;
    if (text.length > 0) appendFileSync(path, text);
    known.count = messages.length;
    known.first = messages[0];
    return path;
  } catch {
    return null;
  }
}
