import { spawn, execFile } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { HookOutcome, HookStack, sampleContext, TrustStore } from 'agent-hooks';
import { installHttpBridge } from '../../src/bridge/install-http-bridge.js';
import { ReloadingStack } from '../../src/bridge/serve/reloading-stack.js';
import { loadServeToken, serveTokenPath } from '../../src/bridge/serve/serve-token.js';
import { bridgeStackSource } from '../../src/cli/serve-source.js';
import { scriptHook, tempProject } from '../support/cli.js';

// The command line runs from src/ through tsx: no build is needed, and the shared dist/ is left alone.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX_CLI = ['--import', join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs'), join(ROOT, 'src', 'cli', 'index.ts')];

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function project() {
  const p = await tempProject();
  cleanups.push(p.cleanup);
  const env = { HOME: join(p.dir, 'home'), XDG_CONFIG_HOME: join(p.dir, 'xdg') };
  return { ...p, env };
}

const cliEnv = (env: Record<string, string>): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, NO_COLOR: '1', ...env });
const cli = (args: string[], cwd: string, env: Record<string, string>) => promisify(execFile)(process.execPath, [...TSX_CLI, ...args], { cwd, env: cliEnv(env) });

const pre = (command: string) => sampleContext('PreToolUse', { tool_name: 'Bash', tool_input: { command } });
const block = (stack: HookStack) => stack.process(pre('rm -rf /')).then((o) => o.type);

describe('agent-hooks serve: hooks reloaded, trust enforced on every load', () => {
  it('runs a project hook only once trusted, and skips it again once edited, without a restart', async () => {
    const p = await project();
    const hook = await scriptHook(p.hooks, 'guard', { trigger: 'pre-tool-call' }, 'cat >/dev/null; echo "refused" >&2; exit 2');
    const store = TrustStore.forUser({ hostEnv: p.env });
    const holder = await ReloadingStack.start(bridgeStackSource({ projectDir: p.dir, hooksDirs: [], hostEnv: p.env, trust: store }), { intervalMs: 0 });
    expect(await block(holder.current)).toBe('proceed');

    await cli(['trust', '--all'], p.dir, p.env);
    expect(await holder.check()).toBe(true);
    expect(await block(holder.current)).toBe('block');

    // An edit the user has not reviewed: the next load skips it.
    await writeFile(join(hook, 'scripts', 'run'), '#!/bin/sh\ncat >/dev/null\necho "changed" >&2\nexit 2\n');
    expect(await holder.check()).toBe(true);
    expect(await block(holder.current)).toBe('proceed');
    expect(await holder.check()).toBe(false);
    expect(holder.loads).toBe(3);
    holder.stop();
  }, 30_000);

  it('picks up a new hook folder and an edited config module (imported afresh), and refuses while the module cannot load', async () => {
    const p = await project();
    const config = join(p.dir, 'hooks.config.mjs');
    await writeFile(config, `export default [(ctx, next) => next(ctx)];\n`);
    const holder = await ReloadingStack.start(bridgeStackSource({ projectDir: p.dir, hooksDirs: [], hostEnv: p.env, trust: 'all', config }), { intervalMs: 0 });
    expect(await block(holder.current)).toBe('proceed');
    const agentHooks = join(ROOT, 'src', 'index.ts');
    await writeFile(config, `import { HookOutcome } from ${JSON.stringify(agentHooks)};\nexport default [() => HookOutcome.block('from the module')];\n`);
    expect(await holder.check()).toBe(true);
    expect(await block(holder.current)).toBe('block');
    await writeFile(config, 'export default [ syntax error');
    expect(await holder.check()).toBe(true);
    expect(holder.failure).toMatch(/./);
    await writeFile(config, `export default [(ctx, next) => next(ctx)];\n`);
    await scriptHook(p.hooks, 'late', { trigger: 'pre-tool-call' }, 'cat >/dev/null; echo late >&2; exit 2');
    expect(await holder.check()).toBe(true);
    expect(holder.failure).toBeUndefined();
    expect(await block(holder.current)).toBe('block');
    holder.stop();
  }, 30_000);
});

