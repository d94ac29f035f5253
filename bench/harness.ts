/**
 * A small harness over tinybench. Each task runs a batch of operations per sample, so sub-microsecond operations are
 * not drowned by timer resolution; cases are measured in alternating order over several rounds, so a drift in the
 * machine's load hits the case and its baseline alike; and every figure that matters is a ratio against a baseline
 * measured in the same run. Absolute numbers are reported, never asserted.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { installNode, versionOf } from '../test/support/install-node.mjs';

/** One measured operation: a synchronous or asynchronous function run `batch` times per sample. */
export interface Case {
  readonly name: string;
  readonly op: () => unknown;
  /** Whether `op` returns a promise that must be awaited. */
  readonly async: boolean;
}

/** Time per operation, in nanoseconds. */
export interface Timing {
  readonly mean: number;
  readonly median: number;
  /** Relative margin of error of the mean, in percent. */
  readonly rme: number;
  readonly samples: number;
}

/** What a row is compared with; `pass` is computed from it. */
export interface Target {
  /** Which figure is checked: the ratio to the baseline, or the absolute value. */
  readonly of: 'ratio' | 'value';
  /** The largest passing figure. */
  readonly max: number;
  /** How the target reads in the table, e.g. `≤ 1.0× koa-compose`. */
  readonly label: string;
}

/** A row of the report. */
export interface Row {
  readonly suite: string;
  readonly name: string;
  /** Unit of `mean`, `median` and, for value targets, `max`. */
  readonly unit: 'ns' | 'ms' | 'B' | 'count';
  readonly mean: number;
  readonly median?: number | undefined;
  readonly rme?: number | undefined;
  readonly baseline?: string | undefined;
  /** This row's figure over the baseline's: medians when both have one, else means. */
  readonly ratio?: number | undefined;
  readonly target?: Target | undefined;
  readonly pass?: boolean | undefined;
  readonly note?: string | undefined;
}

/** Options of {@link measure}. */
export interface MeasureOptions {
  /** Operations per sample. */
  readonly batch?: number;
  /** Milliseconds per case per round. */
  readonly time?: number;
  /** Rounds; odd rounds run the cases in reverse order. */
  readonly rounds?: number;
  /** The fewest samples per case per round (tinybench's `iterations`); lower it for ops that take milliseconds. */
  readonly iterations?: number;
  /**
   * `'own'` (default): every case gets a loop of its own, so the compiler may inline its op, as it would at a call
   * site in an application. `'shared'`: every op is called through one call site, as a real, not inlined, call; for
   * comparisons with the cost of a call itself.
   */
  readonly loop?: 'own' | 'shared';
}

const NS_PER_MS = 1e6;

/** Measures `cases`, returning the time per operation of each, by name. */
export async function measure(cases: readonly Case[], options: MeasureOptions = {}): Promise<Map<string, Timing>> {
  const batch = options.batch ?? 1000;
  const rounds = options.rounds ?? 2;
  const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({
      time: options.time ?? 250,
      warmupTime: round === 0 ? 150 : 50,
      retainSamples: true,
      ...(options.iterations === undefined ? {} : { iterations: options.iterations, warmupIterations: options.iterations }),
    });
    for (const c of round % 2 === 0 ? cases : [...cases].reverse()) {
      bench.add(c.name, options.loop === 'shared' ? sharedBatch(c, batch) : batchOf(c, batch));
    }
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result as { latency?: { samples?: readonly number[] }; error?: unknown; state?: string };
      if (!result.latency?.samples) throw new Error(`Benchmark '${task.name}' did not complete: ${String(result.error ?? result.state)}`);
      samples.get(task.name)!.push(...result.latency.samples.map((ms) => (ms * NS_PER_MS) / batch));
    }
  }
  return new Map([...samples].map(([name, xs]) => [name, stats(xs)]));
}

/**
 * One sample: `batch` runs of the case's op. Built by `new Function` so that every case gets a loop of its own: a
 * shared loop would call every op through one megamorphic call site and blur the differences being measured.
 */
function batchOf(c: Case, batch: number): () => unknown {
  const body = c.async
    ? `return async function sample() { for (let i = 0; i < ${batch}; i++) await op(); }`
    : `return function sample() { for (let i = 0; i < ${batch}; i++) op(); }`;
  return new Function('op', body)(c.op) as () => unknown;
}

/** One sample through the shared call site. */
function sharedBatch(c: Case, batch: number): () => unknown {
  return c.async ? () => runAsync(c.op, batch) : () => runSync(c.op, batch);
}

function runSync(op: () => unknown, batch: number): void {
  for (let i = 0; i < batch; i++) op();
}

async function runAsync(op: () => unknown, batch: number): Promise<void> {
  for (let i = 0; i < batch; i++) await op();
}

/**
 * Wall time of one whole process, in ms, from its spawn to its exit: `command` with `args`, given `input` on stdin. Throws
 * when it exits otherwise than 0, with what it wrote on stderr.
 */
export function timeProcess(
  command: string,
  args: readonly string[],
  options: { readonly input: string; readonly env: NodeJS.ProcessEnv; readonly cwd?: string; readonly status?: number },
): number {
  const t0 = process.hrtime.bigint();
  const run = spawnSync(command, args, { cwd: options.cwd, env: options.env, input: options.input });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (run.status !== (options.status ?? 0)) throw new Error(`${command} ${args.join(' ')} exited ${run.status}: ${String(run.stderr)}`);
  return ms;
}

/** Mean, median and relative margin of error (95%) of `xs`. */
export function stats(xs: readonly number[]): Timing {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : 0;
  return { mean, median: median(xs), rme: n > 1 ? ((1.96 * sd) / Math.sqrt(n) / mean) * 100 : 0, samples: n };
}

