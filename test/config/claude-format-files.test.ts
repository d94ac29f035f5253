import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runShellAgent } from '../support/shell-agent.js';
import { loadAllHookConfigs } from '../../src/agents/load-all.js';
import { sandbox } from './support.js';

// The files of the agents that speak Claude Code's format, read as they read them. Factory Droid's, as Factory Droid 0.215.0 reads them: in each of ~/.factory and .factory, hooks.json with
// the events at its top level and the `hooks` of settings.json; a `hooks` wrapper in hooks.json and a
// `hooksDisabled: true` are what Droid makes of them, and said.

const setup = sandbox();
const group = (command: string) => [{ matcher: 'Execute', hooks: [{ type: 'command', command }] }];
const plain = (command: string) => [{ hooks: [{ type: 'command', command }] }];
const load = (project: string, home: string) => loadAllHookConfigs(project, { homeDir: home, userDir: false, trust: 'all', droid: true });

describe("Factory Droid's hook files", () => {
  it('load the events at the top level of hooks.json and under settings.json’s hooks, the user’s and the project’s', async () => {
    const { home, project, write } = await setup();
    await write(home, '.factory/hooks.json', { PreToolUse: group('echo user'), showHookOutput: true });
    await write(project, '.factory/settings.json', { model: 'x', hooks: { SessionStart: group('echo settings') } });
    await write(project, '.factory/hooks.json', { PostToolUse: group('echo project') });
    const { hooks, problems } = await load(project, home);
    expect(problems).toEqual([]);
    expect(hooks.map((h) => h.name)).toEqual(['echo user', 'echo settings', 'echo project']);
  });

  it('take an event’s hooks in one folder from the hooks file over settings.json, as Factory Droid 0.215.0 does, and say which are not loaded', async () => {
    const { home, project, write } = await setup();
    const settings = await write(project, '.factory/settings.json', { hooks: { PreToolUse: group('echo settings pre'), PostToolUse: group('echo settings post'), Stop: plain('echo settings stop') } });
    // An empty list replaces nothing: the hooks before it keep guarding.
    const hooksFile = await write(project, '.factory/hooks.json', { Stop: plain('echo hooks stop'), PreToolUse: [] });
    // The older hooks/hooks.json is read only while there is no hooks.json.
    const legacy = await write(project, '.factory/hooks/hooks.json', { PostToolUse: group('echo legacy post') });
    // The user's folder is another: its settings.json's event stays beside the project's.
    await write(home, '.factory/settings.json', { hooks: { PostToolUse: group('echo user post') } });
    const { hooks, problems } = await load(project, home);
    expect(hooks.map((h) => h.name)).toEqual(['echo user post', 'echo settings pre', 'echo settings post', 'echo hooks stop']);
    expect(problems.map((p) => [p.file, p.field, p.severity])).toEqual([
      [legacy, undefined, 'warning'],
      [settings, 'hooks.Stop', 'warning'],
    ]);
    expect(problems[0]!.message).toContain(`Factory Droid reads this older file only while there is no ${hooksFile}`);
    expect(problems[1]!.message).toContain(`Factory Droid runs the Stop hooks of ${hooksFile} and none of these`);
  });

  it('take the older hooks/hooks.json as the hooks file while there is no hooks.json', async () => {
    const { home, project, write } = await setup();
    await write(project, '.factory/settings.json', { hooks: { PreToolUse: group('echo settings pre'), PostToolUse: group('echo settings post') } });
    await write(project, '.factory/hooks/hooks.json', { PostToolUse: group('echo legacy post') });
    const { hooks, problems } = await load(project, home);
    expect(hooks.map((h) => h.name)).toEqual(['echo settings pre', 'echo legacy post']);
    expect(problems.map((p) => p.field)).toEqual(['hooks.PostToolUse']);
  });

  it('read nothing under a "hooks" wrapper in hooks.json, as Factory Droid runs nothing there, and say so', async () => {
    const { home, project, write } = await setup();
    await write(project, '.factory/hooks.json', { hooks: { PreToolUse: group('echo wrapped') } });
    const { hooks, problems } = await load(project, home);
    expect(hooks).toEqual([]);
    expect(problems).toMatchObject([{ field: 'hooks', severity: 'warning', message: expect.stringContaining('Factory Droid reads the events at the top level') }]);
  });

  it('load no hook while hooksDisabled is true, with a warning naming the file', async () => {
    const { home, project, write } = await setup();
    const file = await write(project, '.factory/hooks.json', { PreToolUse: group('echo guard'), hooksDisabled: true });
    const { hooks, problems } = await load(project, home);
    expect(hooks).toEqual([]);
    expect(problems).toMatchObject([{ file, field: 'hooksDisabled', code: 'hooks-disabled', severity: 'warning' }]);
  });

  it('match a tool as Factory Droid names it: Execute, not Claude Code’s Bash', async () => {
    const { home, project, write } = await setup();
    await write(project, '.factory/hooks.json', { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo bash' }] }, ...group('echo execute')] });
    const { hooks } = await load(project, home);
    const ctx = { event: 'PreToolUse', toolCall: { name: 'Execute' } } as never;
    expect(hooks.filter((h) => h.matcher?.matches(ctx) ?? true).map((h) => h.name)).toEqual(['echo execute']);
  });
});

describe("Factory Droid's commandRegex", () => {
  it('runs a group’s hooks only on a call whose command the regex matches, and leaves out a group whose regex does not compile', async () => {
    const { home, project, write } = await setup();
    await write(project, '.factory/hooks.json', {
      PreToolUse: [
        { matcher: 'Execute', commandRegex: '^git push', hooks: [{ type: 'command', command: 'echo push' }] },
        { matcher: 'Execute', commandRegex: '(', hooks: [{ type: 'command', command: 'echo broken' }] },
      ],
    });
    const { hooks, problems } = await load(project, home);
    expect(hooks.map((h) => h.name)).toEqual(['echo push']);
    expect(problems).toMatchObject([{ field: 'PreToolUse[1].commandRegex', code: 'invalid-matcher', severity: 'error' }]);
    const call = (name: string, command?: string) => ({ event: 'PreToolUse', toolCall: { name, args: command === undefined ? {} : { command } } }) as never;
    expect(hooks[0]!.matcher!.matches(call('Execute', 'git push origin main'))).toBe(true);
    expect(hooks[0]!.matcher!.matches(call('Execute', 'ls'))).toBe(false);
    expect(hooks[0]!.matcher!.matches(call('Read'))).toBe(false);
  });
});

describe("Qwen Code's settings files", () => {
  it('load no hook while disableAllHooks is true in the project’s file, over the user’s', async () => {
    const { home, project, write } = await setup();
    await write(home, '.qwen/settings.json', { disableAllHooks: false, hooks: { PreToolUse: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: 'echo user' }] }] } });
    const file = await write(project, '.qwen/settings.json', { disableAllHooks: true });
    const { hooks, problems } = await loadAllHookConfigs(project, { homeDir: home, userDir: false, trust: 'all', qwen: true });
    expect(hooks).toEqual([]);
    expect(problems).toMatchObject([{ file, field: 'disableAllHooks', code: 'hooks-disabled', severity: 'warning' }]);
  });

  it('match a tool as Qwen Code does: its own name or one of its other names, else a regex over the name it calls', async () => {
    const { home, project, write } = await setup();
    const entry = (matcher: string) => ({ matcher, hooks: [{ type: 'command', command: `echo ${matcher}` }] });
    // Bash and Shell are Qwen Code's other names for run_shell_command; bash and Execute are other agents' names.
    await write(project, '.qwen/settings.json', { hooks: { PreToolUse: ['Bash', 'Shell', 'Edit|Bash', 'bash', 'Execute', 'run_.*', 'Ba.h'].map(entry) } });
    const { hooks, problems } = await loadAllHookConfigs(project, { homeDir: home, userDir: false, trust: 'all', qwen: true });
    expect(problems).toEqual([]);
    const ctx = { event: 'PreToolUse', toolCall: { name: 'run_shell_command', args: {} } } as never;
    expect(hooks.filter((h) => h.matcher?.matches(ctx) ?? true).map((h) => h.name)).toEqual(['echo Bash', 'echo Shell', 'echo Edit|Bash', 'echo run_.*']);
  });
});

