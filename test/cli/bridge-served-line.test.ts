/**
 * `bridge --install codex --http`: the line the built CLI writes, run by `sh -c` as an agent runs it, against a real
 * `agent-hooks serve` — and with no server, a wrong token, a project's `.curlrc`, `CURL_HOME`, proxy, `PATH`,
 * `BASH_ENV`, `SHELLOPTS` and exported functions — must answer exactly as `agent-hooks bridge --from codex` does;
 * posting through bash's `/dev/tcp` (where bash is on `PATH` when installing), and with curl (where it is not).
 */
import { readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, cliProjects, runCli, scriptHook, type CliResult } from '../support/cli.js';
import { runHookLine, startServeCli, type ServeCli } from '../support/serve-cli.js';
import { executableOnPath } from '../../src/bridge/served-bridge-line.js';

const project = cliProjects();
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

const fixture = JSON.parse(readFileSync(new URL('../bridge/fixtures/codex/PreToolUse.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const payload = (dir: string, command: string): string => JSON.stringify({ ...fixture, cwd: dir, tool_input: { command } });
/** The environment `runCli` gives the CLI in `dir`, for the line's shell and the server. */
const envIn = (dir: string, more: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: join(dir, 'xdg'), HOME: join(dir, 'home') };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  delete env.AGENT_HOOKS_TOKEN;
  return { ...env, ...more };
};

/** A running `agent-hooks serve` of the built CLI in `dir`, stopped after the test. */
async function serve(dir: string): Promise<ServeCli> {
  const server = await startServeCli(dir, envIn(dir));
  stops.push(server.stop);
  return server;
}


/** How the line posts: through bash (installed with the `PATH` of the tests), or with curl (bash not on `PATH`). */
type Via = 'bash' | 'curl';
let curlOnly: string | undefined;
/** The environment `--install` is run with for `via`: for curl, a `PATH` of curl and cat alone. */
async function installEnv(via: Via): Promise<Record<string, string> | undefined> {
  if (via === 'bash') return undefined;
  if (curlOnly === undefined) {
    const bin = await mkdtemp(join(tmpdir(), 'agent-hooks-curl-only-'));
    for (const tool of ['curl', 'cat']) await symlink((await executableOnPath(tool))!, join(bin, tool));
    curlOnly = bin;
  }
  return { PATH: curlOnly };
}

/** A project whose trusted hook refuses `rm -rf`, rewrites `echo hi`, and lets the rest through; its served line. */
async function servedProject(port?: number, via: Via = 'bash') {
  const { dir, hooks } = await project();
  await scriptHook(hooks, 'guard', { trigger: 'pre-tool-call' }, `in=$(cat)\ncase "$in" in *"rm -rf"*) echo "no rm -rf here" >&2; exit 2;; *"echo hi"*) echo '{"modified_input":{"command":"echo hello"}}';; esac\nexit 0`);
  expect((await runCli(['trust', '--all'], { cwd: dir })).code).toBe(0);
  const server = port === undefined ? await serve(dir) : undefined;
  const installed = await runCli(['bridge', '--install', 'codex', '--http', '--port', String(server?.port ?? port), '--events', 'PreToolUse'], { cwd: dir, env: await installEnv(via) });
  expect(installed.code, installed.stderr).toBe(0);
  const config = JSON.parse(await readFile(join(dir, '.codex', 'hooks.json'), 'utf8')) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } };
  const line = config.hooks.PreToolUse[0]!.hooks[0]!.command;
  expect(line.includes('/dev/tcp/'), line).toBe(via === 'bash');
  expect(line.includes('curl'), line).toBe(via === 'curl');
  const token = (await runCli(['serve', '--print-token'], { cwd: dir })).stdout.trim();
  return { dir, line, token, server };
}

