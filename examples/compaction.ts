/**
 * Compaction: once the conversation holds more than `maxMessages`, the agent replaces the older messages with a
 * summary before the next model call, keeping the last `keepLast` verbatim — more when the cut would part a tool
 * result from its call, as here: keepLast 1 keeps the last call and its result.
 * PreCompact fires first — the place to archive the full transcript, or to give the summary instructions — and
 * PostCompact after, with the messages before and after. `session.compact()` does the same on request.
 */
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, type Message } from 'agent-hooks';

const readFile = defineTool({
  name: 'read_file',
  description: 'Reads a file',
  input: z.object({ path: z.string() }),
  execute: ({ path }) => `contents of ${path}`,
});

const model = new ScriptedModel([
  { toolCalls: [{ name: 'read_file', args: { path: 'a.ts' } }] },
  { toolCalls: [{ name: 'read_file', args: { path: 'b.ts' } }] },
  { toolCalls: [{ name: 'read_file', args: { path: 'c.ts' } }] },
  'Read all three files.',
]);

// Stands in for a model call that writes the summary.
const summarize = (messages: readonly Message[], { instructions }: { instructions: string | undefined }) =>
  `Summary of ${messages.length} messages: read ${messages.filter((m) => m.role === 'tool').length} file(s).${instructions ? ` (${instructions})` : ''}`;

const archived: Message[][] = [];
const agent = AgentBuilder.new()
  .withModel(model)
  .withTools(readFile)
  .withCompaction({ maxMessages: 6, keepLast: 1, summarize })
  .onPreCompact((ctx) => {
    archived.push([...ctx.messagesBefore]);
    console.log(`PreCompact (${ctx.trigger}): ${ctx.messagesBefore.length} messages, archived`);
    if (ctx.trigger === 'manual') return ctx.withCustomInstructions(`${ctx.customInstructions}; keep file names`);
  })
  .onPostCompact((ctx) => console.log(`PostCompact (${ctx.trigger}): ${ctx.messagesBefore.length} → ${ctx.messagesAfter?.length} messages`))
  .build();

const session = agent.session();
const result = await session.run('Read a.ts, b.ts and c.ts');
const request = model.requests[3]!.messages;
console.log(`the 4th model call got ${request.length} messages: ${request.map((m) => `${m.role}: ${m.content || '(tool call)'}`).join(' | ')}`);
console.log(`${result.status}: ${result.text}`);

await session.compact('The user cares about c.ts');
console.log(`after session.compact(): ${session.messages[0]?.content}`);
console.log(`${archived.length} transcripts archived`);
await session.close();
