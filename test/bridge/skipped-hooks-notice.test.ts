/**
 * A project hook skipped for want of trust must not fail open in silence: the bridge tells the user, in the agent's
 * own message field, once per agent session. Real bridge processes (the CLI from src, through tsx), a real trust
 * store and a real cache folder, all in a temporary HOME.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionNotices } from '../../src/bridge/session-notices.js';
import { scriptHook, tempProject, type CliResult } from '../support/cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const FROM_SOURCE = ['--import', join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs'), join(root, 'src', 'cli', 'index.ts')];
const FIXTURES = join(root, 'test', 'bridge', 'fixtures');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

/** Runs the CLI from src in `dir`, with HOME, the user's config (and so the trust store) and the cache inside it. */
function cli(dir: string, args: readonly string[], input = '', env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const merged: Record<string, string | undefined> = {
    ...process.env,
    NO_COLOR: '1',
    FORCE_COLOR: undefined,
    HOME: join(dir, 'home'),
    XDG_CONFIG_HOME: join(dir, 'xdg'),
    XDG_CACHE_HOME: undefined,
    AGENT_HOOKS_CACHE_DIR: undefined,
    AGENT_HOOKS_TRUST: undefined,
    CLAUDE_PROJECT_DIR: undefined,
    ...env,
  };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...FROM_SOURCE, ...args], { cwd: dir, env: merged, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** Refuses `git push --force` by exit 2: proof that the hooks still trusted keep deciding. */
const NO_FORCE_PUSH = `#!/bin/sh
case "$(cat)" in
  *"push --force"*) echo "No force-push here." >&2; exit 2 ;;
esac
exit 0`;

/**
 * A project with two trusted HOOK.md hooks, one of which (`guard`) was edited after it was trusted, so the bridge
 * skips it as `changed`.
 */
async function projectWithChangedHook() {
  const p = await tempProject();
  cleanups.push(p.cleanup);
  const guard = await scriptHook(p.hooks, 'guard', { trigger: 'pre-tool-call' }, 'cat > /dev/null; exit 0');
  await scriptHook(p.hooks, 'no-force-push', { trigger: 'pre-tool-call' }, NO_FORCE_PUSH);
  const trusted = await cli(p.dir, ['trust', '--all']);
  expect(trusted.code, trusted.stderr).toBe(0);
  await appendFile(join(guard, 'scripts', 'run'), '# edited\n');
  return p;
}

const claudePre = (session: string, command = 'ls') =>
  JSON.stringify({ session_id: session, cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't' });

const bridge = (dir: string, agent: string, input: string, env?: Record<string, string | undefined>, extra: readonly string[] = []) =>
  cli(dir, ['bridge', '--from', agent, '--project', dir, ...extra], input, env);

const NOTICE = /agent-hooks did not run a project hook: guard, which changed since it was trusted\. The agent goes on without it; other hooks still run\. To review and trust it, run 'npx agent-hooks trust' in \S+\./;

describe('the bridge tells the user about skipped project hooks, once per session', () => {
  it('Claude Code: a systemMessage on the first call of a session, none on the next, and again in a new session', async () => {
    const { dir } = await projectWithChangedHook();

    const first = await bridge(dir, 'claude', claudePre('session-a'));
    expect(first.code, first.stderr).toBe(0);
    const answer = JSON.parse(first.stdout);
    expect(answer.systemMessage).toMatch(NOTICE);
    expect(answer.systemMessage).toContain(dir);
    // A message, not a decision: Claude Code's own permission check still applies to the call.
    expect(answer.hookSpecificOutput?.permissionDecision).toBeUndefined();

    const second = await bridge(dir, 'claude', claudePre('session-a'));
    expect(second).toMatchObject({ code: 0, stdout: '' });
    // stderr keeps the detail on every call, where a log or a debug view shows it.
    expect(second.stderr).toContain("Hook 'guard' changed since it was trusted");

    // The trusted hook still decides, with or without the notice.
    const refused = await bridge(dir, 'claude', claudePre('session-a', 'git push --force'));
    expect(JSON.parse(refused.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'No force-push here.' },
    });
    const refusedNew = await bridge(dir, 'claude', claudePre('session-b', 'git push --force'));
    expect(JSON.parse(refusedNew.stdout)).toMatchObject({ systemMessage: expect.stringMatching(NOTICE), hookSpecificOutput: { permissionDecision: 'deny' } });

    const state = JSON.parse(await readFile(join(dir, 'home', '.cache', 'agent-hooks', 'bridge-notices.json'), 'utf8'));
    expect(Object.keys(state.sessions).sort()).toEqual(['claude:session-a', 'claude:session-b']);
    // Only digests are kept: the file holds no project paths or hook names.
    expect(JSON.stringify(state)).not.toContain('guard');
  }, 180_000);

  it('says nothing once the hook is trusted again, and says it again when another hook is edited in the same session', async () => {
    const { dir, hooks } = await projectWithChangedHook();
    expect(JSON.parse((await bridge(dir, 'claude', claudePre('s'))).stdout).systemMessage).toMatch(NOTICE);
    expect((await cli(dir, ['trust', '--all'])).code).toBe(0);
    expect((await bridge(dir, 'claude', claudePre('s'))).stdout).toBe('');
    await appendFile(join(hooks, 'no-force-push', 'scripts', 'run'), '# edited\n');
    const again = JSON.parse((await bridge(dir, 'claude', claudePre('s'))).stdout);
    expect(again.systemMessage).toContain('agent-hooks did not run a project hook: no-force-push, which changed since it was trusted.');
  }, 180_000);

  it('answers in each agent’s own user-facing field: systemMessage, Cursor’s user_message, Copilot’s stderr', async () => {
    const { dir } = await projectWithChangedHook();
    const fixture = (file: string, session: Record<string, string>) => JSON.stringify({ ...JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')), ...session });
    const cases: { agent: string; input: (s: string) => string; where: 'systemMessage' | 'user_message' | 'stderr'; event?: string }[] = [
      { agent: 'vscode', where: 'systemMessage', input: (s) => JSON.stringify({ timestamp: 'x', cwd: dir, sessionId: s, hookEventName: 'PreToolUse', tool_name: 'runTerminalCommand', tool_input: { command: 'ls' } }) },
      { agent: 'gemini', where: 'systemMessage', input: (s) => fixture('gemini/BeforeTool.json', { session_id: s }) },
      { agent: 'codex', where: 'systemMessage', input: (s) => fixture('codex/PreToolUse.json', { session_id: s }) },
      { agent: 'cursor', where: 'user_message', input: (s) => JSON.stringify({ conversation_id: s, generation_id: 'g', hook_event_name: 'beforeShellExecution', command: 'ls', cwd: dir, workspace_roots: [dir] }) },
      { agent: 'copilot', where: 'stderr', event: 'preToolUse', input: (s) => fixture('copilot/preToolUse.json', { sessionId: s }) },
    ];
    for (const { agent, input, where, event } of cases) {
      const extra = event === undefined ? [] : ['--event', event];
      const first = await bridge(dir, agent, input('one'), {}, extra);
      const second = await bridge(dir, agent, input('one'), {}, extra);
      for (const run of [first, second]) expect(run.code, `${agent}: ${run.stderr}`).toBe(0);
      if (where === 'stderr') {
        // Copilot's answers have no field its user sees; its answer stays empty, and the notice goes on stderr.
        expect([first.stdout, second.stdout], agent).toEqual(['', '']);
        expect(first.stderr, agent).toMatch(new RegExp(`agent-hooks: ${NOTICE.source}`));
        expect(second.stderr, agent).not.toMatch(NOTICE);
      } else {
        expect(JSON.parse(first.stdout)[where], agent).toMatch(NOTICE);
        expect(second.stdout, agent).toBe('');
      }
    }
  }, 300_000);

  it('says it on every call when the cache is off, or cannot be written, and still decides', async () => {
    const { dir } = await projectWithChangedHook();
    for (const cacheDir of ['off', join(dir, 'a-file')]) {
      await writeFile(join(dir, 'a-file'), 'not a folder');
      const env = { AGENT_HOOKS_CACHE_DIR: cacheDir };
      for (const command of ['ls', 'git push --force']) {
        const run = await bridge(dir, 'claude', claudePre('same', command), env);
        expect(run.code, run.stderr).toBe(0);
        const answer = JSON.parse(run.stdout);
        expect(answer.systemMessage, cacheDir).toMatch(NOTICE);
        if (command !== 'ls') expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
      }
    }
  }, 180_000);

  it('says it on every call when the payload names no session', async () => {
    const { dir } = await projectWithChangedHook();
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
    for (let i = 0; i < 2; i++) expect(JSON.parse((await bridge(dir, 'claude', input)).stdout).systemMessage).toMatch(NOTICE);
  }, 180_000);
});

describe('SessionNotices', () => {
  const file = () => join(mkdtempSync(join(tmpdir(), 'agent-hooks-notices-')), 'cache', 'bridge-notices.json');

  it('keeps the newest sessions only, so the file stays small', () => {
    let clock = 0;
    const notices = new SessionNotices(file(), () => ++clock);
    for (let i = 0; i < SessionNotices.MAX_SESSIONS + 50; i++) notices.given(`s${i}`, 'hello');
    const kept = Object.keys(JSON.parse(readFileSync(notices.file!, 'utf8')).sessions);
    expect(kept).toHaveLength(SessionNotices.MAX_SESSIONS);
    expect(notices.due('s0', 'hello')).toBe(true);
    expect(notices.due(`s${SessionNotices.MAX_SESSIONS + 49}`, 'hello')).toBe(false);
    expect(notices.due(`s${SessionNotices.MAX_SESSIONS + 49}`, 'other words')).toBe(true);
  });

  it('treats a corrupt file as empty, and replaces it', async () => {
    const notices = new SessionNotices(file());
    notices.given('s', 'hello');
    await writeFile(notices.file!, '{"format": 1, "sessions": ');
    expect(notices.due('s', 'hello')).toBe(true);
    notices.given('s', 'hello');
    expect(notices.due('s', 'hello')).toBe(false);
  });
});
