import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, loadClaudeHooks, type AgentWarning } from 'agent-hooks';
import { sandbox } from './support.js';

// "disableAllHooks": true in any settings file Claude Code reads switches off the hooks of all of them, as Claude Code
// 2.1.332 does (test/agents/claude-rules.test.ts runs the binary on the same layouts): real files, real processes.

const setup = sandbox();

const marker = (dir: string, name: string) => ({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `touch ${JSON.stringify(join(dir, name))}`, timeout: 20 }] }] } });

async function layout(off: { user?: boolean; project?: boolean; local?: boolean }) {
  const { home, project, write } = await setup();
  const flag = (value: boolean | undefined) => (value === undefined ? {} : { disableAllHooks: value });
  await write(home, '.claude/settings.json', { ...flag(off.user), ...marker(project, 'user-ran') });
  await write(project, '.claude/settings.json', { ...flag(off.project), ...marker(project, 'project-ran') });
  await write(project, '.claude/settings.local.json', { ...flag(off.local), ...marker(project, 'local-ran') });
  return { home, project };
}

describe('disableAllHooks in Claude Code settings', () => {
  it.each([
    ['project', { project: true }, '.claude/settings.json'],
    ['local', { local: true }, '.claude/settings.local.json'],
    ['user', { user: true }, '.claude/settings.json'],
  ] as const)('set in the %s file: no hook of any file loads, and a warning names the file', async (level, off, path) => {
    const { home, project } = await layout(off);
    const { hooks, problems } = await loadClaudeHooks({ projectDir: project, homeDir: home, trust: 'all' });
    expect(hooks).toEqual([]);
    const problem = problems.find((p) => p.code === 'hooks-disabled');
    expect(problem?.severity).toBe('warning');
    expect(problem?.file).toBe(join(level === 'user' ? home : project, path));
    expect(problem?.message).toMatch(/runs none of the hooks/);
  });

  it('the last file that sets it decides: the project\'s false undoes the user\'s true', async () => {
    const { home, project } = await layout({ user: true, project: false });
    const { hooks, problems } = await loadClaudeHooks({ projectDir: project, homeDir: home, trust: 'all' });
    expect(hooks).toHaveLength(3);
    expect(problems.filter((p) => p.code === 'hooks-disabled')).toEqual([]);
  });

  it('an agent built withHooksFrom({ claude: true }) runs none of them, and warns', async () => {
    const { home, project } = await layout({ project: true });
    const bash = defineTool({ name: 'Bash', description: 'Runs a command.', input: z.object({ command: z.string() }), execute: () => 'ok' });
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([{ toolCalls: [{ name: 'Bash', args: { command: 'echo hi' } }] }, 'done']))
      .withTools(bash)
      .withHooksFrom({ projectDir: project, homeDir: home, userDir: false, trust: 'all', claude: true, hookmd: false })
      .build();
    const warnings: AgentWarning[] = [];
    agent.events.on('warning', (w) => warnings.push(w));
    await agent.run('go');
    expect(['user-ran', 'project-ran', 'local-ran'].filter((f) => existsSync(join(project, f)))).toEqual([]);
    expect(warnings.some((w) => w.code === 'hook-problem:hooks-disabled' && w.message.includes('disableAllHooks'))).toBe(true);
  });
});
