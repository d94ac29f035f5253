/**
 * `agent-hooks serve` under load: 100 concurrent clients POSTing Claude Code PreToolUse payloads over kept-alive
 * connections, each answered by one in-process callback hook (a config module), against a bare node:http server
 * that reads the same body, parses it and answers `{}` — the floor any node HTTP endpoint pays at that concurrency.
 * Then one client, one request at a time, as an agent makes its calls. Both servers run as child processes (the real
 * `agent-hooks serve` command line — the built `dist/cli.cjs`, what a user runs, or the file `AGENT_HOOKS_E2E_CLI`
 * names; from source through tsx when there is no build — with its default logging: a JSON line per request, to a
 * file), measured in alternating rounds by the same client, under the Node running the bench and under each of the
 * pinned Nodes `SERVE_NODES` names (default 22 and 24, installed by test/support/install-node.mjs the first time;
 * `SERVE_NODES=` for this Node alone), both servers under the same Node. Reported per Node: the p50 and p99 of each
 * request's latency as the client sees it, and throughput; the targets are serve's p99 at 100 in flight against the
 * bare server's, and what serve adds to a request's p50 one at a time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { finishRow, nodesToMeasure, ratioTarget, valueTarget, type NodeRun, type Row } from './harness.js';

const CONCURRENCY = 100;
const ROUND_MS = Number(process.env.SERVE_BENCH_ROUND_MS ?? 3000);
const WARMUP_MS = 1000;
const ROUNDS = Number(process.env.SERVE_BENCH_ROUNDS ?? 2);
/** How long each round sends one request at a time. */
const SINGLE_MS = Math.min(ROUND_MS, 2000);
const TOKEN = 'bench-token-0123456789abcdef0123456789abcdef';
const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The payload of a session in `cwd`: the server's project, which it answers for (another project's is refused). */
const bodyIn = (cwd: string): string =>
  JSON.stringify({
    session_id: 'bench',
    transcript_path: '/tmp/t.jsonl',
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'ls -la', description: 'list' },
    tool_use_id: 'toolu_bench',
  });

/** The baseline: node:http, the body read and parsed, `{}` answered. */
const ECHO = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (req.method === 'POST') JSON.parse(Buffer.concat(chunks).toString('utf8'));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 });
    res.end('{}');
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

interface Running {
  readonly child: ChildProcess;
  readonly url: string;
}

/** A port free now, for the next server. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts `args` (given its port as PORT) with its log going to a file, as a server's log goes to a terminal or a
 * file — not to a pipe, whose writes block in node on Linux once this busy client falls behind reading them — and
 * waits until it answers `GET /health`.
 */
async function start(node: string, args: (port: number) => readonly string[], env: NodeJS.ProcessEnv, cwd: string, log: string): Promise<Running> {
  const port = await freePort();
  const fd = openSync(log, 'w');
  const child = spawn(node, args(port), { cwd, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', fd] });
  closeSync(fd);
  let exited: number | null | undefined;
  child.on('close', (code) => (exited = code));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if ((await fetch(`${url}/health`).then((r) => r.status, () => 0)) === 200) return { child, url };
    if (exited !== undefined || Date.now() > deadline) throw new Error(`${args(port).join(' ')} did not listen (exit ${exited}):\n${readFileSync(log, 'utf8')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stop(running: Running): Promise<void> {
  const closed = new Promise((resolve) => running.child.on('close', resolve));
  running.child.kill('SIGTERM');
  await closed;
}

/** `concurrency` clients in closed loops for `ms`; the latency of each request, in ms, and the requests per second. */
async function load(url: string, ms: number, path: string, body: string, concurrency: number = CONCURRENCY): Promise<{ latencies: number[]; perSecond: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${TOKEN}` };
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const t0 = performance.now();
      const req = request(`${url}${path}`, { method: 'POST', agent, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          // The hooks ran and let the call through: a refusal (another project's answer) would measure something else.
          if (res.statusCode !== 200 || text !== '{}') return reject(new Error(`status ${res.statusCode}: ${text.slice(0, 200)}`));
          latencies.push(performance.now() - t0);
          resolve();
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  const end = performance.now() + ms;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) await one();
    }),
  );
  const elapsed = performance.now() - started;
  agent.destroy();
  return { latencies, perSecond: (latencies.length / elapsed) * 1000 };
}

