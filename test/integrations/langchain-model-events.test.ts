import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { createAgent, tool } from 'langchain';
import { AgentBuilder, HookOutcome, ScriptedModel, defineTool, type AnyHookContext, type Message, type ModelResponse, type NextFn } from 'agent-hooks';
import { LoopHooks, langchainMiddleware } from 'agent-hooks/langchain';

/** A chat model playing `answers` in order, recording the messages, tools and call options of each call. */
class ScriptedChatModel extends BaseChatModel {
  readonly calls: BaseMessage[][] = [];
  readonly bound: { tools: string[]; options: Record<string, unknown> }[] = [];
  // Not `tools`: LangChain takes a model with a `tools` field for one whose tools are bound already.
  private boundOptions: Record<string, unknown> = {};
  private boundNames: string[] = [];
  constructor(private readonly answers: (AIMessage | Error)[]) {
    super({});
  }
  _llmType(): string {
    return 'scripted';
  }
  override bindTools(tools: { name?: string; function?: { name: string } }[], options: Record<string, unknown> = {}): this {
    this.boundNames = tools.map((t) => t.name ?? t.function?.name ?? '?');
    this.boundOptions = options;
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.calls.push([...messages]);
    this.bound.push({ tools: this.boundNames, options: this.boundOptions });
    const message = this.answers.shift() ?? new AIMessage('Done.');
    if (message instanceof Error) throw message;
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

interface Answer {
  readonly text?: string;
  readonly calls?: readonly { readonly id: string; readonly name: string; readonly args: Record<string, unknown> }[];
}

const asOurs = (a: Answer): ModelResponse => ({ text: a.text ?? '', toolCalls: (a.calls ?? []).map((c) => ({ ...c })) });
const asLangChain = (a: Answer): AIMessage =>
  new AIMessage({ content: a.text ?? '', tool_calls: (a.calls ?? []).map((c) => ({ id: c.id, name: c.name, args: c.args, type: 'tool_call' as const })) });

const SCRIPT: readonly Answer[] = [
  { calls: [{ id: 'c1', name: 'echo', args: { text: 'rude' } }] },
  { text: 'The secret is sk-123.', calls: [{ id: 'c2', name: 'echo', args: { text: 'kind' } }] },
  { calls: [{ id: 'c3', name: 'shout', args: { text: 'cached' } }] },
];

/** Every model event: the hooks both sides run. (Context goes into LangChain's system message, so none is added.) */
function sharedHooks(): AgentBuilder {
  return AgentBuilder.new()
    .onBeforeModel((ctx) => (ctx.stepIndex === 0 ? ctx.withSystem(`${ctx.request.system} Be kind.`).withSettings({ maxTokens: 256 }) : undefined))
    .onBeforeModel((ctx) => (ctx.request.messages.findLast((m) => m.role === 'tool')?.content === 'SHOUT: CACHED' ? 'From the cache.' : undefined))
    .onBeforeToolSelection((ctx) => (ctx.stepIndex === 0 ? ['echo'] : undefined))
    .onAfterModel((ctx) => {
      if (ctx.response.toolCalls.some((c) => c.arg('text') === 'rude')) return HookOutcome.block('Use a kinder word.');
      if (ctx.response.text.includes('sk-')) return ctx.response.text.replace(/sk-\w+/g, '[redacted]');
      return undefined;
    });
}

/** A conversation as `role:text` lines, with each assistant message's calls. */
const lines = (messages: readonly Message[]) =>
  messages.map((m) => `${m.role}:${m.content}${(m.toolCalls ?? []).map((c) => ` ${c.name}(${JSON.stringify(c.args)})#${c.id}`).join('')}`);

const langchainLines = (messages: readonly BaseMessage[]) =>
  messages.map((m) => {
    const role = { human: 'user', ai: 'assistant', system: 'system', tool: 'tool' }[m.getType() as string] ?? m.getType();
    const calls = ((m as AIMessage).tool_calls ?? []).map((c) => ` ${c.name}(${JSON.stringify(c.args)})#${c.id}`).join('');
    return `${role}:${m.text}${calls}`;
  });

async function ourAgent() {
  const model = new ScriptedModel(SCRIPT.map(asOurs));
  const echo = defineTool({ name: 'echo', description: 'Echoes', input: z.object({ text: z.string() }), execute: ({ text }) => `echo: ${text}` });
  const shout = defineTool({ name: 'shout', description: 'Shouts', input: z.object({ text: z.string() }), execute: ({ text }) => `SHOUT: ${text.toUpperCase()}` });
  const result = await sharedHooks().withModel(model).withSystemPrompt('You are terse.').withTools(echo, shout).build().run('Greet me');
  return {
    requests: model.requests.map((r) => ({ system: r.system, messages: lines(r.messages), tools: r.tools.map((t) => t.name), settings: { ...r.settings } })),
    text: result.text,
  };
}

function langchainAgent(model: ScriptedChatModel, hooks: LoopHooks) {
  const echo = tool(async ({ text }: { text: string }) => `echo: ${text}`, { name: 'echo', description: 'Echoes', schema: z.object({ text: z.string() }) });
  const shout = tool(async ({ text }: { text: string }) => `SHOUT: ${text.toUpperCase()}`, { name: 'shout', description: 'Shouts', schema: z.object({ text: z.string() }) });
  return createAgent({ model, tools: [echo, shout], systemPrompt: 'You are terse.', middleware: [langchainMiddleware(hooks)] });
}

const langchainRequests = (model: ScriptedChatModel) =>
  model.calls.map((messages, i) => {
    const [first, ...rest] = messages;
    const options = model.bound[i]!.options;
    return {
      system: first instanceof SystemMessage ? first.text : undefined,
      messages: langchainLines(first instanceof SystemMessage ? rest : messages),
      tools: model.bound[i]!.tools,
      settings: { ...(typeof options.maxTokens === 'number' ? { maxTokens: options.maxTokens } : {}) },
    };
  });

describe('langchainMiddleware: the model events make the same decisions as in our agent', () => {
  it('the chat model is sent what ours is sent; the rejected answer gives way to the feedback in the state; the same final answer', async () => {
    const ours = await ourAgent();
    const model = new ScriptedChatModel(SCRIPT.map(asLangChain));
    const result = await langchainAgent(model, new LoopHooks(sharedHooks())).invoke({ messages: [new HumanMessage('Greet me')] });

    expect(langchainRequests(model)).toEqual(ours.requests);
    expect(ours.requests[2]!.messages).toEqual([
      'user:Greet me',
      'user:Use a kinder word.',
      'assistant:The secret is [redacted]. echo({"text":"kind"})#c2',
      'tool:echo: kind',
    ]);
    expect(String(result.messages.at(-1)!.content)).toBe(ours.text);
    expect(ours.text).toBe('From the cache.');
    // The state holds the conversation our agent holds: the feedback before the answer it led to, the rejected answer gone.
    expect(langchainLines(result.messages).slice(0, 3)).toEqual(['user:Greet me', 'user:Use a kinder word.', 'assistant:The secret is [redacted]. echo({"text":"kind"})#c2']);
  });
});

describe('langchainMiddleware: model events', () => {
  it('a Hook class on BeforeModel wraps the call: a failing call is made again through ctx.callModel()', async () => {
    const model = new ScriptedChatModel([new Error('overloaded'), new AIMessage('Second try.')]);
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
    const result = await createAgent({ model, tools: [], middleware: [langchainMiddleware(hooks)] }).invoke({ messages: [new HumanMessage('hi')] });
    expect(errors).toEqual(['overloaded']);
    expect(String(result.messages.at(-1)!.content)).toBe('Second try.');
  });

  it('a block refuses the call: the model is not called, and the reason is the answer', async () => {
    const model = new ScriptedChatModel([new AIMessage('never')]);
    const hooks = new LoopHooks(AgentBuilder.new().onBeforeModel(() => HookOutcome.block('The model is off today.')));
    const result = await createAgent({ model, tools: [], middleware: [langchainMiddleware(hooks)] }).invoke({ messages: [new HumanMessage('hi')] });
    expect(model.calls).toHaveLength(0);
    expect(String(result.messages.at(-1)!.content)).toBe('The model is off today.');
  });

  it('BeforeToolSelection: mode any with one tool left forces it; stop sequences reach the call options', async () => {
    const model = new ScriptedChatModel([new AIMessage('ok')]);
    const read = tool(async () => 'read', { name: 'read', description: 'Reads', schema: z.object({}) });
    const write = tool(async () => 'written', { name: 'write', description: 'Writes', schema: z.object({}) });
    const hooks = new LoopHooks(
      AgentBuilder.new()
        .onBeforeToolSelection((ctx) => ctx.withToolConfig({ mode: 'any', allowedFunctionNames: ['write'] }))
        .onBeforeModel((ctx) => ctx.withSettings({ stopSequences: ['END'], temperature: 0 })),
    );
    await createAgent({ model, tools: [read, write], middleware: [langchainMiddleware(hooks)] }).invoke({ messages: [new HumanMessage('hi')] });
    expect(model.bound[0]!.tools).toEqual(['write']);
    expect(model.bound[0]!.options).toMatchObject({ tool_choice: { type: 'function', function: { name: 'write' } }, stop: ['END'], temperature: 0 });
  });

  it('an AfterModel stop drops the answer: its calls never run, and the agent ends', async () => {
    const ran: string[] = [];
    const bash = tool(async ({ command }: { command: string }) => (ran.push(command), 'ran'), { name: 'bash', description: 'Runs', schema: z.object({ command: z.string() }) });
    const model = new ScriptedChatModel([asLangChain({ calls: [{ id: 'c1', name: 'bash', args: { command: 'rm -rf /' } }] }), new AIMessage('never')]);
    const hooks = new LoopHooks(AgentBuilder.new().onAfterModel(() => HookOutcome.stop('Too dangerous.')));
    const result = await createAgent({ model, tools: [bash], middleware: [langchainMiddleware(hooks)] }).invoke({ messages: [new HumanMessage('go')] });
    expect(ran).toEqual([]);
    expect(model.calls).toHaveLength(1);
    expect(String(result.messages.at(-1)!.content)).toBe('');
    expect(hooks.stopReason).toBe('Too dangerous.');
  });

  it('AfterStep and Stop see the answer as AfterModel left it', async () => {
    const seen: string[] = [];
    const model = new ScriptedChatModel([new AIMessage('Original.')]);
    const hooks = new LoopHooks(
      AgentBuilder.new()
        .onAfterModel(() => 'Rewritten.')
        .onAfterStep((ctx) => void seen.push(`step:${ctx.step!.text}`))
        .onStop((ctx) => void seen.push(`stop:${ctx.finalMessage}`)),
    );
    const result = await createAgent({ model, tools: [], middleware: [langchainMiddleware(hooks)] }).invoke({ messages: [new HumanMessage('hi')] });
    expect(seen).toEqual(['step:Rewritten.', 'stop:Rewritten.']);
    expect(String(result.messages.at(-1)!.content)).toBe('Rewritten.');
  });

  it('in streamMode "messages", LangChain hands out the model’s own message as the model gives it, before AfterModel decides', async () => {
    const model = new ScriptedChatModel([new AIMessage('The secret is sk-123.'), new AIMessage('The secret is sk-123.')]);
    const hooks = new LoopHooks(AgentBuilder.new().onAfterModel((ctx) => ctx.response.text.replace(/sk-\w+/, '[redacted]')));
    const agent = createAgent({ model, tools: [], middleware: [langchainMiddleware(hooks)] });
    const streamed: string[] = [];
    for await (const [message] of await agent.stream({ messages: [new HumanMessage('hi')] }, { streamMode: 'messages' })) {
      if (AIMessage.isInstance(message) || message.getType() === 'ai') streamed.push(String(message.content));
    }
    const values: string[] = [];
    for await (const state of await agent.stream({ messages: [new HumanMessage('hi')] }, { streamMode: 'values' })) values.push(String(state.messages.at(-1)?.content));
    expect(streamed[0]).toBe('The secret is sk-123.');
    expect(values.at(-1)).toBe('The secret is [redacted].');
  });
});
