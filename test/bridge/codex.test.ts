/**
 * The bridge standing in for a Codex hook: Codex's real payloads (captured from codex-cli 0.169 into
 * fixtures/codex/) read into contexts, and our outcomes written back as answers Codex takes — one test per answer
 * rule, each read back through the Codex dialect, which reads answers as Codex does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  AgentState,
  BridgeInputError,
  bridgeAnswer,
  codexDialect,
  CompactHookContext,
  HookOutcome,
  PromptHookContext,
  readBridgePayload,
  readCodexPayload,
  SessionHookContext,
  StopHookContext,
  SubagentHookContext,
  ToolCall,
  ToolExecution,
  ToolHookContext,
  type AnyHookContext,
  type BridgeAnswer,
  type HookEventName,
  type PromptHookContext as Prompt,
  type SessionHookContext as Session,
} from 'agent-hooks';
import { catchError } from '../support/catch-error.js';
import { exited } from '../support/script-fixture.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/codex/', import.meta.url));
/** Every payload Codex wrote to a hook, by file name. */
const REAL: readonly [string, Record<string, unknown>][] = readdirSync(FIXTURES)
  .filter((n) => n.endsWith('.json'))
  .map((n) => [n, JSON.parse(readFileSync(join(FIXTURES, n), 'utf8')) as Record<string, unknown>] as [string, Record<string, unknown>])
  .filter(([, payload]) => typeof payload.hook_event_name === 'string');
const fixture = (name: string) => REAL.find(([n]) => n === name)![1];

const state = AgentState.create({ sessionId: 's' });
const call = ToolCall.create('Bash', { command: 'rm -rf build' }, 'call_1');
const CONTEXTS: Record<string, () => AnyHookContext> = {
  PreToolUse: () => ToolHookContext.beforeToolUse(call, { state }),
  PermissionRequest: () => ToolHookContext.permissionRequest(call, { state, reason: 'escalate' }),
  PostToolUse: () => ToolHookContext.afterToolUse(ToolExecution.success(call, 'removed'), { state }),
  UserPromptSubmit: () => PromptHookContext.onSubmit('hi', { state }),
  Stop: () => StopHookContext.stop({ stopReason: 'no_tool_calls', stepCount: 1, state }),
  SubagentStop: () => StopHookContext.subagentStop({ stopReason: 'no_tool_calls', stepCount: 1, subagentName: 'a', subagentType: 'explorer', state }),
  SubagentStart: () => SubagentHookContext.onStart({ name: 'a', type: 'explorer', task: 't', state }),
  SessionStart: () => SessionHookContext.onStart({ source: 'startup', state }),
  PreCompact: () => CompactHookContext.before({ trigger: 'auto', messagesBefore: [], state }),
  PostCompact: () => CompactHookContext.after({ trigger: 'auto', messagesBefore: [], messagesAfter: [], state }),
};

const answerOf = (outcome: HookOutcome, ctx: AnyHookContext): BridgeAnswer => bridgeAnswer('codex', outcome, ctx, codexDialect.eventName(ctx.event));
const body = (answer: BridgeAnswer) => JSON.parse(answer.stdout) as Record<string, unknown>;
/** What Codex makes of an answer: the dialect reads answers exactly as Codex 0.169 does. */
const codexReads = (answer: BridgeAnswer, ctx: AnyHookContext) => codexDialect.interpret(exited(answer.exitCode, answer.stdout, answer.stderr), ctx, { name: 'bridge', failClosed: false });