describe('the serve token', () => {
  it('is generated once, mode 0600 in a folder of mode 0700 beside the trust store, and read back after', async () => {
    const p = await project();
    const file = serveTokenPath({ hostEnv: p.env });
    expect(file).toBe(join(p.env.XDG_CONFIG_HOME, 'agent-hooks', 'serve-token'));
    const first = await loadServeToken(file, {});
    expect(first.source).toBe('created');
    expect(first.token.length).toBeGreaterThanOrEqual(40);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(p.env.XDG_CONFIG_HOME, 'agent-hooks'))).mode & 0o777).toBe(0o700);
    expect(await loadServeToken(file, {})).toMatchObject({ token: first.token, source: 'file' });
    expect(await loadServeToken(file, { AGENT_HOOKS_TOKEN: 'x'.repeat(40) })).toMatchObject({ token: 'x'.repeat(40), source: 'env' });
    await expect(loadServeToken(file, { AGENT_HOOKS_TOKEN: 'short' })).rejects.toThrow(/at least 32/);
  });

  it('is refused from a file others can read', async () => {
    const p = await project();
    const file = join(p.dir, 'token');
    await writeFile(file, 'y'.repeat(40), { mode: 0o644 });
    await expect(loadServeToken(file, {})).rejects.toThrow(/other users/);
  });
});

