/**
 * What approvals that pause cost. In one process: an agent step when nothing interrupts, this runtime against the one
 * before interruptions existed (side by side, its source taken from git history), with no hooks and with an approval
 * asked and granted inline on every call; a run interrupted at an approval, its snapshot through JSON text, a newly
 * built agent resuming it, against the same run with the approval granted inline; the snapshot's size. And what the
 * user pays in a two-process approval: a Node process that builds the agent and resumes a snapshot from a file,
 * against one that makes the whole run with the approval inline, and against `node -e ''` — whole processes, started
 * the same way, alternating, compared by medians. The process figures need a built `dist/` (`npm run build`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import * as current from '../src/index.js';
import { runtimeAt } from './baseline-runtime.js';
import { finishRow, measure, median, stats, timingRow, type Row } from './harness.js';

/** The last commit before interruptions: the runtime these figures are measured against. */
const BEFORE_INTERRUPTS = '942d96912397b6bca43a8871528d4384b2c72a53';
const STEPS = 10;
const PROCESS_ROUNDS = Number(process.env.INTERRUPT_BENCH_ROUNDS ?? 12);

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * A model that answers from the conversation (as a stateless model does): `steps` steps of one call each. Not a
 * ScriptedModel, which keeps every request for tests.
 */
function modelOf(steps: number): current.Model {
  return {
    name: 'bench',
    generate: (request) => {
      let done = 0;
      for (const m of request.messages) if (m.role === 'assistant') done++;
      return done < steps ? { text: `step ${done}`, toolCalls: [{ id: `call_${done}`, name: 'deploy', args: { env: 'staging' } }] } : { text: 'done' };
    },
  };
}

/** An agent of `lib` whose calls all ask for approval when `asking`, decided by `approver` or interrupting. */
function agentOf(lib: typeof current, steps: number, options: { asking: boolean; approver?: boolean; interrupts?: boolean }) {
  const deploy = lib.defineTool({ name: 'deploy', input: z.object({ env: z.string() }), execute: ({ env }) => `deployed to ${env}` });
  let builder = lib.AgentBuilder.new().withModel(modelOf(steps)).withTools(deploy).withMaxSteps(steps + 5).withOptions({ name: 'bench' });
  if (options.asking) builder = builder.withHook(new lib.RequireApprovalHook({ matcher: 'deploy' }));
  if (options.approver) builder = builder.withApprover(() => true);
  if (options.interrupts) builder = (builder as current.AgentBuilder).withApprovalInterrupts() as typeof builder;
  return builder.build();
}

function checked(result: { status: string; steps: readonly unknown[] }, steps: number): void {
  if (result.status !== 'completed' || result.steps.length !== steps + 1) {
    throw new Error(`interrupts bench: a run ended ${result.status} after ${result.steps.length} steps instead of completed after ${steps + 1}`);
  }
}

export async function interruptsSuite(): Promise<Row[]> {
  const rows: Row[] = [];
  rows.push(...(await loopRows()));
  rows.push(...(await resumeRows()));
  rows.push(...(await sizeRows()));
  rows.push(...processRows());
  return rows;
}

