/**
 * Load: 100 concurrent agent runs built from one AgentBuilder, 20 tool-calling steps each, 10 callbacks on every
 * event, against the same load with two HOOK.md script hooks on every event but the three around the model call as
 * well (the full configuration of the load test, which runs them on two events only), through the default process
 * pool. The model events are left out of the script hooks so that the figure stays the one measured before they
 * existed: scripts on them add 12,600 processes to the run's 16,000 (some ten more minutes on two CPUs), not cost per
 * process, which the processes-per-second row measures. Reported: runs per second, the
 * p50 and p99 of every dispatch's duration (the agent's `dispatched` events), the processes, how many were alive at
 * once (from the scripts' own log), and processes per second against bare spawns of the same script at the same
 * concurrency.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOOK_EVENTS, ProcessPool } from '../src/index.js';
import { quantile, runLoad, type LoadReport } from '../test/load/load-scenario.js';
import { finishRow, median, valueTarget, type Row } from './harness.js';

const RUNS = 100;
const STEPS = 20;
const CALLBACKS = 10;

const MODEL_EVENTS: ReadonlySet<string> = new Set(['BeforeModel', 'BeforeToolSelection', 'AfterModel']);
const SCRIPT_EVENTS = HOOK_EVENTS.filter((event) => !MODEL_EVENTS.has(event));

const load = (scripts: boolean): Promise<LoadReport> =>
  runLoad({ runs: RUNS, steps: STEPS, callbacksPerEvent: CALLBACKS, scriptEvents: scripts ? SCRIPT_EVENTS : [], blockEvery: 5 });

function check(report: LoadReport, what: string): void {
  const failed = report.runs.filter((r) => r.result.status !== 'completed' || r.result.steps.length !== STEPS + 1);
  if (failed.length > 0 || report.crossTalk.length > 0) {
    throw new Error(`load bench (${what}): ${failed.length} runs went wrong; cross-talk: ${report.crossTalk.slice(0, 3).join('; ')}`);
  }
}

/** Seconds per bare spawn of `file`, `total` times, `concurrency` at once: the machine's own rate. */
async function bareSpawns(file: string, cwd: string, total: number, concurrency: number): Promise<number> {
  let next = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(file, [], { cwd, stdio: 'pipe', env: { ...process.env, AGENT_HOOKS_PROJECT_DIR: cwd } });
      child.stdout.resume();
      child.stderr.resume();
      child.on('error', reject);
      child.on('close', () => resolve());
      child.stdin.end('{"event_type":"pre-tool-call","context":{"owner":"run-1"}}');
    });
  const worker = async () => {
    while (next++ < total) await one();
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return (performance.now() - started) / 1000 / total;
}

export async function loadSuite(): Promise<Row[]> {
  const suite = `Load: ${RUNS} concurrent runs × ${STEPS} tool steps, ${CALLBACKS} callbacks on every event`;
  // Callbacks only: a few rounds, the median run taken (they take a second or two each).
  const baselines: LoadReport[] = [];
  for (let i = 0; i < 3; i++) {
    const report = await load(false);
    check(report, 'callbacks only');
    baselines.push(report);
  }
  baselines.sort((a, b) => a.wallMs - b.wallMs);
  const base = baselines[1]!;
  const pool = ProcessPool.shared;
  pool.resetPeak();
  const full = await load(true);
  check(full, 'script hooks');

  const runsPerS = (r: LoadReport) => RUNS / (r.wallMs / 1000);
  const p = (r: LoadReport, q: number) => quantile(r.dispatchMs, q);
  const BASE = 'callbacks only';
  const SCRIPTS = `+ 2 script hooks on each of ${SCRIPT_EVENTS.length} events`;
  const rows: Row[] = [
    finishRow({ suite, name: `${BASE}: runs per second`, unit: 'count', mean: runsPerS(base) }),
    finishRow({ suite, name: `${BASE}: dispatch p50`, unit: 'ms', mean: median(base.dispatchMs), median: p(base, 0.5) }),
    finishRow({ suite, name: `${BASE}: dispatch p99`, unit: 'ms', mean: p(base, 0.99) }),
    finishRow({
      suite,
      name: `${SCRIPTS}: runs per second`,
      unit: 'count',
      mean: runsPerS(full),
      baseline: BASE,
      ratio: runsPerS(full) / runsPerS(base),
      note: `${full.processes.toLocaleString('en')} script processes in ${(full.wallMs / 1000).toFixed(1)} s; the ratio is runs per second over the callbacks-only runs'.`,
    }),
    finishRow({ suite, name: `${SCRIPTS}: dispatch p50`, unit: 'ms', mean: median(full.dispatchMs), median: p(full, 0.5), baseline: BASE, ratio: p(full, 0.5) / p(base, 0.5) }),
    finishRow({ suite, name: `${SCRIPTS}: dispatch p99`, unit: 'ms', mean: p(full, 0.99), baseline: BASE, ratio: p(full, 0.99) / p(base, 0.99) }),
    finishRow({
      suite,
      name: 'script processes alive at once (scripts\' own log)',
      unit: 'count',
      mean: full.maxAlive,
      target: valueTarget(pool.maxConcurrent, `≤ ${pool.maxConcurrent} (the default pool)`),
      note: `the pool's own peak: ${pool.peak}`,
    }),
  ];

  // The machine's own spawn rate for the same script at the same concurrency, for processes per second.
  const dir = await mkdtemp(join(tmpdir(), 'agent-hooks-bench-load-'));
  try {
    const file = join(dir, 'run');
    await writeFile(file, `#!/bin/sh\necho + >> "$AGENT_HOOKS_PROJECT_DIR/alive.log"\nIFS= read -r input || true\necho - >> "$AGENT_HOOKS_PROJECT_DIR/alive.log"\n`);
    await chmod(file, 0o755);
    const bare = await bareSpawns(file, dir, 2000, pool.maxConcurrent);
    const ours = full.wallMs / 1000 / full.processes;
    rows.push(finishRow({ suite, name: `bare spawns of the same script, ${pool.maxConcurrent} at once: processes per second`, unit: 'count', mean: 1 / bare }));
    rows.push(
      finishRow({
        suite,
        name: `${SCRIPTS}: processes per second`,
        unit: 'count',
        mean: 1 / ours,
        baseline: 'bare spawns',
        ratio: (1 / ours) / (1 / bare),
      }),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}
