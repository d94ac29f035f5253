import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeDialect, sampleContext } from 'agent-hooks';
import { CLI, cliProjects, runCli, runCliJson, scriptHook } from '../support/cli.js';
import { exited } from '../support/script-fixture.js';

// The projects here are the tests' own: their hooks run with --trust-all (trust itself is tested in trust.test.ts).

const project = cliProjects();

/** A HOOK.md hook that blocks `rm -rf` by exit 2, as the Agent Hooks spec has it. */
const blockRmRf = `#!/bin/sh
input=$(cat)
case "$input" in
  *"rm -rf"*) echo "Destructive command refused by HOOK.md" >&2; exit 2 ;;
esac
exit 0`;

const claudePre = (command: string) =>
  JSON.stringify({
    session_id: 'abc',
    transcript_path: '/tmp/t.jsonl',
    cwd: '/tmp',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'clean' },
    tool_use_id: 'toolu_1',
  });

describe('agent-hooks bridge', () => {
  it('answers a Claude Code PreToolUse with Claude’s deny JSON when a HOOK.md hook blocks, and with nothing otherwise', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'no-rm', { trigger: 'pre-tool-call', matcher: { tool: 'Bash' } }, blockRmRf);
    const denied = await runCli(['bridge', '--trust-all', '--from', 'claude'], { cwd: dir, input: claudePre('rm -rf /'), env: { CLAUDE_PROJECT_DIR: dir } });
    expect(denied.code).toBe(0);
    const answer = JSON.parse(denied.stdout);
    expect(answer).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Destructive command refused by HOOK.md' },
    });
    // What Claude Code makes of it: the call is blocked with that reason.
    const ctx = sampleContext('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });
    const decision = claudeDialect.interpret(exited(denied.code, denied.stdout, denied.stderr), ctx, { name: 'bridge', failClosed: false });
    expect(decision).toMatchObject({ kind: 'block', reason: 'Destructive command refused by HOOK.md' });

    const allowed = await runCli(['bridge', '--trust-all', '--from', 'claude'], { cwd: dir, input: claudePre('ls'), env: { CLAUDE_PROJECT_DIR: dir } });
    expect(allowed).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('answers the same from dist/cli.js, the ES module executable that bridge lines written before dist/cli.cjs name', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'no-rm', { trigger: 'pre-tool-call', matcher: { tool: 'Bash' } }, blockRmRf);
    const older = join(CLI, '..', 'cli.js');
    for (const executable of [CLI, older]) {
      const denied = await runCli(['bridge', '--trust-all', '--from', 'claude'], { cwd: dir, input: claudePre('rm -rf /'), env: { CLAUDE_PROJECT_DIR: dir }, executable });
      expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision, executable).toBe('deny');
      // A call no hook can run on, which the first stage answers alone.
      const allowed = await runCli(['bridge', '--trust-all', '--from', 'claude'], { cwd: dir, input: claudePre('ls'), env: { CLAUDE_PROJECT_DIR: dir }, executable });
      expect(allowed, executable).toMatchObject({ code: 0, stdout: '', stderr: '' });
      const events = await runCli(['events', '--json'], { cwd: dir, executable });
      expect(events.code, executable).toBe(0);
    }
  });

  it('answers Copilot, Gemini CLI, VS Code and Cursor in their own formats', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'no-rm', { trigger: 'pre-tool-call' }, blockRmRf);
    const copilot = await runCli(['bridge', '--trust-all', '--from', 'copilot', '--event', 'preToolUse'], {
      cwd: dir,
      input: JSON.stringify({ timestamp: 1, cwd: dir, toolName: 'bash', toolArgs: JSON.stringify({ command: 'rm -rf dist' }) }),
    });
    expect(JSON.parse(copilot.stdout)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'Destructive command refused by HOOK.md' });
    const gemini = await runCli(['bridge', '--trust-all', '--from', 'gemini'], {
      cwd: dir,
      input: JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'rm -rf x' } }),
    });
    expect(JSON.parse(gemini.stdout)).toEqual({ decision: 'deny', reason: 'Destructive command refused by HOOK.md' });
    const vscode = await runCli(['bridge', '--trust-all', '--from', 'vscode'], {
      cwd: dir,
      input: JSON.stringify({ timestamp: 'x', cwd: dir, sessionId: 's', hookEventName: 'PreToolUse', tool_name: 'runTerminalCommand', tool_input: { command: 'rm -rf /' } }),
    });
    expect(JSON.parse(vscode.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    const cursor = await runCli(['bridge', '--trust-all', '--from', 'cursor'], {
      cwd: dir,
      input: JSON.stringify({ conversation_id: 'c', hook_event_name: 'beforeShellExecution', command: 'rm -rf node_modules', cwd: dir, workspace_roots: [dir] }),
    });
    expect(JSON.parse(cursor.stdout)).toEqual({ permission: 'deny', agent_message: 'Destructive command refused by HOOK.md' });
  });

  it('keeps a Claude Code Stop hook’s agent working while a HOOK.md quality gate blocks', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'gate', { trigger: 'Stop' }, 'cat > /dev/null; echo "Run the tests first." >&2; exit 2');
    const out = await runCli(['bridge', '--trust-all', '--from', 'claude'], { cwd: dir, input: JSON.stringify({ session_id: 's', hook_event_name: 'Stop', stop_hook_active: false }) });
    expect(JSON.parse(out.stdout)).toEqual({ decision: 'block', reason: 'Run the tests first.' });
  });

  it('reads a Gemini CLI model event’s llm_request, and says which field is wrong when it cannot (exit 1: Gemini goes on)', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'no-model', { trigger: 'BeforeModel' }, 'cat > /dev/null; echo "No model today." >&2; exit 2');
    const payload = (llm_request: unknown) => JSON.stringify({ session_id: 's', transcript_path: '', cwd: dir, hook_event_name: 'BeforeModel', timestamp: 't', llm_request });
    const refused = await runCli(['bridge', '--trust-all', '--from', 'gemini'], { cwd: dir, input: payload({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Hi' }], config: { temperature: 1 } }) });
    expect(refused.code).toBe(0);
    expect(JSON.parse(refused.stdout)).toMatchObject({ decision: 'deny', reason: 'No model today.', hookSpecificOutput: { hookEventName: 'BeforeModel', llm_response: { text: 'No model today.' } } });
    const wrong = await runCli(['bridge', '--trust-all', '--from', 'gemini'], { cwd: dir, input: payload({ model: 'm', messages: [{ role: 'user', content: 3 }] }) });
    expect(wrong).toMatchObject({ code: 1, stdout: '' });
    expect(wrong.stderr).toContain('The payload has llm_request.messages with [0] {role: "user", content: number}, which is not a message {role: "user" | "model" | "system", content: a string}.');
  });

  it('runs the in-process hooks of agent-hooks.config.mjs with the HOOK.md hooks', async () => {
    const { dir } = await project();
    await writeFile(
      join(dir, 'agent-hooks.config.mjs'),
      `export default [{ priority: 500, hook: (ctx, next) => ctx.event === 'PreToolUse' && ctx.toolCall.args.command.startsWith('npm publish')
        ? next(ctx.withArgs({ ...ctx.toolCall.args, command: ctx.toolCall.args.command + ' --dry-run' })) : next(ctx) }];\n`,
    );
    const out = await runCli(['bridge', '--trust-all', '--from', 'claude'], { cwd: dir, input: claudePre('npm publish') });
    expect(JSON.parse(out.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'npm publish --dry-run', description: 'clean' } } });
  });

  it('loads an agent-hooks.config.ts through tsx, exporting an AgentBuilder’s callbacks', async () => {
    const { dir } = await project();
    // What `import … from 'agent-hooks'` gives a project: the built package.
    const entry = join(process.cwd(), 'dist', 'index.js');
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'a-project', type: 'module' }));
    await writeFile(
      join(dir, 'agent-hooks.config.ts'),
      `import { AgentBuilder, HookOutcome } from ${JSON.stringify(entry)};
export default AgentBuilder.new().onBeforeToolUse((ctx) => HookOutcome.block('typed hooks say no: ' + String(ctx.toolCall.args.command)), { matcher: 'Bash' });
`,
    );
    // tsx resolves from the CLI's own node_modules here, as it would from the project's.
    const out = await runCli(['bridge', '--trust-all', '--from', 'claude'], { cwd: dir, input: claudePre('make') });
    expect(out.stderr).toBe('');
    expect(JSON.parse(out.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: 'typed hooks say no: make' });
  });

  it('exits 1 with the reason on stderr for input it cannot read', async () => {
    const { dir } = await project();
    const notJson = await runCli(['bridge', '--trust-all', '--from', 'claude'], { cwd: dir, input: '{"hook_event_name": ' });
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/^agent-hooks bridge: the hook input is not JSON/);
    const noEvent = await runCli(['bridge', '--trust-all', '--from', 'copilot'], { cwd: dir, input: '{"timestamp": 1}' });
    expect(noEvent.code).toBe(1);
    expect(noEvent.stderr).toContain('pass --event');
    // A usage error too: agents read exit 2 as a block.
    const usage = await runCli(['bridge', '--trust-all', '--from', 'emacs'], { cwd: dir, input: '{}' });
    expect(usage.code).toBe(1);
  });

  it('is not loaded as a Claude Code hook by our own loader, so HOOK.md hooks never run twice', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'no-rm', { trigger: 'pre-tool-call' }, blockRmRf);
    await runCli(['bridge', '--install', 'claude'], { cwd: dir });
    const { json } = await runCliJson<{ hooks: { name: string }[]; problems: { code: string }[] }>(['list', '--trust-all', '--json'], { cwd: dir });
    expect(json.hooks.map((h) => h.name)).toEqual(['no-rm']);
    expect(json.problems.map((p) => p.code)).toEqual(['bridge-skipped']);
  });
});
