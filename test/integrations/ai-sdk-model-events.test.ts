import { APICallError, generateText, stepCountIs, streamText, tool, wrapLanguageModel, type LanguageModelMiddleware } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  AgentBuilder,
  HookOutcome,
  ScriptedModel,
  defineTool,
  type AgentStreamEvent,
  type AnyHookContext,
  type Hook,
  type Message,
  type ModelResponse,
  type NextFn,
} from 'agent-hooks';
import { HOOK_ANSWER_FINISH_REASON, HOOK_STOP_FINISH_REASON, LoopHooks, hooksMiddleware, withHooks } from 'agent-hooks/ai-sdk';
import { fromModelMessages } from '../../src/integrations/ai-sdk/internal/messages.js';
import { mockModel, streamPartsOf, textAnswer, toolCallAnswer, usage, type ProviderStreamPart } from './ai-sdk-support.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type CallOptions = MockLanguageModelV3['doGenerateCalls'][number];

/** One answer of the shared script, for both models. */
interface Answer {
  readonly text?: string;
  readonly calls?: readonly { readonly id: string; readonly name: string; readonly args: Record<string, unknown> }[];
}

const asOurs = (a: Answer): ModelResponse => ({ text: a.text ?? '', toolCalls: (a.calls ?? []).map((c) => ({ ...c })) });

const asProvider = (a: Answer): GenerateResult => ({
  content: [
    ...(a.text ? [{ type: 'text' as const, text: a.text }] : []),
    ...(a.calls ?? []).map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: JSON.stringify(c.args) })),
  ],
  finishReason: a.calls?.length ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' },
  usage: usage(10, 2),
  warnings: [],
});

/**
 * The script: an answer AfterModel rejects (a rude word), the answer that replaces it (a call, and a secret AfterModel
 * redacts), a call whose result BeforeModel answers from its cache the step after. The model is called three times.
 */
const SCRIPT: readonly Answer[] = [
  { calls: [{ id: 'c1', name: 'echo', args: { text: 'rude' } }] },
  { text: 'The secret is sk-123. ', calls: [{ id: 'c2', name: 'echo', args: { text: 'kind' } }] },
  { calls: [{ id: 'c3', name: 'shout', args: { text: 'cached' } }] },
];

/** The hooks both sides run: every model event, and a tool hook adding context. */
function sharedHooks(): AgentBuilder {
  return (
    AgentBuilder.new()
      // Step 1's calls get a longer system prompt and fewer tokens (this call only).
      .onBeforeModel((ctx) => (ctx.stepIndex === 0 ? ctx.withSystem(`${ctx.request.system} Be kind.`).withSettings({ maxTokens: 256 }) : undefined))
      // A cache: once `cached` was shouted, the answer is known and the model is not called.
      .onBeforeModel((ctx) => (ctx.request.messages.findLast((m) => m.role === 'tool')?.content === 'SHOUT: CACHED' ? 'From the cache.' : undefined))
      // Step 1 may only echo.
      .onBeforeToolSelection((ctx) => (ctx.stepIndex === 0 ? ['echo'] : undefined))
      .onAfterModel((ctx) => {
        if (ctx.response.toolCalls.some((c) => c.arg('text') === 'rude')) return HookOutcome.block('Use a kinder word.');
        if (ctx.response.text.includes('sk-')) return ctx.response.text.replace(/sk-\w+/g, '[redacted]');
        return undefined;
      })
      .onAfterToolUse((ctx) => HookOutcome.proceed(undefined, { additionalContext: `${ctx.toolCall.name} ran.` }))
  );
}

const SYSTEM = 'You are terse.';

/** The run of our agent on the scripted model: what the model was sent, and what came of it. */
async function ourAgent() {
  const model = new ScriptedModel(SCRIPT.map(asOurs));
  const echo = defineTool({ name: 'echo', description: 'Echoes', input: z.object({ text: z.string() }), execute: ({ text }) => `echo: ${text}` });
  const shout = defineTool({ name: 'shout', description: 'Shouts', input: z.object({ text: z.string() }), execute: ({ text }) => `SHOUT: ${text.toUpperCase()}` });
  const builder = sharedHooks().withModel(model).withSystemPrompt(SYSTEM).withModelSettings({ temperature: 0.5 }).withTools(echo, shout);
  const result = await builder.build().run('Greet me');
  const requests = model.requests.map((r) => ({
    system: r.system,
    messages: r.messages.map(comparable),
    tools: r.tools.map((t) => t.name),
    settings: { ...r.settings },
  }));
  return { requests, text: result.text, steps: result.steps.map((s) => ({ text: s.text, calls: s.toolCalls.map((c) => c.id) })) };
}

