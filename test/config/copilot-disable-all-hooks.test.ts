import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCopilotHooks, loadVsCodeHooks } from 'agent-hooks';
import { sandbox } from './support.js';

// "disableAllHooks": true in one Copilot hook file skips that file; in a repository's settings it switches off every
// Copilot hook, the user's own included, as Copilot CLI 1.0.102 does (test/agents/copilot-switches.test.ts runs the
// binary on the same layouts).

const setup = sandbox();
const hookFile = (name: string, extra: object = {}) => ({ version: 1, ...extra, hooks: { preToolUse: [{ bash: `echo ${name}` }] } });

async function layout(settings: Readonly<Record<string, object>> = {}) {
  const { home, project, write } = await setup();
  await write(home, '.copilot/hooks/u.json', hookFile('user'));
  await write(home, '.copilot/settings.json', { hooks: { preToolUse: [{ bash: 'echo user-settings' }] } });
  await write(project, '.github/hooks/b.json', hookFile('project'));
  for (const [path, value] of Object.entries(settings)) await write(project, path, value);
  return { home, project };
}

const commands = (hooks: readonly { readonly origin: { readonly definition?: unknown } }[]) =>
  hooks.map((h) => ((h.origin.definition as { entry: { bash: string } }).entry.bash));

describe('disableAllHooks in Copilot hook files and settings', () => {
  it('in one hook file: that file is not loaded, the others are, and a warning names it', async () => {
    const { home, project } = await layout({ '.github/hooks/a.json': hookFile('project-off', { disableAllHooks: true }) });
    const { hooks, problems } = await loadCopilotHooks({ projectDir: project, homeDir: home, trust: 'all' });
    expect(commands(hooks)).toEqual(['echo user', 'echo user-settings', 'echo project']);
    const problem = problems.find((p) => p.code === 'hooks-disabled');
    expect(problem?.file).toBe(join(project, '.github/hooks/a.json'));
    expect(problem?.severity).toBe('warning');
  });

  it.each(['.github/copilot/settings.json', '.github/copilot/settings.local.json', '.claude/settings.json', '.claude/settings.local.json'])(
    'in the repository’s %s: no Copilot hook loads, the user’s neither, and a warning names the file',
    async (path) => {
      const { home, project } = await layout({ [path]: { disableAllHooks: true } });
      const { hooks, problems } = await loadCopilotHooks({ projectDir: project, homeDir: home, trust: 'all' });
      expect(hooks).toEqual([]);
      const problem = problems.find((p) => p.code === 'hooks-disabled');
      expect(problem?.file).toBe(join(project, path));
      expect(problem?.message).toMatch(/runs no hook at all in this repository .* your own user hooks/);
    },
  );

  it('the last file that sets it decides, .github/copilot/ after .claude/', async () => {
    const on = await layout({ '.claude/settings.json': { disableAllHooks: true }, '.github/copilot/settings.local.json': { disableAllHooks: false } });
    expect((await loadCopilotHooks({ projectDir: on.project, homeDir: on.home, trust: 'all' })).hooks).toHaveLength(3);
    const off = await layout({ '.github/copilot/settings.json': { disableAllHooks: true }, '.claude/settings.json': { disableAllHooks: false } });
    expect((await loadCopilotHooks({ projectDir: off.project, homeDir: off.home, trust: 'all' })).hooks).toEqual([]);
  });

  it('the user’s ~/.copilot/settings.json does not switch them off (Copilot CLI 1.0.102 runs them all)', async () => {
    const { home, project, write } = await setup();
    await write(home, '.copilot/settings.json', { disableAllHooks: true });
    await write(project, '.github/hooks/b.json', hookFile('project'));
    expect(commands((await loadCopilotHooks({ projectDir: project, homeDir: home, trust: 'all' })).hooks)).toEqual(['echo project']);
  });

  it('VS Code’s hook files are not Copilot’s to switch off', async () => {
    const { home, project, write } = await setup();
    await write(project, '.github/hooks/vs.json', { hooks: { PreToolUse: [{ type: 'command', command: 'echo vscode' }] } });
    await write(project, '.github/copilot/settings.json', { disableAllHooks: true });
    expect((await loadVsCodeHooks({ projectDir: project, homeDir: home, trust: 'all' })).hooks).toHaveLength(1);
  });
});
