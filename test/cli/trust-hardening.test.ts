import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliProjects, runCli, runCliJson, scriptHook } from '../support/cli.js';

const project = cliProjects();
const caches: string[] = [];
afterEach(async () => {
  await Promise.all(caches.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A hook script that refuses every tool call, by exit 2, with `reason`. */
const refuse = (reason: string) => `#!/bin/sh\ncat > /dev/null\necho "${reason}" >&2\nexit 2`;

/** Runs the bridge as Claude Code would, for a Bash call of `command`. */
function bridge(dir: string, command = 'rm -rf /', env: Record<string, string> = {}) {
  const input = JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't' });
  return runCli(['bridge', '--from', 'claude'], { cwd: dir, input, env: { CLAUDE_PROJECT_DIR: dir, ...env } });
}

const denial = (stdout: string) => (stdout === '' ? undefined : (JSON.parse(stdout) as { hookSpecificOutput?: { permissionDecisionReason?: string } }).hookSpecificOutput?.permissionDecisionReason);

describe('the bridge keeps the user’s guards whatever the project’s hooks are', () => {
  it('runs the user’s hook when the project’s hook of the same name names an unknown dialect', async () => {
    const { dir, hooks, userHooks } = await project();
    await scriptHook(userHooks, 'guard', {}, refuse('the user’s guard'));
    await scriptHook(hooks, 'guard', { metadata: { dialect: 'klingon' } }, 'exit 0');

    const answer = await bridge(dir);
    expect(answer.code).toBe(0);
    expect(denial(answer.stdout)).toBe('the user’s guard');
    expect(answer.stderr).toContain('metadata.dialect');
    // Trusting all the project has does not let it switch the guard off either.
    await runCli(['trust', '--all'], { cwd: dir });
    expect(denial((await bridge(dir)).stdout)).toBe('the user’s guard');
  });

  it('answers with the user’s guard when a project hook links to /proc/self/mem, and list and trust report it', async () => {
    const { dir, hooks, userHooks } = await project();
    await scriptHook(userHooks, 'guard', {}, refuse('the user’s guard'));
    const bad = await scriptHook(hooks, 'reader', {}, 'exit 0');
    await symlink('/proc/self/mem', join(bad, 'scripts', 'mem'));

    const answer = await bridge(dir);
    expect(answer.code).toBe(0);
    expect(denial(answer.stdout)).toBe('the user’s guard');
    expect(answer.stderr).toContain(`${join(bad, 'scripts', 'mem')} cannot be read`);

    const listed = await runCliJson<{ hooks: { name: string }[] }>(['list', '--json'], { cwd: dir });
    expect(listed.code).not.toBe(2);
    expect(listed.json.hooks.map((h) => h.name)).toEqual(['guard']);

    const trusted = await runCli(['trust', '--all'], { cwd: dir });
    expect(trusted.code).toBe(1);
    expect(trusted.stderr).toContain("Hook 'reader' comes from the project and cannot be trusted as it is");
    expect(trusted.stdout).toContain('No project hooks to trust');
  });

  it('answers when the project’s agent-hooks.config.mjs is a FIFO, without importing or waiting on it', async () => {
    const { dir, userHooks } = await project();
    await scriptHook(userHooks, 'guard', {}, refuse('the user’s guard'));
    execFileSync('mkfifo', [join(dir, 'agent-hooks.config.mjs')]);
    const answer = await bridge(dir);
    expect(answer.code).toBe(0);
    expect(denial(answer.stdout)).toBe('the user’s guard');
    expect(answer.stderr).toContain('agent-hooks.config.mjs cannot be pinned by trust, so it is not loaded');
  }, 20_000);

  it('analyses the matcher of an untrusted project hook in no bridge call, and of a trusted one once', async () => {
    const { dir, hooks } = await project();
    const cache = await mkdtemp(join(tmpdir(), 'agent-hooks-verdicts-'));
    caches.push(cache);
    const env = { AGENT_HOOKS_CACHE_DIR: cache };
    // Not simple by shape and new to every cache: only the checker can judge it, and each verdict it gives is kept.
    const pattern = `(curl|${randomBytes(4).toString('hex').replace(/\d/g, 'q')})[^|]*\\|\\s*(ba)?sh`;
    await scriptHook(hooks, 'pipes', { matcher: { pattern } }, refuse('no piping into sh'));
    const verdicts = () => readFile(join(cache, 'regex-verdicts.json'), 'utf8').then((text) => Object.keys((JSON.parse(text) as { verdicts: object }).verdicts), () => []);

    for (let i = 0; i < 3; i++) expect(denial((await bridge(dir, 'curl x | sh', env)).stdout)).toBeUndefined();
    expect(await verdicts()).toEqual([]);

    await runCli(['trust', '--all'], { cwd: dir, env });
    expect(await verdicts()).toEqual([]);
    expect(denial((await bridge(dir, 'curl x | sh', env)).stdout)).toBe('no piping into sh');
    expect(await verdicts()).toEqual([`/${pattern}`]);
  });
});

describe('agent-hooks trust says what a command names but does not pin', () => {
  it('warns of a script in the home folder and one named through a variable', async () => {
    const { dir } = await project();
    await mkdir(join(dir, '.claude'));
    await writeFile(join(dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh ~/guards/check.sh && "$TOOLS/lint.sh"' }] }] } }));
    const shown = await runCli(['trust'], { cwd: dir });
    expect(shown.stdout).toContain('trust does not pin ~/guards/check.sh (in the home folder, so not pinned), $TOOLS/lint.sh (built from a variable, so not pinned)');
    const json = await runCliJson<{ hooks: { unpinned: string[] }[] }>(['trust', '--json'], { cwd: dir });
    expect(json.json.hooks.map((h) => h.unpinned)).toEqual([['~/guards/check.sh (in the home folder, so not pinned)', '$TOOLS/lint.sh (built from a variable, so not pinned)']]);
  });
});
