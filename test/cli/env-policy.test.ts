import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MINIMAL_ENV_NAMES } from 'agent-hooks';
import { cliIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { cliProjects, runCli, scriptHook } from '../support/cli.js';

// The projects here are the tests' own: their hooks run with --trust-all (trust itself is tested in trust.test.ts).

const project = cliProjects();

/** Variables of the command line's environment, as a user's shell would hold them. */
const SHELL_ENV = { PLAIN_VAR: 'plain', SECRET_TOKEN: 'hunter2', SECRET_KEY: 'k', AWS_ACCESS_KEY_ID: 'aws', AGENT_HOOKS_DEBUG: '1' };

/** A project with a HOOK.md hook `print-env` that writes its whole environment to `env.bin`. */
async function printingProject() {
  const p = await project();
  const out = join(p.dir, 'env.bin');
  await scriptHook(p.hooks, 'print-env', {}, `cat > /dev/null; env -0 > "${out}"`);
  const env = async (): Promise<Record<string, string>> => {
    const vars: Record<string, string> = {};
    for (const pair of (await readFile(out, 'utf8')).split('\0')) {
      const at = pair.indexOf('=');
      if (at > 0) vars[pair.slice(0, at)] = pair.slice(at + 1);
    }
    return vars;
  };
  return { ...p, env };
}

const RUN = ['run', '--trust-all', '--event', 'PreToolUse', '--args', '{"command":"ls"}'];

/** The names a minimal environment may hold: the policy's, the runtime's, and what /bin/sh sets itself. */
const unexpectedUnderMinimal = (env: Record<string, string>) =>
  Object.keys(env).filter((name) => !MINIMAL_ENV_NAMES.includes(name) && !name.startsWith('AGENT_HOOKS_') && !['PWD', 'SHLVL', '_'].includes(name));

describe('--env-policy and --env-deny', () => {
  it('passes the whole environment by default', async () => {
    const { dir, env } = await printingProject();
    const result = await runCli(RUN, { cwd: dir, env: SHELL_ENV });
    expect(result.code).toBe(0);
    expect(await env()).toMatchObject(SHELL_ENV);
  });

  it('run --env-policy minimal: the hook sees PATH, HOME, LANG, TMPDIR and AGENT_HOOKS_* only, with the runtime\'s variables', async () => {
    const { dir, env } = await printingProject();
    const result = await runCli([...RUN, '--env-policy', 'minimal'], { cwd: dir, env: SHELL_ENV });
    expect(result.code).toBe(0);
    const seen = await env();
    expect(unexpectedUnderMinimal(seen)).toEqual([]);
    // The command line's own XDG_CONFIG_HOME found the hooks, and is not handed to them.
    expect(seen.XDG_CONFIG_HOME).toBeUndefined();
    expect(seen.PLAIN_VAR).toBeUndefined();
    expect(seen).toMatchObject({ HOME: join(dir, 'home'), PATH: process.env.PATH, AGENT_HOOKS_DEBUG: '1', AGENT_HOOKS_EVENT: 'pre-tool-call', AGENT_HOOKS_HOOK_NAME: 'print-env', AGENT_HOOKS_PROJECT_DIR: dir });
  });

  it('run --env-deny removes what its globs match, and may be repeated', async () => {
    const { dir, env } = await printingProject();
    expect((await runCli([...RUN, '--env-deny', 'SECRET_*'], { cwd: dir, env: SHELL_ENV })).code).toBe(0);
    const denied = await env();
    expect(denied.SECRET_TOKEN).toBeUndefined();
    expect(denied.SECRET_KEY).toBeUndefined();
    expect(denied).toMatchObject({ PLAIN_VAR: 'plain', AWS_ACCESS_KEY_ID: 'aws', AGENT_HOOKS_HOOK_NAME: 'print-env' });

    expect((await runCli([...RUN, '--env-deny', 'SECRET_*', '--env-deny', '{AWS,PLAIN}_*'], { cwd: dir, env: SHELL_ENV })).code).toBe(0);
    const twice = await env();
    expect([twice.SECRET_TOKEN, twice.AWS_ACCESS_KEY_ID, twice.PLAIN_VAR]).toEqual([undefined, undefined, undefined]);
  });

  it('test takes them too, for a hook named and for a hook given by its path', async () => {
    const { dir, hooks, env } = await printingProject();
    expect((await runCli(['test', 'print-env', '--trust-all', '--env-policy', 'minimal'], { cwd: dir, env: SHELL_ENV })).code).toBe(0);
    expect(unexpectedUnderMinimal(await env())).toEqual([]);
    expect((await runCli(['test', join(hooks, 'print-env'), '--env-deny', 'SECRET_TOKEN'], { cwd: dir, env: SHELL_ENV })).code).toBe(0);
    const byPath = await env();
    expect(byPath.SECRET_TOKEN).toBeUndefined();
    expect(byPath).toMatchObject({ SECRET_KEY: 'k', PLAIN_VAR: 'plain' });
  });

  it('bridge takes them too', async () => {
    const { dir, env } = await printingProject();
    const payload = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: dir, tool_name: 'Bash', tool_input: { command: 'ls' } });
    const result = await runCli(['bridge', '--trust-all', '--from', 'claude', '--env-policy', 'minimal'], { cwd: dir, input: payload, env: { ...SHELL_ENV, CLAUDE_PROJECT_DIR: dir } });
    expect(result.code).toBe(0);
    expect(unexpectedUnderMinimal(await env())).toEqual([]);
  });

  it('refuses a policy it does not know, or an empty pattern, with a usage error', async () => {
    const { dir } = await printingProject();
    const strict = await runCli([...RUN, '--env-policy', 'strict'], { cwd: dir });
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain('--env-policy must be inherit or minimal, not "strict"');
    const empty = await runCli(['test', 'print-env', '--env-deny', ''], { cwd: dir });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--env-deny needs a variable name or glob');
    expect((await runCli(['run', '--env-policy'], { cwd: dir })).code).toBe(2);
  });

  it('documents them in the help of run, test and bridge', async () => {
    const { dir } = await printingProject();
    for (const command of ['run', 'test', 'bridge']) {
      const help = await runCli([command, '--help'], { cwd: dir });
      expect(help.stdout).toContain('--env-policy P');
      expect(help.stdout).toContain('--env-deny GLOB');
    }
  });
});

describe("the command line's environment", () => {
  it('finds the user\'s hooks, and is not added to the hooks\' environment over the policy', async () => {
    const { dir, userHooks, env } = await printingProject();
    const out = join(dir, 'user-env.bin');
    await scriptHook(userHooks, 'user-print-env', {}, `cat > /dev/null; env -0 > "${out}"`);
    // An environment of the command line's own that this process does not have: the user's hooks are found through
    // it, and a hook sees only what the policy lets through from the process it runs under.
    const hostEnv = { HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg'), ONLY_IN_CLI_ENV: 'cli' };
    const lines: string[] = [];
    const io = cliIO({ cwd: dir, env: hostEnv, out: (t) => lines.push(t), err: (t) => lines.push(t), readStdin: async () => '' });
    expect(await main([...RUN, '--json'], io)).toBe(0);
    expect(JSON.parse(lines.join('\n')).hooks.map((h: { name: string }) => h.name)).toEqual(['user-print-env', 'print-env']);
    const seen = await env();
    expect(seen.ONLY_IN_CLI_ENV).toBeUndefined();
    expect(seen.XDG_CONFIG_HOME).toBe(process.env.XDG_CONFIG_HOME);
  });
});
