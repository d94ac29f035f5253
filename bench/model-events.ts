/**
 * What the events added since the model events were (BeforeModel, BeforeToolSelection, AfterModel, then PostToolBatch,
 * PermissionDenied and StopFailure) and streaming add to an agent step when no hook listens to them: this runtime
 * against the same runtime as it was just before those events existed (its source taken from git history into
 * bench/.baseline/, run side by side in this process), with no hooks and with 10 hooks on each of the twenty events
 * both have. And `agent.stream()` against `agent.run()`.
 */
import { z } from 'zod';
import * as current from '../src/index.js';
import { runtimeAt } from './baseline-runtime.js';
import { finishRow, measure, timingRow, type Row } from './harness.js';

/** The last commit before the model events: the runtime these figures are measured against. */
const BEFORE_MODEL_EVENTS = '4583e0865e0a650ac7cc52f6630b7642772d7a8b';
const STEPS = 10;
const HOOKS_PER_EVENT = 10;

/** One agent of `lib`: a scripted model making one tool call per step for STEPS steps, then a final answer. */
function agentOf(lib: typeof current, events: readonly string[]) {
  let step = 0;
  const model = new lib.ScriptedModel(() =>
    step < STEPS ? { text: `step ${step}`, toolCalls: [{ id: `call_${step++}`, name: 'echo', args: { text: 'hello' } }] } : { text: 'done' },
  );
  const echo = lib.defineTool({ name: 'echo', input: z.object({ text: z.string() }), execute: ({ text }) => text });
  let builder = lib.AgentBuilder.new().withModel(model).withTools(echo).withMaxSteps(STEPS + 5);
  for (const event of events) for (let i = 0; i < HOOKS_PER_EVENT; i++) builder = builder.addHook(event, () => undefined);
  const agent = builder.build();
  const once = (op: () => Promise<unknown>) => async () => {
    step = 0;
    // The scripted model keeps every request for tests; a benchmark must not.
    model.requests.length = 0;
    await op();
    if (step !== STEPS) throw new Error(`model-events bench: the run took ${step} tool steps instead of ${STEPS}`);
  };
  return { agent, once };
}

export async function modelEventsSuite(): Promise<Row[]> {
  const before = await runtimeAt(BEFORE_MODEL_EVENTS, 'model-events');
  if ('BeforeModel' in before.HookEvent) throw new Error('model-events bench: the baseline runtime already has the model events');
  // The events both runtimes have: the hooked runs put hooks on these only.
  const OLD_EVENTS: readonly string[] = before.HOOK_EVENTS;
  const OLD_BARE = 'before the model events: Agent.run, no hooks';
  const NEW_BARE = 'now: Agent.run, no hooks';
  const OLD_HOOKED = `before the model events: Agent.run, ${HOOKS_PER_EVENT} hooks on each of ${OLD_EVENTS.length} events`;
  const NEW_HOOKED = `now: Agent.run, ${HOOKS_PER_EVENT} hooks on each of the same ${OLD_EVENTS.length} events (none on the new ones)`;
  const STREAM_BARE = 'now: Agent.stream, no hooks, every event read';

  const oldBare = agentOf(before, []);
  const newBare = agentOf(current, []);
  const oldHooked = agentOf(before, OLD_EVENTS);
  const newHooked = agentOf(current, OLD_EVENTS);
  const streamed = agentOf(current, []);
  const drain = async () => {
    for await (const event of streamed.agent.stream('Say hello ten times.')) void event;
  };
  const m = await measure(
    [
      { name: OLD_BARE, op: oldBare.once(() => oldBare.agent.run('Say hello ten times.')), async: true },
      { name: NEW_BARE, op: newBare.once(() => newBare.agent.run('Say hello ten times.')), async: true },
      { name: OLD_HOOKED, op: oldHooked.once(() => oldHooked.agent.run('Say hello ten times.')), async: true },
      { name: NEW_HOOKED, op: newHooked.once(() => newHooked.agent.run('Say hello ten times.')), async: true },
      { name: STREAM_BARE, op: streamed.once(drain), async: true },
    ],
    { batch: 10, time: 800, rounds: 4 },
  );
  const suite = `New events and streaming, per step (${STEPS} tool steps + 1 final step per run; baseline ${BEFORE_MODEL_EVENTS.slice(0, 7)})`;
  const perStep = (name: string) => {
    const t = m.get(name)!;
    return { ...t, mean: t.mean / (STEPS + 1), median: t.median / (STEPS + 1) };
  };
  const oldBareT = { name: 'before, no hooks', timing: perStep(OLD_BARE) };
  const oldHookedT = { name: 'before, hooked', timing: perStep(OLD_HOOKED) };
  const newBareT = { name: 'Agent.run, no hooks', timing: perStep(NEW_BARE) };
  const newHookedT = perStep(NEW_HOOKED);
  return [
    timingRow(suite, OLD_BARE, oldBareT.timing),
    timingRow(suite, NEW_BARE, newBareT.timing, oldBareT),
    timingRow(suite, OLD_HOOKED, oldHookedT.timing),
    timingRow(suite, NEW_HOOKED, newHookedT, oldHookedT),
    timingRow(suite, STREAM_BARE, perStep(STREAM_BARE), newBareT),
    finishRow({ suite, name: 'added per step by the new events, no hooks', unit: 'ns', mean: newBareT.timing.mean - oldBareT.timing.mean, median: newBareT.timing.median - oldBareT.timing.median }),
    finishRow({ suite, name: 'added per step by the new events, hooked', unit: 'ns', mean: newHookedT.mean - oldHookedT.timing.mean, median: newHookedT.median - oldHookedT.timing.median }),
  ];
}
