/**
 * A small harness over tinybench: each task runs a batch of operations per sample (so sub-microsecond operations are
 * not drowned by timer resolution), and results are reported per operation and as ratios against a baseline measured
 * in the same run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Bench } from 'tinybench';

/** One measured operation: a synchronous or asynchronous function run `batch` times per sample. */
export interface Case {
  name: string;
  op: () => unknown;
  /** Whether `op` returns a promise that must be awaited. */
  async: boolean;
}

/** A row of the report. */
export interface Row {
  suite: string;
  name: string;
  nsPerOp: number;
  rme: number;
  baseline?: string;
  ratio?: number;
  target?: string;
}

/** Measures `cases` and returns ns per operation (mean) and relative margin of error (%), by name. */
export async function measure(cases: Case[], batch = 1000, time = 400): Promise<Map<string, { ns: number; rme: number }>> {
  const bench = new Bench({ time, warmupTime: 150 });
  for (const c of cases) {
    const fn = c.async
      ? async () => {
          for (let i = 0; i < batch; i++) await c.op();
        }
      : () => {
          for (let i = 0; i < batch; i++) c.op();
        };
    bench.add(c.name, fn);
  }
  await bench.run();
  const out = new Map<string, { ns: number; rme: number }>();
  for (const task of bench.tasks) {
    const result = task.result as { state?: string; latency?: { mean: number; rme: number }; error?: unknown };
    if (!result.latency) throw new Error(`Benchmark '${task.name}' did not complete: ${String(result.error ?? result.state)}`);
    out.set(task.name, { ns: (result.latency.mean * 1e6) / batch, rme: result.latency.rme });
  }
  return out;
}

const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));

/** Prints rows as a table. */
export function printTable(rows: Row[]): void {
  const lines = rows.map((r) => [
    r.suite,
    r.name,
    `${fmt(r.nsPerOp)} ns`,
    `±${r.rme.toFixed(1)}%`,
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}× ${r.baseline}`,
    r.target ?? '',
  ]);
  const header = ['suite', 'case', 'per op', 'rme', 'ratio', 'target'];
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(line(l));
}

/** Writes the report as JSON under bench/results/ (a dated file and latest.json). */
export function writeReport(rows: Row[]): string {
  const dir = new URL('./results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    rows,
  };
  const stamp = report.date.replace(/[:.]/g, '-');
  writeFileSync(new URL(`kernel-${stamp}.json`, dir), JSON.stringify(report, null, 2));
  writeFileSync(new URL('latest.json', dir), JSON.stringify(report, null, 2));
  return new URL('latest.json', dir).pathname;
}
