/**
 * Subagents: an agent the model calls like a tool, with a task. The parent fires PreToolUse and SubagentStart (a hook
 * may refuse the subagent or rewrite its task); the child runs with the parent's hooks unless `inheritHooks: false`,
 * and its stop gate is SubagentStop; its final text is the tool result the parent's model sees.
 */
import { z } from 'zod';
import { AgentBuilder, HookOutcome, ScriptedModel, defineSubagent, defineTool } from 'agent-hooks';

const search = defineTool({
  name: 'search',
  description: 'Searches the web',
  input: z.object({ query: z.string() }),
  execute: ({ query }) => `results for "${query}": nodejs.org — Node.js 20 released 2023-04-18`,
});

const researcherModel = new ScriptedModel([
  { toolCalls: [{ name: 'search', args: { query: 'Node.js 20 release date' } }] },
  'Node.js 20 came out on 18 April 2023.',
  'Node.js 20 came out on 18 April 2023 (source: nodejs.org).',
]);
const researcher = defineSubagent({
  name: 'researcher',
  description: 'Looks things up and reports with a source',
  tools: [search],
  model: researcherModel, // without one, the subagent uses the parent's model
});

const parentModel = new ScriptedModel([
  { toolCalls: [{ name: 'researcher', args: { task: 'When was Node.js 20 released?' } }] },
  'Node.js 20 was released on 18 April 2023.',
]);

const agent = AgentBuilder.new()
  .withModel(parentModel)
  .withSubagents(researcher)
  // Inherited: this hook runs for the parent's tool calls and the researcher's.
  .onBeforeToolUse((ctx) => console.log(`  PreToolUse ${ctx.toolCall.name} in ${ctx.state.parentAgentId ? 'the subagent' : 'the parent'}`))
  .onSubagentStart((ctx) => {
    console.log(`  SubagentStart ${ctx.name}: ${JSON.stringify(ctx.task)}`);
    return ctx.withTask(`${ctx.task} Always name your source.`);
  })
  .onSubagentStop((ctx) => {
    console.log(`  SubagentStop ${ctx.subagentName}: ${JSON.stringify(ctx.finalMessage)}`);
    if (!/source:/.test(ctx.finalMessage ?? '')) return HookOutcome.block('Name your source.');
  })
  .build();

const result = await agent.run('When was Node.js 20 released?');
console.log(`the researcher was asked: ${researcherModel.requests[0]!.messages[0]!.content}`);
const told = parentModel.requests[1]!.messages.find((m) => m.role === 'tool')!;
console.log(`the parent's model got: ${told.content}`);
console.log(`${result.status}: ${result.text}`);
