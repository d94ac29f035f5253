/**
 * Compaction: keeping the conversation within a message budget.
 *
 * @module
 */
import type { Message } from '../core/index.js';

/** What a summarizer gets besides the messages. */
export interface SummarizeContext {
  /** Instructions for the summary (from `session.compact(instructions)`). */
  readonly instructions: string | undefined;
  /** Aborts when the run is cancelled. */
  readonly signal: AbortSignal | undefined;
}

/** Options of {@link AgentBuilder.withCompaction}. */
export interface CompactionOptions {
  /** Compact before a model call when the conversation holds more messages than this. */
  readonly maxMessages: number;
  /** How many recent messages to keep verbatim (default: half of `maxMessages`). */
  readonly keepLast?: number | undefined;
  /** Turns the older messages into a summary; the default lists the user's requests, without calling a model. */
  readonly summarize?: ((messages: readonly Message[], context: SummarizeContext) => string | Promise<string>) | undefined;
}

/** The default summary: which requests the older messages held, without calling a model. */
export function defaultSummary(messages: readonly Message[]): string {
  const requests = messages.filter((m) => m.role === 'user').map((m) => `- ${m.content.slice(0, 200)}`);
  const tools = messages.filter((m) => m.role === 'tool').length;
  return [
    `Summary of ${messages.length} earlier messages (${tools} tool result${tools === 1 ? '' : 's'}).`,
    ...(requests.length > 0 ? ['Requests so far:', ...requests] : []),
  ].join('\n');
}

/**
 * The compacted conversation: a summary of the older messages, then the last `keepLast` messages. The cut never
 * separates tool results from the assistant message that called them.
 *
 * @internal
 */
export async function compactMessages(
  messages: readonly Message[],
  options: CompactionOptions,
  context: SummarizeContext,
): Promise<Message[]> {
  const keep = Math.max(1, options.keepLast ?? Math.floor(options.maxMessages / 2));
  let cut = Math.max(0, messages.length - keep);
  while (cut > 0 && messages[cut]?.role === 'tool') cut--;
  if (cut === 0) return [...messages];
  const older = messages.slice(0, cut);
  const summary = await (options.summarize ?? defaultSummary)(older, context);
  return [{ role: 'system', content: summary }, ...messages.slice(cut)];
}
