/**
 * A run, streamed: the text as the model writes it, each tool call with the hooks' decision and its result, then the
 * step and run ends. Hooks decide as in `run()`: the guard refuses a call before it runs, and the redaction works on
 * the model's whole answer, so the secret never reaches the stream (text is `checked` by default). Then the same
 * agent with `text: 'live'`, and a stream cancelled half-way through.
 */
import { z } from 'zod';
import { AgentBuilder, HookOutcome, ScriptedModel, defineTool } from 'agent-hooks';

const bash = defineTool({
  name: 'bash',
  description: 'Runs a shell command',
  input: z.object({ command: z.string() }),
  execute: ({ command }) => `(pretend) ran ${command}`,
});

const agentWith = (model: ScriptedModel) =>
  AgentBuilder.new()
    .withModel(model)
    .withTools(bash)
    .onBeforeToolUse((ctx) => (String(ctx.toolCall.arg('command')).includes('rm -rf') ? HookOutcome.block('Destructive command refused') : undefined), {
      matcher: 'bash',
    })
    .onAfterModel((ctx) => ctx.withText(ctx.response.text.replace(/sk-live-\w+/g, '[redacted]')))
    .build();

const script = () => [
  { text: 'I will list the files, then clean up.', toolCalls: [{ name: 'bash', args: { command: 'ls' } }, { name: 'bash', args: { command: 'rm -rf build' } }] },
  'Listed them; the clean-up was refused. The deploy key is sk-live-abc123.',
];

console.log('Streamed (checked):');
const stream = agentWith(new ScriptedModel(script())).stream('List the files and clean up');
let line = '';
for await (const event of stream) {
  switch (event.type) {
    case 'step-start':
      line = `  step ${event.stepIndex + 1}  `;
      break;
    case 'text-delta':
      line += event.text;
      break;
    case 'model-response':
      console.log(line);
      break;
    case 'tool-call':
      console.log(`    → ${event.toolCall.name} ${JSON.stringify(event.toolCall.args)}`);
      break;
    case 'hook-decision':
      if (event.decision !== 'proceed') console.log(`      ${event.event}: ${event.decision} (${event.reason})`);
      break;
    case 'tool-result':
      console.log(`    ← ${event.execution.isError ? event.execution.errorMessage : String(event.execution.result)}`);
      break;
    case 'run-end':
      console.log(`  run-end: ${event.result.status} after ${event.result.steps.length} steps`);
      break;
  }
}

console.log('\nThe same answer, live (text as the model writes it; model-response says what stands):');
const live = agentWith(new ScriptedModel(script())).stream('List the files and clean up', { text: 'live' });
let shown = '';
for await (const event of live) {
  if (event.type === 'text-delta' && event.stepIndex === 1) shown += event.text;
  if (event.type === 'model-response' && event.stepIndex === 1) {
    console.log(`  streamed: ${shown}`);
    console.log(`  stands:   ${event.response.text}`);
  }
}

console.log('\nCancelled after three pieces of text:');
const slow = agentWith(new ScriptedModel(['One two three four five six seven.'], { delayMs: 10 })).stream('Count', { text: 'live' });
const pieces: string[] = [];
for await (const event of slow) {
  if (event.type === 'text-delta') pieces.push(event.text);
  if (pieces.length === 3) break; // leaving the loop cancels the run
}
const outcome = await slow.result.then(
  (result) => `resolved: ${result.status}`,
  (error: Error) => `rejected: ${error.name}`,
);
console.log(`  got ${JSON.stringify(pieces.join(''))}; the run ${outcome}`);