/** The same run as a `generateText` (or `streamText`) loop with the middleware and the wrapped tools. */
function sdkParts(hooks: LoopHooks) {
  const echo = tool({ description: 'Echoes', inputSchema: z.object({ text: z.string() }), execute: ({ text }) => `echo: ${text}` });
  const shout = tool({ description: 'Shouts', inputSchema: z.object({ text: z.string() }), execute: ({ text }) => `SHOUT: ${text.toUpperCase()}` });
  return { tools: withHooks({ echo, shout }, hooks), system: SYSTEM, temperature: 0.5, stopWhen: stepCountIs(10), prompt: 'Greet me' };
}

/** What a provider was sent, in the shape of what our scripted model was sent. */
const sdkRequests = (calls: readonly CallOptions[]) =>
  calls.map((c) => {
    const [first, ...rest] = fromModelMessages(c.prompt);
    return {
      system: first?.role === 'system' ? first.content : undefined,
      messages: rest.map(comparable),
      tools: (c.tools ?? []).map((t) => t.name),
      settings: {
        ...(c.temperature !== undefined ? { temperature: c.temperature } : {}),
        ...(c.maxOutputTokens !== undefined ? { maxTokens: c.maxOutputTokens } : {}),
      },
    };
  });

/** A message as both sides write it: the role, the text, the calls and the call a result answers. */
const comparable = (m: Message) => ({
  role: m.role,
  content: m.content,
  ...(m.toolCalls?.length ? { toolCalls: m.toolCalls.map((c) => ({ id: c.id, name: c.name, args: c.args })) } : {}),
  ...(m.toolCallId !== undefined ? { toolCallId: m.toolCallId } : {}),
});

describe('hooksMiddleware: the model events make the same decisions as in our agent', () => {
  it('generateText: the provider is sent what our model is sent, and the answers come out the same', async () => {
    const ours = await ourAgent();
    const mock = mockModel(...SCRIPT.map(asProvider));
    const hooks = new LoopHooks(sharedHooks());
    const result = await generateText({ model: wrapLanguageModel({ model: mock, middleware: hooksMiddleware(hooks) }), ...sdkParts(hooks) });

    expect(sdkRequests(mock.doGenerateCalls)).toEqual(ours.requests);
    expect(result.text).toBe(ours.text);
    expect(result.steps.map((s) => ({ text: s.text, calls: s.toolCalls.map((c) => c.toolCallId) }))).toEqual(ours.steps);

    // What the two requests look like, spelled out once.
    expect(ours.requests).toHaveLength(3);
    expect(ours.requests[1]).toMatchObject({ system: `${SYSTEM} Be kind.`, tools: ['echo'], settings: { temperature: 0.5, maxTokens: 256 } });
    expect(ours.requests[1]!.messages.at(-1)).toEqual({ role: 'user', content: 'Use a kinder word.' });
    expect(ours.requests[2]).toMatchObject({ system: SYSTEM, tools: ['echo', 'shout'], settings: { temperature: 0.5 } });
    expect(ours.requests[2]!.messages.slice(1)).toEqual([
      { role: 'user', content: 'Use a kinder word.' },
      { role: 'assistant', content: 'The secret is [redacted]. ', toolCalls: [{ id: 'c2', name: 'echo', args: { text: 'kind' } }] },
      { role: 'tool', content: 'echo: kind', toolCallId: 'c2' },
      { role: 'system', content: 'echo ran.' },
    ]);
    expect(ours.text).toBe('From the cache.');
    expect(result.finishReason).toBe('stop');
    expect(result.rawFinishReason).toBe(HOOK_ANSWER_FINISH_REASON);
  });

  it('streamText: the same requests and answers, and the text the hooks decided on is all that streams', async () => {
    const ours = await ourAgent();
    const ourStream = sharedHooks()
      .withModel(new ScriptedModel(SCRIPT.map(asOurs)))
      .withSystemPrompt(SYSTEM)
      .withTools(
        defineTool({ name: 'echo', description: 'Echoes', input: z.object({ text: z.string() }), execute: ({ text }) => `echo: ${text}` }),
        defineTool({ name: 'shout', description: 'Shouts', input: z.object({ text: z.string() }), execute: ({ text }) => `SHOUT: ${text.toUpperCase()}` }),
      )
      .build()
      .stream('Greet me');
    const ourDeltas: string[] = [];
    for await (const event of ourStream as AsyncIterable<AgentStreamEvent>) if (event.type === 'text-delta') ourDeltas.push(event.text);

    const mock = new MockLanguageModelV3({ doStream: SCRIPT.map((a) => ({ stream: streamOf(streamPartsOf(asProvider(a))) })) });
    const hooks = new LoopHooks(sharedHooks());
    const result = streamText({ model: wrapLanguageModel({ model: mock, middleware: hooksMiddleware(hooks) }), ...sdkParts(hooks) });
    const deltas: string[] = [];
    for await (const text of result.textStream) deltas.push(text);

    expect(sdkRequests(mock.doStreamCalls)).toEqual(ours.requests);
    expect(await result.text).toBe(ours.text);
    expect(deltas).toEqual(ourDeltas);
    expect(deltas).toEqual(['The secret is [redacted]. ', 'From the cache.']);
  });
});

