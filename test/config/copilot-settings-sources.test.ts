/**
 * The settings files Copilot CLI 1.0.102 reads hooks from besides its hook folders — the repository's
 * `.claude/settings.json`, `.claude/settings.local.json` and `.github/copilot/settings.local.json` — and how it reads
 * them (test/agents/copilot-switches.test.ts runs the binary on the same layouts): real files, real processes.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, loadAllHookConfigs, loadCopilotHooks } from 'agent-hooks';
import { userHookFile } from '../../src/bridge/user-bridge-command.js';
import { sandbox } from './support.js';

const setup = sandbox();
const group = (command: string, matcher?: string) => ({ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command }] });
const commands = (hooks: readonly { readonly command: string }[]) => hooks.map((h) => h.command);

/** Runs `command` through a `bash` tool in an agent that loads the project's Copilot hooks; whether `file` was made. */
async function made(project: string, command: string, file: string): Promise<boolean> {
  const bash = defineTool({ name: 'bash', description: 'Runs a shell command.', input: z.object({ command: z.string() }), execute: (input) => execFileSync('/bin/sh', ['-c', input.command], { cwd: project, encoding: 'utf8' }) });
  const agent = AgentBuilder.new()
    .withModel(new ScriptedModel([{ toolCalls: [{ name: 'bash', args: { command } }] }, 'done']))
    .withTools(bash)
    .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, copilot: true, hookmd: false, platform: 'linux' })
    .build();
  await agent.run('go');
  return existsSync(join(project, file));
}

