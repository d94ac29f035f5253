import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BRIDGE_AGENTS, type BridgeAgent } from '../../src/bridge/bridge-answer.js';
import { readBridgePayload } from '../../src/bridge/bridge-payload.js';
import { filterOf, learnAliases, learnEvent } from '../../src/bridge/first-stage-lessons.js';
import { filterAdmits } from '../../src/bridge/hook-filter.js';
import { payloadCallOf, writtenEventOf } from '../../src/bridge/payload-call.js';
import { HookEvent } from '../../src/core/events.js';
import { mayRunOn } from '../../src/script/internal/call-filter.js';

// The first stage decides from what it keeps of a frontmatter and from a light reading of the payload: each must come
// to what the full path's own functions come to, or lean towards handing the call over.

const TRIGGERS = ['pre-tool-call', 'before_tool', 'PreToolUse', 'BeforeTool', 'preToolUse', 'post-tool-call', 'PostToolUse', 'before_stop', 'Stop', 'session_start', 'nonsense', ''];
const TOOL_REGEXES = ['^Bash$', 'Bash', '^(Write|Edit)$', 'Write|Edit', 'Shell', '^run_shell_command$', '^B.*$', 'ash', '(', '', '^Read$|^Grep$'];
const TOOLS = ['Bash', 'bash', 'Shell', 'run_shell_command', 'Write', 'Edit', 'Read', 'Grep', 'mcp__x__y', 'x'.repeat(17 * 1024)];

describe('the first stage’s hook filter', () => {
  it('admits a call exactly when mayRunOn says the hook may run on it', () => {
    const data = fc.oneof(
      fc.record({ trigger: fc.constantFrom(...TRIGGERS), matcher: fc.option(fc.record({ tool: fc.oneof(fc.constantFrom(...TOOL_REGEXES), fc.integer()) }), { nil: undefined }) }),
      fc.constantFrom(null, 'text', [], { trigger: 3 }),
    );
    const call = fc.record({ event: fc.constantFrom(...HookEvent.all), tool: fc.option(fc.constantFrom(...TOOLS), { nil: undefined }) });
    fc.assert(
      fc.property(data, call, (frontmatter, { event, tool }) => {
        const filter = filterOf(frontmatter);
        const aliases = tool === undefined ? [] : learnAliases(tool);
        expect(filterAdmits(JSON.parse(JSON.stringify(filter)), { event, tool, aliases })).toBe(mayRunOn(frontmatter, { event, tool }));
      }),
      { numRuns: 3000 },
    );
  });
});

