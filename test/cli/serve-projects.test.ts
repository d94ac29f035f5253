import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptHook, tempProject } from '../support/cli.js';

// `--install claude --http` writes the same URL into every project: a Claude Code session in project B reaches the
// server that runs for project A. These cases are that session's requests, sent to the real command.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX_CLI = ['--import', join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs'), join(ROOT, 'src', 'cli', 'index.ts')];
const TOKEN = 'projects-token-0123456789abcdef0123456789';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function project() {
  const p = await tempProject();
  cleanups.push(p.cleanup);
  return p;
}

/** `agent-hooks serve --trust-all --port 0` in `dir`; resolves with its hooks URL once it listens. */
async function serve(dir: string): Promise<{ hooks: string; child: ChildProcess }> {
  const env = { PATH: process.env.PATH, NO_COLOR: '1', HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg'), AGENT_HOOKS_TOKEN: TOKEN };
  const child = spawn(process.execPath, [...TSX_CLI, 'serve', '--trust-all', '--port', '0'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  cleanups.push(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  let buffer = '';
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      const line = buffer.split('\n').find((l) => l.includes('"listening"'));
      if (line !== undefined) resolve({ hooks: (JSON.parse(line) as { hooks: string }).hooks, child });
    });
    void exited.then(() => reject(new Error(`serve exited before listening: ${buffer}`)));
  });
}

const ask = async (url: string, body: Record<string, unknown>) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};
const pre = (cwd: unknown, command = 'rm -rf /') => ({ session_id: 's', transcript_path: '/tmp/t.jsonl', cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't1' });

describe('agent-hooks serve answers for its own project only', () => {
  it('never answers another project’s session as an allow: its guard events are refused with the reason, the others get 421', async () => {
    // Project A: the served one, with a hook that lets everything through.
    const a = await project();
    await scriptHook(a.hooks, 'log-only', { trigger: 'pre-tool-call' }, 'cat >/dev/null; exit 0');
    // Project B: its own trusted guard would refuse rm -rf; its session POSTs to the same URL.
    const b = await project();
    await scriptHook(b.hooks, 'no-rm', { trigger: 'pre-tool-call' }, 'echo "No rm -rf" >&2; exit 2');
    const { hooks } = await serve(a.dir);

    const fromB = await ask(hooks, pre(b.dir));
    expect(fromB.status).toBe(200);
    expect(fromB.json).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/outside the project this server serves/) } });
    const prompt = await ask(hooks, { session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: b.dir, hook_event_name: 'UserPromptSubmit', prompt: 'hi' });
    expect(prompt).toMatchObject({ status: 200, json: { decision: 'block' } });
    const permission = await ask(hooks, { session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: b.dir, hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });
    expect(permission.status).toBe(200);
    expect(permission.json).toMatchObject({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny' } } });
    const stop = await ask(hooks, { session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: b.dir, hook_event_name: 'Stop', stop_hook_active: false });
    expect(stop.status).toBe(421);
    expect(stop.json.error).toMatch(/outside the project/);

    // A's own session, from the project and from a folder in it, is served as before.
    expect(await ask(hooks, pre(a.dir, 'ls'))).toMatchObject({ status: 200, json: {} });
    await mkdir(join(a.dir, 'src'));
    expect(await ask(hooks, pre(join(a.dir, 'src'), 'ls'))).toMatchObject({ status: 200, json: {} });
  }, 60_000);

  it('refuses a cwd that is missing, relative, not a folder, or a project of its own inside the served one', async () => {
    const a = await project();
    const { hooks } = await serve(a.dir);
    const denied = (reason: RegExp) => ({ status: 200, json: { hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(reason) } } });
    expect(await ask(hooks, pre(undefined))).toMatchObject(denied(/names no cwd/));
    expect(await ask(hooks, pre('.'))).toMatchObject(denied(/not an absolute path/));
    expect(await ask(hooks, pre(join(a.dir, 'nowhere')))).toMatchObject(denied(/does not exist/));
    await writeFile(join(a.dir, 'file.txt'), 'x');
    expect(await ask(hooks, pre(join(a.dir, 'file.txt')))).toMatchObject(denied(/not a folder/));
    // A project checked out inside the served one, with its own entries.
    const nested = join(a.dir, 'vendor', 'other');
    await mkdir(join(nested, '.claude'), { recursive: true });
    await writeFile(join(nested, '.claude', 'settings.json'), '{}');
    expect(await ask(hooks, pre(nested))).toMatchObject(denied(/a Claude Code project of its own/));
    expect(await ask(hooks, pre(join(a.dir, 'vendor'), 'ls'))).toMatchObject({ status: 200, json: {} });
  }, 60_000);

  it('refuses to start for a project folder that does not exist, naming it', async () => {
    const a = await project();
    const missing = join(a.dir, 'no-such-project');
    const env = { PATH: process.env.PATH, NO_COLOR: '1', HOME: join(a.dir, 'home'), XDG_CONFIG_HOME: join(a.dir, 'xdg'), AGENT_HOOKS_TOKEN: TOKEN };
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) =>
      execFile(process.execPath, [...TSX_CLI, 'serve', '--port', '0', '--project', missing], { cwd: a.dir, env }, (error, _stdout, stderr) => resolve({ code: error === null ? 0 : ((error as { code?: number }).code ?? null), stderr })),
    );
    expect(code).not.toBe(0);
    expect(stderr).toContain(missing);
    expect(stderr).toMatch(/--project DIR/);
  }, 30_000);
});
