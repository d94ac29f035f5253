/**
 * The smallest agent with a hook: one tool, one callback that refuses a destructive command. The model is scripted,
 * so the run is the same every time; swap in any `Model` (or `aiSdkModel(…)` from agent-hooks/ai-sdk) for a real one.
 */
import { z } from 'zod';
import { AgentBuilder, HookOutcome, ScriptedModel, defineTool } from 'agent-hooks';

const bash = defineTool({
  name: 'bash',
  description: 'Runs a shell command',
  input: z.object({ command: z.string() }),
  execute: ({ command }) => `(pretend) ran ${command}`, // touches nothing
});

// What the model answers, step by step: two tool calls, then a final text.
const model = new ScriptedModel([
  { toolCalls: [{ name: 'bash', args: { command: 'rm -rf /' } }, { name: 'bash', args: { command: 'ls' } }] },
  'Listed the files; the delete was refused.',
]);

const agent = AgentBuilder.new()
  .withModel(model)
  .withTools(bash)
  .onBeforeToolUse((ctx) => {
    // Returning nothing lets the call go on; a block refuses this call only, and the run goes on.
    if (String(ctx.toolCall.arg('command')).includes('rm -rf')) return HookOutcome.block('Destructive command refused');
  }, { matcher: 'bash' })
  .build();

const result = await agent.run('Clean up, then list the files');
for (const message of result.messages.filter((m) => m.role === 'tool')) console.log(`tool result: ${message.content}`);
console.log(`${result.status}: ${result.text}`);