/** An agent step when nothing interrupts: this runtime against the one before interruptions. */
async function loopRows(): Promise<Row[]> {
  const before = await runtimeAt(BEFORE_INTERRUPTS, 'interrupts');
  if ('withApprovalInterrupts' in before.AgentBuilder.prototype) throw new Error('interrupts bench: the baseline runtime already has interruptions');
  const OLD_BARE = 'before interruptions: Agent.run, no hooks';
  const NEW_BARE = 'now: Agent.run, no hooks';
  const OLD_ASK = 'before interruptions: Agent.run, every call asks, approver grants';
  const NEW_ASK = 'now: Agent.run, every call asks, approver grants';
  // Two measurements, each of its own pair: with the four agents in one, which of them ran last in a round moved the
  // medians of the others by up to a third (V8 optimises the code they share for the shapes it saw last).
  const pair = async (oldName: string, newName: string, asking: boolean) =>
    measure(
      [
        { name: oldName, agent: agentOf(before, STEPS, { asking, approver: asking }) },
        { name: newName, agent: agentOf(current, STEPS, { asking, approver: asking }) },
      ].map(({ name, agent }) => ({ name, async: true, op: async () => checked(await agent.run('Deploy ten times.'), STEPS) })),
      { batch: 10, time: 800, rounds: 4 },
    );
  const m = new Map([...(await pair(OLD_BARE, NEW_BARE, false)), ...(await pair(OLD_ASK, NEW_ASK, true))]);
  const suite = `Approvals that pause: an agent step when nothing interrupts (${STEPS} tool steps + 1 final step per run; baseline ${BEFORE_INTERRUPTS.slice(0, 7)})`;
  const perStep = (name: string) => {
    const t = m.get(name)!;
    return { ...t, mean: t.mean / (STEPS + 1), median: t.median / (STEPS + 1) };
  };
  return [
    timingRow(suite, OLD_BARE, perStep(OLD_BARE)),
    timingRow(suite, NEW_BARE, perStep(NEW_BARE), { name: 'before, no hooks', timing: perStep(OLD_BARE) }),
    timingRow(suite, OLD_ASK, perStep(OLD_ASK)),
    timingRow(suite, NEW_ASK, perStep(NEW_ASK), { name: 'before, asking', timing: perStep(OLD_ASK) }),
  ];
}

/** One approval: interrupted, through JSON text, resumed by a newly built agent — against granting it inline. */
async function resumeRows(): Promise<Row[]> {
  const INLINE = 'run with one approval granted inline';
  const PAUSED = 'run to the approval, snapshot as JSON text, new agent, resume';
  const inline = agentOf(current, 1, { asking: true, approver: true });
  const m = await measure(
    [
      { name: INLINE, async: true, op: async () => checked(await inline.run('Deploy once.'), 1) },
      {
        name: PAUSED,
        async: true,
        op: async () => {
          const first = await agentOf(current, 1, { asking: true, interrupts: true }).run('Deploy once.');
          const text = JSON.stringify(first.interruption!.snapshot);
          const snapshot = JSON.parse(text) as current.RunSnapshot;
          const result = await agentOf(current, 1, { asking: true, interrupts: true }).resume(snapshot, { [snapshot.pending[0]!.id]: true });
          checked(result, 1);
        },
      },
    ],
    { batch: 10, time: 800, rounds: 4 },
  );
  const suite = 'Approvals that pause: one approval, in one process';
  const base = { name: 'granted inline', timing: m.get(INLINE)! };
  return [timingRow(suite, INLINE, base.timing), timingRow(suite, PAUSED, m.get(PAUSED)!, base)];
}

/** The snapshot's size: it holds the conversation, so it grows with it. */
async function sizeRows(): Promise<Row[]> {
  const suite = 'Approvals that pause: snapshot size (JSON text)';
  const rows: Row[] = [];
  for (const steps of [10, 100]) {
    // Interrupted at the last step's call: every step before it is in the snapshot.
    const agent = current.AgentBuilder.new()
      .withModel(modelOf(steps))
      .withTools(current.defineTool({ name: 'deploy', input: z.object({ env: z.string() }), execute: ({ env }) => `deployed to ${env}` }))
      .withMaxSteps(steps + 5)
      .onBeforeToolUse((ctx) => (ctx.toolCall.id === `call_${steps - 1}` ? current.HookOutcome.ask('last one') : undefined))
      .withApprovalInterrupts()
      .build();
    const result = await agent.run('Deploy.');
    if (result.status !== 'interrupted') throw new Error(`interrupts bench: the size run ended ${result.status}`);
    rows.push(finishRow({ suite, name: `interrupted at step ${steps}`, unit: 'B', mean: Buffer.byteLength(JSON.stringify(result.interruption!.snapshot)) }));
  }
  return rows;
}