const streamOf = (parts: readonly ProviderStreamPart[]) =>
  new ReadableStream<ProviderStreamPart>({
    start(controller) {
      for (const p of parts) controller.enqueue(p);
      controller.close();
    },
  });

const wrapped = (model: MockLanguageModelV3, middleware: LanguageModelMiddleware) => wrapLanguageModel({ model, middleware });

describe('hooksMiddleware: BeforeModel', () => {
  it('a Hook class wraps the provider call: it times it, and falls back to a second call when the provider fails', async () => {
    const failing = new APICallError({ message: 'Overloaded', url: 'https://api.example.com', requestBodyValues: {}, statusCode: 529, isRetryable: false });
    let calls = 0;
    const mock = new MockLanguageModelV3({
      doGenerate: async () => {
        if (calls++ === 0) throw failing;
        return textAnswer('Second try.');
      },
    });
    const seen: string[] = [];
    class Fallback implements Hook {
      readonly events = ['BeforeModel'] as const;
      async handle(ctx: AnyHookContext, next: NextFn): Promise<HookOutcome> {
        try {
          return await next();
        } catch (error) {
          if (ctx.event !== 'BeforeModel') throw error;
          seen.push((error as Error).message);
          return HookOutcome.proceed(ctx.withResponse(await ctx.callModel()));
        }
      }
    }
    const hooks = new LoopHooks(AgentBuilder.new().withHook(new Fallback()));
    const result = await generateText({ model: wrapped(mock, hooksMiddleware(hooks)), prompt: 'go', maxRetries: 0 });
    expect(seen).toEqual(['Overloaded']);
    expect(result.text).toBe('Second try.');
    expect(mock.doGenerateCalls).toHaveLength(2);
  });

  it('an answer given instead of the model skips the provider; its tool calls run through the wrapped tools', async () => {
    const mock = mockModel(textAnswer('Done.'));
    const execute = vi.fn(async ({ command }: { command: string }) => `ran ${command}`);
    const hooks = new LoopHooks(
      AgentBuilder.new()
        .onBeforeModel((ctx) => (ctx.stepIndex === 0 ? ctx.withResponse({ toolCalls: [{ id: 'h1', name: 'bash', args: { command: 'ls' } }] }) : undefined))
        .onBeforeToolUse(() => HookOutcome.proceed(undefined, { additionalContext: 'seen' })),
    );
    const bash = tool({ inputSchema: z.object({ command: z.string() }), execute });
    const result = await generateText({ model: wrapped(mock, hooksMiddleware(hooks)), tools: withHooks({ bash }, hooks), stopWhen: stepCountIs(3), prompt: 'go' });
    expect(execute).toHaveBeenCalledWith({ command: 'ls' }, expect.anything());
    expect(result.steps[0]!.finishReason).toBe('tool-calls');
    expect(result.steps[0]!.rawFinishReason).toBe(HOOK_ANSWER_FINISH_REASON);
    expect(mock.doGenerateCalls).toHaveLength(1);
    expect(result.text).toBe('Done.');
  });

  it('a block refuses the call: the provider is not called and the reason is the answer', async () => {
    const mock = mockModel(textAnswer('never'));
    const hooks = new LoopHooks(AgentBuilder.new().onBeforeModel(() => HookOutcome.block('The model is off today.')));
    const result = await generateText({ model: wrapped(mock, hooksMiddleware(hooks)), prompt: 'go' });
    expect(result.text).toBe('The model is off today.');
    expect(mock.doGenerateCalls).toHaveLength(0);
  });

  it('a rewritten conversation keeps the SDK’s own messages as they were (provider options and all) and adds the hook’s', async () => {
    const mock = mockModel(textAnswer('ok'));
    const hooks = new LoopHooks(AgentBuilder.new().onBeforeModel((ctx) => ctx.withMessages([...ctx.request.messages, { role: 'user', content: 'Answer in French.' }])));
    await generateText({
      model: wrapped(mock, hooksMiddleware(hooks)),
      system: 'Be brief.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello', providerOptions: { mock: { cache: true } } }] }],
    });
    expect(mock.doGenerateCalls[0]!.prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Hello', providerOptions: { mock: { cache: true } } }] },
      { role: 'user', content: [{ type: 'text', text: 'Answer in French.' }] },
    ]);
  });

  it('the model events’ matchers test the model’s name, as aiSdkModel names it', async () => {
    const seen: string[] = [];
    const hooks = new LoopHooks(
      AgentBuilder.new()
        .onBeforeModel((ctx) => void seen.push(`any:${ctx.modelName}`))
        .onBeforeModel(() => void seen.push('other'), { matcher: 'openai*' }),
    );
    await generateText({ model: wrapped(mockModel(textAnswer('ok')), hooksMiddleware(hooks)), prompt: 'go' });
    expect(seen).toEqual(['any:mock-provider:mock-model-id']);
  });
});

