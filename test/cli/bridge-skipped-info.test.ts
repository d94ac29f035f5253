/**
 * The agent-hooks bridge found in an agent's config is skipped by our loaders (it would run the hooks they load a
 * second time). That is the intended setup after `bridge --install`, so it is information, not a warning: `list`,
 * `validate` and `run` show it as such, and never count it as a warning or fail on it.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { scriptHook, tempProject } from '../support/cli.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

/** Runs the command line in-process in `dir`, with HOME and the user's config inside it. */
async function cli(dir: string, args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const env = { PATH: process.env.PATH, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg'), AGENT_HOOKS_CACHE_DIR: 'off' };
  const io = cliIO({ cwd: dir, env, out: (t) => out.push(t), err: (t) => err.push(t), interactive: false });
  const code = await main([...args], io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A project with one HOOK.md hook and the bridge installed for Claude Code, as `bridge --install claude` leaves it. */
async function bridgedProject() {
  const p = await tempProject();
  cleanups.push(p.cleanup);
  await scriptHook(p.hooks, 'no-rm', { trigger: 'pre-tool-call' });
  const installed = await cli(p.dir, ['bridge', '--install', 'claude', '--command', 'npx agent-hooks bridge --from claude']);
  expect(installed.code, installed.err).toBe(0);
  return p;
}

const SKIPPED = /info \.claude\/settings\.json: hooks\.PreToolUse\[0\]\.hooks\[0\]: This is the agent-hooks bridge/;

describe('the bridge skipped in an agent’s config is information', () => {
  it('list shows it under Info, neither as a problem nor a warning', async () => {
    const { dir } = await bridgedProject();
    const text = await cli(dir, ['list', '--trust-all']);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(SKIPPED);
    expect(text.out).toContain('\nInfo\n');
    expect(text.out).not.toContain('warning');
    expect(text.out).not.toContain('Problems');

    const json = JSON.parse((await cli(dir, ['list', '--trust-all', '--json'])).out);
    expect(json.problems).toEqual([expect.objectContaining({ severity: 'info', code: 'bridge-skipped', file: join(dir, '.claude', 'settings.json') })]);
  });

  it('validate passes, marks the config file as fine, and counts it apart from warnings', async () => {
    const { dir } = await bridgedProject();
    const text = await cli(dir, ['validate']);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/✓ \.claude\/settings\.json/);
    expect(text.out).toMatch(SKIPPED);
    expect(text.out).toContain('2 hooks checked: 0 errors, 0 warnings, 1 info');

    const json = JSON.parse((await cli(dir, ['validate', '--json'])).out);
    expect(json.checked.every((c: { ok: boolean }) => c.ok)).toBe(true);
    expect(json.problems).toEqual([expect.objectContaining({ severity: 'info', code: 'bridge-skipped' })]);
  });

  it('run shows it under Info, and other problems still under Problems with their counts', async () => {
    const { dir, hooks } = await bridgedProject();
    const args = ['run', '--trust-all', '--event', 'PreToolUse', '--tool', 'bash', '--args', '{"command":"ls"}'];
    const clean = await cli(dir, args);
    expect(clean.code).toBe(0);
    expect(clean.out).toMatch(SKIPPED);
    expect(clean.out).toContain('\nInfo\n');
    expect(clean.out).not.toContain('warning');

    await scriptHook(hooks, 'typo', { trigger: 'pre-tool-call', matcher: { tool: 'Bsh' } });
    const mixed = await cli(dir, args);
    expect(mixed.out).toContain('Problems (0 errors, 1 warning, 1 info)');
    expect(mixed.out).toMatch(SKIPPED);
  });
});

describe('agent-hooks serve in Claude Code’s settings is information too', () => {
  it('the http entries `bridge --install claude --http` writes are skipped as the bridge, not warned about', async () => {
    const p = await tempProject();
    cleanups.push(p.cleanup);
    await scriptHook(p.hooks, 'no-rm', { trigger: 'pre-tool-call' });
    const installed = await cli(p.dir, ['bridge', '--install', 'claude', '--http', '--port', '7391']);
    expect(installed.code, installed.err).toBe(0);

    const json = JSON.parse((await cli(p.dir, ['list', '--trust-all', '--json'])).out);
    expect(json.problems.length).toBeGreaterThan(0);
    for (const problem of json.problems) expect(problem).toEqual(expect.objectContaining({ severity: 'info', code: 'bridge-skipped' }));
    expect(json.problems[0].message).toContain('agent-hooks serve');
  });
});