const bridge = (dir: string, input: string) => runCli(['bridge', '--from', 'codex'], { cwd: dir, input });
/** The requests of the codex route the server's log shows. */
const served = (log: string): number => log.split('\n').filter((l) => l.includes('"hook request"') && l.includes('"agent":"codex"')).length;
/** Waits until the log shows `count` requests of the route (it is written just after the answer), or a second passes. */
async function servedCount(log: () => string, count: number): Promise<number> {
  for (let waited = 0; served(log()) < count && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  return served(log());
}

describe('bridge --install codex --http: the line that reaches a running serve', () => {
  for (const via of ['bash', 'curl'] as const) {
    describe(`posting ${via === 'bash' ? "through bash's /dev/tcp" : 'with curl'}`, () => {
      it('writes a line with no token and no payload in it, and answers a deny, an allow and a rewrite through serve exactly as the command bridge', async () => {
        const { dir, line, token, server } = await servedProject(undefined, via);
        expect(line).not.toContain(token);
        expect(line).toContain(via === 'bash' ? `agent-hooks-post 127.0.0.1 ${server!.port} /bridge/codex 127.0.0.1:${server!.port} ` : `127.0.0.1:${server!.port}/bridge/codex`);
        expect(line).toMatch(/\$AGENT_HOOKS_TOKEN/);
        const env = envIn(dir, { AGENT_HOOKS_TOKEN: token });
        let asked = 0;
        for (const command of ['rm -rf /', 'ls', 'echo hi']) {
          const input = payload(dir, command);
          const viaServe = await runHookLine(line, dir, input, env);
          asked++;
          expect(await servedCount(server!.log, asked), server!.log() + JSON.stringify(viaServe)).toBe(asked);
          expect(viaServe).toEqual(await bridge(dir, input));
        }
        const denied = await runHookLine(line, dir, payload(dir, 'rm -rf /'), env);
        expect(JSON.parse(denied.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no rm -rf here' } });
        const rewritten = await runHookLine(line, dir, payload(dir, 'echo hi'), env);
        expect(JSON.parse(rewritten.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { command: 'echo hello' } } });
      }, 120_000);

      it('falls back to the command bridge, with the same payload, when no server answers or the token is wrong', async () => {
        // Nothing listens on the port written (a server started and stopped on it).
        const gone = createServer();
        await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
        const port = (gone.address() as AddressInfo).port;
        await new Promise<void>((resolve) => gone.close(() => resolve()));
        const { dir, line, token } = await servedProject(port, via);
        for (const command of ['rm -rf /', 'ls', 'echo hi']) {
          const input = payload(dir, command);
          expect(await runHookLine(line, dir, input, envIn(dir, { AGENT_HOOKS_TOKEN: token }))).toEqual(await bridge(dir, input));
        }

        const running = await servedProject(undefined, via);
        const input = payload(running.dir, 'rm -rf /');
        const wrong = await runHookLine(running.line, running.dir, input, envIn(running.dir, { AGENT_HOOKS_TOKEN: 'not-the-token' }));
        expect(wrong).toEqual(await bridge(running.dir, input));
        expect(JSON.parse(wrong.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no rm -rf here' } });
        expect(running.server!.log()).toContain('wrong or missing token');
        expect(await servedCount(running.server!.log, 1)).toBe(0);
      }, 120_000);

      it('falls back when what listens answers 500, or nothing within half the entry’s timeout', async () => {
        let hang = false;
        const answered: string[] = [];
        const other: Server = createServer((req, res) => {
          answered.push(req.url ?? '');
          if (hang) return; // the connection is held, with no answer
          res.writeHead(500).end('agent-hooks-exit:0;@@agent-hooks-stdout@@.');
        });
        await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
        stops.push(async () => {
          other.closeAllConnections();
          await new Promise((resolve) => other.close(resolve));
        });
        const { dir, hooks } = await project();
        await scriptHook(hooks, 'guard', { trigger: 'pre-tool-call' }, 'cat >/dev/null; echo "no rm -rf here" >&2; exit 2');
        expect((await runCli(['trust', '--all'], { cwd: dir })).code).toBe(0);
        const port = (other.address() as AddressInfo).port;
        expect((await runCli(['bridge', '--install', 'codex', '--http', '--port', String(port), '--events', 'PreToolUse', '--timeout', '4'], { cwd: dir, env: await installEnv(via) })).code).toBe(0);
        const config = JSON.parse(await readFile(join(dir, '.codex', 'hooks.json'), 'utf8')) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } };
        const line = config.hooks.PreToolUse[0]!.hooks[0]!.command;
        expect(line).toContain(via === 'bash' ? '" 2 2>/dev/null;' : ' -m 2 ');
        const input = payload(dir, 'rm -rf /');
        const alone = await bridge(dir, input);
        expect(JSON.parse(alone.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
        expect(await runHookLine(line, dir, input, envIn(dir, { AGENT_HOOKS_TOKEN: 'any' }))).toEqual(alone);
        hang = true;
        const started = performance.now();
        expect(await runHookLine(line, dir, input, envIn(dir, { AGENT_HOOKS_TOKEN: 'any' }))).toEqual(alone);
        expect(performance.now() - started).toBeGreaterThanOrEqual(2000);
        expect(answered).toEqual(['/bridge/codex', '/bridge/codex']);
      }, 120_000);

      it('cannot be steered by the project: its .curlrc, CURL_HOME, a proxy variable, a curl, cat or bash of its own on PATH, BASH_ENV, SHELLOPTS and exported functions change nothing', async () => {
        const { dir, line, token, server } = await servedProject(undefined, via);
        const seen: string[] = [];
        const decoy: Server = createServer((req, res) => {
          seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
          res.end('agent-hooks-exit:0;@@agent-hooks-stdout@@.');
        });
        await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
        stops.push(() => new Promise((resolve) => decoy.close(() => resolve())));
        const elsewhere = `http://127.0.0.1:${(decoy.address() as AddressInfo).port}`;
        const curlrc = `url = "${elsewhere}/url"\nproxy = "${elsewhere}"\nheader = "X-Planted: 1"\n`;
        await writeFile(join(dir, '.curlrc'), curlrc);
        await mkdir(join(dir, 'home'), { recursive: true });
        await writeFile(join(dir, 'home', '.curlrc'), curlrc);
        const bin = join(dir, 'bin');
        await mkdir(bin);
        for (const tool of ['curl', 'cat', 'bash', 'env']) {
          await writeFile(join(bin, tool), `#!/bin/sh\nprintf 'agent-hooks-exit:0;@@agent-hooks-stdout@@.'\n`);
          await chmod(join(bin, tool), 0o755);
        }
        // What a bash started with the project's variables would run or print: the token is handed to none of it.
        const planted = join(dir, 'planted.sh');
        await writeFile(planted, `printf 'agent-hooks-exit:0;@@agent-hooks-stdout@@.'; exit 0\n`);
        const bashSteering = { BASH_ENV: planted, SHELLOPTS: 'xtrace', PS4: '$(cat planted.sh >&2)', 'BASH_FUNC_printf%%': '() { builtin printf "agent-hooks-exit:0;@@agent-hooks-stdout@@."; }', LC_ALL: 'C.UTF-8' };
        const env = envIn(dir, { AGENT_HOOKS_TOKEN: token, CURL_HOME: dir, http_proxy: elsewhere, HTTP_PROXY: elsewhere, ALL_PROXY: elsewhere, all_proxy: elsewhere, PATH: `${bin}:${process.env.PATH}`, ...bashSteering });
        const input = payload(dir, 'rm -rf /');
        const answer = await runHookLine(line, dir, input, env);
        expect(seen).toEqual([]);
        expect(await servedCount(server!.log, 1)).toBe(1);
        expect(answer.code).toBe(0);
        expect(JSON.parse(answer.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no rm -rf here' } });
        expect(answer.stderr).not.toContain(token);
      }, 120_000);
    });
  }

  it('is put back to the command bridge by installing without --http, and list does not take it for an outdated line', async () => {
    const { dir, line } = await servedProject(7391);
    const again = await runCli(['bridge', '--install', 'codex', '--events', 'PreToolUse'], { cwd: dir });
    expect(again.stdout).toContain('Brought the bridge up to date');
    const config = JSON.parse(await readFile(join(dir, '.codex', 'hooks.json'), 'utf8')) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } };
    expect(config.hooks.PreToolUse).toHaveLength(1);
    const plain = config.hooks.PreToolUse[0]!.hooks[0]!.command;
    expect(plain).not.toContain('curl');
    expect(line.endsWith(plain)).toBe(true);
    expect((await runCli(['bridge', '--install', 'codex', '--http', '--events', 'PreToolUse'], { cwd: dir })).stdout).toContain('Brought the bridge up to date');
    const gemini = await runCli(['bridge', '--install', 'gemini', '--http', '--events', 'BeforeTool'], { cwd: dir });
    expect(gemini.code, gemini.stderr).toBe(0);
    const list = await runCli(['list'], { cwd: dir });
    expect(list.stdout).not.toMatch(/does not clear NODE_OPTIONS/);
  }, 120_000);

  // Each agent's own payload and way of running the hook: a config entry's line, Copilot's per event, Cline's script.
  const others = [
    { agent: 'gemini', event: 'BeforeTool', fixture: 'gemini/BeforeTool.json', bridgeArgs: [] as string[] },
    { agent: 'copilot', event: 'preToolUse', fixture: 'copilot/preToolUse.json', bridgeArgs: ['--event', 'preToolUse'] },
    { agent: 'cline', event: 'PreToolUse', fixture: 'cline/PreToolUse.json', bridgeArgs: [] as string[] },
  ] as const;
  for (const other of others) {
    it(`${other.agent}: its line is answered by serve exactly as its command bridge answers`, async () => {
      const { dir, hooks } = await project();
      await scriptHook(hooks, 'refuse', { trigger: 'pre-tool-call' }, 'cat >/dev/null; echo "refused by the guard" >&2; exit 2');
      expect((await runCli(['trust', '--all'], { cwd: dir })).code).toBe(0);
      const server = await serve(dir);
      const installed = await runCli(['bridge', '--install', other.agent, '--http', '--port', String(server.port), '--events', other.event, '--json'], { cwd: dir });
      expect(installed.code, installed.stderr).toBe(0);
      const token = (await runCli(['serve', '--print-token'], { cwd: dir })).stdout.trim();
      const input = JSON.stringify({ ...(JSON.parse(readFileSync(new URL(`../bridge/fixtures/${other.fixture}`, import.meta.url), 'utf8')) as object), cwd: dir });
      const env = envIn(dir, { AGENT_HOOKS_TOKEN: token });
      const file = (JSON.parse(installed.stdout) as { file: string }).file;
      let viaServe: CliResult;
      if (other.agent === 'cline') {
        viaServe = await runHookLine(`exec ${JSON.stringify(join(file, other.event))}`, dir, input, env);
      } else {
        const config = JSON.parse(await readFile(file, 'utf8')) as { hooks: Record<string, ({ hooks?: { command: string }[]; bash?: string })[]> };
        const entry = config.hooks[other.event]![0]!;
        const line = entry.bash ?? entry.hooks![0]!.command;
        if (other.agent === 'copilot') expect(line).toContain(`/bridge/copilot/${other.event}`);
        viaServe = await runHookLine(line, dir, input, env);
      }
      const log = () => server.log().split('\n').filter((l) => l.includes('"hook request"') && l.includes(`"agent":"${other.agent}"`)).length;
      for (let waited = 0; log() < 1 && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(log(), server.log()).toBe(1);
      const alone = await runCli(['bridge', '--from', other.agent, ...other.bridgeArgs], { cwd: dir, input });
      expect(viaServe).toEqual(alone);
      expect(`${alone.stdout}${alone.stderr}`).toContain('refused by the guard');
    }, 120_000);
  }

  it('sends nothing when the project it names or the token holds a line break (it would write a header of its own): the command bridge answers', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'refuse', { trigger: 'pre-tool-call' }, 'cat >/dev/null; echo "refused by the guard" >&2; exit 2');
    expect((await runCli(['trust', '--all'], { cwd: dir })).code).toBe(0);
    const server = await serve(dir);
    const token = (await runCli(['serve', '--print-token'], { cwd: dir })).stdout.trim();
    const input = JSON.stringify({ ...(JSON.parse(readFileSync(new URL('../bridge/fixtures/gemini/BeforeTool.json', import.meta.url), 'utf8')) as object), cwd: dir });
    for (const via of ['bash', 'curl'] as const) {
      const installed = await runCli(['bridge', '--install', 'gemini', '--http', '--port', String(server.port), '--events', 'BeforeTool'], { cwd: dir, env: await installEnv(via) });
      expect(installed.code, installed.stderr).toBe(0);
      const config = JSON.parse(await readFile(join(dir, '.gemini', 'settings.json'), 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
      const line = config.hooks.BeforeTool![0]!.hooks[0]!.command;
      expect(line.includes('/dev/tcp/'), line).toBe(via === 'bash');
      // The project itself, then a header of the project's making (a request of its own after it): one value, it would
      // reach the server whole. Or the token's line ending early.
      const extras: Record<string, string>[] = [{ GEMINI_PROJECT_DIR: `${dir}\r\ncontent-length: 0\r\n\r\nx` }, { AGENT_HOOKS_TOKEN: `${token}\r\nx-planted: 1` }];
      for (const extra of extras) {
        const env = envIn(dir, { AGENT_HOOKS_TOKEN: token, ...extra });
        const answer = await runHookLine(line, dir, input, env);
        expect(answer).toEqual(await runCli(['bridge', '--from', 'gemini'], { cwd: dir, input, env: extra }));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.log()).not.toContain('"hook request"');
  }, 120_000);

  it('--uninstall takes out the served line, the command bridge and the http entries, and leaves the project’s own hooks', async () => {
    const { dir } = await project();
    await mkdir(join(dir, '.codex'), { recursive: true });
    const own = { hooks: [{ type: 'command', command: './check.sh', timeout: 5 }] };
    await writeFile(join(dir, '.codex', 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [own] } }));
    for (const [agent, event] of [['codex', 'PreToolUse'], ['copilot', 'preToolUse'], ['cline', 'PreToolUse'], ['claude', 'PreToolUse']] as const) {
      expect((await runCli(['bridge', '--install', agent, '--http', '--events', event], { cwd: dir })).code).toBe(0);
    }
    expect((await runCli(['bridge', '--install', 'codex', '--events', 'Stop'], { cwd: dir })).code).toBe(0);
    const codex = await runCli(['bridge', '--uninstall', 'codex', '--json'], { cwd: dir });
    expect(JSON.parse(codex.stdout)).toMatchObject({ removed: ['PreToolUse', 'Stop'] });
    expect(JSON.parse(await readFile(join(dir, '.codex', 'hooks.json'), 'utf8'))).toEqual({ hooks: { PreToolUse: [own] } });
    for (const agent of ['copilot', 'cline', 'claude']) {
      const result = await runCli(['bridge', '--uninstall', agent, '--json'], { cwd: dir });
      expect(JSON.parse(result.stdout), result.stderr).toMatchObject({ removed: [expect.any(String)] });
    }
    expect(await readFile(join(dir, '.claude', 'settings.json'), 'utf8')).not.toContain('/hooks/claude');
    expect(await readFile(join(dir, '.github', 'hooks', 'agent-hooks.json'), 'utf8')).not.toContain('bridge');
    expect((await runCli(['bridge', '--uninstall', 'codex'], { cwd: dir })).stdout).toContain('nothing was changed');
  }, 120_000);
});
