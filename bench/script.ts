/**
 * Script hooks: a sync ScriptHook dispatched through a HookStack against a bare child_process.spawn of the same script
 * with the same stdin; 20 async hooks against one; and non-matching script hooks, which must spawn nothing.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HookStack, ToolCall, ToolHookContext } from '../src/index.js';
import { hookMdDialect } from '../src/dialects/hookmd.js';
import type { HookManifest } from '../src/script/manifest.js';
import { drainAll, ScriptHook } from '../src/script/script-hook.js';
import { ProcessPool } from '../src/process/process-pool.js';
import { finishRow, measure, median, ratioTarget, stats, timingRow, valueTarget, type Row, type Timing } from './harness.js';
import { countSpawns } from './spawn-counter.js';

const ctx = ToolHookContext.beforeToolUse(ToolCall.create('Shell', { command: 'ls -la' }));

async function hookFolder(root: string, name: string, script: string, extra: Partial<HookManifest> = {}): Promise<HookManifest> {
  const dir = join(root, name);
  await mkdir(join(dir, 'scripts'), { recursive: true });
  await writeFile(join(dir, 'HOOK.md'), `---\nname: ${name}\ndescription: bench\ntrigger: pre-tool-call\n---\n`);
  await writeFile(join(dir, 'scripts', 'run'), `#!/bin/sh\n${script}\n`);
  await chmod(join(dir, 'scripts', 'run'), 0o755);
  return {
    name,
    description: 'bench',
    trigger: 'PreToolUse',
    triggerName: 'pre-tool-call',
    matcher: undefined,
    timeout: 30_000,
    async: false,
    priority: 100,
    metadata: {},
    dir,
    file: join(dir, 'HOOK.md'),
    source: 'project',
    bodyOffset: 0,
    ...extra,
  };
}

/** What a minimal runner does: spawn, write stdin, collect both streams, wait for close. */
function rawSpawn(file: string, cwd: string, stdin: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, [], { cwd, stdio: 'pipe' });
    const out: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => out.push(chunk));
    child.stdin.on('error', () => {});
    child.on('error', reject);
    child.on('close', () => resolve());
    child.stdin.end(stdin);
  });
}

/**
 * Time per call of each op, sampled in alternating order round after round: a spawn costs milliseconds and the
 * machine's load drifts over seconds, so measuring one op after the other (as tinybench does) compares two different
 * machines.
 */
async function interleaved(ops: Record<string, () => Promise<unknown>>, rounds: number): Promise<Map<string, Timing>> {
  const names = Object.keys(ops);
  const samples = new Map(names.map((n) => [n, [] as number[]]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const started = performance.now();
      await ops[name]!();
      samples.get(name)!.push((performance.now() - started) * 1e6);
    }
  }
  return new Map([...samples].map(([name, xs]) => [name, stats(xs)]));
}

/** Wall time of one dispatch through `stack` until every async run is drained, and until `process` returned. */
async function asyncWall(stack: HookStack): Promise<{ wall: number; returned: number }> {
  const started = performance.now();
  await stack.process(ctx);
  const returned = performance.now() - started;
  await drainAll(stack);
  return { wall: performance.now() - started, returned };
}

