import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CommandHook,
  HookOutcome,
  HookStack,
  HookLoadError,
  loadAllHookConfigs,
  loadClaudeHooks,
  loadCopilotHooks,
  loadCursorHooks,
  loadGeminiHooks,
  loadHookConfigFile,
  loadVsCodeHooks,
  PromptHook,
  ToolCall,
  ToolExecution,
  ToolHookContext,
  SessionHookContext,
  CompactHookContext,
  FailureHookContext,
  StopHookContext,
  SubagentHookContext,
  type AnyHookContext,
  type ConfigHook,
} from 'agent-hooks';
import { sandbox } from './support.js';

// The projects here are the tests' own: they opt in with trust: 'all' (trust itself is tested in test/script/trust.test.ts).

const setup = sandbox();
const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });
const matches = (hook: ConfigHook, ctx: AnyHookContext) => hook.matcher === undefined || hook.matcher.matches(ctx);
const tool = (name: string) => ToolHookContext.beforeToolUse(ToolCall.create(name, {}));

describe('Claude Code settings', () => {
  it('merges user, project and local files in that order, and runs an identical command once', async () => {
    const { home, project, write } = await setup();
    await write(home, '.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('user.sh'), cmd('shared.sh')] }] } });
    await write(project, '.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('project.sh'), cmd('shared.sh')] }] } });
    await write(project, '.claude/settings.local.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('local.sh')] }] }, permissions: {} });
    const { hooks, problems, files } = await loadClaudeHooks({ projectDir: project, trust: 'all', homeDir: home });
    expect(problems).toEqual([]);
    expect(files).toHaveLength(3);
    expect(hooks.map((h) => (h as CommandHook).command)).toEqual(['user.sh', 'shared.sh', 'project.sh', 'local.sh']);
    expect(hooks.map((h) => h.origin.level)).toEqual(['user', 'user', 'project', 'local']);
    expect(hooks[2]!.origin).toMatchObject({ kind: 'claude', field: 'hooks.PreToolUse[0].hooks[0]', matcher: 'Bash' });
    expect(hooks.every((h) => h.timeoutMs === 600_000)).toBe(true);
  });

  it('applies Claude Code’s matcher rules: exact names, | lists, unanchored regexes, * and empty', async () => {
    const { project, write } = await setup();
    const group = (matcher: string | undefined) => ({ ...(matcher === undefined ? {} : { matcher }), hooks: [cmd(`echo ${matcher}`)] });
    await write(project, '.claude/settings.json', {
      hooks: { PreToolUse: [group('Write'), group('Write|Edit'), group('Edit.*'), group('*'), group(''), group(undefined), group('mcp__github__.*')] },
    });
    const { hooks } = await loadClaudeHooks({ projectDir: project, trust: 'all', homeDir: false });
    const [exact, list, regex, star, empty, absent, mcp] = hooks as ConfigHook[];
    expect(matches(exact!, tool('Write'))).toBe(true);
    expect(matches(exact!, tool('WriteNotes'))).toBe(false);
    expect(matches(list!, tool('Edit'))).toBe(true);
    expect(matches(list!, tool('NotebookEdit'))).toBe(false);
    expect(matches(regex!, tool('NotebookEdit'))).toBe(true);
    for (const all of [star!, empty!, absent!]) expect(matches(all, tool('anything'))).toBe(true);
    expect(matches(mcp!, tool('mcp__github__create_issue'))).toBe(true);
    expect(matches(mcp!, tool('Bash'))).toBe(false);
  });

  it('matches SessionStart by source, PreCompact by trigger and subagents by type', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', {
      hooks: {
        SessionStart: [{ matcher: 'resume|compact', hooks: [cmd('echo again')] }],
        PreCompact: [{ matcher: 'manual', hooks: [cmd('echo compact')] }],
        SubagentStart: [{ matcher: 'Plan', hooks: [cmd('echo plan')] }],
        SubagentStop: [{ matcher: 'Expl.*', hooks: [cmd('echo explore')] }],
      },
    });
    const [hook, compact, start, stop] = (await loadClaudeHooks({ projectDir: project, trust: 'all', homeDir: false })).hooks;
    expect(matches(hook!, SessionHookContext.onStart({ source: 'resume' }))).toBe(true);
    expect(matches(hook!, SessionHookContext.onStart({ source: 'startup' }))).toBe(false);
    expect(matches(compact!, CompactHookContext.before({ trigger: 'manual', messagesBefore: [] }))).toBe(true);
    expect(matches(compact!, CompactHookContext.before({ trigger: 'auto', messagesBefore: [] }))).toBe(false);
    expect(matches(start!, SubagentHookContext.onStart({ name: 'p', type: 'Plan', task: 't' }))).toBe(true);
    expect(matches(start!, SubagentHookContext.onStart({ name: 'p', type: 'Planner', task: 't' }))).toBe(false);
    const subagentStop = (type: string) => StopHookContext.subagentStop({ stopReason: 'no_tool_calls', subagentName: 'x', subagentType: type });
    expect(matches(stop!, subagentStop('Explore'))).toBe(true);
    expect(matches(stop!, subagentStop('Plan'))).toBe(false);
  });

  it('reports an invalid file with its position, and still loads the other files', async () => {
    const { home, project, write } = await setup();
    await write(home, '.claude/settings.json', { hooks: { Stop: [{ hooks: [cmd('user-stop.sh')] }] } });
    const broken = await write(project, '.claude/settings.json', '{\n  "hooks": {\n    "Stop": [\n  }\n}\n');
    const { hooks, problems } = await loadClaudeHooks({ projectDir: project, trust: 'all', homeDir: home });
    expect(hooks.map((h) => (h as CommandHook).command)).toEqual(['user-stop.sh']);
    expect(problems).toHaveLength(1);
    // The `}` that should have closed the list, at line 4, column 3.
    expect(problems[0]).toMatchObject({ file: broken, code: 'invalid-json', severity: 'error', line: 4, column: 3 });
    expect(problems[0]!.message).toContain('line 4, column 3');
  });

  it('reports unknown events, bad matchers, missing commands and unsupported types by file and field', async () => {
    const { project, write } = await setup();
    const file = await write(project, '.claude/settings.json', {
      hooks: {
        PreToolUze: [{ hooks: [cmd('a')] }],
        PostToolUse: [{ matcher: 'Edit(', hooks: [cmd('b')] }, { hooks: [{ type: 'command' }, { type: 'mcp_tool', server: 'x', tool: 'y' }, { type: 'agent' }, cmd('ok')] }],
      },
    });
    const { hooks, problems } = await loadClaudeHooks({ projectDir: project, trust: 'all', homeDir: false });
    expect(hooks.map((h) => (h as CommandHook).command)).toEqual(['ok']);
    expect(problems.map((p) => [p.field, p.code])).toEqual([
      ['hooks.PreToolUze', 'unknown-event'],
      ['hooks.PostToolUse[0].matcher', 'invalid-matcher'],
      ['hooks.PostToolUse[1].hooks[0].command', 'missing-field'],
      ['hooks.PostToolUse[1].hooks[1].type', 'unsupported-hook-type'],
      ['hooks.PostToolUse[1].hooks[2].prompt', 'missing-field'],
    ]);
    expect(problems.every((p) => p.file === file)).toBe(true);
    await expect(loadClaudeHooks({ projectDir: project, trust: 'all', homeDir: false, strict: true })).rejects.toBeInstanceOf(HookLoadError);
  });

  it('needs a model for prompt hooks, and names the fix when there is none', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', { hooks: { Stop: [{ hooks: [{ type: 'prompt', prompt: 'Are all tasks done? $ARGUMENTS', timeout: 5 }] }] } });
    const without = await loadClaudeHooks({ projectDir: project, trust: 'all', homeDir: false });
    expect(without.hooks).toEqual([]);
    expect(without.problems[0]).toMatchObject({ code: 'prompt-hook-needs-model', field: 'hooks.Stop[0].hooks[0]' });
    expect(without.problems[0]!.message).toContain('withModel');
    const withJudge = await loadClaudeHooks({ projectDir: project, trust: 'all', homeDir: false, judge: async () => '{"ok":true}' });
    expect(withJudge.hooks[0]).toBeInstanceOf(PromptHook);
    expect(withJudge.hooks[0]!.timeoutMs).toBe(5000);
  });
});