/** The median of `xs`. */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** `≤ max×` against `baseline`. */
export const ratioTarget = (max: number, baseline: string): Target => ({ of: 'ratio', max, label: `≤ ${max.toFixed(max < 10 ? 2 : 0).replace(/0$/, '')}× ${baseline}` });

/** An absolute limit. */
export const valueTarget = (max: number, label: string): Target => ({ of: 'value', max, label });

/**
 * A row for `timing`, compared with `base` when given. The ratio is of medians: on a shared machine a sample now and
 * then waits for a CPU, and the median ignores those; the means are reported beside it.
 */
export function timingRow(
  suite: string,
  name: string,
  timing: Timing,
  base?: { name: string; timing: Timing },
  target?: Target,
  note?: string,
): Row {
  const ratio = base === undefined ? undefined : timing.median / base.timing.median;
  return finishRow({ suite, name, unit: 'ns', mean: timing.mean, median: timing.median, rme: timing.rme, baseline: base?.name, ratio, target, note });
}

/** Fills in `pass` from the row's target. */
export function finishRow(row: Row): Row {
  if (row.target === undefined) return row;
  const figure = row.target.of === 'ratio' ? row.ratio : row.median ?? row.mean;
  return { ...row, pass: figure !== undefined && figure <= row.target.max };
}

const fmtNumber = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2));

/** `n` in `unit`, in the most readable scale. */
export function formatValue(n: number, unit: Row['unit']): string {
  switch (unit) {
    case 'ns':
      return n >= 1e6 ? `${fmtNumber(n / 1e6)} ms` : n >= 1e3 ? `${fmtNumber(n / 1e3)} µs` : `${fmtNumber(n)} ns`;
    case 'ms':
      return `${fmtNumber(n)} ms`;
    case 'B':
      return n >= 1024 * 1024 ? `${fmtNumber(n / 1024 / 1024)} MiB` : n >= 1024 ? `${fmtNumber(n / 1024)} KiB` : `${n.toFixed(0)} B`;
    case 'count':
      return n.toLocaleString('en');
  }
}

/** Prints rows as a table: per case the mean and median, the baseline and ratio, the target and whether it is met. */
export function printTable(rows: readonly Row[]): void {
  const header = ['suite', 'case', 'mean', 'median', 'rme', 'baseline', 'ratio', 'target', 'met'];
  const lines = rows.map((r) => [
    r.suite,
    r.name,
    formatValue(r.mean, r.unit),
    r.median === undefined ? '' : formatValue(r.median, r.unit),
    r.rme === undefined ? '' : `±${r.rme.toFixed(1)}%`,
    r.baseline ?? '',
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}×`,
    r.target?.label ?? '',
    r.pass === undefined ? '' : r.pass ? 'yes' : 'MISS',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  let suite = '';
  for (const [i, l] of lines.entries()) {
    console.log(line(rows[i]!.suite === suite ? ['', ...l.slice(1)] : l));
    suite = rows[i]!.suite;
  }
  const notes = rows.filter((r) => r.note !== undefined);
  if (notes.length > 0) console.log('');
  for (const r of notes) console.log(`${r.suite} / ${r.name}: ${r.note}`);
  const targeted = rows.filter((r) => r.pass !== undefined);
  const missed = targeted.filter((r) => !r.pass);
  console.log(`\n${targeted.length - missed.length} of ${targeted.length} targets met${missed.length ? `; missed: ${missed.map((r) => `${r.suite} / ${r.name}`).join(', ')}` : ''}.`);
}

/** The machine a report was measured on. */
export function machine() {
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
  };
}

/**
 * Writes the report as JSON under bench/results/: a file named after the date, and — for a run of every suite —
 * latest.json, the report the README's table comes from (a run of some suites never replaces it).
 */
export function writeReport(rows: readonly Row[], suites: readonly string[], started: { load: number[]; at: Date }, complete = true): string {
  const dir = new URL('./results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  const report = {
    date: started.at.toISOString(),
    durationS: Number(((Date.now() - started.at.getTime()) / 1000).toFixed(1)),
    suites,
    machine: { ...machine(), loadAverageAtStart: started.load.map((l) => Number(l.toFixed(2))) },
    rows,
  };
  const text = `${JSON.stringify(report, null, 2)}\n`;
  const dated = new URL(`${report.date.replace(/[:.]/g, '-')}.json`, dir);
  writeFileSync(dated, text);
  if (!complete) return dated.pathname;
  writeFileSync(new URL('latest.json', dir), text);
  return new URL('latest.json', dir).pathname;
}

/** A Node to measure under: its executable and how the rows name it. */
export interface NodeRun {
  readonly label: string;
  readonly exec: string;
}

/**
 * The Node running the bench, then each pinned major `variable` names (comma-separated; `defaults` when it is unset,
 * none when it is empty), installed into the cache of test/support/install-node.mjs the first time.
 */
export function nodesToMeasure(variable: string, defaults: string): NodeRun[] {
  const majors = (process.env[variable] ?? defaults).split(',').filter((m) => m !== '');
  const others = majors.map((major) => ({ label: `Node ${versionOf(major)}`, exec: installNode(versionOf(major)) }));
  return [{ label: `Node ${process.versions.node}`, exec: process.execPath }, ...others];
}

/**
 * `dir`, made to hold links to the programs `names` of this process's `PATH`, and nothing else: a `PATH` on which the
 * served line is written to post with curl (no bash there). Throws when one is not on `PATH`.
 */
export function pathOf(dir: string, names: readonly string[]): string {
  mkdirSync(dir, { recursive: true });
  for (const name of names) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
    if (!found.startsWith('/')) throw new Error(`bench: ${name} is not on PATH`);
    symlinkSync(found, join(dir, name));
  }
  return dir;
}
