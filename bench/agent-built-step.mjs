// The child of bench/agent-built.ts: one build of the package (the file given), the agent loop of bench/agent.ts with
// no hooks and with 10 callbacks on each event, alternating in this process; prints the medians per step, in ns.
const [, , entry, zodEntry] = process.argv;
const { AgentBuilder, defineTool, HOOK_EVENTS, ScriptedModel } = await import(entry);
const { z } = await import(zodEntry);
const STEPS = 10;
const RUNS = Number(process.env.AGENT_BUILT_RUNS ?? 150);
let step = 0;
const model = new ScriptedModel(() => (step < STEPS ? { text: `step ${step}`, toolCalls: [{ id: `call_${step++}`, name: 'echo', args: { text: 'hello' } }] } : { text: 'done' }));
const echo = defineTool({ name: 'echo', input: z.object({ text: z.string() }), execute: ({ text }) => text });
const bare = AgentBuilder.new().withModel(model).withTools(echo).withMaxSteps(STEPS + 5).build();
let hooked = AgentBuilder.new().withModel(model).withTools(echo).withMaxSteps(STEPS + 5);
for (const event of HOOK_EVENTS) for (let i = 0; i < 10; i++) hooked = hooked.addHook(event, () => undefined);
const withHooks = hooked.build();
async function perStep(agent) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < RUNS; i++) {
    step = 0;
    model.requests.length = 0;
    await agent.run('Say hello ten times.');
  }
  return Number(process.hrtime.bigint() - t0) / RUNS / (STEPS + 1);
}
for (let warm = 0; warm < 2; warm++) await Promise.all([]).then(() => perStep(bare)).then(() => perStep(withHooks));
const samples = { bare: [], hooked: [] };
for (let round = 0; round < 10; round++) {
  for (const which of round % 2 === 0 ? ['bare', 'hooked'] : ['hooked', 'bare']) samples[which].push(await perStep(which === 'bare' ? bare : withHooks));
}
console.log(JSON.stringify({ events: HOOK_EVENTS.length, ...samples }));
