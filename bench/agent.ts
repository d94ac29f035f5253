/**
 * The agent loop: the runtime's cost per step, with 10 proceeding hooks on every event and with none, against the same
 * scripted model and tool called directly in a plain loop (model call, input validation, tool call, messages).
 */
import { z } from 'zod';
import { AgentBuilder, AgentState, defineTool, HOOK_EVENTS, ScriptedModel, ToolCall, type Message, type ModelResponse } from '../src/index.js';
import { finishRow, measure, timingRow, type Row } from './harness.js';

const STEPS = 10;
const HOOKS_PER_EVENT = 10;

export async function agentSuite(): Promise<Row[]> {
  // One tool call per step for STEPS steps, then a final answer: STEPS + 1 model calls per run.
  let step = 0;
  const script = (): ModelResponse =>
    step < STEPS ? { text: `step ${step}`, toolCalls: [{ id: `call_${step++}`, name: 'echo', args: { text: 'hello' } }] } : { text: 'done' };
  const model = new ScriptedModel(script);
  const echo = defineTool({ name: 'echo', input: z.object({ text: z.string() }), execute: ({ text }) => text });

  const bare = AgentBuilder.new().withModel(model).withTools(echo).withMaxSteps(STEPS + 5).build();
  let hooked = AgentBuilder.new().withModel(model).withTools(echo).withMaxSteps(STEPS + 5);
  for (const event of HOOK_EVENTS) {
    for (let i = 0; i < HOOKS_PER_EVENT; i++) hooked = hooked.addHook(event, () => undefined);
  }
  const withHooks = hooked.build();
  if (withHooks.hooks.count !== HOOK_EVENTS.length * HOOKS_PER_EVENT) throw new Error('agent bench: hooks missing');

  const state = AgentState.create();
  /** The same model and tool without the runtime. */
  const direct = async (): Promise<string> => {
    const messages: Message[] = [{ role: 'user', content: 'Say hello ten times.' }];
    for (;;) {
      const response = await model.generate({ system: undefined, messages, tools: [echo], signal: undefined });
      const calls = (response.toolCalls ?? []).map((c) => (c instanceof ToolCall ? c : new ToolCall(c.name, c.args ?? {}, c.id)));
      messages.push({ role: 'assistant', content: response.text ?? '', ...(calls.length > 0 ? { toolCalls: calls } : {}) });
      if (calls.length === 0) return response.text ?? '';
      for (const call of calls) {
        const result = await echo.execute(echo.input.parse(call.args), { toolCall: call, state, signal: undefined });
        messages.push({ role: 'tool', content: result, toolCallId: call.id, name: call.name });
      }
    }
  };
  const runOnce = (op: () => Promise<unknown>) => async () => {
    step = 0;
    // The scripted model keeps every request for tests; a benchmark must not.
    model.requests.length = 0;
    await op();
    if (step !== STEPS) throw new Error(`agent bench: the run took ${step} tool steps instead of ${STEPS}`);
  };
  const DIRECT = 'model and tool called directly';
  const NO_HOOKS = 'Agent.run, no hooks';
  const HOOKED = `Agent.run, ${HOOKS_PER_EVENT} hooks on each of the ${HOOK_EVENTS.length} events`;
  const m = await measure(
    [
      { name: DIRECT, op: runOnce(direct), async: true },
      { name: NO_HOOKS, op: runOnce(() => bare.run('Say hello ten times.')), async: true },
      { name: HOOKED, op: runOnce(() => withHooks.run('Say hello ten times.')), async: true },
    ],
    { batch: 10, time: 600 },
  );
  const suite = `Agent loop, ${STEPS} tool steps + 1 final step per run`;
  const perStep = (name: string) => {
    const t = m.get(name)!;
    return { ...t, mean: t.mean / (STEPS + 1), median: t.median / (STEPS + 1) };
  };
  const base = { name: 'direct', timing: perStep(DIRECT) };
  const noHooks = perStep(NO_HOOKS);
  const hooks = perStep(HOOKED);
  return [
    timingRow(suite, `${DIRECT}, per step`, base.timing),
    timingRow(suite, `${NO_HOOKS}, per step`, noHooks, base),
    timingRow(suite, `${HOOKED}, per step`, hooks, base),
    finishRow({ suite, name: 'runtime overhead per step, 10 hooks per event', unit: 'ns', mean: hooks.mean - base.timing.mean, median: hooks.median - base.timing.median }),
    finishRow({ suite, name: 'of which the hooks', unit: 'ns', mean: hooks.mean - noHooks.mean, median: hooks.median - noHooks.median }),
  ];
}