describe('GitHub Copilot and VS Code hook files', () => {
  it('reads Copilot files: flat entries, bash over command, cwd, env, timeoutSec, anchored matchers', async () => {
    const { home, project, write } = await setup();
    await write(project, '.github/hooks/guard.json', {
      version: 1,
      hooks: { preToolUse: [{ type: 'command', bash: './guard.sh', powershell: './guard.ps1', cwd: 'scripts', env: { LEVEL: 'strict' }, timeoutSec: 7, matcher: 'bash' }] },
    });
    await write(home, '.copilot/hooks/user.json', { version: 1, hooks: { sessionStart: [{ type: 'command', bash: 'echo hi' }] } });
    const { hooks, problems } = await loadCopilotHooks({ projectDir: project, trust: 'all', homeDir: home, platform: 'linux' });
    expect(problems).toEqual([]);
    const [user, guard] = hooks as CommandHook[];
    expect(user!.origin.level).toBe('user');
    expect(guard!.command).toBe('./guard.sh');
    expect(guard!.timeoutMs).toBe(7000);
    expect(guard!.dialect.name).toBe('copilot');
    expect(guard!.eventName).toBe('preToolUse');
    expect(matches(guard!, tool('bash'))).toBe(true);
    expect(matches(guard!, tool('bash2'))).toBe(false);
    expect(matches(guard!, tool('mybash'))).toBe(false);
    expect(guard!.failClosed).toBe(false);
    const closed = await loadCopilotHooks({ projectDir: project, trust: 'all', homeDir: false, failClosed: true });
    expect((closed.hooks as CommandHook[]).every((h) => h.failClosed)).toBe(true);
    const windows = await loadCopilotHooks({ projectDir: project, trust: 'all', homeDir: false, platform: 'win32' });
    expect((windows.hooks[0] as CommandHook).command).toBe('./guard.ps1');
  });

  it('switches a Copilot hook under a PascalCase event to Copilot’s Claude-compatible payload', async () => {
    const { project, write } = await setup();
    await write(project, '.github/hooks/a.json', { version: 1, hooks: { PreToolUse: [{ type: 'command', bash: 'x' }], preToolUse: [{ type: 'command', bash: 'y' }] } });
    const { hooks } = await loadCopilotHooks({ projectDir: project, trust: 'all', homeDir: false });
    expect(hooks.map((h) => (h as CommandHook).dialect.name)).toEqual(['copilot-claude', 'copilot']);
  });

  it('runs the project’s Copilot files last name first, as Copilot CLI does, each file’s hooks in their order', async () => {
    const { project, write } = await setup();
    for (const name of ['b', 'a', 'c']) await write(project, `.github/hooks/${name}.json`, { version: 1, hooks: { preToolUse: [{ bash: `${name}1` }, { bash: `${name}2` }] } });
    const { hooks } = await loadCopilotHooks({ projectDir: project, trust: 'all', homeDir: false });
    expect(hooks.map((h) => (h as CommandHook).command)).toEqual(['c1', 'c2', 'b1', 'b2', 'a1', 'a2']);
  });

  it('runs the user’s Copilot files before the project’s, each folder last name first, as Copilot CLI does', async () => {
    const { home, project, write } = await setup();
    for (const name of ['a', 'c']) await write(home, `.copilot/hooks/${name}.json`, { version: 1, hooks: { preToolUse: [{ bash: `user-${name}1` }, { bash: `user-${name}2` }] } });
    for (const name of ['b', 'a']) await write(project, `.github/hooks/${name}.json`, { version: 1, hooks: { preToolUse: [{ bash: `project-${name}` }] } });
    const { hooks } = await loadCopilotHooks({ projectDir: project, trust: 'all', homeDir: home });
    expect(hooks.map((h) => (h as CommandHook).command)).toEqual(['user-c1', 'user-c2', 'user-a1', 'user-a2', 'project-b', 'project-a']);
  });

  it('runs the hooks of Copilot’s settings files after their level’s folder: user files, user settings, project files, project settings', async () => {
    const { home, project, write } = await setup();
    await write(home, '.copilot/hooks/a.json', { version: 1, hooks: { preToolUse: [{ bash: 'user-file' }] } });
    await write(home, '.copilot/settings.json', { model: 'x', hooks: { preToolUse: [{ bash: 'user-settings' }] } });
    await write(project, '.github/hooks/a.json', { version: 1, hooks: { preToolUse: [{ bash: 'project-file' }] } });
    await write(project, '.github/copilot/settings.json', { hooks: { preToolUse: [{ bash: 'project-settings' }] } });
    const { hooks, files } = await loadCopilotHooks({ projectDir: project, trust: 'all', homeDir: home });
    expect(hooks.map((h) => (h as CommandHook).command)).toEqual(['user-file', 'user-settings', 'project-file', 'project-settings']);
    expect(files).toContain(join(project, '.github', 'copilot', 'settings.json'));
  });

  it('does not run the hooks of an untrusted project’s .github/copilot/settings.json, and says so', async () => {
    const { home, project, write } = await setup();
    await write(project, '.github/copilot/settings.json', { hooks: { preToolUse: [{ bash: 'project-settings' }] } });
    const { hooks, problems } = await loadCopilotHooks({ projectDir: project, homeDir: home });
    expect(hooks).toEqual([]);
    expect(problems.map((p) => [p.code, p.file])).toContainEqual(['untrusted-hook', join(project, '.github', 'copilot', 'settings.json')]);
  });

  it('reads no hooks, and names no file, for Copilot settings without hooks', async () => {
    const { home, project, write } = await setup();
    await write(home, '.copilot/settings.json', { model: 'x' });
    const { hooks, files, problems } = await loadCopilotHooks({ projectDir: project, trust: 'all', homeDir: home });
    expect(hooks).toEqual([]);
    expect(files).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('runs a Copilot errorOccurred hook when the run failed on its model call only, as Copilot CLI fires it', async () => {
    const { project, write } = await setup();
    await write(project, '.github/hooks/a.json', { version: 1, hooks: { errorOccurred: [{ bash: 'cat > /dev/null' }] } });
    const { hooks } = await loadCopilotHooks({ projectDir: project, trust: 'all', homeDir: false });
    expect(hooks).toHaveLength(1);
    expect(matches(hooks[0]!, FailureHookContext.onFailure(new Error('overloaded'), { duringModelCall: true }))).toBe(true);
    expect(matches(hooks[0]!, FailureHookContext.onFailure(new Error('a hook threw'), { duringModelCall: false }))).toBe(false);
  });

  it('runs a Copilot permissionRequest hook on every call the preToolUse hooks let through, and once when one asked', async () => {
    const { project, write } = await setup();
    const log = join(project, 'permission.log');
    await write(project, '.github/hooks/a.json', {
      version: 1,
      hooks: {
        preToolUse: [{ bash: 'if grep -q ask-me; then echo \'{"permissionDecision":"ask","permissionDecisionReason":"why"}\'; fi' }],
        permissionRequest: [{ bash: `cat >> '${log}'; echo >> '${log}'; if grep -q deny-me '${log}'; then echo '{"behavior":"deny","message":"PERMISSION-DENIED"}'; fi` }],
      },
    });
    const { hooks } = await loadCopilotHooks({ projectDir: project, trust: 'all', homeDir: false });
    const stack = new HookStack().withAll(hooks);
    const call = (command: string) => ToolHookContext.beforeToolUse(ToolCall.create('bash', { command }, 't'));
    expect((await stack.process(call('ls'), (c) => HookOutcome.proceed(c))).type).toBe('proceed');
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(readFileSync(log, 'utf8').trim().split('\n')[0]!)).toMatchObject({ hookName: 'permissionRequest', toolName: 'bash', toolInput: { command: 'ls' } });
    // Asked by a preToolUse hook: left to the PermissionRequest the run loop fires, so it does not run here.
    expect((await stack.process(call('ask-me'), (c) => HookOutcome.proceed(c))).type).toBe('ask');
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(1);
    const denied = await stack.process(call('deny-me'), (c) => HookOutcome.proceed(c));
    expect(denied).toMatchObject({ type: 'block', reason: 'PERMISSION-DENIED' });
  });

  it('reads VS Code files: the OS’s own command wins, timeout in seconds (default 30), matchers reported as not applied', async () => {
    const { project, write } = await setup();
    const file = await write(project, '.github/hooks/format.json', {
      hooks: {
        PostToolUse: [{ type: 'command', command: './format.sh', windows: 'powershell -File format.ps1', linux: './format-linux.sh', osx: './format-mac.sh', timeout: 15 }],
        PreToolUse: [{ type: 'command', command: './check.sh', matcher: 'Write' }],
      },
    });
    const linux = await loadVsCodeHooks({ projectDir: project, trust: 'all', homeDir: false, platform: 'linux' });
    expect(linux.hooks.map((h) => (h as CommandHook).command)).toEqual(['./format-linux.sh', './check.sh']);
    expect(linux.hooks.map((h) => h.timeoutMs)).toEqual([15_000, 30_000]);
    expect(linux.hooks[1]!.matcher).toBeUndefined();
    expect(linux.problems).toEqual([expect.objectContaining({ file, field: 'hooks.PreToolUse[0].matcher', code: 'ignored-matcher', severity: 'warning' })]);
    const mac = await loadVsCodeHooks({ projectDir: project, trust: 'all', homeDir: false, platform: 'darwin' });
    expect((mac.hooks[0] as CommandHook).command).toBe('./format-mac.sh');
    // A Copilot loader leaves VS Code files alone, and the other way round.
    expect((await loadCopilotHooks({ projectDir: project, trust: 'all', homeDir: false })).hooks).toEqual([]);
  });

  it('reports an invalid file and loads the others of the folder', async () => {
    const { project, write } = await setup();
    const bad = await write(project, '.github/hooks/a-bad.json', '{"version": 1, "hooks": {');
    await write(project, '.github/hooks/b-good.json', { version: 1, hooks: { agentStop: [{ type: 'command', bash: 'echo ok' }] } });
    const { hooks, problems } = await loadCopilotHooks({ projectDir: project, trust: 'all', homeDir: false });
    expect(hooks).toHaveLength(1);
    expect(problems).toEqual([expect.objectContaining({ file: bad, code: 'invalid-json', line: 1 })]);
  });
});

describe('Gemini CLI settings', () => {
  it('reads timeouts in milliseconds and unanchored regex matchers', async () => {
    const { home, project, write } = await setup();
    await write(home, '.gemini/settings.json', { hooks: { BeforeAgent: [{ hooks: [{ type: 'command', command: 'echo user', name: 'greeter' }] }] } });
    await write(project, '.gemini/settings.json', {
      hooks: { BeforeTool: [{ matcher: 'write_.*', sequential: true, hooks: [{ type: 'command', command: './guard.sh', timeout: 1500 }] }] },
    });
    const { hooks, problems } = await loadGeminiHooks({ projectDir: project, trust: 'all', homeDir: home });
    expect(problems).toEqual([]);
    expect(hooks.map((h) => h.name)).toEqual(['greeter', './guard.sh']);
    expect(hooks.map((h) => h.events[0])).toEqual(['UserPromptSubmit', 'PreToolUse']);
    expect(hooks[1]!.timeoutMs).toBe(1500);
    expect(hooks[0]!.timeoutMs).toBe(60_000);
    expect(matches(hooks[1]!, tool('write_file'))).toBe(true);
    expect(matches(hooks[1]!, tool('my_write_file'))).toBe(true);
  });
});

describe('Cursor hooks', () => {
  it('maps tool-specific events onto the tools they concern, with failClosed and loop_limit', async () => {
    const { project, write } = await setup();
    await write(project, '.cursor/hooks.json', {
      version: 1,
      hooks: {
        beforeShellExecution: [{ command: './shell.sh', failClosed: true }],
        afterFileEdit: [{ command: './format.sh' }],
        stop: [{ command: './gate.sh', loop_limit: 2 }],
        beforeSubmitPrompt: [{ command: './prompt.sh' }],
      },
    });
    const { hooks, problems } = await loadCursorHooks({ projectDir: project, trust: 'all', homeDir: false });
    expect(problems).toEqual([]);
    const [shell, format, gate, promptHook] = hooks as CommandHook[];
    expect(shell!.events).toEqual(['PreToolUse']);
    expect(shell!.failClosed).toBe(true);
    expect(matches(shell!, ToolHookContext.beforeToolUse(ToolCall.create('run', { command: 'ls' })))).toBe(true);
    expect(matches(shell!, ToolHookContext.beforeToolUse(ToolCall.create('read_file', { path: 'a' })))).toBe(false);
    expect(format!.events).toEqual(['PostToolUse']);
    // A write tool with a path is a file edit; a read tool is not.
    const after = (name: string, args: Record<string, unknown>) => ToolHookContext.afterToolUse(ToolExecution.success(ToolCall.create(name, args), 'ok'));
    expect(matches(format!, after('write_file', { path: 'a.ts', content: 'x' }))).toBe(true);
    expect(matches(format!, after('read_file', { path: 'a.ts' }))).toBe(false);
    expect(gate!.events).toEqual(['Stop']);
    expect(promptHook!.events).toEqual(['UserPromptSubmit']);
    expect(promptHook!.eventName).toBe('beforeSubmitPrompt');
  });
});

describe('every source at once', () => {
  it('loads HOOK.md hooks and every agent’s configs, in source order, with every problem', async () => {
    const { home, project, write, script } = await setup();
    await write(project, '.agents/hooks/guard/HOOK.md', '---\nname: guard\ndescription: d\ntrigger: pre-tool-call\n---\n');
    await script('.agents/hooks/guard/scripts/run', '#!/bin/sh\nexit 0\n');
    await write(project, '.claude/settings.json', { hooks: { Stop: [{ hooks: [cmd('claude.sh')] }] } });
    await write(project, '.github/hooks/c.json', { version: 1, hooks: { agentStop: [{ type: 'command', bash: 'copilot.sh' }] } });
    await write(project, '.github/hooks/v.json', { hooks: { Stop: [{ type: 'command', command: 'vscode.sh' }] } });
    await write(project, '.gemini/settings.json', { hooks: { AfterAgent: [{ hooks: [{ type: 'command', command: 'gemini.sh' }] }] } });
    await write(project, '.cursor/hooks.json', '{ not json');
    const all = await loadAllHookConfigs(project, { trust: 'all', homeDir: home, userDir: false });
    expect(all.hooks.map((h) => h.name)).toEqual(['guard', 'claude.sh', 'copilot.sh', 'vscode.sh', 'gemini.sh']);
    expect(all.hooks.slice(1).every((h) => h.events[0] === 'Stop')).toBe(true);
    expect(all.problems.map((p) => p.code)).toEqual(['invalid-json']);
    const some = await loadAllHookConfigs(project, { trust: 'all', homeDir: home, userDir: false, claude: true });
    expect(some.hooks.map((h) => h.name)).toEqual(['claude.sh']);
    expect(some.sources).toEqual(['claude']);
  });
});

describe('one config file', () => {
  it('is loaded by the format its path names, or reported when the path names none', async () => {
    const { project, write } = await setup();
    const claude = await write(project, '.claude/settings.json', { hooks: { Stop: [{ hooks: [cmd('gate.sh')] }] } });
    const copilot = await write(project, '.github/hooks/a.json', { version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'x.sh', matcher: '(' }] } });
    const gemini = await write(project, '.gemini/settings.json', { hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: 'g.sh' }] }] } });
    const cursor = await write(project, '.cursor/hooks.json', { version: 1, hooks: { stop: [{ command: 'c.sh' }] } });
    const loose = await write(project, 'hooks.json', { hooks: {} });
    expect((await loadHookConfigFile(claude)).hooks.map((h) => h.name)).toEqual(['gate.sh']);
    const bad = await loadHookConfigFile(copilot);
    expect(bad.problems).toEqual([expect.objectContaining({ file: copilot, field: 'hooks.preToolUse[0].matcher', code: 'invalid-matcher' })]);
    expect((await loadHookConfigFile(gemini)).hooks.map((h) => h.events[0])).toEqual(['PreToolUse']);
    expect((await loadHookConfigFile(cursor)).hooks.map((h) => h.events[0])).toEqual(['Stop']);
    expect((await loadHookConfigFile(loose)).problems[0]).toMatchObject({ code: 'unknown-config', file: loose });
    expect((await loadHookConfigFile(loose, { kind: 'vscode' })).problems).toEqual([]);
  });
});
