/**
 * Codex CLI's hooks.json files: where they are, how they read, how their matchers apply, trust of the project's, and
 * real hook processes speaking Codex's protocol through a stack.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CODEX_HOOK_TIMEOUT_MS,
  CommandHook,
  CompactHookContext,
  hookStackOf,
  loadAllHookConfigs,
  loadCodexHooks,
  loadHookConfigFile,
  projectConfigFiles,
  PromptHookContext,
  SessionHookContext,
  StopHookContext,
  SubagentHookContext,
  ToolCall,
  ToolExecution,
  ToolHookContext,
  TrustStore,
  type AnyHookContext,
  type ConfigHook,
  type LoadedConfigHooks,
} from 'agent-hooks';
import { sandbox } from './support.js';

const setup = sandbox();
const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });
const group = (matcher: string | undefined, ...hooks: unknown[]) => ({ ...(matcher === undefined ? {} : { matcher }), hooks });
const commands = (loaded: LoadedConfigHooks) => loaded.hooks.map((h) => (h as CommandHook).command);
const matches = (hook: ConfigHook, ctx: AnyHookContext) => hook.matcher === undefined || hook.matcher.matches(ctx);
const tool = (name: string) => ToolHookContext.beforeToolUse(ToolCall.create(name, {}));

describe('Codex CLI hooks.json', () => {
  it('reads the user’s file under ~/.codex, then the project’s .codex/hooks.json, in that order, as Codex does', async () => {
    const { home, project, write } = await setup();
    await write(home, '.codex/hooks.json', { hooks: { PreToolUse: [group('Bash', cmd('user.sh'), cmd('same.sh'))] } });
    await write(project, '.codex/hooks.json', { hooks: { PreToolUse: [group('Bash', cmd('project.sh'), cmd('same.sh'))], Stop: [group(undefined, cmd('gate.sh', { timeout: 30 }))] } });
    const loaded = await loadCodexHooks({ projectDir: project, homeDir: home, trust: 'all', hostEnv: {} });
    expect(loaded.problems).toEqual([]);
    // Codex runs a command listed twice twice: it does not fold them as Claude Code does.
    expect(commands(loaded)).toEqual(['user.sh', 'same.sh', 'project.sh', 'same.sh', 'gate.sh']);
    expect(loaded.hooks.map((h) => h.origin.level)).toEqual(['user', 'user', 'project', 'project', 'project']);
    expect(loaded.hooks[2]!.origin).toMatchObject({ kind: 'codex', field: 'hooks.PreToolUse[0].hooks[0].command', matcher: 'Bash' });
    expect(loaded.hooks.map((h) => h.timeoutMs)).toEqual([CODEX_HOOK_TIMEOUT_MS, CODEX_HOOK_TIMEOUT_MS, CODEX_HOOK_TIMEOUT_MS, CODEX_HOOK_TIMEOUT_MS, 30_000]);
    expect(loaded.hooks.every((h) => (h as CommandHook).cwd === project)).toBe(true);
  });

  it('finds the user’s file in CODEX_HOME, or in codexHome when given', async () => {
    const { home, project, write } = await setup();
    await write(home, 'elsewhere/hooks.json', { hooks: { Stop: [group(undefined, cmd('from-codex-home'))] } });
    await write(home, '.codex/hooks.json', { hooks: { Stop: [group(undefined, cmd('from-dot-codex'))] } });
    const viaEnv = await loadCodexHooks({ projectDir: project, homeDir: home, hostEnv: { CODEX_HOME: join(home, 'elsewhere') } });
    expect(commands(viaEnv)).toEqual(['from-codex-home']);
    const viaOption = await loadCodexHooks({ projectDir: project, homeDir: home, codexHome: join(home, '.codex'), hostEnv: { CODEX_HOME: join(home, 'elsewhere') } });
    expect(commands(viaOption)).toEqual(['from-dot-codex']);
    expect(commands(await loadCodexHooks({ projectDir: project, homeDir: false, hostEnv: { CODEX_HOME: join(home, 'elsewhere') } }))).toEqual([]);
  });

  it('reads timeouts in whole seconds, at least one, and cuts a SessionEnd hook to three', async () => {
    const { project, write } = await setup();
    await write(project, '.codex/hooks.json', {
      hooks: {
        PreToolUse: [group(undefined, cmd('zero', { timeout: 0 }), cmd('five', { timeout: 5 }), cmd('legacy', { timeoutSec: 9 }), cmd('bg', { async: true }))],
        SessionEnd: [group(undefined, cmd('bye', { timeout: 30 }), cmd('default'))],
      },
    });
    const loaded = await loadCodexHooks({ projectDir: project, homeDir: false, trust: 'all' });
    expect(loaded.hooks.map((h) => h.timeoutMs)).toEqual([1000, 5000, CODEX_HOOK_TIMEOUT_MS, CODEX_HOOK_TIMEOUT_MS, 3000, 3000]);
    expect((loaded.hooks[3] as CommandHook).async).toBe(true);
    expect(loaded.problems).toEqual([
      expect.objectContaining({ field: 'hooks.PreToolUse[0].hooks[2].timeoutSec', severity: 'warning', message: expect.stringContaining('Rename the field to "timeout"') }),
      expect.objectContaining({ field: 'hooks.SessionEnd[0].hooks[0].timeout', severity: 'warning', message: expect.stringContaining('3 s at most') }),
    ]);
  });

  it('applies Codex’s matcher rules: exact names without -, | lists, unanchored regexes, and apply_patch as Write and Edit', async () => {
    const { project, write } = await setup();
    await write(project, '.codex/hooks.json', {
      hooks: {
        PreToolUse: [
          group('Bash', cmd('exact')),
          group('Ba', cmd('prefix')),
          group('^Ba', cmd('regex')),
          group('my-tool', cmd('dash')),
          group('Write', cmd('write')),
          group('mcp__.*__write.*', cmd('mcp')),
          group('*', cmd('star')),
        ],
      },
    });
    const [exact, prefix, regex, dash, write_, mcp, star] = (await loadCodexHooks({ projectDir: project, homeDir: false, trust: 'all' })).hooks as ConfigHook[];
    expect(matches(exact!, tool('Bash'))).toBe(true);
    expect(matches(exact!, tool('BashOutput'))).toBe(false);
    // Only letters, digits, _ and | make an exact name in Codex: "Ba" is one, and matches no Bash.
    expect(matches(prefix!, tool('Bash'))).toBe(false);
    expect(matches(regex!, tool('Bash'))).toBe(true);
    // A - makes a regular expression, unanchored: it also matches a longer name (Claude Code would take it exactly).
    expect(matches(dash!, tool('my-tool-v2'))).toBe(true);
    expect(matches(write_!, tool('apply_patch'))).toBe(true);
    expect(matches(write_!, tool('Bash'))).toBe(false);
    expect(matches(mcp!, tool('mcp__fs__write_file'))).toBe(true);
    expect(matches(mcp!, tool('mcp__fs__read_file'))).toBe(false);
    expect(matches(star!, tool('anything'))).toBe(true);
  });

  it('matches the session source, the compaction trigger and the subagent type, and ignores a matcher on prompts and stops', async () => {
    const { project, write } = await setup();
    await write(project, '.codex/hooks.json', {
      hooks: {
        SessionStart: [group('resume', cmd('again'))],
        PreCompact: [group('manual', cmd('compact'))],
        SubagentStart: [group('explorer', cmd('sub'))],
        UserPromptSubmit: [group('[', cmd('prompt'))],
      },
    });
    const loaded = await loadCodexHooks({ projectDir: project, homeDir: false, trust: 'all' });
    const [again, compact, sub, prompt] = loaded.hooks as ConfigHook[];
    expect(matches(again!, SessionHookContext.onStart({ source: 'resume' }))).toBe(true);
    expect(matches(again!, SessionHookContext.onStart({ source: 'startup' }))).toBe(false);
    expect(matches(compact!, CompactHookContext.before({ trigger: 'manual', messagesBefore: [] }))).toBe(true);
    expect(matches(compact!, CompactHookContext.before({ trigger: 'auto', messagesBefore: [] }))).toBe(false);
    expect(matches(sub!, SubagentHookContext.onStart({ name: 'a', type: 'explorer', task: 't' }))).toBe(true);
    // Codex neither applies nor checks a matcher on UserPromptSubmit: even one that does not compile.
    expect(matches(prompt!, PromptHookContext.onSubmit('hi'))).toBe(true);
    expect(loaded.problems).toEqual([expect.objectContaining({ code: 'ignored-matcher', field: 'hooks.UserPromptSubmit[0].matcher' })]);
  });

  it('leaves out a group whose matcher does not compile, and what Codex skips, each with a problem naming the field', async () => {
    const { project, write } = await setup();
    const file = await write(project, '.codex/hooks.json', {
      hooks: {
        PreToolUse: [group('[', cmd('broken')), group('Bash', cmd('kept'), { type: 'prompt', prompt: 'judge' }, cmd('  '))],
        PostModelRequest: [group(undefined, cmd('model'))],
        Notification: [group(undefined, cmd('notify'))],
      },
    });
    const loaded = await loadCodexHooks({ projectDir: project, homeDir: false, trust: 'all' });
    expect(commands(loaded)).toEqual(['kept']);
    expect(loaded.problems.map((p) => [p.code, p.field, p.severity])).toEqual([
      ['unsupported-event', 'hooks.PostModelRequest', 'warning'],
      ['unknown-event', 'hooks.Notification', 'warning'],
      ['invalid-matcher', 'hooks.PreToolUse[0].matcher', 'error'],
      ['unsupported-hook-type', 'hooks.PreToolUse[1].hooks[1].type', 'warning'],
      ['missing-field', 'hooks.PreToolUse[1].hooks[2].command', 'warning'],
    ]);
    expect(loaded.problems.every((p) => p.file === file)).toBe(true);
  });

  it('loads none of a file Codex cannot read whole, naming the field and the fix; the other file still loads', async () => {
    const { home, project, write } = await setup();
    await write(home, '.codex/hooks.json', { hooks: { Stop: [group(undefined, cmd('user-gate'))] } });
    const file = await write(project, '.codex/hooks.json', { hooks: { Stop: [group(undefined, cmd('fine'))], PreToolUse: [group('Bash', { command: 'no type' })] } });
    const loaded = await loadCodexHooks({ projectDir: project, homeDir: home, hostEnv: {}, trust: 'all' });
    expect(commands(loaded)).toEqual(['user-gate']);
    expect(loaded.problems).toEqual([
      expect.objectContaining({ file, field: 'hooks.PreToolUse[0].hooks[0].type', found: 'nothing', allowed: 'command, prompt, agent', severity: 'error', code: 'invalid-config' }),
    ]);
    for (const bad of [{ hooks: [] }, { hooks: { Stop: {} } }, { hooks: { Stop: [group(undefined, cmd('x', { timeout: 1.5 }))] } }, { hooks: { Stop: [group(undefined, cmd('x', { async: 'yes' }))] } }]) {
      await write(project, '.codex/hooks.json', bad);
      const again = await loadCodexHooks({ projectDir: project, homeDir: false, trust: 'all' });
      expect(again.hooks, JSON.stringify(bad)).toEqual([]);
      expect(again.problems[0], JSON.stringify(bad)).toMatchObject({ severity: 'error', code: 'invalid-config', message: expect.stringContaining('runs none of this file') });
    }
  });

  it('needs trust for the project’s hooks and not for the user’s', async () => {
    const { home, project, write } = await setup();
    const store = TrustStore.forUser({ homeDir: home });
    await write(home, '.codex/hooks.json', { hooks: { Stop: [group(undefined, cmd('user-gate'))] } });
    const file = await write(project, '.codex/hooks.json', { hooks: { PreToolUse: [group('Bash', cmd('cat > /dev/null; echo "project says no" >&2; exit 2'))] } });
    const load = () => loadCodexHooks({ projectDir: project, homeDir: home, hostEnv: {} });
    const before = await load();
    expect(commands(before)).toEqual(['user-gate']);
    expect(before.problems).toEqual([expect.objectContaining({ code: 'untrusted-hook', file, field: 'hooks.PreToolUse[0].hooks[0].command' })]);
    await store.trust(before.trustChecks.map((c) => c.fingerprint));
    const after = await load();
    expect(after.problems).toEqual([]);
    const outcome = await hookStackOf(after.hooks).process(ToolHookContext.beforeToolUse(ToolCall.create('Bash', { command: 'ls' })));
    expect(outcome.isBlocked() && outcome.reason).toBe('project says no');
    // Editing the entry untrusts it again.
    await write(project, '.codex/hooks.json', { hooks: { PreToolUse: [group('Bash', cmd('exit 0'))] } });
    expect((await load()).problems).toEqual([expect.objectContaining({ code: 'changed-hook' })]);
  });

  it('is one of the sources of a project: validate finds .codex/hooks.json, and loadAllHookConfigs loads it', async () => {
    const { project, write } = await setup();
    const file = await write(project, '.codex/hooks.json', { hooks: { Stop: [group(undefined, cmd('gate'))] } });
    expect(await projectConfigFiles(project)).toContain(file);
    expect(commands(await loadHookConfigFile(file))).toEqual(['gate']);
    const all = await loadAllHookConfigs(project, { codex: true, homeDir: false, trust: 'all' });
    expect(all.sources).toEqual(['codex']);
    expect(all.hooks.map((h) => (h as CommandHook).command)).toEqual(['gate']);
    const user = await write(project, 'somewhere/hooks.json', { hooks: { Stop: [group(undefined, cmd('user'))] } });
    expect((await loadHookConfigFile(user)).problems[0]).toMatchObject({ code: 'unknown-config' });
    expect(commands(await loadHookConfigFile(user, { kind: 'codex' }))).toEqual(['user']);
  });
});

describe('Codex hooks as real processes', () => {
  it('hand each script Codex’s payload and read its answers as Codex does: deny, rewrite with allow, feedback, stop-gate', async () => {
    const { project, write, script } = await setup();
    const log = join(project, 'payloads.jsonl');
    // One script, answering by event: what a Codex hook author writes.
    await script(
      'hooks/answer.sh',
      `#!/bin/sh
input=$(cat)
printf '%s\\n' "$input" >> "${log}"
case "$input" in
  *'"rm -rf'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm -rf here"}}' ;;
  *'"hook_event_name":"PreToolUse"'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la"},"additionalContext":"listing instead"}}' ;;
  *'"hook_event_name":"PostToolUse"'*) echo 'token=abc123 redacted' >&2; exit 2 ;;
  *'"stop_hook_active":false'*) echo '{"decision":"block","reason":"run the tests first"}' ;;
esac
exit 0
`,
    );
    const hook = [group(undefined, cmd('./hooks/answer.sh'))];
    await write(project, '.codex/hooks.json', { hooks: { PreToolUse: hook, PostToolUse: hook, Stop: hook } });
    const stack = hookStackOf((await loadCodexHooks({ projectDir: project, homeDir: false, trust: 'all' })).hooks);

    const denied = await stack.process(ToolHookContext.beforeToolUse(ToolCall.create('Bash', { command: 'rm -rf /' }, 'call_1')));
    expect(denied.isBlocked() && denied.reason).toBe('no rm -rf here');

    const rewritten = await stack.process(ToolHookContext.beforeToolUse(ToolCall.create('Bash', { command: 'ls' }, 'call_2')));
    expect(rewritten.type).toBe('proceed');
    expect((rewritten.context as ToolHookContext).toolCall.args).toEqual({ command: 'ls -la' });
    expect(rewritten.additionalContext).toEqual(['listing instead']);

    const post = await stack.process(ToolHookContext.afterToolUse(ToolExecution.success(ToolCall.create('Bash', { command: 'env' }), 'token=abc123'), {}));
    expect(post.isBlocked() && post.reason).toBe('token=abc123 redacted');

    const gate = await stack.process(StopHookContext.stop({ stopReason: 'no_tool_calls', stepCount: 1, finalMessage: 'done' }));
    expect(gate.isBlocked() && gate.reason).toBe('run the tests first');
    const again = await stack.process(StopHookContext.stop({ stopReason: 'no_tool_calls', stepCount: 2, stopHookActive: true }));
    expect(again.type).toBe('proceed');

    const payloads = (await readFile(log, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(payloads.map((p) => p.hook_event_name)).toEqual(['PreToolUse', 'PreToolUse', 'PostToolUse', 'Stop', 'Stop']);
    expect(Object.keys(payloads[0]!).sort()).toEqual(['cwd', 'hook_event_name', 'model', 'permission_mode', 'session_id', 'tool_input', 'tool_name', 'tool_use_id', 'transcript_path', 'turn_id']);
    expect(payloads[0]).toMatchObject({ cwd: project, tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_use_id: 'call_1', transcript_path: expect.stringMatching(/codex-rollout-.*\.jsonl$/) });
    expect(payloads[3]).toMatchObject({ stop_hook_active: false, last_assistant_message: 'done' });
    expect(payloads[4]).toMatchObject({ stop_hook_active: true, last_assistant_message: null });
  });
});
