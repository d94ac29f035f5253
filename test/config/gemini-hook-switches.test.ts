import { describe, expect, it } from 'vitest';
import { CommandHook, loadGeminiHooks } from 'agent-hooks';
import { sandbox } from './support.js';

// Gemini CLI 0.61's `hooksConfig` in its settings files, as test/agents/gemini-rules shows the binary applying it.

const setup = sandbox();
const definition = (...hooks: Record<string, unknown>[]) => ({ BeforeTool: [{ matcher: 'run_shell_command', hooks }] });

describe('Gemini settings: hooksConfig', () => {
  it('leaves out the hooks named in hooksConfig.disabled of any file (by name, else by command), and says which file did it', async () => {
    const { home, project, write } = await setup();
    await write(home, '.gemini/settings.json', { hooksConfig: { disabled: ['./audit.sh'] }, hooks: definition({ type: 'command', name: 'my-guard', command: './guard.sh' }) });
    const file = await write(project, '.gemini/settings.json', {
      hooksConfig: { disabled: ['my-guard'] },
      hooks: definition({ type: 'command', command: './audit.sh' }, { type: 'command', name: 'kept', command: './kept.sh' }),
    });
    const { hooks, problems } = await loadGeminiHooks({ projectDir: project, trust: 'all', homeDir: home });
    expect(hooks.map((h) => (h as CommandHook).command)).toEqual(['./kept.sh']);
    expect(problems).toEqual([
      expect.objectContaining({ code: 'disabled-by-settings', severity: 'warning', hookName: 'my-guard', message: expect.stringContaining(`"my-guard" is in hooksConfig.disabled of ${file}`) }),
      expect.objectContaining({ code: 'disabled-by-settings', severity: 'warning', hookName: './audit.sh', field: 'hooks.BeforeTool[0].hooks[0].command' }),
    ]);
  });

  it('runs no hook when the last file that sets hooksConfig.enabled sets it false: the project’s over the user’s', async () => {
    const { home, project, write } = await setup();
    await write(home, '.gemini/settings.json', { hooksConfig: { enabled: true }, hooks: definition({ type: 'command', command: './user.sh' }) });
    const file = await write(project, '.gemini/settings.json', { hooksConfig: { enabled: false }, hooks: definition({ type: 'command', command: './project.sh' }) });
    const off = await loadGeminiHooks({ projectDir: project, trust: 'all', homeDir: home });
    expect(off.hooks).toEqual([]);
    expect(off.problems.map((p) => p.message)).toEqual([expect.stringContaining(`hooksConfig.enabled is false in ${file}`), expect.stringContaining(`hooksConfig.enabled is false in ${file}`)]);
    await write(project, '.gemini/settings.json', { hooksConfig: { enabled: true }, hooks: definition({ type: 'command', command: './project.sh' }) });
    await write(home, '.gemini/settings.json', { hooksConfig: { enabled: false }, hooks: definition({ type: 'command', command: './user.sh' }) });
    expect((await loadGeminiHooks({ projectDir: project, trust: 'all', homeDir: home })).hooks).toHaveLength(2);
  });

  it('reports switches of the wrong type and ignores them', async () => {
    const { project, write } = await setup();
    const file = await write(project, '.gemini/settings.json', { hooksConfig: { enabled: 'no', disabled: 'my-guard' }, hooks: definition({ type: 'command', name: 'my-guard', command: './g.sh' }) });
    const { hooks, problems } = await loadGeminiHooks({ projectDir: project, trust: 'all', homeDir: false });
    expect(hooks).toHaveLength(1);
    expect(problems).toEqual([
      expect.objectContaining({ file, field: 'hooksConfig.enabled', code: 'invalid-config' }),
      expect.objectContaining({ file, field: 'hooksConfig.disabled', code: 'invalid-config' }),
    ]);
  });
});
