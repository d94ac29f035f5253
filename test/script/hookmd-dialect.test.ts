import { describe, expect, it } from 'vitest';
import {
  AgentState,
  CompactHookContext,
  HookEvent,
  NotificationHookContext,
  PromptHookContext,
  SessionHookContext,
  StopHookContext,
  SubagentHookContext,
  ToolCall,
  ToolExecution,
  ToolHookContext,
  type AnyHookContext,
} from 'agent-hooks';
import { hookMdDialect } from '../../src/dialects/hookmd.js';
import { exited } from '../support/script-fixture.js';
import type { ProcessResult } from '../../src/process/run-process.js';

const info = { eventName: 'pre-tool-call', workDir: '/project', hookName: 'guard' };
const hook = { name: 'guard', failClosed: false, timeoutMs: 5000, maxOutputBytes: 1024 };
const pre = (args: Record<string, unknown> = { command: 'ls' }) =>
  ToolHookContext.beforeToolUse(ToolCall.create('Shell', args, 'call_1'), {
    state: AgentState.create({ sessionId: 'sess-1', metadata: { run: 'r1', shared: 'state' } }),
    metadata: { shared: 'ctx' },
  });


const interpret = (result: ProcessResult, ctx: AnyHookContext = pre(), failClosed = false) =>
  hookMdDialect.interpret(result, ctx, { ...hook, failClosed });

describe('HOOK.md event names', () => {
  it('answer in the family the trigger was written in', () => {
    expect(hookMdDialect.eventName('PreToolUse', 'before_tool')).toBe('before_tool');
    expect(hookMdDialect.eventName('PreToolUse', 'pre-tool-call')).toBe('pre-tool-call');
    expect(hookMdDialect.eventName('PreToolUse', 'PreToolUse')).toBe('pre-tool-call');
    expect(hookMdDialect.eventName('PreToolUse', 'preToolUse')).toBe('pre-tool-call');
    expect(hookMdDialect.eventName('Stop', 'before_stop')).toBe('before_stop');
    expect(hookMdDialect.eventName('Stop', 'Stop')).toBe('pre-agent-turn-stop');
  });

  it('give every event a name in either family', () => {
    for (const event of HookEvent.all) {
      for (const written of ['before_tool', 'pre-tool-call']) expect(hookMdDialect.eventName(event, written)).toMatch(/\S/);
    }
  });

  it('fall back to the other family, then to the canonical name, for events a family lacks', () => {
    expect(hookMdDialect.eventName('PostCompact', 'post-context-compact')).toBe('post-context-compact');
    expect(hookMdDialect.eventName('PermissionRequest', 'PermissionRequest')).toBe('PermissionRequest');
    expect(hookMdDialect.eventName('BeforeStep')).toBe('BeforeStep');
  });
});

describe('HOOK.md payload', () => {
  it('has the base fields and the tool fields', () => {
    const payload = hookMdDialect.payload(pre({ command: 'rm -rf /tmp/x' }), info) as Record<string, unknown>;
    expect(payload).toMatchObject({
      event_type: 'pre-tool-call',
      session_id: 'sess-1',
      work_dir: '/project',
      context: { run: 'r1', shared: 'ctx' },
      tool_name: 'Shell',
      tool_input: { command: 'rm -rf /tmp/x' },
      tool_use_id: 'call_1',
    });
    expect(new Date(payload.timestamp as string).toISOString()).toBe(payload.timestamp);
  });

  it("sends the agent's id as session_id outside a session, the result after a tool, and the error after a failure", () => {
    const call = ToolCall.create('Read', { path: 'a' }, 'c2');
    const after = hookMdDialect.payload(ToolHookContext.afterToolUse(ToolExecution.success(call, { lines: 3 })), info);
    expect(after).toMatchObject({ session_id: expect.stringMatching(/^agent_/), tool_output: { lines: 3 } });
    const failed = hookMdDialect.payload(ToolHookContext.toolFailure(call, new Error('ENOENT: a')), info);
    expect(failed).toMatchObject({ tool_error: 'ENOENT: a' });
    expect(failed).not.toHaveProperty('tool_output');
  });

  it('has each family’s own fields', () => {
    const p = (ctx: AnyHookContext) => hookMdDialect.payload(ctx, info);
    expect(p(StopHookContext.stop({ stopReason: 'no_tool_calls', stepCount: 5, finalMessage: 'done' }))).toMatchObject({
      stop_reason: 'no_tool_calls',
      step_count: 5,
      final_message: { role: 'assistant', content: 'done' },
      stop_hook_active: false,
    });
    expect(p(StopHookContext.stop({ stopReason: 'max_steps' }))).toMatchObject({ final_message: null });
    expect(p(SubagentHookContext.onStart({ name: 'code-reviewer', type: 'coder', task: 'Review auth' }))).toMatchObject({
      subagent_name: 'code-reviewer',
      subagent_type: 'coder',
      task_description: 'Review auth',
    });
    expect(p(PromptHookContext.onSubmit('hello'))).toMatchObject({ prompt: 'hello' });
    expect(p(SessionHookContext.onStart({ source: 'resume' }))).toMatchObject({ source: 'resume' });
    expect(p(SessionHookContext.onEnd({ reason: 'user_exit' }))).toMatchObject({ reason: 'user_exit', exit_reason: 'user_exit', total_steps: 0 });
    expect(p(CompactHookContext.before({ trigger: 'manual', messagesBefore: [{ role: 'user', content: 'x' }] }))).toMatchObject({
      trigger: 'manual',
      message_count: 1,
    });
    expect(p(NotificationHookContext.notify('idle', { notificationType: 'idle_prompt' }))).toMatchObject({
      message: 'idle',
      notification_type: 'idle_prompt',
    });
  });

});