describe('Codex payloads read by the bridge', () => {
  it('reads every payload Codex 0.169 wrote into a context of its event, with what it sent', () => {
    expect(REAL.length).toBeGreaterThan(0);
    for (const [name, payload] of REAL) {
      const { ctx, eventName } = readBridgePayload('codex', payload);
      expect(eventName, name).toBe(payload.hook_event_name);
      expect(ctx.state.sessionId, name).toBe(payload.session_id);
      expect(ctx.origin, name).toMatchObject({ agent: 'codex', eventName, payload });
      if ('toolCall' in ctx) {
        expect([ctx.toolCall.name, ctx.toolCall.args, ctx.toolCall.id], name).toEqual([payload.tool_name, payload.tool_input, payload.tool_use_id]);
      }
      if (ctx.event === 'PostToolUse') expect(ctx.execution?.result, name).toBe(payload.tool_response);
      if (ctx.event === 'Stop') expect([ctx.stopHookActive, ctx.finalMessage], name).toEqual([payload.stop_hook_active, payload.last_assistant_message ?? undefined]);
      if (ctx.event === 'UserPromptSubmit') expect((ctx as Prompt).prompt, name).toBe(payload.prompt);
      if (ctx.event === 'SessionStart') expect((ctx as Session).source, name).toBe(payload.source);
    }
  });

  it('reads Codex’s own cases: a forked session, an approval request without a call id, a subagent, a model request', () => {
    const forked = readBridgePayload('codex', { ...fixture('SessionStart.json'), source: 'fork' });
    expect((forked.ctx as Session).source).toBe('resume');
    const permission = readBridgePayload('codex', {
      session_id: 's',
      turn_id: 't',
      transcript_path: null,
      cwd: '/p',
      hook_event_name: 'PermissionRequest',
      model: 'gpt-5.5',
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: { command: 'curl example.com', description: 'needs network' },
    });
    expect(permission.ctx).toMatchObject({ event: 'PermissionRequest', permissionReason: 'needs network' });
    const stop = readBridgePayload('codex', { hook_event_name: 'SubagentStop', agent_id: 'a1', agent_type: 'explorer', stop_hook_active: false, last_assistant_message: null });
    expect(stop.ctx).toMatchObject({ event: 'SubagentStop', subagentName: 'a1', subagentType: 'explorer', finalMessage: undefined });
    expect(readBridgePayload('codex', { hook_event_name: 'PreModelRequest', session_id: 's', turn_id: 't' }).ctx.event).toBe('BeforeStep');
  });

  it('refuses what is not a Codex event the bridge answers, naming it', () => {
    const error = catchError(() => readBridgePayload('codex', { hook_event_name: 'PostModelRequest' }));
    expect(error).toBeInstanceOf(BridgeInputError);
    expect((error as Error).message).toContain("'PostModelRequest' is not a Codex event the bridge answers");
    expect(catchError(() => readBridgePayload('codex', { tool_name: 'Bash' }))).toBeInstanceOf(BridgeInputError);
    // Read on its own, the dialect's error is its own.
    expect(catchError(() => readCodexPayload({ hook_event_name: 'Interrupt' }))).toMatchObject({ name: 'CodexPayloadError' });
  });
});

