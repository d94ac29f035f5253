/**
 * The HOOK.md dialect on BeforeModel, BeforeToolSelection and AfterModel (this runtime's extension of the format):
 * the payload's `model_name`, `retry_count`, `request`, `response` and `synthetic`, and what an answer's
 * `modified_request` and `response` do — field by field, with a note naming each field that is wrong or out of place.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AgentState,
  ModelHookContext,
  ToolCall,
  ToolHookContext,
  sampleContext,
  type AnyHookContext,
  type Message,
  type ModelCallRequest,
  type ModelResponseInit,
  type ToolConfig,
} from 'agent-hooks';
import { hookMdDialect } from '../../src/dialects/hookmd.js';
import { modelRequestJson, modelResponseJson } from '../../src/dialects/internal/model-call-fields.js';
import { exited } from '../support/script-fixture.js';

const hook = { name: 'model-guard', failClosed: false, timeoutMs: 5000, maxOutputBytes: 1 << 20 };
const info = { eventName: 'BeforeModel', workDir: '/project', hookName: 'model-guard' };
const state = () => AgentState.create({ sessionId: 'sess-1', stepCount: 2 });

const REQUEST: ModelCallRequest = {
  system: 'You are terse.',
  messages: [
    { role: 'user', content: 'Read a.txt — ça va?' },
    { role: 'assistant', content: '', toolCalls: [ToolCall.create('read', { path: 'a.txt' }, 'c1')] },
    { role: 'tool', content: 'sk-live-123', toolCallId: 'c1', name: 'read' },
  ],
  tools: [
    { name: 'read', description: 'Reads a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
    { name: 'write', description: 'Writes a file.', inputSchema: { type: 'object' } },
    { name: 'bash', description: 'Runs a command.', inputSchema: { type: 'object' } },
  ],
  settings: { temperature: 0.7, maxTokens: 100 },
};

const before = (request: ModelCallRequest = REQUEST) => ModelHookContext.beforeModel({ state: state(), stepIndex: 1, request, modelName: 'gpt-test', retryCount: 0 });
const selection = (request: ModelCallRequest = REQUEST) => ModelHookContext.beforeToolSelection({ state: state(), stepIndex: 1, request, modelName: 'gpt-test' });
const after = (response: ModelResponseInit = { text: 'The key is sk-live-123.', toolCalls: [{ id: 'c2', name: 'bash', args: { command: 'ls' } }], usage: { inputTokens: 10, outputTokens: 5 } }) =>
  ModelHookContext.afterModel({ state: state(), stepIndex: 1, request: REQUEST, response, modelName: 'gpt-test', retryCount: 2 });

/** The payload as the script reads it: the bytes the dialect writes, parsed. */
const received = (ctx: AnyHookContext): Record<string, unknown> => JSON.parse(hookMdDialect.stringify!(hookMdDialect.payload(ctx, info))) as Record<string, unknown>;
const answer = (ctx: AnyHookContext, output: unknown) => hookMdDialect.interpret(exited(0, JSON.stringify(output)), ctx, hook);
const messagesOf = (notes: readonly { message: string }[]) => notes.map((n) => n.message);

