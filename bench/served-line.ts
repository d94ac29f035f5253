/**
 * What one hook call costs a command agent through the line `bridge --install codex --http` writes, with
 * `agent-hooks serve` running: the whole `sh -c <line>` — sh, cat, the request (through bash's `/dev/tcp`, as the line
 * is written where bash is on `PATH`; and with curl, as it is written where bash is not), serve's dispatch and the
 * answer split by the shell — against a bare `node -e ''` and against the command bridge (`agent-hooks bridge --from
 * codex`), all given the same Codex PreToolUse payload on stdin, started the same way, alternating, compared by
 * medians in the same run. The project has one trusted HOOK.md hook that matches the call, so each run also pays for
 * its script (in serve, or in the bridge). Then the line with no server listening: its fallback to the command bridge.
 *
 * Needs a built CLI (`dist/cli.cjs`, or the file `AGENT_HOOKS_CLI` names), bash and curl.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { finishRow, median, pathOf, ratioTarget, stats, timeProcess, type Row } from './harness.js';

const CLI = process.env.AGENT_HOOKS_CLI ?? fileURLToPath(new URL('../dist/cli.cjs', import.meta.url));
const ROUNDS = Number(process.env.SERVED_LINE_ROUNDS ?? 30);

/** Wall time of one process given `input`, in ms; throws when it fails. */
const timed = (command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, input: string): number => timeProcess(command, args, { cwd, env, input });

/** Starts `agent-hooks serve --port 0` in `dir`; resolves with its port once it listens. */
function startServe(dir: string, env: NodeJS.ProcessEnv): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      log += chunk;
      const line = log.split('\n').find((l) => l.includes('"listening"'));
      if (line !== undefined) resolve({ port: Number(new URL((JSON.parse(line) as { url: string }).url).port), child });
    });
    child.on('close', (code) => reject(new Error(`serve exited ${code}: ${log}`)));
  });
}

export async function servedLineSuite(): Promise<Row[]> {
  const root = mkdtempSync(join(tmpdir(), 'agent-hooks-bench-line-'));
  const dir = join(root, 'project');
  const home = join(root, 'home');
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), AGENT_HOOKS_CACHE_DIR: join(home, '.cache', 'agent-hooks') };
  const hook = join(dir, '.agents', 'hooks', 'shell-guard');
  mkdirSync(join(hook, 'scripts'), { recursive: true });
  writeFileSync(join(hook, 'HOOK.md'), '---\nname: shell-guard\ndescription: Reads the payload and lets the call proceed.\ntrigger: pre-tool-call\nmatcher:\n  tool: Shell\n---\n');
  writeFileSync(join(hook, 'scripts', 'run'), '#!/bin/sh\ncat >/dev/null\n');
  chmodSync(join(hook, 'scripts', 'run'), 0o755);
  const input = JSON.stringify({ session_id: 'bench', turn_id: 't', transcript_path: null, cwd: dir, hook_event_name: 'PreToolUse', model: 'm', permission_mode: 'default', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'c1' });
  const server = await startServe(dir, env);
  try {
    timed(process.execPath, [CLI, 'trust', '--all'], dir, env, '');
    // The line as `--install` writes it where bash is not on PATH: curl's.
    const curlOnly = pathOf(join(root, 'curl-only'), ['curl', 'cat']);
    const install = (port: number, installEnv = env): string => {
      timed(process.execPath, [CLI, 'bridge', '--install', 'codex', '--http', '--port', String(port), '--events', 'PreToolUse'], dir, installEnv, '');
      const config = JSON.parse(readFileSync(join(dir, '.codex', 'hooks.json'), 'utf8')) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } };
      return config.hooks.PreToolUse[0]!.hooks[0]!.command;
    };
    const token = String(spawnSync(process.execPath, [CLI, 'serve', '--print-token'], { cwd: dir, env }).stdout).trim();
    const lineEnv = { ...env, AGENT_HOOKS_TOKEN: token };
    const viaCurl = install(server.port, { ...env, PATH: curlOnly });
    const served = install(server.port);
    if (!served.includes('/dev/tcp/') || !viaCurl.includes('curl')) throw new Error(`served-line: expected a bash line and a curl line, got:\n${served}\n${viaCurl}`);
    const runs = {
      bare: (): number => timed(process.execPath, ['-e', ''], dir, env, input),
      line: (): number => timed('sh', ['-c', served], dir, lineEnv, input),
      curl: (): number => timed('sh', ['-c', viaCurl], dir, lineEnv, input),
      bridge: (): number => timed(process.execPath, [CLI, 'bridge', '--from', 'codex'], dir, env, input),
    };
    // A first call of each fills the caches (discovery, compile cache, serve's first load).
    for (const run of Object.values(runs)) run();
    const samples = { bare: [] as number[], line: [] as number[], curl: [] as number[], bridge: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['bare', 'line', 'curl', 'bridge'] as const) : (['bridge', 'curl', 'line', 'bare'] as const);
      for (const which of order) samples[which].push(runs[which]());
    }
    // No server on the port written: the line's fallback, against the command bridge alone.
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('close', resolve));
    const fallback = { line: [] as number[], bridge: [] as number[] };
    for (let round = 0; round < Math.ceil(ROUNDS / 2); round++) {
      for (const which of round % 2 === 0 ? (['line', 'bridge'] as const) : (['bridge', 'line'] as const)) fallback[which].push(runs[which]());
    }
    const suite = "Codex's hook line to agent-hooks serve (whole process, PreToolUse on stdin, one HOOK.md hook)";
    const base = median(samples.bare);
    const row = (name: string, xs: number[], note: string, max?: number): Row => {
      const timing = stats(xs);
      return finishRow({ suite, name, unit: 'ms', mean: timing.mean, median: timing.median, rme: timing.rme, baseline: "node -e ''", ratio: timing.median / base, target: max === undefined ? undefined : ratioTarget(max, "node -e ''"), note });
    };
    return [
      finishRow({ suite, name: "node -e ''", unit: 'ms', mean: stats(samples.bare).mean, median: base, note: `${ROUNDS} rounds` }),
      row('sh -c <served line>, serve running (posting through bash)', samples.line, `the command bridge ${(median(samples.bridge) / median(samples.line)).toFixed(1)}× it in the same rounds`, 1),
      row('sh -c <served line written without bash on PATH>, serve running (posting with curl)', samples.curl, `${(median(samples.curl) - median(samples.line)).toFixed(1)} ms more than through bash, in the same rounds`, 1),
      row('agent-hooks bridge --from codex', samples.bridge, `${ROUNDS} rounds`),
      row('sh -c <served line>, no server: falls back to the bridge', fallback.line, `the bridge alone ${median(fallback.bridge).toFixed(1)} ms in the same ${fallback.line.length} rounds`),
    ];
  } finally {
    server.child.kill('SIGTERM');
    rmSync(root, { recursive: true, force: true });
  }
}
