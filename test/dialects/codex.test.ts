/**
 * Codex CLI's dialect: the payload as Codex 0.169 writes it (checked against payloads captured from the real binary
 * under test/bridge/fixtures/codex/), and answers read as Codex reads them, exit code by exit code and event by event.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  AgentState,
  codexDialect,
  CompactHookContext,
  HookEvent,
  PromptHookContext,
  SessionHookContext,
  StepHookContext,
  StopHookContext,
  SubagentHookContext,
  ToolCall,
  ToolExecution,
  ToolHookContext,
  type AnyHookContext,
  type HookEventName,
} from 'agent-hooks';
import { exited } from '../support/script-fixture.js';

const FIXTURES = fileURLToPath(new URL('../bridge/fixtures/codex/', import.meta.url));
const state = AgentState.create({ sessionId: 'sess-1', agentId: 'agent-1' });
const call = ToolCall.create('Bash', { command: 'rm -rf build' }, 'call_1');
const hook = { name: 'guard', failClosed: false, timeoutMs: 5000, maxOutputBytes: 1024 };

const CONTEXTS: Record<string, () => AnyHookContext> = {
  PreToolUse: () => ToolHookContext.beforeToolUse(call, { state }),
  PermissionRequest: () => ToolHookContext.permissionRequest(call, { state, reason: 'needs network' }),
  PostToolUse: () => ToolHookContext.afterToolUse(ToolExecution.success(call, 'removed'), { state }),
  UserPromptSubmit: () => PromptHookContext.onSubmit('fix the bug', { state }),
  Stop: () => StopHookContext.stop({ stopReason: 'no_tool_calls', stepCount: 2, finalMessage: 'Done.', state }),
  SubagentStop: () => StopHookContext.subagentStop({ stopReason: 'no_tool_calls', stepCount: 1, subagentName: 'r1', subagentType: 'explorer', state }),
  SubagentStart: () => SubagentHookContext.onStart({ name: 'r1', type: 'explorer', task: 'look', state }),
  SessionStart: () => SessionHookContext.onStart({ source: 'startup', state }),
  SessionEnd: () => SessionHookContext.onEnd({ reason: 'close', state }),
  PreCompact: () => CompactHookContext.before({ trigger: 'auto', messagesBefore: [], state }),
  PostCompact: () => CompactHookContext.after({ trigger: 'manual', messagesBefore: [], messagesAfter: [], state }),
  BeforeStep: () => StepHookContext.beforeStep(0, { state }),
};

const payloadOf = (ctx: AnyHookContext): Record<string, unknown> =>
  codexDialect.payload(ctx, { eventName: codexDialect.eventName(ctx.event), workDir: '/project', hookName: 'guard' }) as Record<string, unknown>;
const read = (ctx: AnyHookContext, code: number, stdout = '', stderr = '') => codexDialect.interpret(exited(code, stdout, stderr), ctx, hook);
const json = (value: unknown) => JSON.stringify(value);

/** Payloads captured from Codex 0.169 itself, by event name (several per event where there are variants). */
function captured(): Map<string, Record<string, unknown>[]> {
  const byEvent = new Map<string, Record<string, unknown>[]>();
  for (const name of readdirSync(FIXTURES).filter((n) => n.endsWith('.json'))) {
    const payload = JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>;
    // Other captures (the tools Codex offered the model) sit beside the payloads.
    if (typeof payload.hook_event_name !== 'string') continue;
    const event = payload.hook_event_name;
    byEvent.set(event, [...(byEvent.get(event) ?? []), payload]);
  }
  return byEvent;
}