describe('HOOK.md payload on the model events', () => {
  it('BeforeModel: the step’s fields, the model’s name, the retry count and the request in its JSON form', () => {
    expect(received(before())).toEqual({
      event_type: 'BeforeModel',
      timestamp: expect.any(String),
      session_id: 'sess-1',
      work_dir: '/project',
      context: {},
      step_index: 1,
      step_count: 2,
      model_name: 'gpt-test',
      retry_count: 0,
      request: {
        system: 'You are terse.',
        messages: [
          { role: 'user', content: 'Read a.txt — ça va?' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read', args: { path: 'a.txt' } }] },
          { role: 'tool', content: 'sk-live-123', toolCallId: 'c1', name: 'read' },
        ],
        tools: REQUEST.tools,
        settings: { temperature: 0.7, maxTokens: 100 },
        toolConfig: null,
      },
    });
  });

  it('is written as Python’s json.dumps writes it, like every HOOK.md payload', () => {
    const bytes = hookMdDialect.stringify!(hookMdDialect.payload(before(), info));
    expect(bytes).toContain('"request": {"system": "You are terse.", "messages": [{"role": "user", "content": "Read a.txt \\u2014 \\u00e7a va?"}');
  });

  it('a value that is not there is null: no system prompt, settings, selection, model name or usage', () => {
    const bare = ModelHookContext.afterModel({ state: state(), stepIndex: 0, request: { system: undefined, messages: [], tools: [] }, response: { text: 'Hi.' } });
    expect(received(bare)).toMatchObject({
      model_name: null,
      request: { system: null, messages: [], tools: [], settings: null, toolConfig: null },
      response: { text: 'Hi.', toolCalls: [], usage: null },
      synthetic: false,
    });
  });

  it('BeforeToolSelection: the request with its selection so far, and no answer', () => {
    const payload = received(selection().allowTools('read', 'bash'));
    expect(payload.request).toMatchObject({ toolConfig: { mode: 'auto', allowedFunctionNames: ['read', 'bash'] } });
    expect(payload).not.toHaveProperty('response');
    expect(payload).not.toHaveProperty('synthetic');
  });

  it('AfterModel: the answer, its tool calls with their ids and its usage, and whether a hook gave it', () => {
    const payload = received(after());
    expect(payload).toMatchObject({
      retry_count: 2,
      response: { text: 'The key is sk-live-123.', toolCalls: [{ id: 'c2', name: 'bash', args: { command: 'ls' } }], usage: { inputTokens: 10, outputTokens: 5 } },
      synthetic: false,
    });
    const given = ModelHookContext.afterModel({ state: state(), stepIndex: 0, request: REQUEST, response: { text: 'cached' }, synthetic: true });
    expect(received(given).synthetic).toBe(true);
  });

  it('a tool event still gets no request', () => {
    const payload = received(ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'ls' })));
    expect(payload).not.toHaveProperty('request');
    expect(payload).not.toHaveProperty('model_name');
  });
});

// ---- the round trip and the answers' invariants, over arbitrary calls ----

const text = fc.string({ maxLength: 12 });
const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
const args = fc.dictionary(name, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }) as fc.Arbitrary<Record<string, unknown>>;
const toolCall = fc.record({ id: name, name, args }).map(({ id, name, args }) => ToolCall.create(name, args, id));
const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ role: fc.constantFrom('user' as const, 'system' as const), content: text }),
  fc.record({ role: fc.constant('assistant' as const), content: text, toolCalls: fc.array(toolCall, { maxLength: 2 }) }, { requiredKeys: ['role', 'content'] }),
  fc.record({ role: fc.constant('tool' as const), content: text, toolCallId: name, name }),
);
const toolConfig: fc.Arbitrary<ToolConfig> = fc.record(
  { mode: fc.constantFrom('auto' as const, 'any' as const, 'none' as const), allowedFunctionNames: fc.uniqueArray(fc.constantFrom('read', 'write', 'bash', 'web'), { maxLength: 4 }) },
  { requiredKeys: ['mode'] },
);
const request: fc.Arbitrary<ModelCallRequest> = fc.record(
  {
    system: fc.option(text, { nil: undefined }),
    messages: fc.array(message, { maxLength: 5 }),
    tools: fc.uniqueArray(fc.record({ name, description: text, inputSchema: args }), { selector: (t) => t.name, maxLength: 3 }),
    settings: fc.record(
      { temperature: fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 2 }), maxTokens: fc.nat(100_000), topP: fc.double({ noNaN: true, min: 0, max: 1 }), stopSequences: fc.array(text, { maxLength: 2 }) },
      { requiredKeys: [] },
    ),
    toolConfig,
  },
  { requiredKeys: ['system', 'messages', 'tools'] },
);
const response = fc.record({ text, toolCalls: fc.array(toolCall, { maxLength: 2 }), usage: fc.record({ inputTokens: fc.nat(), outputTokens: fc.nat() }) }, { requiredKeys: ['text', 'toolCalls'] });
const modelContext: fc.Arbitrary<ModelHookContext> = fc
  .record({ event: fc.constantFrom('BeforeModel' as const, 'BeforeToolSelection' as const, 'AfterModel' as const), request, response, stepIndex: fc.nat(50), retryCount: fc.nat(3), modelName: fc.option(name, { nil: undefined }), synthetic: fc.boolean() })
  .map(({ event, response, synthetic, ...init }): ModelHookContext => {
    if (event === 'AfterModel') return ModelHookContext.afterModel({ state: state(), ...init, response, synthetic });
    return event === 'BeforeModel' ? ModelHookContext.beforeModel({ state: state(), ...init }) : ModelHookContext.beforeToolSelection({ state: state(), ...init });
  });

