import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { BRIDGE_AGENTS, type BridgeAgent } from '../../src/bridge/bridge-answer.js';
import { readBridgePayload } from '../../src/bridge/bridge-payload.js';
import { filterOf, learnAliases, learnEvent, learnHookEventName } from '../../src/bridge/first-stage-lessons.js';
import { toolCallStdin, wentOnSilently } from '../../src/bridge/first-stage-run.js';
import { ToolNameMatcher } from '../../src/core/matchers/tool-name-matcher.js';
import { hookMdDialect } from '../../src/dialects/hookmd.js';
import { pythonJsonDumps } from '../../src/dialects/internal/python-json.js';
import { compileManifestRegex } from '../../src/script/manifest-regex.js';
import { sampleContext } from '../../src/script/sample-context.js';
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
      expect(payloadCallOf(written, payload, (await learnEvent(written.rule, written.written))!), agent).toMatchObject({ event, tool });
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

// The one hook a PreToolUse call can run on, run by the first stage alone: its stdin must be what the HOOK.md dialect
// writes from the context the full reading makes, byte for byte, and the filter it was chosen by must match the call
// exactly when the stack's matcher does.
const PRE_TOOL_EVENTS = ['PreToolUse', 'preToolUse', 'BeforeTool', 'pre-tool-call', 'before_tool', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile'];
const TOOL_EVENTS = [...PRE_TOOL_EVENTS, 'PostToolUse', 'postToolUse', 'AfterTool', 'post-tool-call', 'after_tool', 'afterShellExecution', 'afterFileEdit', 'afterMCPExecution'];
const jsonish = fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);
const toolPayloadArb = fc
  .record({
    event: fc.constantFrom(...TOOL_EVENTS),
    eventField: fc.constantFrom('hook_event_name', 'hookEventName', 'none'),
    name: fc.record({ field: fc.constantFrom('tool_name', 'toolName'), value: fc.constantFrom('Bash', 'bash', 'run_shell_command', 'Write', 'mcp__x__y', 'Tööl "q"') }),
    input: fc.oneof(
      fc.record({ field: fc.constant('tool_input'), value: fc.dictionary(fc.string({ maxLength: 4 }), jsonish, { maxKeys: 4 }) }),
      fc.record({ field: fc.constant('toolArgs'), value: fc.dictionary(fc.string({ maxLength: 4 }), jsonish, { maxKeys: 4 }).map((args) => JSON.stringify(args)) }),
      fc.record({ field: fc.constant('toolArgs'), value: fc.dictionary(fc.string({ maxLength: 4 }), jsonish, { maxKeys: 3 }) }),
    ),
    extra: fc.dictionary(
      fc.constantFrom(
        ...['session_id', 'sessionId', 'tool_use_id', 'toolUseId', 'context', 'cwd', 'command', 'file_path', 'conversation_id', 'transcript_path', 'permission_mode', 'agent_id', 'agent_type', '__proto__'],
        ...['tool_response', 'tool_output', 'toolResult', 'output', 'duration'],
      ),
      fc.oneof(fc.string({ maxLength: 6 }), fc.constant(null), fc.dictionary(fc.string({ maxLength: 3 }), jsonish, { maxKeys: 3 }), jsonish),
      { maxKeys: 6 },
    ),
  })
  .map(({ event, eventField, name, input, extra }) =>
    JSON.parse(JSON.stringify({ ...extra, [name.field]: name.value, [input.field]: input.value, ...(eventField === 'none' ? {} : { [eventField]: event }) })) as Record<string, unknown>,
  );