const quantile = (xs: readonly number[], q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

/** A case's name and the latencies of its requests, in ms. */
type Latencies = readonly [name: string, latencies: readonly number[]];

/**
 * The rows of the one-at-a-time runs: the bare server's p50, and what each of `others` adds to it (the target:
 * 0.3 ms).
 */
function singleRows(suite: string, [base, baseLatencies]: Latencies, others: readonly Latencies[]): Row[] {
  const baseP50 = quantile(baseLatencies, 0.5);
  return [
    finishRow({ suite, name: `${base}: p50`, unit: 'ms', mean: baseP50, median: baseP50, note: `${baseLatencies.length} requests` }),
    ...others.map(([name, latencies]) => {
      const p50 = quantile(latencies, 0.5);
      return finishRow({
        suite,
        name: `${name}: p50 over the bare server's`,
        unit: 'ms',
        mean: p50 - baseP50,
        target: valueTarget(0.3, '≤ 0.3 ms'),
        note: `${latencies.length} requests, p50 ${p50.toFixed(3)} ms against ${baseP50.toFixed(3)} ms`,
      });
    }),
  ];
}

export async function serveSuite(): Promise<Row[]> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'agent-hooks-bench-serve-')));
  try {
    const config = join(dir, 'agent-hooks.config.mjs');
    // One callback hook on every event: it reads the call and lets it proceed. Named by its absolute path, it is a
    // module the user chose and loads without trust (a relative --config is the project's, and would need trust).
    await writeFile(config, 'export default [(ctx, next) => next(ctx)];\n');
    const env = { ...process.env, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg'), AGENT_HOOKS_TOKEN: TOKEN };
    // The command line a user runs: the one named (as the end-to-end suite's AGENT_HOOKS_E2E_CLI), else the build,
    // else the sources through tsx.
    const built = process.env.AGENT_HOOKS_E2E_CLI ?? (existsSync(join(ROOT, 'dist', 'cli.cjs')) ? join(ROOT, 'dist', 'cli.cjs') : undefined);
    const cli = built !== undefined ? [built] : ['--import', join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs'), join(ROOT, 'src', 'cli', 'index.ts')];
    const rows: Row[] = [];
    // Both servers under this Node, then the pinned 22 and 24; `SERVE_NODES=` (empty) measures this one alone.
    for (const node of nodesToMeasure('SERVE_NODES', '22,24')) rows.push(...(await measureNode(node, dir, [...cli, 'serve', '--config', config, '--reload-interval', '0'], env)));
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Both servers under `node`, in alternating rounds: the rows of one Node. `serve` is the serve command line. */
async function measureNode(node: NodeRun, dir: string, serve: readonly string[], env: NodeJS.ProcessEnv): Promise<Row[]> {
  const body = bodyIn(dir);
  const cases = [
    { name: 'bare node:http (reads, parses, answers {})', args: () => ['-e', ECHO], path: '/' },
    { name: 'agent-hooks serve, one callback hook', args: (port: number) => [...serve, '--port', String(port)], path: '/hooks/claude' },
    { name: 'the same, --log-level warn (no line per request)', args: (port: number) => [...serve, '--port', String(port), '--log-level', 'warn'], path: '/hooks/claude' },
  ];
  const samples = new Map(cases.map((c) => [c.name, { latencies: [] as number[], perSecond: [] as number[] }]));
  // One request at a time, on the same servers: what an agent's call pays.
  const single = new Map(cases.map((c) => [c.name, [] as number[]]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of round % 2 === 0 ? cases : [...cases].reverse()) {
      const running = await start(node.exec, c.args, env, dir, join(dir, 'server.log'));
      try {
        await load(running.url, WARMUP_MS, c.path, body);
        const { latencies, perSecond } = await load(running.url, ROUND_MS, c.path, body);
        samples.get(c.name)!.latencies.push(...latencies);
        samples.get(c.name)!.perSecond.push(perSecond);
        single.get(c.name)!.push(...(await load(running.url, SINGLE_MS, c.path, body, 1)).latencies);
      } finally {
        await stop(running);
      }
    }
  }
  const suite = `serve: ${CONCURRENCY} concurrent hook requests (keep-alive, Claude PreToolUse payload), ${node.label}`;
  const [base, ours, quiet] = cases.map((c) => samples.get(c.name)!);
  const p = (s: { latencies: number[] }, q: number) => quantile(s.latencies, q);
  const rps = (s: { perSecond: number[] }) => s.perSecond.reduce((a, b) => a + b, 0) / s.perSecond.length;
  const BASE = cases[0]!.name;
  const OURS = cases[1]!.name;
  return [
    finishRow({ suite, name: `${BASE}: p50`, unit: 'ms', mean: p(base!, 0.5), median: p(base!, 0.5), note: `${base!.latencies.length} requests, ${rps(base!).toFixed(0)} per second` }),
    finishRow({ suite, name: `${BASE}: p99`, unit: 'ms', mean: p(base!, 0.99) }),
    finishRow({
      suite,
      name: `${OURS}: p50`,
      unit: 'ms',
      mean: p(ours!, 0.5),
      median: p(ours!, 0.5),
      baseline: BASE,
      ratio: p(ours!, 0.5) / p(base!, 0.5),
      note: `${ours!.latencies.length} requests, ${rps(ours!).toFixed(0)} per second (${((rps(ours!) / rps(base!)) * 100).toFixed(0)}% of the bare server's); at ${CONCURRENCY} in flight a latency is mostly the wait behind the others, so p50 ≈ ${CONCURRENCY} / throughput`,
    }),
    finishRow({ suite, name: `${OURS}: p99`, unit: 'ms', mean: p(ours!, 0.99), baseline: BASE, ratio: p(ours!, 0.99) / p(base!, 0.99), target: ratioTarget(1.3, BASE) }),
    finishRow({
      suite,
      name: `${cases[2]!.name}: p50`,
      unit: 'ms',
      mean: p(quiet!, 0.5),
      median: p(quiet!, 0.5),
      baseline: BASE,
      ratio: p(quiet!, 0.5) / p(base!, 0.5),
      note: `${quiet!.latencies.length} requests, ${rps(quiet!).toFixed(0)} per second (${((rps(quiet!) / rps(base!)) * 100).toFixed(0)}% of the bare server's)`,
    }),
    finishRow({ suite, name: `${cases[2]!.name}: p99`, unit: 'ms', mean: p(quiet!, 0.99), baseline: BASE, ratio: p(quiet!, 0.99) / p(base!, 0.99) }),
    ...singleRows(`serve: one hook request at a time (keep-alive, Claude PreToolUse payload), ${node.label}`, [BASE, single.get(BASE)!], cases.slice(1).map((c) => [c.name, single.get(c.name)!] as const)),
  ];
}

// Run alone: `node --import tsx bench/serve.ts`.
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = await serveSuite();
  for (const row of rows) console.log(`${row.name}: ${row.mean.toFixed(2)} ms${row.ratio === undefined ? '' : ` (${row.ratio.toFixed(2)}×)`}${row.note === undefined ? '' : ` — ${row.note}`}`);
}