describe('Copilot hooks in the repository’s settings files', () => {
  it('loads .claude/settings.json, .claude/settings.local.json, .github/copilot/settings.json and settings.local.json, in that order, after the hook files', async () => {
    const { home, project, write } = await setup();
    await write(project, '.github/hooks/b.json', { version: 1, hooks: { preToolUse: [{ bash: 'echo file' }] } });
    await write(project, '.claude/settings.json', { hooks: { preToolUse: [{ bash: 'echo claude-camel' }], PreToolUse: [group('echo claude')] } });
    await write(project, '.claude/settings.local.json', { hooks: { PreToolUse: [group('echo claude-local', 'Edit|Bash')] } });
    await write(project, '.github/copilot/settings.json', { hooks: { preToolUse: [{ bash: 'echo settings' }] } });
    await write(project, '.github/copilot/settings.local.json', { hooks: { preToolUse: [{ bash: 'echo settings-local' }] } });
    const { hooks } = await loadCopilotHooks({ projectDir: project, homeDir: home, trust: 'all' });
    expect(commands(hooks as never)).toEqual(['echo file', 'echo claude-camel', 'echo claude', 'echo claude-local', 'echo settings', 'echo settings-local']);
  });

  it('loaded beside Claude Code’s files, the .claude/ hooks load once, as Claude Code’s', async () => {
    const { home, project, write } = await setup();
    await write(project, '.claude/settings.json', { hooks: { PreToolUse: [group('echo claude')] } });
    const { hooks } = await loadAllHookConfigs(project, { trust: 'all', homeDir: home, claude: true, copilot: true });
    expect(hooks.map((h) => [(h as { origin?: { kind: string } }).origin?.kind, (h as { command?: string }).command])).toEqual([['claude', 'echo claude']]);
  });

  it('leaves them out until the project is trusted, as its other files', async () => {
    const { home, project, write } = await setup();
    await write(project, '.claude/settings.local.json', { hooks: { preToolUse: [{ bash: 'echo claude-local' }] } });
    await write(project, '.github/copilot/settings.local.json', { hooks: { preToolUse: [{ bash: 'echo settings-local' }] } });
    const { hooks, problems } = await loadCopilotHooks({ projectDir: project, homeDir: home, trust: 'store' });
    expect(hooks).toEqual([]);
    expect(problems.filter((p) => p.code === 'untrusted-hook').map((p) => p.file).sort()).toEqual([join(project, '.claude/settings.local.json'), join(project, '.github/copilot/settings.local.json')]);
  });

  it('a guard under PascalCase with the matcher Bash guards the bash tool, as in Copilot CLI', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', { hooks: { PreToolUse: [group('exit 2', 'Bash')] } });
    expect(await made(project, 'touch claude.txt', 'claude.txt')).toBe(false);
    await write(project, '.github/hooks/guard.json', { version: 1, hooks: { PreToolUse: [{ matcher: 'Bash', bash: 'exit 2' }] } });
    await write(project, '.claude/settings.json', {});
    expect(await made(project, 'touch file.txt', 'file.txt')).toBe(false);
  });

  it('a camelCase matcher still matches Copilot’s own name only', async () => {
    const { project, write } = await setup();
    await write(project, '.github/hooks/guard.json', { version: 1, hooks: { preToolUse: [{ matcher: 'Bash', bash: 'exit 2' }] } });
    expect(await made(project, 'touch camel.txt', 'camel.txt')).toBe(true);
  });

  it('a settings file with an empty matcher loads none of its hooks, with an error naming the field', async () => {
    const { home, project, write } = await setup();
    await write(project, '.claude/settings.json', { hooks: { PreToolUse: [group('echo a', ''), group('echo b')], Stop: [group('echo stop')] } });
    await write(project, '.claude/settings.local.json', { hooks: { PreToolUse: [group('echo local')] } });
    const { hooks, problems } = await loadCopilotHooks({ projectDir: project, homeDir: home, trust: 'all' });
    expect(commands(hooks as never)).toEqual(['echo local']);
    const problem = problems.find((p) => p.code === 'invalid-matcher');
    expect(problem?.file).toBe(join(project, '.claude/settings.json'));
    expect(problem?.field).toBe('hooks.PreToolUse[0].matcher');
  });

  it('says when Claude Code’s bridge line in .claude/settings.json runs beside Copilot’s own', async () => {
    const { home, project, write } = await setup();
    await write(project, '.github/hooks/agent-hooks.json', { version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'npx agent-hooks bridge --from copilot --event PreToolUse' }] } });
    await write(project, '.claude/settings.json', { hooks: { PreToolUse: [group('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-hooks bridge --from claude')] } });
    const { problems } = await loadCopilotHooks({ projectDir: project, homeDir: home, trust: 'all' });
    const twice = problems.find((p) => p.code === 'bridge-twice');
    expect(twice?.file).toBe(join(project, '.claude/settings.json'));
    expect(twice?.message).toMatch(/runs twice on each Copilot event/);
  });

  it('reads the user’s hooks and settings from $COPILOT_HOME when it is set, and nothing of ~/.copilot', async () => {
    const { home, project, write } = await setup();
    await write(home, '.copilot/hooks/u.json', { version: 1, hooks: { preToolUse: [{ bash: 'echo home' }] } });
    await write(home, 'elsewhere/hooks/u.json', { version: 1, hooks: { preToolUse: [{ bash: 'echo copilot-home' }] } });
    await write(home, 'elsewhere/settings.json', { hooks: { preToolUse: [{ bash: 'echo copilot-home-settings' }] } });
    const { hooks } = await loadAllHookConfigs(project, { trust: 'all', homeDir: home, copilot: true, hostEnv: { COPILOT_HOME: join(home, 'elsewhere') } });
    expect(commands(hooks as never)).toEqual(['echo copilot-home', 'echo copilot-home-settings']);
    expect(userHookFile('copilot', { HOME: home, COPILOT_HOME: join(home, 'elsewhere') })).toEqual({ dir: join(home, 'elsewhere'), file: 'hooks/agent-hooks.json' });
    expect(userHookFile('copilot', { HOME: home })).toEqual({ dir: home, file: '.copilot/hooks/agent-hooks.json' });
  });

  it('runs an exec entry with its args and no shell: a guard written that way denies', async () => {
    const { project, write } = await setup();
    await write(project, '.github/hooks/guard.json', { version: 1, hooks: { preToolUse: [{ exec: 'sh', args: ['-c', 'cat > /dev/null; test "$0" = "two words" && exit 2', 'two words'] }] } });
    expect(await made(project, 'touch exec.txt', 'exec.txt')).toBe(false);
  });

  it('an entry with both exec and bash is not loaded, with an error', async () => {
    const { home, project, write } = await setup();
    await write(project, '.github/hooks/both.json', { version: 1, hooks: { preToolUse: [{ exec: 'true', bash: 'true' }, { bash: 'echo ok' }] } });
    const { hooks, problems } = await loadCopilotHooks({ projectDir: project, homeDir: home, trust: 'all' });
    expect(commands(hooks as never)).toEqual(['echo ok']);
    expect(problems.find((p) => p.code === 'invalid-config')?.field).toBe('hooks.preToolUse[0].exec');
  });
});
