import { describe, expect, it } from 'vitest';
import { loadCodexHooks, loadCopilotHooks, loadCursorHooks, loadGeminiHooks, ToolCall, ToolHookContext, ToolNameMatcher, type ConfigHook } from 'agent-hooks';
import { sandbox } from './support.js';

// A matcher in an agent's own file means what it means in that agent (test/agents/own-matchers shows Copilot CLI,
// Gemini CLI and Codex CLI): the shared tool vocabulary is for HOOK.md and the API.

const setup = sandbox();
const tool = (name: string) => ToolHookContext.beforeToolUse(ToolCall.create(name, {}));
const matches = (hook: ConfigHook, name: string) => hook.matcher === undefined || hook.matcher.matches(tool(name));

describe('tool matchers in an agent’s own config file', () => {
  it('Copilot: "Bash" is not bash; "*" and "" match no tool, with a warning', async () => {
    const { project, write } = await setup();
    const file = await write(project, '.github/hooks/m.json', {
      version: 1,
      hooks: { preToolUse: ['Bash', 'bash', '*', ''].map((matcher) => ({ matcher, bash: `echo ${matcher}` })), agentStop: [{ matcher: '*', bash: 'echo stop' }] },
    });
    const { hooks, problems } = await loadCopilotHooks({ projectDir: project, trust: 'all', homeDir: false, platform: 'linux' });
    const [Bash, bash, star, empty] = hooks;
    expect(matches(Bash!, 'bash')).toBe(false);
    expect(matches(Bash!, 'Bash')).toBe(true);
    expect(matches(bash!, 'bash')).toBe(true);
    expect(matches(bash!, 'Bash')).toBe(false);
    expect(matches(star!, 'bash')).toBe(false);
    expect(matches(empty!, 'bash')).toBe(false);
    expect(problems).toEqual([
      expect.objectContaining({ file, field: 'hooks.preToolUse[2].matcher', code: 'matches-nothing', severity: 'warning' }),
      expect.objectContaining({ file, field: 'hooks.preToolUse[3].matcher', code: 'matches-nothing', severity: 'warning' }),
    ]);
  });

  it('Gemini CLI: "Bash" and "Shell" do not match run_shell_command', async () => {
    const { project, write } = await setup();
    await write(project, '.gemini/settings.json', { hooks: { BeforeTool: ['Bash', 'Shell', 'run_shell'].map((matcher) => ({ matcher, hooks: [{ type: 'command', command: `echo ${matcher}` }] })) } });
    const { hooks } = await loadGeminiHooks({ projectDir: project, trust: 'all', homeDir: false });
    expect(hooks.map((h) => matches(h, 'run_shell_command'))).toEqual([false, false, true]);
  });

  it('Codex CLI: "bash" and "Shell" do not match Bash', async () => {
    const { project, write } = await setup();
    await write(project, '.codex/hooks.json', { hooks: { PreToolUse: ['bash', 'Shell', 'Bash'].map((matcher) => ({ matcher, hooks: [{ type: 'command', command: `echo ${matcher}` }] })) } });
    const { hooks } = await loadCodexHooks({ projectDir: project, trust: 'all', homeDir: false });
    expect(hooks.map((h) => matches(h, 'Bash'))).toEqual([false, false, true]);
  });

  it('Cursor files and the API keep the shared vocabulary', async () => {
    const { project, write } = await setup();
    await write(project, '.cursor/hooks.json', { version: 1, hooks: { preToolUse: [{ command: 'echo x', matcher: 'Bash' }] } });
    const { hooks } = await loadCursorHooks({ projectDir: project, trust: 'all', homeDir: false });
    expect(matches(hooks[0]!, 'bash')).toBe(true);
    expect(new ToolNameMatcher('Bash').matchesName('run_shell_command')).toBe(true);
    expect(new ToolNameMatcher('Bash', { aliases: false }).matchesName('run_shell_command')).toBe(false);
    expect(new ToolNameMatcher(/^bash$/, { aliases: false }).hints.toolNames).toEqual(new Set(['bash']));
  });
});
