import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Agent, Runner, Usage, tool, type AgentInputItem, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents';
import { AgentBuilder, HookOutcome, ScriptedModel, defineTool, type AnyHookContext, type ModelResponse as OurResponse, type NextFn } from 'agent-hooks';
import { LoopHooks, withHooks, withModelHooks } from 'agent-hooks/openai-agents';

/** One answer of a script, for both our model and the SDK's. */
interface Answer {
  readonly text?: string;
  readonly calls?: readonly { readonly id: string; readonly name: string; readonly args: Record<string, unknown> }[];
}

const asOurs = (a: Answer): OurResponse => ({ text: a.text ?? '', toolCalls: (a.calls ?? []).map((c) => ({ ...c })) });

const asSdk = (a: Answer): ModelResponse => ({
  usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 2, totalTokens: 12 }),
  output: [
    ...(a.text ? [{ type: 'message' as const, role: 'assistant' as const, status: 'completed' as const, content: [{ type: 'output_text' as const, text: a.text }] }] : []),
    ...(a.calls ?? []).map((c) => ({ type: 'function_call' as const, callId: c.id, name: c.name, arguments: JSON.stringify(c.args), status: 'completed' as const })),
  ],
});

/** The events a provider streams for `answer`: its text word by word, then the whole response. */
const asEvents = (a: Answer): StreamEvent[] => {
  const response = asSdk(a);
  return [
    { type: 'response_started' },
    ...(a.text?.match(/\S+\s*/g) ?? []).map((delta): StreamEvent => ({ type: 'output_text_delta', delta })),
    { type: 'response_done', response: { id: 'resp', usage: { requests: 1, inputTokens: 10, outputTokens: 2, totalTokens: 12 }, output: response.output as never } },
  ];
};

/** An SDK model playing `answers` in order (generated or streamed), recording each request. */
function scriptedModel(answers: readonly Answer[]): Model & { requests: ModelRequest[] } {
  const queue = [...answers];
  const requests: ModelRequest[] = [];
  const next = (request: ModelRequest) => {
    requests.push(request);
    const answer = queue.shift();
    if (answer === undefined) throw new Error('no more scripted answers');
    return answer;
  };
  return {
    requests,
    async getResponse(request) {
      return asSdk(next(request));
    },
    async *getStreamedResponse(request) {
      yield* asEvents(next(request));
    },
  };
}

// Tracing would export spans to OpenAI: every run here keeps it off.
const runner = () => new Runner({ tracingDisabled: true });

/** The conversation of an SDK request as `role:text` lines, an assistant's calls joined to its message as ours are. */
function conversationOf(request: ModelRequest): string[] {
  const items: readonly AgentInputItem[] = typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
  const out: string[] = [];
  for (const item of items) {
    const loose = item as { type?: string; role?: string; content?: unknown; name?: string; arguments?: string; callId?: string; output?: unknown };
    const text = (content: unknown) =>
      typeof content === 'string' ? content : Array.isArray(content) ? content.map((p: { text?: string }) => p.text ?? '').join('') : '';
    if (loose.type === 'function_call') {
      const call = `${loose.name}(${loose.arguments})#${loose.callId}`;
      if (out.at(-1)?.startsWith('assistant:')) out[out.length - 1] += ` ${call}`;
      else out.push(`assistant: ${call}`);
    } else if (loose.type === 'function_call_result') {
      out.push(`tool:${text(typeof loose.output === 'object' && loose.output !== null && !Array.isArray(loose.output) ? (loose.output as { text?: string }).text : loose.output)}#${loose.callId}`);
    } else out.push(`${loose.role}:${text(loose.content)}`);
  }
  return out;
}

/** Our model's requests in the same lines. */
const ourConversation = (messages: readonly { role: string; content: string; toolCalls?: readonly { id: string; name: string; args: unknown }[]; toolCallId?: string }[]) =>
  messages.map((m) =>
    m.role === 'tool'
      ? `tool:${m.content}#${m.toolCallId}`
      : `${m.role}:${m.content}${(m.toolCalls ?? []).map((c) => ` ${c.name}(${JSON.stringify(c.args)})#${c.id}`).join('')}`,
  );

const SCRIPT: readonly Answer[] = [
  { calls: [{ id: 'c1', name: 'echo', args: { text: 'rude' } }] },
  { text: 'The secret is sk-123.', calls: [{ id: 'c2', name: 'echo', args: { text: 'kind' } }] },
  { calls: [{ id: 'c3', name: 'shout', args: { text: 'cached' } }] },
];

/** Every model event, and a tool hook adding context: the hooks both sides run. */
function sharedHooks(): AgentBuilder {
  return AgentBuilder.new()
    .onBeforeModel((ctx) => (ctx.stepIndex === 0 ? ctx.withSystem(`${ctx.request.system} Be kind.`).withSettings({ maxTokens: 256 }) : undefined))
    .onBeforeModel((ctx) => (ctx.request.messages.findLast((m) => m.role === 'tool')?.content === 'SHOUT: CACHED' ? 'From the cache.' : undefined))
    .onBeforeToolSelection((ctx) => (ctx.stepIndex === 0 ? ['echo'] : undefined))
    .onAfterModel((ctx) => {
      if (ctx.response.toolCalls.some((c) => c.arg('text') === 'rude')) return HookOutcome.block('Use a kinder word.');
      if (ctx.response.text.includes('sk-')) return ctx.response.text.replace(/sk-\w+/g, '[redacted]');
      return undefined;
    })
    .onAfterToolUse((ctx) => HookOutcome.proceed(undefined, { additionalContext: `${ctx.toolCall.name} ran.` }));
}

