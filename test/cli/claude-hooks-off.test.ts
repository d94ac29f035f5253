/**
 * A repository whose `.claude/settings.json` or `settings.local.json` sets `"disableAllHooks": true` switches off
 * every hook Claude Code runs there, the user's own bridged guards among them: `list`, `validate` and
 * `bridge --install claude` say so, naming the file, run as the user runs them.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliProjects, runCli, scriptHook } from '../support/cli.js';

const project = cliProjects();

async function repository(file: 'settings.json' | 'settings.local.json', value: unknown = true) {
  const { dir, hooks } = await project();
  await scriptHook(hooks, 'guard', { trigger: 'pre-tool-call' });
  await mkdir(join(dir, '.claude'), { recursive: true });
  await writeFile(join(dir, '.claude', file), JSON.stringify({ disableAllHooks: value }));
  return dir;
}

describe('a repository that switches off Claude Code hooks', () => {
  it.each(['settings.json', 'settings.local.json'] as const)('.claude/%s: list, validate and bridge --install claude name it', async (file) => {
    const dir = await repository(file);
    const env = { AGENT_HOOKS_TRUST: 'all' };
    for (const args of [['list'], ['validate'], ['bridge', '--install', 'claude', '--events', 'PreToolUse']]) {
      const out = await runCli(args, { cwd: dir, env });
      expect(out.stderr, args.join(' ')).toContain(`WARNING: .claude/${file} (this repository's`);
      expect(out.stderr, args.join(' ')).toMatch(/Claude Code runs none of the hooks .* your own user hooks, the agent-hooks bridge among them/);
    }
  });

  it('says nothing when the switch is false', async () => {
    const dir = await repository('settings.json', false);
    const out = await runCli(['list'], { cwd: dir, env: { AGENT_HOOKS_TRUST: 'all' } });
    expect(out.stderr).not.toContain('disableAllHooks');
  });
});
