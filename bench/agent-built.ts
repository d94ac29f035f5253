/**
 * The agent loop of bench/agent.ts as a user runs it: from the built package rather than from `src/` through tsx.
 * Each build runs in a fresh process (bench/agent-built-step.mjs), the step with no hooks and with 10 callbacks on each
 * event alternating in it; the processes of the builds alternate too. Three builds of the same sources: the package's
 * ES module entry (`dist/index.js`), its CommonJS entry (`dist/index.cjs`), and the library bundled alone as one ES
 * module (made here with esbuild, which tsup builds with), which tells the cost of the way a build is split into
 * chunks from that of the code: when the ES build shared its chunks with the command line's, its hooked step cost two
 * to three times the one file's.
 *
 * Needs a built package: `dist/index.js` and `dist/index.cjs`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { finishRow, median, ratioTarget, stats, type Row } from './harness.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STEP = join(ROOT, 'bench', 'agent-built-step.mjs');
const ROUNDS = Number(process.env.AGENT_BUILT_ROUNDS ?? 3);
/** An agent step with 10 callbacks on each event, at most this many times a step with none, in each shipped build. */
const HOOKED_STEP_MAX = 5;

interface Sample {
  readonly events: number;
  readonly bare: number[];
  readonly hooked: number[];
}

export async function agentBuiltSuite(): Promise<Row[]> {
  const work = mkdtempSync(join(tmpdir(), 'agent-hooks-bench-built-'));
  try {
    // The one-file bundle resolves the package's dependencies from the project's node_modules.
    symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'));
    await build({ entryPoints: [join(ROOT, 'src', 'index.ts')], bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external', outfile: join(work, 'index.js'), logLevel: 'error' });
    const zod = pathToFileURL(join(ROOT, 'node_modules', 'zod', 'index.js')).href;
    const builds = [
      { name: 'dist/index.js (ES module)', entry: join(ROOT, 'dist', 'index.js'), shipped: true },
      { name: 'dist/index.cjs (CommonJS)', entry: join(ROOT, 'dist', 'index.cjs'), shipped: true },
      { name: 'the library alone, one ES module file', entry: join(work, 'index.js'), shipped: false },
    ];
    const samples = new Map(builds.map((b) => [b.name, { bare: [] as number[], hooked: [] as number[] }]));
    let events = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const b of round % 2 === 0 ? builds : [...builds].reverse()) {
        const run = spawnSync(process.execPath, [STEP, pathToFileURL(b.entry).href, zod], { encoding: 'utf8' });
        if (run.status !== 0) throw new Error(`agent-built: ${b.name} exited ${run.status}: ${run.stderr}`);
        const sample = JSON.parse(run.stdout) as Sample;
        events = sample.events;
        samples.get(b.name)!.bare.push(...sample.bare);
        samples.get(b.name)!.hooked.push(...sample.hooked);
      }
    }
    const suite = `Agent loop from the built package, 10 tool steps + 1 final step per run, Node ${process.versions.node}`;
    const rows: Row[] = [];
    for (const b of builds) {
      const s = samples.get(b.name)!;
      const [bare, hooked] = [stats(s.bare), stats(s.hooked)];
      rows.push(finishRow({ suite, name: `${b.name}: Agent.run, no hooks, per step`, unit: 'ns', mean: bare.mean, median: bare.median, rme: bare.rme }));
      rows.push(
        finishRow({
          suite,
          name: `${b.name}: Agent.run, 10 hooks on each of the ${events} events, per step`,
          unit: 'ns',
          mean: hooked.mean,
          median: hooked.median,
          rme: hooked.rme,
          baseline: 'the same build, no hooks',
          ratio: median(s.hooked) / median(s.bare),
          // What a user of the package pays; the one-file bundle is there to compare the split with.
          target: b.shipped ? ratioTarget(HOOKED_STEP_MAX, 'no hooks') : undefined,
          note: `${ROUNDS} processes, 10 alternating rounds each`,
        }),
      );
    }
    return rows;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