describe('the first stage’s run of a call’s one hook', () => {
  it('sends the hook the stdin the HOOK.md dialect writes from the full reading’s context, before and after a call, for every agent', async () => {
    const now = new Date('2026-12-04T05:06:07.089Z');
    const compared = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...BRIDGE_AGENTS), toolPayloadArb, fc.option(fc.constantFrom(...TOOL_EVENTS), { nil: undefined, freq: 5 }), fc.constantFrom('legacy', 'current', 'canonical'), async (agent: BridgeAgent, payload, given, family) => {
        const written = writtenEventOf(agent, payload, given);
        if (written === undefined) return;
        const event = await learnEvent(written.rule, written.written);
        if (event !== 'PreToolUse' && event !== 'PostToolUse') return;
        const call = payloadCallOf(written, payload, event);
        if (call === undefined) return;
        // The hook's trigger, as its author wrote it in one of the families.
        const trigger = { legacy: event === 'PreToolUse' ? 'before_tool' : 'after_tool', current: event === 'PreToolUse' ? 'pre-tool-call' : 'post-tool-call', canonical: event }[family];
        const eventName = learnHookEventName(event, trigger);
        const light = toolCallStdin(event, call.fields, eventName, '/work/dir', now);
        const { ctx } = readBridgePayload(agent, payload, given);
        vi.useFakeTimers({ now, toFake: ['Date'] });
        let full: string;
        try {
          full = pythonJsonDumps(hookMdDialect.payload(ctx, { eventName: hookMdDialect.eventName(ctx.event, trigger), workDir: '/work/dir', hookName: 'h' }));
        } finally {
          vi.useRealTimers();
        }
        expect(light, `${agent} ${JSON.stringify(payload)}`).toBe(full);
        compared.set(`${agent} ${event}`, (compared.get(`${agent} ${event}`) ?? 0) + 1);
      }),
      { numRuns: 5000 },
    );
    // Every agent whose payloads are shaped so (Cline's are not: see the recorded ones, test/agents-registry.test.ts)
    // reads as PreToolUse often enough to be compared many times.
    for (const agent of ['claude', 'vscode', 'gemini', 'copilot', 'cursor', 'codex']) {
      for (const event of ['PreToolUse', 'PostToolUse']) expect(compared.get(`${agent} ${event}`) ?? 0, `${agent} ${event}`).toBeGreaterThan(5);
    }
  });

  it('runs a hook whose tool regex the filter read whole exactly when the stack’s matcher matches the call', () => {
    const names = ['Bash', 'bash', 'Shell', 'run_shell_command', 'Write', 'Edit', 'Read', 'a.b', 'B', 'sh'];
    const regex = fc
      .record({ parts: fc.uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: 3 }), anchored: fc.boolean(), grouped: fc.boolean() })
      .map(({ parts, anchored, grouped }) => {
        const alternation = parts.map((part) => part.replace('.', '\\.')).join('|');
        return anchored ? `^${grouped || parts.length > 1 ? `(${alternation})` : alternation}$` : alternation;
      });
    fc.assert(
      fc.property(regex, fc.constantFrom(...names, 'Bashful', 'xsh', 'axb'), (tool, name) => {
        const filter = filterOf({ trigger: 'pre-tool-call', matcher: { tool } });
        // Only a filter that read the regex whole lets the first stage run the hook alone.
        if (filter === 'always' || filter.tools === null) return;
        const ctx = sampleContext('PreToolUse', { tool_name: name, tool_input: {} });
        const admits = filterAdmits(filter, { event: 'PreToolUse', tool: name, aliases: learnAliases(name) });
        expect(admits, `${tool} on ${name}`).toBe(new ToolNameMatcher(compileManifestRegex(tool)).matches(ctx));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads a run as going on silently exactly where the HOOK.md dialect reads it as proceeding with nothing to add', () => {
    const result = fc.record({
      exitCode: fc.constantFrom(0, 0, 0, 1, 2, 126, 127, null),
      signal: fc.constantFrom(null, null, null, 'SIGTERM'),
      stdout: fc.constantFrom('', '', ' \n\t', '{}', 'null', '{"decision":"allow"}', 'x', '\ufffd'),
      stderr: fc.constantFrom('', 'a warning', '{"decision":"deny"}'),
      notUtf8: fc.constantFrom(undefined, ['stdout'] as const, ['stderr'] as const),
      timedOut: fc.constantFrom(false, false, false, true),
      aborted: fc.constantFrom(false, false, false, true),
      overflow: fc.constantFrom(undefined, undefined, undefined, 'stdout' as const),
      spawnError: fc.constantFrom(undefined, undefined, undefined, { code: 'ENOENT', message: 'no' }),
      durationMs: fc.constant(3),
      pid: fc.constant(1),
    });
    const ctx = sampleContext('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
    fc.assert(
      fc.property(result, (run) => {
        const decision = hookMdDialect.interpret(run, ctx, { name: 'h', failClosed: false, timeoutMs: 1000, maxOutputBytes: 1024, async: false, command: undefined });
        const proceeds = decision.kind === 'proceed' && decision.ctx === undefined && decision.granted !== true && decision.reason === undefined && decision.additionalContext.length === 0 && decision.systemMessage === undefined && decision.notes.length === 0;
        // Silence is proceeding with nothing to add; the converse need not hold (`{}` proceeds too, and goes to the full path).
        if (wentOnSilently(run)) expect(proceeds, JSON.stringify(run)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