describe('HOOK.md output', () => {
  it('exit 0 without output proceeds', () => {
    expect(interpret(exited(0, '  \n'))).toMatchObject({ kind: 'proceed', additionalContext: [], notes: [] });
  });

  it('exit 0 JSON: each decision', () => {
    expect(interpret(exited(0, '{"decision":"allow"}'))).toMatchObject({ kind: 'proceed', granted: true });
    expect(interpret(exited(0, '{"decision":"deny","reason":"no"}'))).toMatchObject({ kind: 'block', reason: 'no' });
    expect(interpret(exited(0, '{"decision":"block"}'))).toMatchObject({ kind: 'block', reason: "blocked by hook 'guard'" });
    expect(interpret(exited(0, '{"decision":"ask","reason":"sure?"}'))).toMatchObject({ kind: 'ask', reason: 'sure?' });
    expect(interpret(exited(0, '{"reason":"fine"}'))).toMatchObject({ kind: 'proceed', granted: false });
  });

  it('exit 0 JSON: modified_input replaces the tool arguments, and must be an object', () => {
    const d = interpret(exited(0, '{"modified_input":{"command":"ls -la"}}'));
    expect(d.kind).toBe('proceed');
    expect((d.ctx as ToolHookContext).toolCall.args).toEqual({ command: 'ls -la' });
    expect((d.ctx as ToolHookContext).toolCall.id).toBe('call_1');

    const bad = interpret(exited(0, '{"modified_input":"ls -la","additional_context":"kept"}'));
    expect(bad).toMatchObject({ kind: 'proceed', ctx: undefined, additionalContext: ['kept'] });
    expect(bad.notes).toEqual([expect.objectContaining({ level: 'warning', code: 'invalid-output', hookName: 'guard' })]);
    expect(bad.notes[0]!.message).toContain('modified_input');

    const elsewhere = interpret(exited(0, '{"modified_input":{"a":1}}'), StopHookContext.stop({ stopReason: 'no_tool_calls' }));
    expect(elsewhere.ctx).toBeUndefined();
    expect(elsewhere.notes[0]!.message).toContain('Stop');
  });

  it('exit 0 JSON: additional_context, system_message, continue: false', () => {
    expect(interpret(exited(0, '{"additional_context":["a","b"],"system_message":"hi"}'))).toMatchObject({
      kind: 'proceed',
      additionalContext: ['a', 'b'],
      systemMessage: 'hi',
    });
    expect(interpret(exited(0, '{"continue":false,"stop_reason":"enough"}'))).toMatchObject({ kind: 'stop', reason: 'enough' });
    expect(interpret(exited(0, '{"continue":false}'))).toMatchObject({ kind: 'stop', reason: "Hook 'guard' stopped the run." });
    const wrongType = interpret(exited(0, '{"additional_context":[1],"reason":5}'));
    expect(wrongType.notes.map((n) => n.data?.field)).toEqual(['reason', 'additional_context']);
  });

  it('exit 2 blocks with stderr, or a reason naming the hook', () => {
    expect(interpret(exited(2, '{"decision":"allow"}', '  Dangerous command  \n'))).toMatchObject({ kind: 'block', reason: 'Dangerous command', notes: [] });
    expect(interpret(exited(2))).toMatchObject({ kind: 'block', reason: "blocked by hook 'guard' (exit 2)" });
  });

  it('fails open with a warning on another exit code, invalid JSON, an unknown decision, a signal, a timeout, an overflow, a failed start', () => {
    const cases: [ProcessResult, string, string][] = [
      [exited(1, '', 'boom\n'), 'exit-code', 'exited with code 1: boom'],
      [exited(0, 'not json'), 'invalid-output', 'not JSON'],
      [exited(0, '[1,2]'), 'invalid-output', 'not an object'],
      [exited(0, '{"decision":"reject"}'), 'invalid-output', '"reject"'],
      [exited(null, '', '', { signal: 'SIGSEGV' }), 'signal', 'killed by SIGSEGV'],
      [exited(null, '', '', { signal: 'SIGTERM', timedOut: true }), 'timeout', 'timed out after 5000 ms'],
      [exited(null, '', '', { signal: 'SIGTERM', overflow: 'stdout' }), 'output-overflow', 'more than 1024 bytes to stdout'],
      [exited(null, '', '', { spawnError: { code: 'ENOENT', message: 'x was not found' }, pid: undefined }), 'spawn-error', 'x was not found'],
      [exited(127, '', 'sh: 1: jq: not found'), 'spawn-error', 'interpreter or command not found'],
    ];
    for (const [result, code, text] of cases) {
      const d = interpret(result);
      expect(d.kind, code).toBe('proceed');
      expect(d.notes, code).toHaveLength(1);
      expect(d.notes[0], code).toMatchObject({ level: 'warning', code, hookName: 'guard', event: 'PreToolUse' });
      expect(d.notes[0]!.message, code).toContain("Hook 'guard'");
      expect(d.notes[0]!.message, code).toContain(text);
      expect(d.notes[0]!.message, code).toContain('failing open');
    }
    expect(interpret(exited(1, '', 'boom')).notes[0]!.data).toMatchObject({ exitCode: 1, stderr: 'boom', durationMs: 12 });
  });

  it('a run cancelled under the hook is refused even failing open: a cancelled run acts on nothing', () => {
    const d = interpret(exited(null, '', '', { aborted: true, signal: 'SIGTERM' }));
    expect(d).toMatchObject({ kind: 'block', reason: "Hook 'guard' was cancelled: the run was aborted (a cancelled run acts on nothing)." });
    expect(d.notes).toEqual([expect.objectContaining({ level: 'warning', code: 'aborted', hookName: 'guard' })]);
    expect(d.notes[0]!.message).toContain('so the action is blocked');
  });

  it('exit 127 is never a deliberate deny', () => {
    const d = interpret(exited(127, '', 'env: python9: No such file or directory'));
    expect(d.kind).toBe('proceed');
    expect(d.notes[0]!.data).toMatchObject({ exitCode: 127 });
  });

  it('fails closed with a reason naming the hook and the cause', () => {
    const d = interpret(exited(1, '', 'crash'), pre(), true);
    expect(d.kind).toBe('block');
    expect(d.reason).toContain("Hook 'guard' exited with code 1: crash");
    expect(d.notes[0]!.message).toContain('failing closed');
    expect(interpret(exited(0, '{oops'), pre(), true).kind).toBe('block');
  });
});

describe('failure messages', () => {
  const messageOf = (stderr: string) => interpret(exited(1, '', stderr)).notes[0]!.message;

  it("quote the line of stderr that names the error, not Node's version line", () => {
    const node = [
      'file:///hooks/x/scripts/run:2',
      'const fs = require("node:fs");',
      '           ^',
      '',
      'ReferenceError: require is not defined in ES module scope',
      '    at file:///hooks/x/scripts/run:2:12',
      '',
      'Node.js v20.20.2',
    ].join('\n');
    expect(messageOf(node)).toContain('exited with code 1: ReferenceError: require is not defined in ES module scope');
  });

  it("quote Python's final exception line", () => {
    const python = ['Traceback (most recent call last):', '  File "run.py", line 3, in <module>', "KeyError: 'tool_input'"].join('\n');
    expect(messageOf(python)).toContain("exited with code 1: KeyError: 'tool_input'");
  });

  it('fall back to the last line when no line names an error', () => {
    expect(messageOf('starting\nsomething went wrong\n')).toContain('exited with code 1: something went wrong');
  });
});
