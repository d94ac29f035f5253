import { execFile, spawn } from 'node:child_process';
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptHook, tempProject } from '../support/cli.js';

// Hooks reached through links: a script that is a link to a project file, and a user hooks folder that is a link (as
// dotfiles managers make it). The real command serves them; the files change under it as a `git pull` changes them.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX_CLI = ['--import', join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs'), join(ROOT, 'src', 'cli', 'index.ts')];
const TOKEN = 'links-token-0123456789abcdef0123456789ab';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function project() {
  const p = await tempProject();
  cleanups.push(p.cleanup);
  const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1', HOME: join(p.dir, 'home'), XDG_CONFIG_HOME: join(p.dir, 'xdg'), AGENT_HOOKS_TOKEN: TOKEN };
  return { ...p, env };
}

const run = (args: string[], cwd: string, env: Record<string, string>, input?: string) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(process.execPath, [...TSX_CLI, ...args], { cwd, env }, (error, stdout, stderr) => resolve({ code: error === null ? 0 : ((error as { code?: number }).code ?? null), stdout, stderr }));
    if (input !== undefined) child.stdin!.end(input);
  });

async function serve(dir: string, env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [...TSX_CLI, 'serve', '--port', '0', '--reload-interval', '100'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  cleanups.push(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  let buffer = '';
  return new Promise((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      const line = buffer.split('\n').find((l) => l.includes('"listening"'));
      if (line !== undefined) resolve((JSON.parse(line) as { hooks: string }).hooks);
    });
    void exited.then(() => reject(new Error(`serve exited before listening: ${buffer}`)));
  });
}

const payload = (cwd: string) => JSON.stringify({ session_id: 's', transcript_path: '/tmp/t.jsonl', cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_use_id: 't1' });

/** What serve answers for `rm -rf /`: `deny`, or `allow` when nothing refused it. */
async function serveDecision(url: string, cwd: string): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: payload(cwd) });
  expect(res.status).toBe(200);
  const json = (await res.json()) as { hookSpecificOutput?: { permissionDecision?: string } };
  return json.hookSpecificOutput?.permissionDecision ?? 'allow';
}

/** What the command bridge answers for the same call. */
async function bridgeDecision(dir: string, env: Record<string, string>): Promise<string> {
  const { code, stdout, stderr } = await run(['bridge', '--from', 'claude'], dir, { ...env, CLAUDE_PROJECT_DIR: dir }, payload(dir));
  if (code === 2 || /"permissionDecision":\s*"deny"/.test(stdout)) return 'deny';
  expect(code, stderr).toBe(0);
  return 'allow';
}

const GUARD = '#!/bin/sh\ncat >/dev/null\necho "No rm -rf" >&2\nexit 2\n';

describe('agent-hooks serve follows links as the trust check does', () => {
  it('stops running a trusted hook whose script is a link to a project file once that file is edited, as the command bridge does', async () => {
    const p = await project();
    await mkdir(join(p.dir, 'tools'));
    await writeFile(join(p.dir, 'tools', 'guard.sh'), GUARD, { mode: 0o755 });
    const hook = await scriptHook(p.hooks, 'guard', { trigger: 'pre-tool-call' });
    await rename(join(hook, 'scripts', 'run'), join(p.dir, 'unused'));
    await symlink(join(p.dir, 'tools', 'guard.sh'), join(hook, 'scripts', 'run'));
    expect((await run(['trust', '--all'], p.dir, p.env)).code).toBe(0);
    const url = await serve(p.dir, p.env);
    expect(await serveDecision(url, p.dir)).toBe('deny');
    expect(await bridgeDecision(p.dir, p.env)).toBe('deny');

    // A `git pull` rewrites the file the link points to: the hook is no longer the one trusted.
    await writeFile(join(p.dir, 'tools', 'guard.sh'), '#!/bin/sh\ncat >/dev/null\necho "now something else" >&2\nexit 2\n', { mode: 0o755 });
    expect(await bridgeDecision(p.dir, p.env)).toBe('allow');
    await expect.poll(() => serveDecision(url, p.dir), { timeout: 5000, interval: 200 }).toBe('allow');

    // Trusted again, it runs again.
    expect((await run(['trust', '--all'], p.dir, p.env)).code).toBe(0);
    await expect.poll(() => serveDecision(url, p.dir), { timeout: 5000, interval: 200 }).toBe('deny');
  }, 60_000);

  it('picks up a guard added to, and an edit in, a user hooks folder that is a link', async () => {
    const p = await project();
    const dotfiles = join(p.dir, 'dotfiles', 'hooks');
    await mkdir(dotfiles, { recursive: true });
    await mkdir(join(p.dir, 'xdg', 'agents'), { recursive: true });
    await symlink(dotfiles, join(p.dir, 'xdg', 'agents', 'hooks'));
    const url = await serve(p.dir, p.env);
    expect(await serveDecision(url, p.dir)).toBe('allow');

    const guard = await scriptHook(dotfiles, 'user-guard', { trigger: 'pre-tool-call' }, GUARD);
    expect(await bridgeDecision(p.dir, p.env)).toBe('deny');
    await expect.poll(() => serveDecision(url, p.dir), { timeout: 5000, interval: 200 }).toBe('deny');

    await writeFile(join(guard, 'scripts', 'run'), '#!/bin/sh\ncat >/dev/null\nexit 0\n', { mode: 0o755 });
    expect(await bridgeDecision(p.dir, p.env)).toBe('allow');
    await expect.poll(() => serveDecision(url, p.dir), { timeout: 5000, interval: 200 }).toBe('allow');
  }, 60_000);
});
