import { describe, expect, it } from 'vitest';
import {
  HookEvent,
  HookStack,
  SAMPLE_DEFAULTS,
  ScriptHook,
  StopHookContext,
  ToolHookContext,
  UnknownEventError,
  hookMdDialect,
  sampleContext,
  sampleEventOf,
} from 'agent-hooks';
import { CONTEXT_CLASS } from '../agent/support.js';
import { tempDir, writeHook } from '../support/script-fixture.js';

/** The stdin payload a HOOK.md script gets for `ctx`, without the one field that changes on every call. */
const payloadOf = (ctx: Parameters<typeof hookMdDialect.payload>[0]) => {
  const { timestamp: _, ...rest } = hookMdDialect.payload(ctx, { eventName: hookMdDialect.eventName(ctx.event), workDir: '/work', hookName: 'h' }) as Record<string, unknown>;
  return rest;
};

describe('sampleContext', () => {
  it('builds a context of the right class for every event, with no payload at all', () => {
    for (const event of HookEvent.all) {
      const ctx = sampleContext(event);
      expect(ctx.event).toBe(event);
      expect(ctx, event).toBeInstanceOf(CONTEXT_CLASS[event]);
      expect(ctx.state.sessionId).toBe(SAMPLE_DEFAULTS.sessionId);
    }
  });

  it('gives realistic defaults: a bash call on tool events, a finished turn on Stop', () => {
    const pre = sampleContext('PreToolUse');
    expect([pre.toolCall.name, pre.toolCall.args]).toEqual(['bash', { command: 'ls -la' }]);
    const post = sampleContext('PostToolUse');
    expect(post.execution?.result).toBe(SAMPLE_DEFAULTS.toolOutput);
    expect(sampleContext('PostToolUseFailure').errorMessage).toBe(SAMPLE_DEFAULTS.toolError);
    const stop = sampleContext('Stop');
    expect([stop.stopReason, stop.stepCount, stop.finalMessage, stop.stopHookActive]).toEqual(['no_tool_calls', 3, SAMPLE_DEFAULTS.finalMessage, false]);
    expect(sampleContext('UserPromptSubmit').prompt).toBe(SAMPLE_DEFAULTS.prompt);
    expect(sampleContext('PostCompact').messagesAfter).toHaveLength(SAMPLE_DEFAULTS.messagesAfter);
  });

  it('accepts any dialect’s event name, and takes the event from the payload when none is given', () => {
    expect(sampleContext('before_tool').event).toBe('PreToolUse');
    expect(sampleContext('agentStop').event).toBe('Stop');
    expect(sampleContext(undefined, { event_type: 'pre-agent-turn', prompt: 'hi' }).event).toBe('UserPromptSubmit');
    expect(sampleContext(undefined, { hook_event_name: 'PreToolUse' }).event).toBe('PreToolUse');
    expect(sampleEventOf({ hookEventName: 'post-tool-call' })).toBe('PostToolUse');
    expect(sampleEventOf({})).toBeUndefined();
    // An explicit event wins over the payload's.
    expect(sampleContext('Stop', { event_type: 'pre-tool-call' }).event).toBe('Stop');
  });

  it('reads the fields a HOOK.md script receives, and Claude Code’s names for them', () => {
    const pre = sampleContext('PreToolUse', { tool_name: 'write_file', tool_input: { path: 'a.md' }, tool_use_id: 'call_9', session_id: 's1', context: { user: 'ann' } });
    expect(pre.toolCall.toJSON()).toEqual({ id: 'call_9', name: 'write_file', args: { path: 'a.md' } });
    expect([pre.state.sessionId, pre.get('user')]).toEqual(['s1', 'ann']);
    expect(sampleContext('PostToolUse', { tool_response: { ok: true } }).execution?.result).toEqual({ ok: true });
    const stop = sampleContext('SubagentStop', {
      stop_reason: 'max_steps',
      step_count: 7,
      final_message: { role: 'assistant', content: 'Done.' },
      stop_hook_active: true,
      agent_type: 'coder',
    });
    expect(stop).toBeInstanceOf(StopHookContext);
    expect([stop.stopReason, stop.stepCount, stop.finalMessage, stop.stopHookActive, stop.subagentType]).toEqual(['max_steps', 7, 'Done.', true, 'coder']);
    expect(sampleContext('Stop', { last_assistant_message: 'All green.' }).finalMessage).toBe('All green.');
    expect(sampleContext('AgentFailed', { error_message: 'boom', error_class: 'RangeError' }).errorClass).toBe('RangeError');
  });

  it('lets a tool call given on its own win over the payload’s', () => {
    const ctx = sampleContext('PreToolUse', { tool_name: 'bash', tool_input: { command: 'ls' } }, { toolName: 'shell', toolInput: { command: 'rm -rf /' } });
    expect(ctx).toBeInstanceOf(ToolHookContext);
    expect([ctx.toolCall.name, ctx.toolCall.args]).toEqual(['shell', { command: 'rm -rf /' }]);
  });

  it('reads back every field of the payload the HOOK.md dialect writes, for every event', () => {
    for (const event of HookEvent.all) {
      const original = sampleContext(event, {
        session_id: 'sess-1',
        context: { k: 1 },
        tool_name: 'edit',
        tool_input: { file: 'x.ts' },
        tool_use_id: 'call_1',
        tool_output: 'written',
        tool_error: 'disk full',
        prompt: 'Fix the bug',
        stop_reason: 'tool_rejected',
        step_count: 5,
        final_message: 'Bye',
        stop_hook_active: true,
        subagent_name: 'scout',
        subagent_type: 'explorer',
        task_description: 'Look around',
        source: 'resume',
        reason: 'logout',
        trigger: 'manual',
        custom_instructions: 'Keep the plan',
        message_count: 6,
        message_count_after: 2,
        step_index: 4,
        status: 'stopped',
        duration_ms: 99,
        error_message: 'boom',
        error_class: 'TypeError',
        message: 'Hello',
        notification_type: 'warning',
        title: 'Note',
      });
      const payload = payloadOf(original);
      expect(payloadOf(sampleContext(event, payload)), event).toEqual(payload);
    }
  });

  it('names the field at fault when the payload is wrong, and the event when it is unknown', () => {
    expect(() => sampleContext('PreToolUse', { tool_input: 'ls' })).toThrow(/tool_input must be a JSON object, got string/);
    expect(() => sampleContext('Stop', { stop_reason: 'tired' })).toThrow(/stop_reason must be one of no_tool_calls, .*got "tired"/);
    expect(() => sampleContext('Stop', { step_count: -1 })).toThrow(/step_count must be a whole number/);
    expect(() => sampleContext('Stop', { stop_hook_active: 'yes' })).toThrow(/stop_hook_active must be true or false/);
    expect(() => sampleContext('PreToolUse', [])).toThrow(/payload must be a JSON object, got an array/);
    expect(() => sampleContext(undefined, {})).toThrow(/No event given/);
    expect(() => sampleContext('PreTool')).toThrow(UnknownEventError);
  });

  it('reads a model call’s request and answer in their JSON form, and names the field at fault', () => {
    const request = {
      system: 'Be terse.',
      messages: [
        { role: 'user', content: 'Read it.' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read', args: { path: 'a' } }] },
        { role: 'tool', content: 'text', toolCallId: 'c1', name: 'read' },
      ],
      tools: [{ name: 'read', description: 'Reads a file.', inputSchema: { type: 'object' } }, { name: 'write' }],
      settings: { temperature: 0 },
      toolConfig: { mode: 'any', allowedFunctionNames: ['read'] },
    };
    const before = sampleContext('BeforeModel', { model_name: 'gemini-2.5-flash', request });
    expect(before.modelName).toBe('gemini-2.5-flash');
    expect(before.request.messages[1]!.toolCalls![0]!.toJSON()).toEqual({ id: 'c1', name: 'read', args: { path: 'a' } });
    expect(before.request.tools).toEqual([request.tools[0], { name: 'write', description: '', inputSchema: {} }]);
    expect(before.allowedTools.map((t) => t.name)).toEqual(['read']);
    // An answer on BeforeModel would be a hook's, instead of the model: a sample has none.
    expect(sampleContext('BeforeModel', { response: { text: 'x' } }).response).toBeUndefined();
    const after = sampleContext('AfterModel', { request, response: { text: 'Done.', toolCalls: [{ name: 'write', args: {} }] } });
    expect([after.response.text, after.response.toolCalls.map((c) => c.name)]).toEqual(['Done.', ['write']]);

    expect(() => sampleContext('BeforeModel', { request: { messages: [{ role: 'bot', content: 'x' }] } })).toThrow(/request\.messages\[0\]\.role must be one of user, assistant, system, tool, got "bot"/);
    expect(() => sampleContext('BeforeModel', { request: { messages: 'hi' } })).toThrow(/request\.messages must be a list of messages, got string/);
    expect(() => sampleContext('AfterModel', { response: { toolCalls: [{ args: {} }] } })).toThrow(/response\.toolCalls\[0\]: 'name' must be a non-empty string/);
  });

  it('drives a real script hook: the script receives the sample as its stdin', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const manifest = await writeHook(dir, 'echo-input', `cat >&2; exit 2`);
      const hook = new ScriptHook(manifest, { projectDir: dir });
      const outcome = await new HookStack().with(hook).process(sampleContext('PreToolUse', { tool_input: { command: 'rm -rf /' } }));
      const received = JSON.parse(outcome.reason!) as Record<string, unknown>;
      expect(received).toMatchObject({ event_type: 'pre-tool-call', session_id: 'sample-session', tool_name: 'bash', tool_input: { command: 'rm -rf /' } });
    } finally {
      await cleanup();
    }
  });
});