async function ourAgent() {
  const model = new ScriptedModel(SCRIPT.map(asOurs));
  const echo = defineTool({ name: 'echo', description: 'Echoes', input: z.object({ text: z.string() }), execute: ({ text }) => `echo: ${text}` });
  const shout = defineTool({ name: 'shout', description: 'Shouts', input: z.object({ text: z.string() }), execute: ({ text }) => `SHOUT: ${text.toUpperCase()}` });
  const result = await sharedHooks().withModel(model).withSystemPrompt('You are terse.').withModelSettings({ temperature: 0.5 }).withTools(echo, shout).build().run('Greet me');
  return {
    requests: model.requests.map((r) => ({ system: r.system, messages: ourConversation(r.messages), tools: r.tools.map((t) => t.name), settings: { ...r.settings } })),
    text: result.text,
  };
}

function sdkAgent(model: Model, hooks: LoopHooks) {
  const echo = tool({ name: 'echo', description: 'Echoes', parameters: z.object({ text: z.string() }), execute: async ({ text }) => `echo: ${text}` });
  const shout = tool({ name: 'shout', description: 'Shouts', parameters: z.object({ text: z.string() }), execute: async ({ text }) => `SHOUT: ${text.toUpperCase()}` });
  return new Agent({
    name: 'greeter',
    instructions: 'You are terse.',
    model: withModelHooks(model, hooks),
    modelSettings: { temperature: 0.5 },
    tools: withHooks([echo, shout], hooks),
  });
}

const sdkRequests = (requests: readonly ModelRequest[]) =>
  requests.map((r) => ({
    system: r.systemInstructions,
    messages: conversationOf(r),
    tools: r.tools.map((t) => t.name),
    settings: {
      ...(r.modelSettings.temperature !== undefined ? { temperature: r.modelSettings.temperature } : {}),
      ...(r.modelSettings.maxTokens !== undefined ? { maxTokens: r.modelSettings.maxTokens } : {}),
    },
  }));

describe('withModelHooks: the model events make the same decisions as in our agent, in the SDK’s own run loop', () => {
  it('run(): the model is sent what ours is sent, and the run ends with the same answer', async () => {
    const ours = await ourAgent();
    const model = scriptedModel(SCRIPT);
    const hooks = new LoopHooks(sharedHooks());
    const result = await runner().run(sdkAgent(model, hooks), 'Greet me');

    expect(sdkRequests(model.requests)).toEqual(ours.requests);
    expect(result.finalOutput).toBe(ours.text);
    expect(ours.requests[2]!.messages).toEqual([
      'user:Greet me',
      'user:Use a kinder word.',
      'assistant:The secret is [redacted]. echo({"text":"kind"})#c2',
      'tool:echo: kind#c2',
      'system:echo ran.',
    ]);
    expect(ours.text).toBe('From the cache.');
  });

  it('a streamed run: the same requests, and only the text the hooks decided on streams', async () => {
    const ours = await ourAgent();
    const model = scriptedModel(SCRIPT);
    const hooks = new LoopHooks(sharedHooks());
    const stream = await runner().run(sdkAgent(model, hooks), 'Greet me', { stream: true });
    const deltas: string[] = [];
    for await (const event of stream) {
      if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') deltas.push(event.data.delta);
    }
    await stream.completed;
    expect(sdkRequests(model.requests)).toEqual(ours.requests);
    expect(stream.finalOutput).toBe(ours.text);
    expect(deltas).toEqual(['The secret is [redacted].', 'From the cache.']);
  });
});

