/**
 * Copilot CLI runs the hooks of the repository's `.claude/settings.json`, so with the Claude Code bridge installed
 * there and Copilot's own, Copilot runs the bridge twice on every event both name (test/agents/copilot-switches.test.ts
 * shows the binary doing it): `bridge --install copilot` says so, and so does `bridge --install claude` after
 * Copilot's, run as the user runs it.
 */
import { describe, expect, it } from 'vitest';
import { cliProjects, runCli, scriptHook } from '../support/cli.js';

const project = cliProjects();

describe('the Claude Code bridge in the repository, and Copilot CLI’s', () => {
  it('bridge --install copilot warns that Copilot would run the bridge twice', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'guard', { trigger: 'pre-tool-call' });
    const env = { AGENT_HOOKS_TRUST: 'all' };
    expect((await runCli(['bridge', '--install', 'claude', '--events', 'PreToolUse'], { cwd: dir, env })).code).toBe(0);
    const out = await runCli(['bridge', '--install', 'copilot', '--events', 'PreToolUse'], { cwd: dir, env });
    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(/WARNING: .*\.claude\/settings\.json: GitHub Copilot CLI runs the hooks of this Claude Code settings file too/);
    expect(out.stderr).toContain('bridge --install claude --user');
  });

  it('bridge --install claude, after Copilot CLI’s bridge, warns the same; for the user’s own settings, which Copilot does not read, it does not', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'guard', { trigger: 'pre-tool-call' });
    const env = { AGENT_HOOKS_TRUST: 'all' };
    expect((await runCli(['bridge', '--install', 'copilot', '--events', 'PreToolUse'], { cwd: dir, env })).code).toBe(0);
    const user = await runCli(['bridge', '--install', 'claude', '--user', '--events', 'PreToolUse'], { cwd: dir, env });
    expect(user.code).toBe(0);
    expect(user.stderr).not.toContain('Claude Code settings file');
    const out = await runCli(['bridge', '--install', 'claude', '--events', 'PreToolUse'], { cwd: dir, env });
    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(/WARNING: .*\.claude\/settings\.json: GitHub Copilot CLI runs the hooks of this Claude Code settings file too/);
  });

  it('says nothing without the Claude Code bridge in the repository', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'guard', { trigger: 'pre-tool-call' });
    const out = await runCli(['bridge', '--install', 'copilot', '--events', 'PreToolUse'], { cwd: dir, env: { AGENT_HOOKS_TRUST: 'all' } });
    expect(out.stderr).not.toContain('Claude Code settings file');
  });
});