describe('agent-hooks serve (the command)', () => {
  it('listens on loopback, logs JSON lines, answers with the token it printed, and shuts down on SIGTERM', async () => {
    const p = await project();
    await scriptHook(p.hooks, 'no-rm', { trigger: 'pre-tool-call' }, 'input=$(cat); case "$input" in *"rm -rf"*) echo "No rm -rf" >&2; exit 2;; esac; exit 0');
    const { stdout } = await cli(['serve', '--print-token'], p.dir, p.env);
    const token = stdout.trim();
    const child = spawn(process.execPath, [...TSX_CLI, 'serve', '--trust-all', '--port', '0'], { cwd: p.dir, env: cliEnv(p.env), stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: Record<string, unknown>[] = [];
    let buffer = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
        lines.push(JSON.parse(buffer.slice(0, i)) as Record<string, unknown>);
        buffer = buffer.slice(i + 1);
      }
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      await expect.poll(() => lines.find((l) => l.msg === 'listening'), { timeout: 15_000 }).toBeDefined();
      const listening = lines.find((l) => l.msg === 'listening')!;
      expect(listening.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const ask = (command: string, auth = `Bearer ${token}`) =>
        fetch(`${listening.hooks as string}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: auth },
          body: JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: p.dir }),
        });
      const denied = await ask('rm -rf /');
      expect(denied.status).toBe(200);
      expect(await denied.json()).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'No rm -rf' } });
      expect((await ask('rm -rf /', 'Bearer nope')).status).toBe(401);
      // The log line is written after the answer is sent: it may reach this process a moment later.
      await expect.poll(() => lines).toContainEqual(expect.objectContaining({ msg: 'hook request', event: 'PreToolUse', tool: 'Bash', status: 200, decision: 'block' }));
      await expect.poll(() => lines.some((l) => l.level === 'warn' && l.status === 401)).toBe(true);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'stopped', drained: true }));
  }, 40_000);

  it('warns when told to listen beyond loopback', async () => {
    const p = await project();
    const child = spawn(process.execPath, [...TSX_CLI, 'serve', '--port', '0', '--host', '0.0.0.0', '--log-format', 'text'], { cwd: p.dir, env: cliEnv(p.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (text += c));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      await expect.poll(() => text, { timeout: 15_000 }).toMatch(/listening/);
      expect(text).toMatch(/WARN .*not a loopback address/);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  }, 40_000);
});

describe('agent-hooks bridge --install claude --http', () => {
  it('writes http entries with the token header, fail-closed on guard events, replacing the command bridge, and changes nothing the second time', async () => {
    const p = await project();
    await mkdir(join(p.dir, '.claude'), { recursive: true });
    const before = {
      permissions: { allow: ['Bash(ls)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-hooks bridge --from claude', timeout: 30 }, { type: 'command', command: 'my-own-check' }] }],
      },
    };
    await writeFile(join(p.dir, '.claude', 'settings.json'), JSON.stringify(before));
    const result = await installHttpBridge({ projectDir: p.dir, events: ['PreToolUse', 'Stop', 'after_tool'], baseUrl: 'http://127.0.0.1:7391' });
    expect(result).toMatchObject({ added: ['Stop', 'PostToolUse'], updated: ['PreToolUse'], present: [], url: 'http://127.0.0.1:7391/hooks/claude' });
    const settings = JSON.parse(await readFile(join(p.dir, '.claude', 'settings.json'), 'utf8'));
    const http = { type: 'http', url: 'http://127.0.0.1:7391/hooks/claude', headers: { Authorization: 'Bearer $AGENT_HOOKS_TOKEN' }, allowedEnvVars: ['AGENT_HOOKS_TOKEN'], timeout: 60 };
    expect(settings).toEqual({
      permissions: { allow: ['Bash(ls)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ ...http, onFailure: 'block' }, { type: 'command', command: 'my-own-check' }] }],
        Stop: [{ hooks: [http] }],
        PostToolUse: [{ hooks: [http] }],
      },
    });
    const again = await installHttpBridge({ projectDir: p.dir, events: ['PreToolUse', 'Stop', 'PostToolUse'], baseUrl: 'http://127.0.0.1:7391' });
    expect(again).toMatchObject({ added: [], updated: [], present: ['PreToolUse', 'Stop', 'PostToolUse'], backup: undefined });
    const moved = await installHttpBridge({ projectDir: p.dir, events: ['PreToolUse'], baseUrl: 'http://127.0.0.1:8000', timeoutSeconds: 20 });
    expect(moved.updated).toEqual(['PreToolUse']);
    const after = JSON.parse(await readFile(join(p.dir, '.claude', 'settings.json'), 'utf8'));
    expect(after.hooks.PreToolUse[0].hooks[0]).toEqual({ ...http, url: 'http://127.0.0.1:8000/hooks/claude', timeout: 20, onFailure: 'block' });
  });

  it('writes the very entries the serve section of the bridge’s documentation shows', async () => {
    const doc = await readFile(join(ROOT, 'docs', 'bridge.md'), 'utf8');
    const block = /## The bridge as an HTTP hook endpoint: agent-hooks serve[\s\S]*?```jsonc\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(block, 'the jsonc block of the serve section').toBeDefined();
    const shown = JSON.parse(block!.split('\n').filter((l) => !l.startsWith('//')).join('\n'));
    const p = await project();
    await installHttpBridge({ projectDir: p.dir, events: ['PreToolUse', 'Stop'], baseUrl: 'http://127.0.0.1:7391' });
    expect(JSON.parse(await readFile(join(p.dir, '.claude', 'settings.json'), 'utf8'))).toEqual(shown);
  });

  it('is reached from the command line, with --port', async () => {
    const p = await project();
    const { stdout } = await cli(['bridge', '--install', 'claude', '--http', '--port', '7400', '--events', 'PreToolUse', '--json'], p.dir, p.env);
    expect(JSON.parse(stdout)).toMatchObject({ agent: 'claude', added: ['PreToolUse'], url: 'http://127.0.0.1:7400/hooks/claude' });
    const settings = JSON.parse(await readFile(join(p.dir, '.claude', 'settings.json'), 'utf8'));
    expect(settings.hooks.PreToolUse[0].hooks[0]).toMatchObject({ type: 'http', onFailure: 'block' });
    // An agent whose hooks are commands gets the served line (test/cli/bridge-served-line.test.ts); one with a plugin, nothing.
    await expect(cli(['bridge', '--install', 'opencode', '--http'], p.dir, p.env)).rejects.toMatchObject({ stderr: expect.stringMatching(/--http does not apply to OpenCode/) });
    await expect(cli(['bridge', '--install', 'claude', '--http', '--user'], p.dir, p.env)).rejects.toMatchObject({ stderr: expect.stringMatching(/leave out --command and --user/) });
  }, 30_000);
});

describe('the stack a test builds', () => {
  it('blocks with a callback (sanity of the helpers above)', async () => {
    expect(await block(new HookStack().with(() => HookOutcome.block('x')))).toBe('block');
  });
});