describe('hooksMiddleware: BeforeToolSelection', () => {
  const tools = () => ({
    read: tool({ inputSchema: z.object({}), execute: () => 'read' }),
    write: tool({ inputSchema: z.object({}), execute: () => 'written' }),
  });

  it('mode any with one tool left forces that tool; mode none offers no tool', async () => {
    const mock = mockModel(textAnswer('a'), textAnswer('b'));
    const hooks = new LoopHooks(
      AgentBuilder.new().onBeforeToolSelection((ctx) => (ctx.retryCount === 0 && ctx.stepIndex === 0 ? ctx.withToolConfig({ mode: 'any', allowedFunctionNames: ['write'] }) : undefined)),
    );
    await generateText({ model: wrapped(mock, hooksMiddleware(hooks)), tools: withHooks(tools(), hooks), prompt: 'go' });
    expect(mock.doGenerateCalls[0]!.tools!.map((t) => t.name)).toEqual(['write']);
    expect(mock.doGenerateCalls[0]!.toolChoice).toEqual({ type: 'tool', toolName: 'write' });

    const none = new LoopHooks(AgentBuilder.new().onBeforeToolSelection((ctx) => ctx.withToolConfig({ mode: 'none' })));
    await generateText({ model: wrapped(mock, hooksMiddleware(none)), tools: withHooks(tools(), none), prompt: 'go' });
    expect(mock.doGenerateCalls[1]!.tools).toBeUndefined();
    expect(mock.doGenerateCalls[1]!.toolChoice).toBeUndefined();
  });

  it('selections compose in priority order, each only narrowing', async () => {
    const mock = mockModel(textAnswer('a'));
    const hooks = new LoopHooks(
      AgentBuilder.new()
        .onBeforeToolSelection((ctx) => ctx.allowTools('read', 'write'), { priority: 10 })
        .onBeforeToolSelection((ctx) => ctx.removeTools('write'), { priority: 5 })
        .onBeforeToolSelection((ctx) => ctx.allowTools('write'), { priority: 1 }),
    );
    await generateText({ model: wrapped(mock, hooksMiddleware(hooks)), tools: withHooks(tools(), hooks), prompt: 'go' });
    expect(mock.doGenerateCalls[0]!.tools).toBeUndefined();
  });
});

