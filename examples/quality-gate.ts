/**
 * A quality gate on Stop: the agent may not finish until the tests have run and passed in this run. A block on Stop
 * does not refuse anything — it keeps the agent working, with the reason as its next user message. The runtime caps
 * how often a gate may do that in a row (`stopLoopLimit`, default 8), so a gate that never passes cannot loop forever.
 */
import { z } from 'zod';
import { AgentBuilder, HookOutcome, ScriptedModel, defineTool, type StopHookContext } from 'agent-hooks';

const writeFile = defineTool({
  name: 'write_file',
  description: 'Writes a file',
  input: z.object({ path: z.string(), content: z.string() }),
  execute: ({ path }) => `wrote ${path}`,
});
const runTests = defineTool({ name: 'run_tests', description: 'Runs the test suite', execute: () => '12 passed, 0 failed' });

/** Passes once a run_tests call of this run succeeded. */
function testsPassed(ctx: StopHookContext): boolean {
  return ctx.state.steps.some((step) => step.executions.some((e) => e.toolCall.name === 'run_tests' && !e.isError && /\b0 failed/.test(String(e.result))));
}

const gate = (ctx: StopHookContext<'Stop'>) => {
  console.log(`Stop (${ctx.stopReason}, continuation ${ctx.continuationCount}, stopHookActive ${ctx.stopHookActive}): ${JSON.stringify(ctx.finalMessage)}`);
  if (!testsPassed(ctx)) return HookOutcome.block('Run the tests (run_tests) and make sure they pass before you finish.');
};

// 1. The model first tries to stop without testing; the gate sends it back, it runs the tests, and may then stop.
const model = new ScriptedModel([
  { toolCalls: [{ name: 'write_file', args: { path: 'src/sum.ts', content: 'export const sum = (a, b) => a + b;' } }] },
  'Implemented sum().',
  { toolCalls: [{ name: 'run_tests', args: {} }] },
  'Implemented sum(); 12 tests pass.',
]);
const agent = AgentBuilder.new().withModel(model).withTools(writeFile, runTests).onStop(gate).build();
const result = await agent.run('Implement sum()');
const feedback = model.requests[2]!.messages.at(-1)!;
console.log(`the model was told (${feedback.role}): ${feedback.content}`);
console.log(`→ ${result.status} after ${result.steps.length} steps: ${result.text}`);

// 2. A model that never runs the tests: after stopLoopLimit continuations the run ends anyway, with a warning.
const stubborn = AgentBuilder.new()
  .withModel(new ScriptedModel(() => 'Done, trust me.'))
  .withOptions({ stopLoopLimit: 2 })
  .onStop((ctx) => (testsPassed(ctx) ? undefined : HookOutcome.block('Run the tests first.')))
  .build();
stubborn.events.on('stop:forced', ({ reason }) => console.log(`stop:forced: ${reason}`));
const forced = await stubborn.run('Implement sum()');
console.log(`→ ${forced.status} after ${forced.steps.length} steps`);