const EVENT_NAMES = [
  ...HookEvent.all,
  ...HookEvent.all.flatMap((event) => HookEvent.aliasesOf(event).map((alias) => alias.name)),
  'beforeShellExecution',
  'beforeMCPExecution',
  'afterFileEdit',
  'beforeReadFile',
  'beforeSubmitPrompt',
  'constructor',
  'nope',
  '',
];
const anyValue = fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -2, max: 3 }), fc.boolean(), fc.constant(null), fc.constant({}), fc.constant([]), fc.constant({ content: 'c' }));
const FIELDS = [
  'session_id', 'sessionId', 'tool_name', 'toolName', 'tool_input', 'toolArgs', 'tool_use_id', 'tool_response', 'tool_output', 'toolResult', 'error',
  'prompt', 'source', 'reason', 'stop_reason', 'stop_hook_active', 'stopHookActive', 'final_message', 'last_assistant_message', 'prompt_response',
  'agent_id', 'agent_name', 'agent_type', 'agentName', 'subagent_type', 'message', 'title', 'notification_type', 'trigger', 'message_count',
  'custom_instructions', 'step_count', 'context', 'command', 'cwd', 'file_path', 'conversation_id', 'loop_count', 'permission_reason', 'task',
  'llm_request', 'llm_response',
  // Claude Code's PostToolBatch and StopFailure.
  'tool_calls', 'step_index', 'error_type', 'error_details', 'error_message', 'error_class',
];
const good = (field: string): fc.Arbitrary<unknown> => {
  switch (field) {
    case 'tool_input':
      return fc.constantFrom({ command: 'ls' }, { description: 'why' });
    case 'toolArgs':
      return fc.constantFrom('{"command":"ls"}', '{bad', { command: 'ls' });
    case 'tool_name':
    case 'toolName':
      return fc.constantFrom('Bash', 'Write', 'bash', '');
    case 'source':
      return fc.constantFrom('startup', 'resume', 'fork', 'new', 'weird');
    case 'stop_reason':
      return fc.constantFrom('no_tool_calls', 'bored');
    case 'trigger':
      return fc.constantFrom('auto', 'manual', 'never');
    case 'message_count':
      return fc.constantFrom(0, 3, 1e9);
    case 'llm_request':
      return fc.constantFrom({ model: 'm', messages: [{ role: 'user', content: 'hi' }], config: {} }, { model: 'm', messages: [{ role: 'bot', content: 'hi' }] }, { messages: [] });
    case 'llm_response':
      return fc.constantFrom({ text: 'a', candidates: [{ content: { role: 'model', parts: ['a'] } }] }, { candidates: [{ content: {} }] });
    case 'tool_calls':
      return fc.constantFrom(
        [],
        [{ tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1', tool_response: 'out' }],
        [{ tool_name: 'Bash', tool_input: { command: 'ls' } }, { tool_name: 'Edit', tool_input: {}, tool_error: 'failed' }],
        [{ tool_name: '', tool_input: {} }],
        [{ tool_name: 'Bash', tool_input: 'ls' }],
        [{ tool_name: 'Bash', tool_input: {}, tool_use_id: 3 }],
        [{ tool_name: 'Bash', tool_input: {}, tool_error: null }],
        ['Bash'],
        { tool_name: 'Bash' },
      );
    case 'error':
    case 'error_type':
      return fc.constantFrom('rate_limit', 'unknown', 'server_error', 'nonsense');
    default:
      return anyValue;
  }
};
const payloadArb = fc
  .record({
    event: fc.constantFrom(...EVENT_NAMES),
    eventField: fc.constantFrom('hook_event_name', 'hookEventName', 'none'),
    fields: fc.uniqueArray(fc.constantFrom(...FIELDS), { maxLength: 8 }),
  })
  .chain(({ event, eventField, fields }) =>
    fc.tuple(...fields.map((field) => fc.tuple(fc.constant(field), fc.oneof(good(field), anyValue)))).map((pairs) => ({
      ...Object.fromEntries(pairs),
      ...(eventField === 'none' ? {} : { [eventField]: event }),
    })),
  );

describe('the first stage’s light reading of a payload', () => {
  it('reads a call only where readBridgePayload reads the same event and tool', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...BRIDGE_AGENTS), payloadArb, fc.option(fc.constantFrom(...EVENT_NAMES), { nil: undefined, freq: 4 }), async (agent: BridgeAgent, payload, given) => {
        const written = writtenEventOf(agent, payload, given);
        if (written === undefined) return;
        const event = await learnEvent(written.rule, written.written);
        if (event === null) return;
        const call = payloadCallOf(written, payload, event);
        if (call === undefined) return;
        const { ctx } = readBridgePayload(agent, payload, given);
        expect(ctx.event).toBe(call.event);
        expect('toolCall' in ctx ? ctx.toolCall.name : undefined).toBe(call.tool);
      }),
      { numRuns: 4000 },
    );
  });

  it('reads Claude Code’s PostToolBatch, PermissionDenied and StopFailure payloads only where readBridgePayload reads the same', async () => {
    const claudeOnly = fc
      .record({
        event: fc.constantFrom('PostToolBatch', 'PermissionDenied', 'StopFailure'),
        fields: fc.uniqueArray(fc.constantFrom('tool_calls', 'tool_name', 'tool_input', 'tool_use_id', 'reason', 'error', 'error_type', 'error_details', 'error_class', 'last_assistant_message', 'step_index'), { maxLength: 6 }),
      })
      .chain(({ event, fields }) =>
        fc.tuple(...fields.map((field) => fc.tuple(fc.constant(field), fc.oneof(good(field), anyValue)))).map((pairs) => ({ ...Object.fromEntries(pairs), hook_event_name: event })),
      );
    await fc.assert(
      fc.asyncProperty(claudeOnly, async (payload) => {
        const written = writtenEventOf('claude', payload, undefined)!;
        const event = (await learnEvent(written.rule, written.written))!;
        const call = payloadCallOf(written, payload, event);
        if (call === undefined) return;
        const { ctx } = readBridgePayload('claude', payload, undefined);
        expect(ctx.event).toBe(call.event);
        expect('toolCall' in ctx ? ctx.toolCall.name : undefined).toBe(call.tool);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads the usual payload of each agent', async () => {
    const shell = { tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's' };
    const cases: [BridgeAgent, Record<string, unknown>, string, string | undefined][] = [
      ['claude', { ...shell, hook_event_name: 'PreToolUse' }, 'PreToolUse', 'Bash'],
      ['vscode', { ...shell, hook_event_name: 'PostToolUse', tool_response: 'x' }, 'PostToolUse', 'Bash'],
      ['gemini', { ...shell, hook_event_name: 'AfterAgent', prompt_response: 'done' }, 'Stop', undefined],
      ['copilot', { toolName: 'bash', toolArgs: '{"command":"ls"}', sessionId: 's' }, 'PreToolUse', 'bash'],
      ['cursor', { hook_event_name: 'beforeShellExecution', command: 'ls', conversation_id: 'c' }, 'PreToolUse', 'Shell'],
      ['codex', { ...shell, hook_event_name: 'UserPromptSubmit', prompt: 'hi' }, 'UserPromptSubmit', undefined],
      ['claude', { ...shell, hook_event_name: 'PermissionDenied', tool_use_id: 't1', reason: 'Classifier unavailable' }, 'PermissionDenied', 'Bash'],
      ['claude', { session_id: 's', hook_event_name: 'PostToolBatch', tool_calls: [{ tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1', tool_response: 'out' }] }, 'PostToolBatch', undefined],
      ['claude', { session_id: 's', hook_event_name: 'StopFailure', error: 'unknown', last_assistant_message: 'API Error: 400 bad' }, 'StopFailure', undefined],
    ];
    for (const [agent, payload, event, tool] of cases) {
      const written = writtenEventOf(agent, payload, undefined)!;
      expect(payloadCallOf(written, payload, (await learnEvent(written.rule, written.written))!), agent).toEqual({ event, tool });
    }
  });

  it('hands Gemini CLI’s model events to the full path, which reads their llm_request and llm_response', async () => {
    const payload = { session_id: 's', hook_event_name: 'AfterModel', llm_request: { model: 'm', messages: [], config: {} }, llm_response: { text: '', candidates: [] } };
    const written = writtenEventOf('gemini', payload, undefined)!;
    const event = await learnEvent(written.rule, written.written);
    expect(event).toBe('AfterModel');
    expect(payloadCallOf(written, payload, event!)).toBeUndefined();
    expect(readBridgePayload('gemini', payload).ctx.event).toBe('AfterModel');
  });
});
