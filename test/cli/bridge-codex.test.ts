/**
 * `agent-hooks bridge --from codex` as Codex runs it: a child process fed the payloads Codex 0.169 wrote (the
 * captures in test/bridge/fixtures/codex/), in the session's working directory and with no project variable, as
 * Codex runs its hooks; its answers read back the way Codex reads them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { codexDialect, readBridgePayload } from 'agent-hooks';
import { cliProjects, runCli, scriptHook } from '../support/cli.js';
import { exited } from '../support/script-fixture.js';

// The projects here are the tests' own: their hooks run with --trust-all (trust itself is tested in trust.test.ts).
const project = cliProjects();

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../bridge/fixtures/codex/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;
/** A captured payload, with the temporary project standing in for the one it was captured in. */
const payload = (name: string, dir: string, change: Record<string, unknown> = {}) => JSON.stringify({ ...fixture(name), cwd: dir, ...change });
/** What Codex makes of the bridge's answer to `input`. */
const codexReads = (input: string, result: { code: number | null; stdout: string; stderr: string }) =>
  codexDialect.interpret(exited(result.code, result.stdout, result.stderr), readBridgePayload('codex', JSON.parse(input)).ctx, { name: 'bridge', failClosed: false });

const bridge = (dir: string, input: string) => runCli(['bridge', '--trust-all', '--from', 'codex'], { cwd: dir, input });

describe('agent-hooks bridge --from codex', () => {
  it('refuses a command a HOOK.md hook blocks with Codex’s deny, and says nothing to one it lets through', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'no-exit-3', { trigger: 'pre-tool-call', matcher: { tool: 'Shell' } }, `case "$(cat)" in *"exit 3"*) echo "no failing commands" >&2; exit 2 ;; esac\nexit 0`);
    const input = payload('PreToolUse.json', dir);
    const denied = await bridge(dir, input);
    expect(denied.code).toBe(0);
    expect(JSON.parse(denied.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no failing commands' },
    });
    expect(codexReads(input, denied)).toMatchObject({ kind: 'block', reason: 'no failing commands', notes: [] });

    const fine = payload('PreToolUse.json', dir, { tool_input: { command: 'echo hello' } });
    expect(await bridge(dir, fine)).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('hands Codex a HOOK.md hook’s rewrite with permissionDecision allow, the only way Codex takes one', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'quiet', { trigger: 'pre-tool-call' }, `cat > /dev/null\necho '{"modified_input":{"command":"echo hello"}}'`);
    const input = payload('PreToolUse.json', dir);
    const result = await bridge(dir, input);
    expect(JSON.parse(result.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo hello' } },
    });
    const read = codexReads(input, result);
    expect(read.notes).toEqual([]);
    expect(read.ctx && 'toolCall' in read.ctx && read.ctx.toolCall.args).toEqual({ command: 'echo hello' });
  });

  it('keeps Codex working at Stop until the hook sees stop_hook_active, and answers a prompt hook’s context', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'tests-first', { trigger: 'pre-agent-turn-stop' }, `case "$(cat)" in *'"stop_hook_active": true'*) exit 0 ;; esac\necho "run the tests first" >&2\nexit 2`);
    await scriptHook(hooks, 'style', { trigger: 'pre-agent-turn' }, `cat > /dev/null\necho '{"additional_context":"follow the style guide"}'`);
    const first = await bridge(dir, payload('Stop.json', dir));
    expect(JSON.parse(first.stdout)).toEqual({ decision: 'block', reason: 'run the tests first' });
    expect(await bridge(dir, payload('Stop-continued.json', dir))).toMatchObject({ code: 0, stdout: '' });
    const prompt = await bridge(dir, payload('UserPromptSubmit.json', dir));
    expect(JSON.parse(prompt.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'follow the style guide' } });
  });

  it('replaces a tool’s output where a HOOK.md hook rejects it, and fails the hook (exit 1) on an event it cannot answer', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'no-stderr', { trigger: 'post-tool-call' }, `cat > /dev/null\necho "the command wrote to stderr; rerun it quietly" >&2\nexit 2`);
    const post = await bridge(dir, payload('PostToolUse.json', dir));
    expect(JSON.parse(post.stdout)).toEqual({ decision: 'block', reason: 'the command wrote to stderr; rerun it quietly' });
    const unknown = await bridge(dir, JSON.stringify({ ...fixture('Stop.json'), hook_event_name: 'PostModelRequest' }));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("'PostModelRequest' is not a Codex event the bridge answers");
  });
});