describe('hooksMiddleware: AfterModel', () => {
  it('blocks at most modelRetryLimit times, then the last answer stands with a model-retry-forced warning', async () => {
    const mock = mockModel(textAnswer('one'), textAnswer('two'), textAnswer('three'));
    const hooks = new LoopHooks(AgentBuilder.new().onAfterModel(() => HookOutcome.block('Again.')), { modelRetryLimit: 2 });
    const warnings: string[] = [];
    hooks.events.on('warning', (w) => warnings.push(w.code));
    const result = await generateText({ model: wrapped(mock, hooksMiddleware(hooks)), prompt: 'go' });
    expect(result.text).toBe('three');
    expect(mock.doGenerateCalls).toHaveLength(3);
    expect(fromModelMessages(mock.doGenerateCalls[2]!.prompt).map((m) => m.content)).toEqual(['go', 'Again.', 'Again.']);
    expect(warnings).toEqual(['model-retry-forced']);
    // Every call's tokens count.
    expect(result.usage.inputTokens).toBe(60);
  });

  it('a stop drops the answer: the loop ends, and its tool calls never run', async () => {
    const execute = vi.fn(() => 'ran');
    const mock = mockModel(toolCallAnswer('bash', { command: 'rm -rf /' }));
    const hooks = new LoopHooks(AgentBuilder.new().onAfterModel(() => HookOutcome.stop('Too dangerous.')));
    const result = await generateText({
      model: wrapped(mock, hooksMiddleware(hooks)),
      tools: withHooks({ bash: tool({ inputSchema: z.object({ command: z.string() }), execute }) }, hooks),
      stopWhen: stepCountIs(3),
      prompt: 'go',
    });
    expect(execute).not.toHaveBeenCalled();
    expect(result.rawFinishReason).toBe(HOOK_STOP_FINISH_REASON);
    expect(hooks.stopReason).toBe('Too dangerous.');
  });

  it('AfterStep reports the answer as the hooks left it', async () => {
    const steps: string[] = [];
    const hooks = new LoopHooks(
      AgentBuilder.new()
        .onAfterModel(() => 'Rewritten.')
        .onAfterStep((ctx) => void steps.push(ctx.step!.text)),
    );
    const result = await generateText({ model: wrapped(mockModel(textAnswer('Original.')), hooksMiddleware(hooks)), prompt: 'go' });
    expect(result.text).toBe('Rewritten.');
    expect(steps).toEqual(['Rewritten.']);
  });
});

describe('hooksMiddleware: streams', () => {
  /** A provider that writes `Hello ` and then waits for `release()` before it writes the rest and finishes. */
  function gatedProvider() {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream<ProviderStreamPart>({
          async start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't' });
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'Hello ' });
            await gate;
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'sk-secret' });
            controller.enqueue({ type: 'text-end', id: 't' });
            controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(1, 2) });
            controller.close();
          },
        }),
      }),
    });
    return { model, release };
  }

  /** The first piece of text the SDK streams, or `timeout` when none came within 2 seconds. */
  const firstText = async (stream: AsyncIterable<string>) => {
    const iterator = stream[Symbol.asyncIterator]();
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 2000).unref());
    const first = await Promise.race([iterator.next().then((r) => r.value as string), timeout]);
    return { first, rest: iterator };
  };

  it('passes the provider’s stream through live when no hook waits for the whole answer', async () => {
    const { model, release } = gatedProvider();
    const hooks = new LoopHooks(AgentBuilder.new().onBeforeToolSelection(() => undefined).onBeforeStep(() => undefined));
    const result = streamText({ model: wrapped(model, hooksMiddleware(hooks)), prompt: 'go' });
    const { first } = await firstText(result.textStream);
    release();
    expect(first).toBe('Hello ');
    expect(await result.text).toBe('Hello sk-secret');
  });

  it('holds the answer while an AfterModel hook can change it: nothing it redacts ever streams', async () => {
    const { model, release } = gatedProvider();
    const hooks = new LoopHooks(AgentBuilder.new().onAfterModel((ctx) => ctx.response.text.replace(/sk-\w+/, '[redacted]')));
    const result = streamText({ model: wrapped(model, hooksMiddleware(hooks)), prompt: 'go' });
    setTimeout(release, 50);
    const deltas: string[] = [];
    for await (const text of result.textStream) deltas.push(text);
    expect(deltas).toEqual(['Hello [redacted]']);
  });

  it('streams an answer BeforeModel gave as one delta, its tool calls and a finish; the provider is not called', async () => {
    const mock = new MockLanguageModelV3({ doStream: [] });
    const hooks = new LoopHooks(AgentBuilder.new().onBeforeModel(() => 'From a hook.'));
    const result = streamText({ model: wrapped(mock, hooksMiddleware(hooks)), prompt: 'go' });
    const deltas: string[] = [];
    for await (const text of result.textStream) deltas.push(text);
    expect(deltas).toEqual(['From a hook.']);
    expect(await result.finishReason).toBe('stop');
    expect(await result.rawFinishReason).toBe(HOOK_ANSWER_FINISH_REASON);
    expect(mock.doStreamCalls).toHaveLength(0);
  });

  it('a provider stream’s error part fails the held call, so a BeforeModel middleware can catch it', async () => {
    const error = new Error('stream broke');
    let calls = 0;
    const mock = new MockLanguageModelV3({
      doStream: async () => ({
        stream: streamOf(
          calls++ === 0
            ? [{ type: 'stream-start', warnings: [] }, { type: 'error', error }]
            : streamPartsOf(textAnswer('Recovered.')),
        ),
      }),
    });
    const hooks = new LoopHooks(
      AgentBuilder.new().withHook({
        events: ['BeforeModel'],
        async handle(ctx: AnyHookContext, next: NextFn) {
          try {
            return await next();
          } catch {
            return ctx.event === 'BeforeModel' ? HookOutcome.proceed(ctx.withResponse(await ctx.callModel())) : HookOutcome.proceed();
          }
        },
      }),
    );
    const result = streamText({ model: wrapped(mock, hooksMiddleware(hooks)), prompt: 'go' });
    expect(await result.text).toBe('Recovered.');
  });
});

