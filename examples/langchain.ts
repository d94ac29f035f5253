/**
 * LangChain.js with agent-hooks: one middleware fires our events around a `createAgent` agent, so the hooks written
 * for our agent refuse a command, rewrite one and gate the agent's stop in a LangChain agent too. The model is
 * LangChain's own fake tool-calling model (no key, no network).
 *
 * Run it with `npx tsx examples/langchain.ts`.
 */
import { createAgent, FakeToolCallingModel, HumanMessage, tool } from 'langchain';
import { z } from 'zod';
import { AgentBuilder, HookOutcome } from 'agent-hooks';
import { LoopHooks, langchainMiddleware } from 'agent-hooks/langchain';

/** The hooks, written once for any agent. */
const guards = AgentBuilder.new()
  .onBeforeToolUse((ctx) => {
    if (String(ctx.toolCall.arg('command')).includes('rm -rf')) return HookOutcome.block('Destructive command refused');
  }, { matcher: 'bash', name: 'block-rm-rf' })
  .onBeforeToolUse((ctx) => ctx.toolCall.withArg('command', `cd sandbox && ${String(ctx.toolCall.arg('command'))}`), { matcher: 'bash', name: 'sandbox' })
  .onStop((ctx) => (ctx.stopHookActive ? undefined : HookOutcome.block('Summarize what you did before you stop.')), { name: 'summary-gate' });

/** Pretends to run a shell command: nothing is executed. */
const bash = tool(async ({ command }: { command: string }) => `(pretend) ${command}: ok`, {
  name: 'bash',
  description: 'Runs a shell command',
  schema: z.object({ command: z.string() }),
});

// Each model call takes the next list of tool calls: a destructive command, a harmless one, then two answers.
const model = new FakeToolCallingModel({
  toolCalls: [[{ name: 'bash', args: { command: 'rm -rf build' }, id: 'call_rm' }], [{ name: 'bash', args: { command: 'ls' }, id: 'call_ls' }], [], []],
});

const hooks = new LoopHooks(guards);
const trace: string[] = [];
hooks.events.on('event', (ctx) => void trace.push(ctx.event));

const agent = createAgent({ model, tools: [bash], middleware: [langchainMiddleware(hooks)] });
const result = await agent.invoke({ messages: [new HumanMessage('Clean up the build folder, then list the files.')] });
await hooks.drain();

console.log('What the LangChain agent did, with our hooks in its middleware:');
for (const message of result.messages) {
  if (message.getType() === 'tool') console.log(`  tool ${String((message as { tool_call_id?: string }).tool_call_id)}: ${String(message.content)}`);
  if (message.getType() === 'human') console.log(`  user: ${String(message.content)}`);
}
console.log(`\nOur events, in the order they fired:\n  ${trace.join(' → ')}`);