describe('withModelHooks', () => {
  const bash = (execute = vi.fn(async ({ command }: { command: string }) => `ran ${command}`)) => ({
    execute,
    bash: tool({ name: 'bash', description: 'Runs a command', parameters: z.object({ command: z.string() }), execute }),
  });

  it('streams live when no hook waits for the whole answer: the model’s own events, as they come', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const model: Model = {
      async getResponse() {
        throw new Error('not generated');
      },
      async *getStreamedResponse() {
        yield { type: 'response_started' };
        yield { type: 'output_text_delta', delta: 'Hello ' };
        await gate;
        yield* asEvents({ text: 'Hello there.' }).slice(1).filter((e) => e.type !== 'output_text_delta');
      },
    };
    const hooks = new LoopHooks(AgentBuilder.new().onBeforeStep(() => undefined).onBeforeToolSelection(() => undefined));
    const stream = await runner().run(new Agent({ name: 'a', model: withModelHooks(model, hooks) }), 'hi', { stream: true });
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('timeout'), 2000).unref());
    let firstDelta!: (delta: string) => void;
    const first = new Promise<string>((resolve) => (firstDelta = resolve));
    const read = (async () => {
      for await (const event of stream) if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') firstDelta(event.data.delta);
    })();
    const got = await Promise.race([first, timeout]);
    release();
    await read;
    await stream.completed;
    expect(got).toBe('Hello ');
    expect(stream.finalOutput).toBe('Hello there.');
  });

  it('a Hook class on BeforeModel wraps the call: a failing call is made again through ctx.callModel()', async () => {
    let calls = 0;
    const model: Model = {
      async getResponse() {
        if (calls++ === 0) throw new Error('overloaded');
        return asSdk({ text: 'Second try.' });
      },
      async *getStreamedResponse() {
        throw new Error('not streamed');
      },
    };
    const errors: string[] = [];
    const hooks = new LoopHooks(
      AgentBuilder.new().withHook({
        events: ['BeforeModel'],
        async handle(ctx: AnyHookContext, next: NextFn) {
          try {
            return await next();
          } catch (error) {
            errors.push((error as Error).message);
            return ctx.event === 'BeforeModel' ? HookOutcome.proceed(ctx.withResponse(await ctx.callModel())) : HookOutcome.proceed();
          }
        },
      }),
    );
    const result = await runner().run(new Agent({ name: 'a', model: withModelHooks(model, hooks) }), 'hi');
    expect(errors).toEqual(['overloaded']);
    expect(result.finalOutput).toBe('Second try.');
  });

  it('an answer given instead of the model skips it; its calls run through the wrapped tools', async () => {
    const model = scriptedModel([{ text: 'Listed.' }]);
    const { bash: shell, execute } = bash();
    const hooks = new LoopHooks(
      AgentBuilder.new().onBeforeModel((ctx) => (ctx.stepIndex === 0 ? ctx.withResponse({ toolCalls: [{ id: 'h1', name: 'bash', args: { command: 'ls' } }] }) : undefined)),
    );
    const result = await runner().run(new Agent({ name: 'a', model: withModelHooks(model, hooks), tools: withHooks([shell], hooks) }), 'go');
    expect(execute).toHaveBeenCalledTimes(1);
    expect(model.requests).toHaveLength(1);
    expect(result.finalOutput).toBe('Listed.');
  });

  it('narrows the tools and handoffs; mode any with one left forces it; stopSequences gets a warning', async () => {
    const model = scriptedModel([{ text: 'ok' }]);
    const { bash: shell } = bash();
    const helper = new Agent({ name: 'helper', handoffDescription: 'Helps' });
    const hooks = new LoopHooks(
      AgentBuilder.new()
        .onBeforeToolSelection((ctx) => ctx.withToolConfig({ mode: 'any', allowedFunctionNames: ['transfer_to_helper'] }))
        .onBeforeModel((ctx) => ctx.withSettings({ stopSequences: ['END'] })),
    );
    const warnings: string[] = [];
    hooks.events.on('warning', (w) => warnings.push(w.code));
    await runner().run(new Agent({ name: 'a', model: withModelHooks(model, hooks), tools: withHooks([shell], hooks), handoffs: [helper] }), 'go');
    const sent = model.requests[0]!;
    expect(sent.tools).toEqual([]);
    expect(sent.handoffs.map((h) => h.toolName)).toEqual(['transfer_to_helper']);
    expect(sent.modelSettings.toolChoice).toBe('transfer_to_helper');
    expect(warnings).toEqual(['unsupported-setting']);
  });

  it('a stop ends the run: the answer is dropped, its calls never run, and the model is not called again', async () => {
    const model = scriptedModel([{ calls: [{ id: 'c1', name: 'bash', args: { command: 'rm -rf /' } }] }, { text: 'never' }]);
    const { bash: shell, execute } = bash();
    const hooks = new LoopHooks(AgentBuilder.new().onAfterModel(() => HookOutcome.stop('Too dangerous.')));
    const result = await runner().run(new Agent({ name: 'a', model: withModelHooks(model, hooks), tools: withHooks([shell], hooks) }), 'go');
    expect(execute).not.toHaveBeenCalled();
    expect(model.requests).toHaveLength(1);
    expect(result.finalOutput).toBe('');
    expect(hooks.stopReason).toBe('Too dangerous.');
  });

  it('AfterModel retries count toward the run’s usage', async () => {
    const model = scriptedModel([{ text: 'one' }, { text: 'two' }]);
    const hooks = new LoopHooks(AgentBuilder.new().onAfterModel((ctx) => (ctx.retryCount === 0 ? HookOutcome.block('Again.') : undefined)));
    const result = await runner().run(new Agent({ name: 'a', model: withModelHooks(model, hooks) }), 'go');
    expect(result.finalOutput).toBe('two');
    expect(result.state.usage.inputTokens).toBe(20);
    expect(conversationOf(model.requests[1]!)).toEqual(['user:go', 'user:Again.']);
  });

  it('names a wrong model', () => {
    expect(() => withModelHooks('gpt-4.1' as never, AgentBuilder.new())).toThrow('withModelHooks() takes an OpenAI Agents SDK Model (with getResponse), got string.');
  });
});