describe('the bridge’s answers to Codex, rule by rule', () => {
  it('writes a rewrite as updatedInput with permissionDecision allow, which is what makes Codex take it', () => {
    const ctx = CONTEXTS.PreToolUse!();
    const answer = answerOf(HookOutcome.proceed((ctx as ToolHookContext).withArgs({ command: 'rm -rf build --dry-run' })), ctx);
    expect(body(answer)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'rm -rf build --dry-run' } },
    });
    const taken = codexReads(answer, ctx);
    expect((taken.ctx as ToolHookContext).toolCall.args).toEqual({ command: 'rm -rf build --dry-run' });
    // The same answer the Claude Code way, without the allow: Codex drops the rewrite and runs the call as written.
    const withoutAllow = { ...answer, stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'rm -rf build --dry-run' } } }) };
    const dropped = codexReads(withoutAllow, ctx);
    expect(dropped.ctx).toBeUndefined();
    expect(dropped.notes[0]!.message).toContain('without permissionDecision: "allow"');
  });

  it('grants nothing with that allow: a rewrite no hook granted reads back as no grant, and a bare grant is not written', () => {
    const ctx = CONTEXTS.PreToolUse!();
    const rewrite = answerOf(HookOutcome.proceed((ctx as ToolHookContext).withArgs({ command: 'ls' })), ctx);
    expect(codexReads(rewrite, ctx).granted).toBe(false);
    // Codex refuses allow without a rewrite, so a grant alone says nothing; Codex's own approval decides as usual.
    expect(answerOf(HookOutcome.allow(), ctx)).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('refuses a tool call with deny and a reason for a block, a stop and an ask alike, which Codex otherwise lets run', () => {
    const ctx = CONTEXTS.PreToolUse!();
    for (const outcome of [HookOutcome.block('destructive'), HookOutcome.stop('destructive'), HookOutcome.ask('destructive')]) {
      const answer = answerOf(outcome, ctx);
      expect(body(answer), outcome.type).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'destructive' } });
      expect(codexReads(answer, ctx), outcome.type).toMatchObject({ kind: 'block', reason: 'destructive', notes: [] });
    }
  });

  it('on PermissionRequest, grants with allow, refuses with deny, leaves an ask to Codex’s approver, and denies a rewritten grant', () => {
    const ctx = CONTEXTS.PermissionRequest!();
    expect(body(answerOf(HookOutcome.allow(), ctx))).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
    expect(codexReads(answerOf(HookOutcome.allow(), ctx), ctx)).toMatchObject({ kind: 'proceed', granted: true });
    expect(codexReads(answerOf(HookOutcome.block('no network'), ctx), ctx)).toMatchObject({ kind: 'block', reason: 'no network' });
    expect(answerOf(HookOutcome.ask('a human should see this'), ctx).stdout).toBe('');
    const rewrittenGrant = answerOf(HookOutcome.allow((ctx as ToolHookContext).withArgs({ command: 'ls' })), ctx);
    expect(codexReads(rewrittenGrant, ctx).kind).toBe('block');
  });

  it('on PostToolUse, puts a replaced result or a rejection where the model reads the output', () => {
    const ctx = CONTEXTS.PostToolUse!();
    const next = ToolHookContext.afterToolUse(ToolExecution.success(call, { lines: 2, text: 'token=[redacted]' }), { state });
    const replaced = answerOf(HookOutcome.proceed(next, { additionalContext: 'a secret was removed' }), ctx);
    expect(body(replaced)).toEqual({
      decision: 'block',
      reason: '{"lines":2,"text":"token=[redacted]"}',
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'a secret was removed' },
    });
    expect(codexReads(replaced, ctx)).toMatchObject({ kind: 'block', reason: '{"lines":2,"text":"token=[redacted]"}', additionalContext: ['a secret was removed'], notes: [] });
    expect(JSON.stringify(body(replaced))).not.toContain('updatedMCPToolOutput');
    expect(codexReads(answerOf(HookOutcome.block('looks wrong'), ctx), ctx)).toMatchObject({ kind: 'block', reason: 'looks wrong' });
  });

  it('keeps the agent working at Stop with decision block, and ends the turn with continue false', () => {
    for (const event of ['Stop', 'SubagentStop']) {
      const ctx = CONTEXTS[event]!();
      expect(body(answerOf(HookOutcome.block('run the tests'), ctx)), event).toEqual({ decision: 'block', reason: 'run the tests' });
      expect(body(answerOf(HookOutcome.stop('enough'), ctx)), event).toEqual({ continue: false, stopReason: 'enough' });
      // Stop has no hookSpecificOutput in Codex's schema: context there would void the whole answer, so none is written.
      const withContext = answerOf(HookOutcome.block('run the tests', { additionalContext: 'x' }), ctx);
      expect(codexReads(withContext, ctx), event).toMatchObject({ kind: 'block', reason: 'run the tests', notes: [] });
    }
  });

  it('writes only what each event’s schema has, for every event and outcome, under Codex’s own event name', () => {
    const outcomes = (ctx: AnyHookContext): HookOutcome[] => [
      HookOutcome.proceed(undefined, { additionalContext: 'ctx', systemMessage: 'msg' }),
      HookOutcome.allow(undefined, { additionalContext: 'ctx' }),
      HookOutcome.block('b', { additionalContext: 'ctx', systemMessage: 'msg' }),
      HookOutcome.stop('s', { systemMessage: 'msg' }),
      HookOutcome.ask('a'),
      ...('toolCall' in ctx ? [HookOutcome.proceed(ctx.withArgs({ command: 'x' }), { additionalContext: 'ctx' })] : []),
    ];
    for (const [event, make] of Object.entries(CONTEXTS)) {
      const ctx = make();
      for (const outcome of outcomes(ctx)) {
        // Read under another dialect's name, the answer must still carry Codex's.
        const answer = bridgeAnswer('codex', outcome, ctx, 'pre-tool-call');
        expect(answer.exitCode).toBe(0);
        const read = codexReads(answer, ctx);
        expect(read.notes, `${event} ${outcome.type}: ${answer.stdout}`).toEqual([]);
        const specific = answer.stdout === '' ? undefined : (body(answer).hookSpecificOutput as Record<string, unknown> | undefined);
        if (specific !== undefined) expect(specific.hookEventName).toBe(codexDialect.eventName(event as HookEventName));
      }
    }
  });

  it('shows the reason to the user where Codex cannot refuse (SubagentStart), and writes nothing Codex does not read', () => {
    const start = CONTEXTS.SubagentStart!();
    expect(body(answerOf(HookOutcome.block('not now'), start))).toEqual({ systemMessage: 'not now' });
    const end = SessionHookContext.onEnd({ reason: 'other', state });
    expect(bridgeAnswer('codex', HookOutcome.stop('x', { systemMessage: 'bye' }), end, 'SessionEnd').stdout).toBe('');
  });
});