/** Whole processes, as the user pays them in a two-process approval. */
function processRows(): Row[] {
  const dist = join(root, 'dist', 'index.js');
  if (!existsSync(dist)) throw new Error('interrupts bench: the process figures run the built package; run `npm run build` first.');
  const dir = mkdtempSync(join(tmpdir(), 'agent-hooks-bench-interrupts-'));
  try {
    const agentSource = `
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { AgentBuilder, RequireApprovalHook, ScriptedModel, defineTool } from ${JSON.stringify(pathToFileURL(dist).href)};
const model = new ScriptedModel((request) => request.messages.some((m) => m.role === 'tool')
  ? 'done' : { text: 'deploying', toolCalls: [{ id: 'c1', name: 'deploy', args: { env: 'staging' } }] });
const deploy = defineTool({ name: 'deploy', input: z.object({ env: z.string() }), execute: ({ env }) => 'deployed to ' + env });
const builder = AgentBuilder.new().withModel(model).withTools(deploy).withHook(new RequireApprovalHook({ matcher: 'deploy' }));
const [mode, file] = process.argv.slice(2);
if (mode === 'inline') {
  const result = await builder.withApprover(() => true).build().run('Deploy.');
  if (result.status !== 'completed') process.exit(3);
} else if (mode === 'interrupt') {
  const result = await builder.withApprovalInterrupts().build().run('Deploy.');
  writeFileSync(file, JSON.stringify(result.interruption.snapshot));
} else {
  const snapshot = JSON.parse(readFileSync(file, 'utf8'));
  const result = await builder.withApprovalInterrupts().build().resume(snapshot, { [snapshot.pending[0].id]: true });
  if (result.status !== 'completed') process.exit(3);
}
`;
    // zod resolves from the repo's node_modules: the script lives there for the run.
    const script = join(root, 'bench', `.interrupt-process-${process.pid}.mjs`);
    writeFileSync(script, agentSource);
    const snapshotFile = join(dir, 'snapshot.json');
    try {
      const prepare = spawnSync(process.execPath, [script, 'interrupt', snapshotFile], { encoding: 'utf8' });
      if (prepare.status !== 0) throw new Error(`interrupts bench: the interrupting process failed: ${prepare.stderr}`);
      const cases: Record<string, readonly string[]> = {
        "node -e ''": ['-e', ''],
        'process: build the agent, run, approval granted inline': [script, 'inline'],
        'process: build the agent, resume the snapshot from a file': [script, 'resume', snapshotFile],
      };
      const samples = new Map<string, number[]>(Object.keys(cases).map((k) => [k, []]));
      for (let round = 0; round < PROCESS_ROUNDS; round++) {
        for (const [name, args] of Object.entries(cases)) {
          const t0 = performance.now();
          const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
          const ms = performance.now() - t0;
          if (run.status !== 0) throw new Error(`interrupts bench: ${name} failed (${run.status}): ${run.stderr}`);
          if (round > 0) samples.get(name)!.push(ms);
        }
      }
      const suite = `Approvals that pause: whole processes (${PROCESS_ROUNDS - 1} alternating rounds, medians)`;
      const [bare, inline, resume] = Object.keys(cases).map((name) => ({ name, timing: stats(samples.get(name)!.map((ms) => ms * 1e6)) }));
      return [
        timingRow(suite, bare!.name, bare!.timing),
        timingRow(suite, inline!.name, inline!.timing, bare),
        timingRow(suite, resume!.name, resume!.timing, bare),
        finishRow({
          suite,
          name: 'resume process over the inline-run process',
          unit: 'count',
          mean: median(samples.get(resume!.name)!) / median(samples.get(inline!.name)!),
        }),
      ];
    } finally {
      rmSync(script, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