export async function scriptSuite(): Promise<Row[]> {
  const root = await mkdtemp(join(tmpdir(), 'agent-hooks-bench-'));
  const projectDir = join(root, 'project');
  await mkdir(projectDir);
  const rows: Row[] = [];
  try {
    // (a) One sync hook that reads its stdin and answers allow, against spawning the same script directly.
    const manifest = await hookFolder(root, 'allow', `cat > /dev/null\necho '{"decision":"allow"}'`);
    const hook = new ScriptHook(manifest, { projectDir });
    const stack = new HookStack().with(hook, hook.priority);
    const stdin = JSON.stringify(hookMdDialect.payload(ctx, { eventName: hook.eventName, workDir: projectDir, hookName: hook.name }));
    const file = join(manifest.dir, 'scripts', 'run');
    const RAW = 'child_process.spawn';
    const ops = { [RAW]: () => rawSpawn(file, projectDir, stdin), 'ScriptHook through HookStack.process': () => stack.process(ctx) };
    await interleaved(ops, 20);
    const spawns = countSpawns();
    const rounds = 300;
    const sync = await interleaved(ops, rounds);
    // One process per call on both sides, or the comparison means nothing.
    if (spawns.stop() !== 2 * rounds) throw new Error(`script bench: expected ${2 * rounds} spawns, counted ${spawns.count}`);
    const raw = { name: RAW, timing: sync.get(RAW)! };
    const suiteA = 'Script hook, sync (one spawn each)';
    rows.push(timingRow(suiteA, RAW, raw.timing));
    rows.push(timingRow(suiteA, 'ScriptHook through HookStack.process', sync.get('ScriptHook through HookStack.process')!, raw, ratioTarget(1.1, RAW)));

    // (b) 20 async hooks sleeping 200 ms each, against one, and against 20 bare spawns of the same script (the floor
    // this machine sets: spawns are synchronous in Node); medians of a few dispatches.
    const sleepers = await Promise.all(Array.from({ length: 20 }, (_, i) => hookFolder(root, `sleep-${i}`, 'sleep 0.2', { async: true })));
    // A pool as wide as the hooks: this measures how async hooks overlap, not the default bound (8 on 2 CPUs).
    const wide = new ProcessPool({ maxConcurrent: sleepers.length });
    const hooks = sleepers.map((m) => new ScriptHook(m, { projectDir, processPool: wide }));
    const one = new HookStack().with(hooks[0]!, 100);
    const twenty = new HookStack().withAll(hooks.map((h) => ({ hook: h, priority: h.priority })));
    // The same 20 hooks through a pool of the default size, as every hook gets unless given another: they run in waves.
    const defaultPool = new ProcessPool();
    const bounded = new HookStack().withAll(sleepers.map((m) => new ScriptHook(m, { projectDir, processPool: defaultPool })).map((h) => ({ hook: h, priority: h.priority })));
    const boundedRuns: number[] = [];
    const sleeperFiles = sleepers.map((m) => join(m.dir, 'scripts', 'run'));
    const runs = 7;
    const oneRuns: number[] = [];
    const twentyRuns: { wall: number; returned: number }[] = [];
    const rawRuns: number[] = [];
    for (let i = 0; i < runs; i++) {
      oneRuns.push((await asyncWall(one)).wall);
      twentyRuns.push(await asyncWall(twenty));
      boundedRuns.push((await asyncWall(bounded)).wall);
      const started = performance.now();
      await Promise.all(sleeperFiles.map((f) => rawSpawn(f, projectDir, stdin)));
      rawRuns.push(performance.now() - started);
    }
    const ms = (xs: number[]) => ({ mean: (xs.reduce((a, b) => a + b, 0) / xs.length) * 1e6, median: median(xs) * 1e6, rme: 0, samples: xs.length });
    const suite = 'Async script hooks (sleep 200 ms)';
    const oneHook = { name: '1 hook', timing: ms(oneRuns) };
    rows.push(timingRow(suite, '1 hook, dispatch until drained', oneHook.timing));
    rows.push(timingRow(suite, '20 bare spawns in parallel', ms(rawRuns), oneHook));
    rows.push(
      timingRow(suite, `20 hooks, a pool of ${wide.maxConcurrent}, dispatch until drained`, ms(twentyRuns.map((r) => r.wall)), oneHook, ratioTarget(1.5, '1 hook')),
      timingRow(suite, `20 hooks, the default pool (${defaultPool.maxConcurrent}), dispatch until drained`, ms(boundedRuns), oneHook),
    );
    // The dispatch only starts the processes: it must return before one sync spawn would have finished.
    const returned = ms(twentyRuns.map((r) => r.returned));
    rows.push(
      finishRow({
        suite,
        name: '20 hooks, until process() returns',
        unit: 'ns',
        mean: returned.mean,
        median: returned.median,
        baseline: RAW,
        ratio: returned.median / raw.timing.median,
        target: ratioTarget(1, `one sync spawn (${(raw.timing.median / 1e6).toFixed(1)} ms)`),
      }),
    );

    // (c) 20 script hooks whose matcher never matches: the dispatch must cost no process at all.
    const idle = await Promise.all(
      Array.from({ length: 20 }, (_, i) => hookFolder(root, `write-only-${i}`, 'exit 0', { matcher: { tool: '^Write$' } })),
    );
    const idleHooks = idle.map((m) => new ScriptHook(m, { projectDir }));
    const idleStack = new HookStack().withAll(idleHooks.map((h) => ({ hook: h, priority: h.priority })));
    const emptyStack = new HookStack();
    const counter = countSpawns();
    const noMatch = await measure([
      { name: 'empty stack', op: () => emptyStack.process(ctx), async: true },
      { name: '20 non-matching script hooks', op: () => idleStack.process(ctx), async: true },
    ]);
    const spawned = counter.stop();
    const suiteC = 'Script hooks that do not match';
    const empty = { name: 'empty stack', timing: noMatch.get('empty stack')! };
    rows.push(timingRow(suiteC, 'empty stack', empty.timing));
    rows.push(timingRow(suiteC, '20 non-matching script hooks', noMatch.get('20 non-matching script hooks')!, empty));
    rows.push(finishRow({ suite: suiteC, name: 'processes spawned by all those dispatches', unit: 'count', mean: spawned, target: valueTarget(0, '0') }));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  return rows;
}