describe('hooksMiddleware: what hooks add stays in the conversation', () => {
  it('keeps the hooks’ context in the later prompts of the same conversation, in place', async () => {
    let n = 0;
    const hooks = new LoopHooks(AgentBuilder.new().onBeforeStep(() => HookOutcome.proceed(undefined, { additionalContext: `context ${++n}` })));
    const mock = mockModel(toolCallAnswer('noop', {}, 'c1'), textAnswer('one'), textAnswer('two'));
    const model = wrapped(mock, hooksMiddleware(hooks));
    const noop = tool({ inputSchema: z.object({}), execute: () => 'done' });
    const first = await generateText({ model, tools: withHooks({ noop }, hooks), stopWhen: stepCountIs(3), prompt: 'first' });
    expect(fromModelMessages(mock.doGenerateCalls[1]!.prompt).map((m) => `${m.role}:${m.content}`)).toEqual([
      'user:first',
      'system:context 1',
      'assistant:',
      'tool:done',
      'system:context 2',
    ]);
    // The conversation goes on: what the hooks added is put back in place.
    // All the steps' messages: `responseMessages` in AI SDK 7, whose `response.messages` are the last step's.
    const history = (first as { responseMessages?: typeof first.response.messages }).responseMessages ?? first.response.messages;
    await generateText({ model, messages: [{ role: 'user', content: 'first' }, ...history, { role: 'user', content: 'again' }] });
    expect(fromModelMessages(mock.doGenerateCalls[2]!.prompt).map((m) => `${m.role}:${m.content}`)).toEqual([
      'user:first',
      'system:context 1',
      'assistant:',
      'tool:done',
      'system:context 2',
      'assistant:one',
      'user:again',
      'system:context 3',
    ]);
  });

  it('does not put another conversation’s context into a new one', async () => {
    let n = 0;
    const hooks = new LoopHooks(AgentBuilder.new().onBeforeStep(() => HookOutcome.proceed(undefined, { additionalContext: `context ${++n}` })));
    const mock = mockModel(textAnswer('one'), textAnswer('two'));
    const model = wrapped(mock, hooksMiddleware(hooks));
    await generateText({ model, prompt: 'first' });
    await generateText({ model, prompt: 'something else' });
    expect(fromModelMessages(mock.doGenerateCalls[1]!.prompt).map((m) => `${m.role}:${m.content}`)).toEqual(['user:something else', 'system:context 2']);
  });
});
