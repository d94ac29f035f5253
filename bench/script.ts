/**
 * Script hooks: a sync ScriptHook dispatched through a HookStack against a bare child_process.spawn of the same script
 * with the same stdin; 20 async hooks against one; and non-matching script hooks, which must spawn nothing.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HookStack, ToolCall, ToolHookContext } from '../src/index.js';
import { hookMdDialect } from '../src/script/dialects/hookmd.js';
import type { HookManifest } from '../src/script/manifest.js';
import { drainAll, ScriptHook } from '../src/script/script-hook.js';
import { measure, type Row } from './harness.js';

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

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * Mean and median time per call (ns) and relative margin of error (%) of each op, sampled in alternating order round
 * after round: a spawn costs milliseconds and the machine's load drifts over seconds, so measuring one op after the
 * other (as tinybench does) compares two different machines.
 */
async function interleaved(
  ops: Record<string, () => Promise<unknown>>,
  rounds: number,
): Promise<Map<string, { ns: number; rme: number; median: number }>> {
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
  const out = new Map<string, { ns: number; rme: number; median: number }>();
  for (const [name, xs] of samples) {
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
    out.set(name, { ns: mean, rme: ((1.96 * sd) / Math.sqrt(xs.length) / mean) * 100, median: median(xs) });
  }
  return out;
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
    const warmup = { 'child_process.spawn': () => rawSpawn(file, projectDir, stdin), 'ScriptHook via HookStack.process': () => stack.process(ctx) };
    await interleaved(warmup, 20);
    const sync = await interleaved(warmup, 300);
    const raw = sync.get('child_process.spawn')!;
    const viaStack = sync.get('ScriptHook via HookStack.process')!;
    const suiteA = 'Script hook, sync';
    rows.push({ suite: suiteA, name: 'child_process.spawn (mean)', nsPerOp: raw.ns, rme: raw.rme });
    rows.push({
      suite: suiteA,
      name: 'ScriptHook via HookStack.process (mean)',
      nsPerOp: viaStack.ns,
      rme: viaStack.rme,
      baseline: 'raw spawn',
      ratio: viaStack.ns / raw.ns,
      target: '≤ 1.10×',
    });
    // A spawn on a loaded machine now and then waits tens of milliseconds for a CPU; the median ignores those.
    rows.push({ suite: suiteA, name: 'child_process.spawn (median)', nsPerOp: raw.median, rme: 0 });
    rows.push({
      suite: suiteA,
      name: 'ScriptHook via HookStack.process (median)',
      nsPerOp: viaStack.median,
      rme: 0,
      baseline: 'raw spawn',
      ratio: viaStack.median / raw.median,
      target: '≤ 1.10×',
    });

    // (b) 20 async hooks sleeping 200 ms each, against one, and against 20 bare spawns of the same script (the floor
    // this machine sets: spawns are synchronous in Node); medians of a few dispatches.
    const sleepers = await Promise.all(Array.from({ length: 20 }, (_, i) => hookFolder(root, `sleep-${i}`, 'sleep 0.2', { async: true })));
    const hooks = sleepers.map((m) => new ScriptHook(m, { projectDir }));
    const one = new HookStack().with(hooks[0]!, 100);
    const twenty = new HookStack().withAll(hooks.map((h) => ({ hook: h, priority: h.priority })));
    const sleeperFiles = sleepers.map((m) => join(m.dir, 'scripts', 'run'));
    const runs = 7;
    const oneRuns: number[] = [];
    const twentyRuns: { wall: number; returned: number }[] = [];
    const rawRuns: number[] = [];
    for (let i = 0; i < runs; i++) {
      oneRuns.push((await asyncWall(one)).wall);
      twentyRuns.push(await asyncWall(twenty));
      const started = performance.now();
      await Promise.all(sleeperFiles.map((f) => rawSpawn(f, projectDir, stdin)));
      rawRuns.push(performance.now() - started);
    }
    const oneWall = median(oneRuns);
    const twentyWall = median(twentyRuns.map((r) => r.wall));
    const rawWall = median(rawRuns);
    const suite = 'Async script hooks (sleep 200 ms)';
    rows.push({ suite, name: '1 hook, dispatch until drained', nsPerOp: oneWall * 1e6, rme: 0 });
    rows.push({ suite, name: '20 bare spawns in parallel', nsPerOp: rawWall * 1e6, rme: 0, baseline: '1 hook', ratio: rawWall / oneWall });
    rows.push({
      suite,
      name: '20 hooks, dispatch until drained',
      nsPerOp: twentyWall * 1e6,
      rme: 0,
      baseline: '1 hook',
      ratio: twentyWall / oneWall,
      target: '≤ 1.5×',
    });
    rows.push({ suite, name: '20 hooks, vs 20 bare spawns', nsPerOp: twentyWall * 1e6, rme: 0, baseline: '20 spawns', ratio: twentyWall / rawWall });
    const returned = median(twentyRuns.map((r) => r.returned));
    rows.push({ suite, name: '20 hooks, until process() returns', nsPerOp: returned * 1e6, rme: 0 });

    // (c) 20 script hooks whose matcher never matches: the dispatch must cost no process at all.
    const idle = await Promise.all(
      Array.from({ length: 20 }, (_, i) => hookFolder(root, `write-only-${i}`, 'exit 0', { matcher: { tool: '^Write$' } })),
    );
    const idleHooks = idle.map((m) => new ScriptHook(m, { projectDir }));
    let spawned = 0;
    for (const h of idleHooks) h.emitter.on('exit', () => spawned++);
    const idleStack = new HookStack().withAll(idleHooks.map((h) => ({ hook: h, priority: h.priority })));
    const emptyStack = new HookStack();
    const noMatch = await measure([
      { name: 'empty stack', op: () => emptyStack.process(ctx), async: true },
      { name: '20 non-matching script hooks', op: () => idleStack.process(ctx), async: true },
    ]);
    const empty = noMatch.get('empty stack')!;
    const idleR = noMatch.get('20 non-matching script hooks')!;
    rows.push({ suite: 'Script hooks, no match', name: 'empty stack', nsPerOp: empty.ns, rme: empty.rme });
    rows.push({
      suite: 'Script hooks, no match',
      name: `20 non-matching script hooks (${spawned} spawned)`,
      nsPerOp: idleR.ns,
      rme: idleR.rme,
      baseline: 'empty stack',
      ratio: idleR.ns / empty.ns,
      target: '0 spawned',
    });
    if (spawned !== 0) throw new Error(`non-matching script hooks spawned ${spawned} processes`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  return rows;
}
