/**
 * A repository whose settings set `"disableAllHooks": true` (`.github/copilot/settings.json` or `settings.local.json`,
 * or the cross-tool `.claude/` files) switches off every hook Copilot CLI runs there, the user's own bridged guards
 * among them: `list`, `validate` and `bridge --install copilot` say so, naming the file, run as the user runs them.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliProjects, runCli, scriptHook } from '../support/cli.js';

const project = cliProjects();

async function repository(file: string, value: unknown = true) {
  const { dir, hooks } = await project();
  await scriptHook(hooks, 'guard', { trigger: 'pre-tool-call' });
  await mkdir(dirname(join(dir, file)), { recursive: true });
  await writeFile(join(dir, file), JSON.stringify({ disableAllHooks: value }));
  return dir;
}

describe('a repository that switches off Copilot CLI hooks', () => {
  it.each(['.github/copilot/settings.json', '.github/copilot/settings.local.json'])('%s: list, validate and bridge --install copilot name it', async (file) => {
    const dir = await repository(file);
    const env = { AGENT_HOOKS_TRUST: 'all' };
    for (const args of [['list'], ['validate'], ['bridge', '--install', 'copilot', '--events', 'PreToolUse']]) {
      const out = await runCli(args, { cwd: dir, env });
      expect(out.stderr, args.join(' ')).toContain(`WARNING: ${file} (this repository's settings)`);
      expect(out.stderr, args.join(' ')).toMatch(/GitHub Copilot CLI runs no hook at all in this repository .* your own user hooks in ~\/\.copilot, the agent-hooks bridge among them/);
    }
  });

  it('.claude/settings.json: bridge --install copilot names it too', async () => {
    const dir = await repository('.claude/settings.json');
    const out = await runCli(['bridge', '--install', 'copilot', '--events', 'PreToolUse'], { cwd: dir, env: { AGENT_HOOKS_TRUST: 'all' } });
    expect(out.stderr).toContain('WARNING: .claude/settings.json (this repository\'s settings) sets "disableAllHooks": true, so GitHub Copilot CLI');
  });

  it('says nothing when the switch is false', async () => {
    const dir = await repository('.github/copilot/settings.json', false);
    const out = await runCli(['list'], { cwd: dir, env: { AGENT_HOOKS_TRUST: 'all' } });
    expect(out.stderr).not.toContain('disableAllHooks');
  });
});