/** The keys of the payloads no capture covers yet, from Codex 0.169's input schemas (and, for SessionEnd and PreModelRequest, runs of the binary). */
const SCHEMA_KEYS: Record<string, string[]> = {
  PermissionRequest: ['cwd', 'hook_event_name', 'model', 'permission_mode', 'session_id', 'tool_input', 'tool_name', 'transcript_path', 'turn_id'],
  SubagentStart: ['agent_id', 'agent_type', 'cwd', 'hook_event_name', 'model', 'permission_mode', 'session_id', 'transcript_path', 'turn_id'],
  SubagentStop: ['agent_id', 'agent_transcript_path', 'agent_type', 'cwd', 'hook_event_name', 'last_assistant_message', 'model', 'permission_mode', 'session_id', 'stop_hook_active', 'transcript_path', 'turn_id'],
  PreCompact: ['cwd', 'hook_event_name', 'model', 'session_id', 'transcript_path', 'trigger', 'turn_id'],
  PostCompact: ['cwd', 'hook_event_name', 'model', 'session_id', 'transcript_path', 'trigger', 'turn_id'],
  SessionEnd: ['cwd', 'hook_event_name', 'reason', 'session_id', 'transcript_path'],
  // Codex 0.171 (test/agents/own-payloads.test.ts).
  PreModelRequest: ['attempt_number', 'cwd', 'hook_event_name', 'kind', 'model', 'request_id', 'session_id', 'thread_id', 'transcript_path', 'turn_id'],
};

describe('the Codex dialect’s payload', () => {
  const real = captured();

  it('has exactly the keys of the payloads Codex 0.169 wrote, event by event', () => {
    expect(real.size).toBeGreaterThan(0);
    for (const [eventName, payloads] of real) {
      const event = HookEvent.parse(eventName, 'codex');
      const ours = payloadOf(CONTEXTS[event]!());
      for (const payload of payloads) expect(Object.keys(ours).sort(), eventName).toEqual(Object.keys(payload).sort());
      expect(ours.hook_event_name).toBe(eventName);
    }
  });

  it('has the keys of Codex’s own schema for the events no capture covers yet', () => {
    for (const [eventName, keys] of Object.entries(SCHEMA_KEYS)) {
      if (real.has(eventName)) continue;
      const event = HookEvent.parse(eventName, 'codex');
      expect(Object.keys(payloadOf(CONTEXTS[event]!())).sort(), eventName).toEqual(keys);
    }
  });

  it('writes the values Codex writes: Bash’s command, null for what it does not have, its own names', () => {
    const pre = payloadOf(CONTEXTS.PreToolUse!());
    expect(pre).toMatchObject({ session_id: 'sess-1', turn_id: 'agent-1', transcript_path: expect.stringMatching(/codex-rollout-sess-1\.jsonl$/), cwd: '/project', tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, tool_use_id: 'call_1' });
    expect(payloadOf(CONTEXTS.Stop!())).toMatchObject({ stop_hook_active: false, last_assistant_message: 'Done.' });
    expect(payloadOf(StopHookContext.stop({ stopReason: 'no_tool_calls', stepCount: 0, state }))).toMatchObject({ last_assistant_message: null });
    expect(payloadOf(CONTEXTS.SessionEnd!())).toMatchObject({ reason: 'other' });
    expect(payloadOf(CONTEXTS.BeforeStep!()).hook_event_name).toBe('PreModelRequest');
    expect(payloadOf(CONTEXTS.PostToolUse!()).tool_response).toBe('removed');
  });

  it('hands a bridged Codex payload on as Codex sent it, with the input the hooks before left', () => {
    const sent = real.get('PreToolUse')![0]!;
    const ctx = ToolHookContext.beforeToolUse(ToolCall.create(sent.tool_name as string, sent.tool_input as Record<string, unknown>, sent.tool_use_id as string), { state })
      .withOrigin({ agent: 'codex', eventName: 'PreToolUse', payload: sent, fields: new Set(['tool_name', 'tool_input']) })
      .withArgs({ command: 'ls' });
    expect(payloadOf(ctx)).toEqual({ ...sent, tool_input: { command: 'ls' } });
  });
});