describe("The hooks of Qwen Code's and Factory Droid's files", () => {
  it('are their own agent’s: the origin names Qwen Code or Factory Droid, not Claude Code, whose format they share', async () => {
    const { home, project, write } = await setup();
    await write(project, '.factory/hooks.json', { PreToolUse: group('echo droid') });
    await write(project, '.qwen/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo qwen' }] }] } });
    await write(project, '.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo claude' }] }] } });
    const { hooks } = await loadAllHookConfigs(project, { homeDir: home, userDir: false, trust: 'all', droid: true, qwen: true, claude: true });
    expect(Object.fromEntries(hooks.map((h) => [h.name, 'origin' in h ? h.origin.kind : undefined]))).toEqual({ 'echo claude': 'claude', 'echo qwen': 'qwen', 'echo droid': 'droid' });
  });

  it('run under parallel: true by their own agent’s rule: Factory Droid’s one after another, the second sent the first one’s rewrite', async () => {
    const { home, project, write } = await setup();
    // Each hook keeps the command it was sent, then rewrites it.
    const rewrite = (to: string) => `cat > sent-to-${to}.json; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo ${to} >> seen.txt"}}}'`;
    await write(project, '.factory/hooks.json', { PreToolUse: [...group(rewrite('first')), ...group(rewrite('second'))] });
    await runShellAgent({ dir: project, tool: 'Execute', commands: ['echo original >> seen.txt'], from: { homeDir: home, droid: true, hookmd: false, parallel: true } });
    const sent = JSON.parse(await readFile(join(project, 'sent-to-second.json'), 'utf8')) as { tool_input: { command: string } };
    expect(sent.tool_input.command).toBe('echo first >> seen.txt');
    expect(await readFile(join(project, 'seen.txt'), 'utf8')).toBe('second\n');
  });
});