/** JSON as a reader of it sees it. */
const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('HOOK.md model events, for any call', () => {
  it('the payload reads back as the same call: what agent-hooks test reads is what a script is sent', () => {
    fc.assert(
      fc.property(modelContext, (ctx) => {
        const payload = received(ctx);
        const read = sampleContext(ctx.event, payload) as ModelHookContext;
        expect(json(modelRequestJson(read.request))).toEqual(json(payload.request));
        expect(json(modelRequestJson(read.request))).toEqual(json(modelRequestJson(ctx.request)));
        expect([read.stepIndex, read.modelName, read.retryCount, read.synthetic]).toEqual([ctx.stepIndex, ctx.modelName, ctx.retryCount, ctx.synthetic]);
        if (ctx.isAfterModel()) {
          const answer = (read as ModelHookContext<'AfterModel'>).response;
          expect(json(modelResponseJson(answer))).toEqual(json(payload.response));
          expect(answer.toolCalls.map((c) => c.id)).toEqual(ctx.response.toolCalls.map((c) => c.id));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('printing back the request (and on AfterModel the answer) as it came changes nothing and warns of nothing', () => {
    fc.assert(
      fc.property(modelContext, (ctx) => {
        const payload = received(ctx);
        const decision = answer(ctx, { modified_request: payload.request, ...(ctx.event === 'AfterModel' ? { response: payload.response } : {}) });
        expect(decision).toMatchObject({ kind: 'proceed', ctx: undefined, notes: [] });
      }),
      { numRuns: 150 },
    );
  });

  it('a tool selection only narrows the one before it: the model is never offered a tool it was not', () => {
    const strictness = { auto: 0, any: 1, none: 2 } as const;
    fc.assert(
      fc.property(fc.option(toolConfig, { nil: undefined }), toolConfig, (first, wanted) => {
        const ctx = selection({ ...REQUEST, tools: [...REQUEST.tools, { name: 'web', description: '', inputSchema: {} }], toolConfig: first });
        const decision = answer(ctx, { modified_request: { toolConfig: wanted } });
        const next = (decision.ctx ?? ctx) as ModelHookContext;
        const offered = new Set(ctx.allowedTools.map((t) => t.name));
        for (const tool of next.allowedTools) expect(offered.has(tool.name)).toBe(true);
        for (const tool of next.allowedTools) expect(wanted.mode !== 'none' && (wanted.allowedFunctionNames?.includes(tool.name) ?? true)).toBe(true);
        expect(strictness[next.request.toolConfig?.mode ?? 'auto']).toBeGreaterThanOrEqual(Math.max(strictness[first?.mode ?? 'auto'], strictness[wanted.mode]));
        expect(decision.notes).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('HOOK.md answers on BeforeModel', () => {
  it('modified_request rewrites the system prompt, the messages and the settings (merged; null clears one)', () => {
    const d = answer(before(), {
      modified_request: {
        system: 'You are terse. Never print secrets.',
        messages: [{ role: 'user', content: 'Read a.txt' }, { role: 'system', content: 'Today is Monday.' }],
        settings: { temperature: 0, maxTokens: null },
      },
    });
    expect(d).toMatchObject({ kind: 'proceed', notes: [] });
    const next = d.ctx as ModelHookContext<'BeforeModel'>;
    expect(next.request.system).toBe('You are terse. Never print secrets.');
    expect(next.request.messages).toEqual([{ role: 'user', content: 'Read a.txt' }, { role: 'system', content: 'Today is Monday.' }]);
    expect(json(next.request.settings)).toEqual({ temperature: 0 });
    expect(next.request.tools).toBe(REQUEST.tools);
    expect(next.response).toBeUndefined();
  });

  it('modified_request.toolConfig selects the tools already on BeforeModel', () => {
    const d = answer(before(), { modified_request: { toolConfig: { mode: 'any', allowedFunctionNames: ['read'] } } });
    expect((d.ctx as ModelHookContext).allowedTools.map((t) => t.name)).toEqual(['read']);
    expect((d.ctx as ModelHookContext).request.toolConfig).toEqual({ mode: 'any', allowedFunctionNames: ['read'] });
  });

  it('response answers instead of the model: text and tool calls (ids made when missing), or a string', () => {
    const d = answer(before(), { response: { text: 'Reading.', toolCalls: [{ name: 'read', args: { path: 'b.txt' } }] } });
    const next = d.ctx as ModelHookContext<'BeforeModel'>;
    expect(next.synthetic).toBe(true);
    expect(next.response!.text).toBe('Reading.');
    expect(next.response!.toolCalls.map((c) => [c.name, c.args, typeof c.id])).toEqual([['read', { path: 'b.txt' }, 'string']]);
    const plain = answer(before(), { response: 'Four.' }).ctx as ModelHookContext<'BeforeModel'>;
    expect([plain.response!.text, plain.response!.toolCalls]).toEqual(['Four.', []]);
  });

  it('deny and block keep their meaning: a block with the reason, whatever else the answer says', () => {
    expect(answer(before(), { decision: 'deny', reason: 'No model calls today.', response: 'ignored' })).toMatchObject({ kind: 'block', reason: 'No model calls today.' });
    expect(answer(before(), { decision: 'block' })).toMatchObject({ kind: 'block', reason: "blocked by hook 'model-guard'" });
  });

  it('a wrong field is ignored with a note naming it; the rest of the answer still counts', () => {
    const d = answer(before(), {
      additional_context: 'kept',
      modified_request: {
        system: 42,
        messages: [{ role: 'bot', content: 'x' }],
        settings: { temperature: 'hot', topK: 3 },
        toolConfig: { mode: 'ANY' },
        tools: [],
        model: 'other',
      },
      response: { text: 7, toolCalls: [{ name: 'read', args: { path: 'c' } }], content: 'x' },
    });
    expect(d.kind).toBe('proceed');
    expect(d.additionalContext).toEqual(['kept']);
    expect(messagesOf(d.notes)).toEqual([
      "Hook 'model-guard' printed modified_request.system where modified_request.system must be a string, got number; it is ignored.",
      'Hook \'model-guard\' printed modified_request.messages where modified_request.messages[0].role must be one of user, assistant, system, tool, got "bot"; it is ignored.',
      "Hook 'model-guard' printed modified_request.settings.topK that is not a setting (temperature, maxTokens, topP, stopSequences); it is ignored.",
      "Hook 'model-guard' printed modified_request.settings where modified_request.settings.temperature must be a number, got string; it is ignored.",
      'Hook \'model-guard\' printed modified_request.toolConfig where modified_request.toolConfig.mode must be one of auto, any, none, got "ANY"; it is ignored.',
      "Hook 'model-guard' printed modified_request.tools that cannot be rewritten: narrow the tools with modified_request.toolConfig (on BeforeModel or BeforeToolSelection); it is ignored.",
      "Hook 'model-guard' printed modified_request.model that is not a field of a request (system, messages, tools, settings, toolConfig); it is ignored.",
      "Hook 'model-guard' printed response.content that is not a field of an answer (text, toolCalls, usage); it is ignored.",
      "Hook 'model-guard' printed response.text where response.text must be a string, got number; it is ignored.",
    ]);
    expect(d.notes.every((n) => n.code === 'invalid-output' && n.hookName === 'model-guard' && n.event === 'BeforeModel')).toBe(true);
    // The tool calls were right: they are the answer.
    const next = d.ctx as ModelHookContext<'BeforeModel'>;
    expect(next.response!.toolCalls.map((c) => c.name)).toEqual(['read']);
    expect(next.request).toEqual(before().request);
  });

  it('an answer with neither text nor tool calls, or of the wrong kind, is no answer', () => {
    for (const [response, note] of [
      [{ content: 'x' }, 'response with neither text nor toolCalls'],
      [['x'], 'response as an array, not an answer {text, toolCalls}'],
      [{ toolCalls: 'read' }, 'response.toolCalls where response.toolCalls must be a list of tool calls {name, args, id}, got string'],
    ] as const) {
      const d = answer(before(), { response });
      expect(d.ctx).toBeUndefined();
      expect(messagesOf(d.notes).some((m) => m.includes(note)), JSON.stringify(d.notes)).toBe(true);
    }
    expect(answer(before(), { modified_request: 'be terse' }).notes[0]!.message).toContain('modified_request as string, not an object {system, messages, settings, toolConfig}');
  });
});

describe('HOOK.md answers on BeforeToolSelection and AfterModel', () => {
  it('BeforeToolSelection reads modified_request.toolConfig only; a changed system prompt or an answer is noted', () => {
    const d = answer(selection(), { modified_request: { system: 'Other.', messages: REQUEST.messages.map((m) => json(m)), toolConfig: { mode: 'auto', allowedFunctionNames: ['read', 'web'] } }, response: 'x' });
    const next = d.ctx as ModelHookContext;
    expect(next.request.toolConfig).toEqual({ mode: 'auto', allowedFunctionNames: ['read', 'web'] });
    expect(next.allowedTools.map((t) => t.name)).toEqual(['read']);
    expect(next.request.system).toBe('You are terse.');
    expect(messagesOf(d.notes)).toEqual([
      "Hook 'model-guard' printed modified_request.system on BeforeToolSelection, where only modified_request.toolConfig is read; it is ignored.",
      "Hook 'model-guard' printed response on BeforeToolSelection, where only BeforeModel and AfterModel take an answer; it is ignored.",
    ]);
  });

  it('AfterModel: response.text replaces the text and keeps the tool calls; toolCalls replaces them ([] drops them)', () => {
    const redacted = answer(after(), { response: { text: 'The key is [redacted].' } }).ctx as ModelHookContext<'AfterModel'>;
    expect(redacted.response.text).toBe('The key is [redacted].');
    expect(redacted.response.toolCalls.map((c) => c.toJSON())).toEqual([{ id: 'c2', name: 'bash', args: { command: 'ls' } }]);
    expect(redacted.response.usage).toEqual({ inputTokens: 10, outputTokens: 5 });
    const calm = answer(after(), { response: { toolCalls: [] } }).ctx as ModelHookContext<'AfterModel'>;
    expect([calm.response.text, calm.response.toolCalls]).toEqual(['The key is sk-live-123.', []]);
    const string = answer(after(), { response: 'Plain.' }).ctx as ModelHookContext<'AfterModel'>;
    expect([string.response.text, string.response.toolCalls.length]).toEqual(['Plain.', 1]);
  });

  it('AfterModel: a block is a rejection (the runtime asks again with the reason); a changed request is noted', () => {
    expect(answer(after(), { decision: 'block', reason: 'No secrets, please.' })).toMatchObject({ kind: 'block', reason: 'No secrets, please.' });
    const d = answer(after(), { modified_request: { system: 'Too late.' } });
    expect(d.ctx).toBeUndefined();
    expect(messagesOf(d.notes)).toEqual(["Hook 'model-guard' printed modified_request.system on AfterModel, where the request has already been sent; it is ignored."]);
  });

  it('elsewhere, modified_request and response mean nothing and are noted; modified_input is noted on a model event', () => {
    const tool = ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'ls' }));
    const d = answer(tool, { modified_input: { command: 'ls -la' }, modified_request: {}, response: 'x' });
    expect((d.ctx as ToolHookContext).toolCall.args).toEqual({ command: 'ls -la' });
    expect(messagesOf(d.notes)).toEqual([
      "Hook 'model-guard' printed modified_request on PreToolUse, where only BeforeModel and BeforeToolSelection take a new request; it is ignored.",
      "Hook 'model-guard' printed response on PreToolUse, where only BeforeModel and AfterModel take an answer; it is ignored.",
    ]);
    expect(messagesOf(answer(before(), { modified_input: { a: 1 } }).notes)[0]).toContain('modified_input on BeforeModel');
  });
});