describe('the Codex dialect reads exit codes as Codex does', () => {
  it('blocks on exit 2 with stderr where Codex does, and fails open on exit 2 without it', () => {
    for (const event of ['PreToolUse', 'PermissionRequest', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStop']) {
      expect(read(CONTEXTS[event]!(), 2, '', 'no, because\n'), event).toMatchObject({ kind: 'block', reason: 'no, because' });
      const silent = read(CONTEXTS[event]!(), 2);
      expect(silent.kind, event).toBe('proceed');
      expect(silent.notes[0]!.message).toContain('exited with code 2 but wrote no reason to stderr');
    }
  });

  it('fails open on exit 2 where Codex cannot block, and on any other code', () => {
    for (const event of ['SessionStart', 'SubagentStart', 'PreCompact', 'PostCompact']) {
      const decision = read(CONTEXTS[event]!(), 2, '', 'nope');
      expect(decision.kind, event).toBe('proceed');
      expect(decision.notes[0]!.message, event).toContain('does not block');
    }
    const one = read(CONTEXTS.PreToolUse!(), 1, '{"decision":"block","reason":"x"}', 'boom');
    expect(one.kind).toBe('proceed');
    expect(one.notes[0]!.message).toContain('exited with code 1: boom');
  });

  it('blocks a failure of a hook that fails closed', () => {
    const decision = codexDialect.interpret(exited(1), CONTEXTS.PreToolUse!(), { ...hook, failClosed: true });
    expect(decision.kind).toBe('block');
  });
});

describe('the Codex dialect reads exit-0 answers as Codex does', () => {
  it('denies a tool call with permissionDecision deny, or the older decision block, each with its reason', () => {
    const specific = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'not here', additionalContext: 'ctx' } };
    expect(read(CONTEXTS.PreToolUse!(), 0, json(specific))).toMatchObject({ kind: 'block', reason: 'not here', additionalContext: ['ctx'] });
    expect(read(CONTEXTS.PreToolUse!(), 0, json({ decision: 'block', reason: 'old style', systemMessage: 'shown' }))).toMatchObject({ kind: 'block', reason: 'old style', systemMessage: 'shown' });
  });

  it('takes a hookSpecificOutput whose hookEventName names another of Codex’s events, as Codex 0.171 does', () => {
    for (const other of ['PostToolUse', 'Stop']) {
      const answer = { hookSpecificOutput: { hookEventName: other, permissionDecision: 'deny', permissionDecisionReason: `named ${other}` } };
      expect(read(CONTEXTS.PreToolUse!(), 0, json(answer))).toMatchObject({ kind: 'block', reason: `named ${other}` });
    }
  });

  it('takes a rewrite only with permissionDecision allow, and then not as a grant', () => {
    const rewrite = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls' } } };
    const taken = read(CONTEXTS.PreToolUse!(), 0, json(rewrite));
    expect(taken.kind).toBe('proceed');
    expect(taken.granted).toBe(false);
    expect((taken.ctx as ToolHookContext).toolCall.args).toEqual({ command: 'ls' });
    const bare = read(CONTEXTS.PreToolUse!(), 0, json({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'ls' } } }));
    expect(bare.ctx).toBeUndefined();
    expect(bare.notes[0]!.message).toContain('updatedInput without permissionDecision: "allow"');
    // Codex takes only `command` from a shell rewrite, and refuses the call when there is none.
    const extra = read(CONTEXTS.PreToolUse!(), 0, json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls', cwd: '/' } } }));
    expect((extra.ctx as ToolHookContext).toolCall.args).toEqual({ command: 'ls' });
    const noCommand = read(CONTEXTS.PreToolUse!(), 0, json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { cmd: 'ls' } } }));
    expect(noCommand).toMatchObject({ kind: 'block', reason: 'hook returned updatedInput without string field `command`' });
  });

  it('refuses what Codex refuses on PreToolUse, so the call goes on unchanged', () => {
    const refused: [unknown, string][] = [
      [{ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }, 'permissionDecision: "allow" without updatedInput'],
      [{ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'sure?' } }, 'permissionDecision: "ask"'],
      [{ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } }, 'without a permissionDecisionReason'],
      [{ continue: false, stopReason: 'halt' }, 'continue: false on PreToolUse'],
      [{ decision: 'approve' }, 'decision: "approve"'],
      [{ decision: 'block' }, 'decision: "block" without a reason'],
      [{ reason: 'why' }, 'a reason without a decision'],
      [{ decision: 'block', reason: 'x', extra: 1 }, 'extra is not a field Codex takes here'],
      [{ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'x' } }, 'hookSpecificOutput.hookEventName is missing'],
      [{ hookSpecificOutput: { hookEventName: 'NotAnEvent', permissionDecision: 'deny', permissionDecisionReason: 'x' } }, 'not "NotAnEvent"'],
      [{ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: ['a'] } }, 'additionalContext must be a string'],
    ];
    for (const [answer, why] of refused) {
      const decision = read(CONTEXTS.PreToolUse!(), 0, json(answer));
      expect(decision.kind, why).toBe('proceed');
      expect(decision.ctx, why).toBeUndefined();
      expect(decision.notes[0]?.message, why).toContain(why);
    }
  });

  it('reads PermissionRequest’s decision object: deny with its message, allow as a grant', () => {
    const ctx = CONTEXTS.PermissionRequest!();
    const answer = (decision: unknown) => json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } });
    expect(read(ctx, 0, answer({ behavior: 'deny', message: 'no network' }))).toMatchObject({ kind: 'block', reason: 'no network' });
    expect(read(ctx, 0, answer({ behavior: 'deny' }))).toMatchObject({ kind: 'block', reason: 'PermissionRequest hook denied approval' });
    expect(read(ctx, 0, answer({ behavior: 'allow' }))).toMatchObject({ kind: 'proceed', granted: true });
    expect(read(ctx, 0, answer({ behavior: 'allow', updatedInput: { command: 'ls' } })).notes[0]!.message).toContain('decision.updatedInput');
    expect(read(ctx, 0, answer({})).notes[0]!.message).toContain('behavior is missing');
  });

  it('reads PostToolUse: a block’s reason replaces the output, so does continue false, updatedMCPToolOutput is refused', () => {
    const ctx = CONTEXTS.PostToolUse!();
    expect(read(ctx, 0, json({ decision: 'block', reason: 'redacted', hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'note' } }))).toMatchObject({
      kind: 'block',
      reason: 'redacted',
      additionalContext: ['note'],
    });
    expect(read(ctx, 0, json({ continue: false, stopReason: 'enough' }))).toMatchObject({ kind: 'block', reason: 'enough' });
    expect(read(ctx, 0, json({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: { ok: 1 }, additionalContext: 'lost' } }))).toMatchObject({
      kind: 'proceed',
      additionalContext: [],
    });
  });

  it('reads the prompt, stop and session answers, and their plain stdout where Codex takes it as context', () => {
    expect(read(CONTEXTS.UserPromptSubmit!(), 0, json({ decision: 'block', reason: 'no secrets' }))).toMatchObject({ kind: 'block', reason: 'no secrets' });
    expect(read(CONTEXTS.UserPromptSubmit!(), 0, 'remember the style guide\n')).toMatchObject({ kind: 'proceed', additionalContext: ['remember the style guide'] });
    expect(read(CONTEXTS.Stop!(), 0, json({ decision: 'block', reason: ' run the tests ' }))).toMatchObject({ kind: 'block', reason: 'run the tests' });
    expect(read(CONTEXTS.Stop!(), 0, json({ continue: false, stopReason: 'over' }))).toMatchObject({ kind: 'stop', reason: 'over' });
    // Stop has no hookSpecificOutput in Codex's schema, and plain text is no answer there.
    expect(read(CONTEXTS.Stop!(), 0, json({ hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'x' } })).notes).toHaveLength(1);
    expect(read(CONTEXTS.Stop!(), 0, 'keep going').notes[0]!.code).toBe('invalid-output');
    expect(read(CONTEXTS.SessionStart!(), 0, 'project notes')).toMatchObject({ additionalContext: ['project notes'] });
    expect(read(CONTEXTS.SessionStart!(), 0, json({ continue: false, stopReason: 'closed today' }))).toMatchObject({ kind: 'stop', reason: 'closed today' });
    // SubagentStart takes context only: continue false does not refuse the subagent.
    expect(read(CONTEXTS.SubagentStart!(), 0, json({ continue: false }))).toMatchObject({ kind: 'proceed' });
    expect(read(CONTEXTS.PreCompact!(), 0, json({ continue: false }))).toMatchObject({ kind: 'stop', reason: 'PreCompact hook stopped execution' });
    // Plain text on a tool event is ignored, as Codex ignores it; text that starts like JSON is a broken answer.
    expect(read(CONTEXTS.PreToolUse!(), 0, 'looks fine')).toMatchObject({ kind: 'proceed', notes: [] });
    expect(read(CONTEXTS.PreToolUse!(), 0, '{"decision": ').notes[0]!.code).toBe('invalid-output');
  });

  it('does not read SessionEnd or PreModelRequest answers at all', () => {
    for (const event of ['SessionEnd', 'BeforeStep'] as HookEventName[]) {
      expect(read(CONTEXTS[event]!(), 0, json({ continue: false, anything: true }))).toMatchObject({ kind: 'proceed', notes: [] });
    }
  });
});
