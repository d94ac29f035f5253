/**
 * A hook that throws inside a real LangChain `createAgent` run, under each `onHookError` policy.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { createAgent, tool } from 'langchain';
import { AgentBuilder, HookError, type AgentWarning, type HookErrorPolicy, type HookEventName } from 'agent-hooks';
import { LoopHooks, langchainMiddleware } from 'agent-hooks/langchain';

/** A chat model playing `answers` in order, recording the messages of each call. */
class ScriptedChatModel extends BaseChatModel {
  readonly calls: BaseMessage[][] = [];
  constructor(private readonly answers: AIMessage[]) {
    super({});
  }
  _llmType(): string {
    return 'scripted';
  }
  override bindTools(): this {
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.calls.push([...messages]);
    const message = this.answers.shift() ?? new AIMessage('Done.');
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

/** A model that calls bash (`ls`) once, then answers. */
const scripted = () =>
  new ScriptedChatModel([new AIMessage({ content: '', tool_calls: [{ name: 'bash', args: { command: 'ls' }, id: 'call-1', type: 'tool_call' }] }), new AIMessage('Done.')]);

function bashTool() {
  const ran: string[] = [];
  const bash = tool(async ({ command }: { command: string }) => (ran.push(command), `ran ${command}`), {
    name: 'bash',
    description: 'Runs a shell command',
    schema: z.object({ command: z.string() }),
  });
  return { bash, ran };
}

/** A LoopHooks whose hook `buggy` on `event` throws, under `policy` (unset: the default); with its warnings and events. */
function failing(event: HookEventName, policy?: HookErrorPolicy) {
  const builder = AgentBuilder.new().addHook(event, () => {
    throw new Error('hook bug');
  }, { name: 'buggy' });
  if (policy !== undefined) builder.withOptions({ onHookError: policy });
  const hooks = new LoopHooks(builder);
  const warnings: AgentWarning[] = [];
  const events: string[] = [];
  hooks.events.on('warning', (w) => void warnings.push(w));
  hooks.events.on('event', (ctx) => void events.push(ctx.event === 'ExecutionEnd' ? `ExecutionEnd ${ctx.status}` : ctx.event));
  return { hooks, warnings, events };
}

const settle = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/**
 * The events our hooks see inside LangChain's `wrapModelCall` and `wrapToolCall`: LangChain wraps what those throw in
 * its `MiddlewareError`, with the same name and message, and the HookError as its `cause`.
 */
const WRAPPED: ReadonlySet<HookEventName> = new Set(['BeforeStep', 'BeforeModel', 'BeforeToolSelection', 'AfterModel', 'PreToolUse', 'PostToolUse', 'AfterStep']);

/** The HookError `invoke` rejected with: itself, or the `cause` of LangChain's wrapper. */
const hookErrorOf = (error: unknown, event: HookEventName): unknown => {
  if (!WRAPPED.has(event)) return error;
  expect(error).toMatchObject({ name: 'HookError' });
  return (error as { cause?: unknown }).cause;
};

const EVENTS = ['SessionStart', 'ExecutionStart', 'UserPromptSubmit', 'BeforeStep', 'BeforeModel', 'BeforeToolSelection', 'AfterModel', 'PreToolUse', 'PostToolUse', 'AfterStep', 'Stop', 'AfterStop', 'AfterAgent'] as const;

describe.each(EVENTS)("a %s hook that throws under 'fail' (the default), in langchainMiddleware", (event) => {
  it('invoke rejects with the HookError after AgentFailed and ExecutionEnd (failed); a later invoke rejects before the model', async () => {
    const { hooks, warnings, events } = failing(event);
    const model = scripted();
    const { bash } = bashTool();
    const agent = createAgent({ model, tools: [bash], middleware: [langchainMiddleware(hooks)] });

    const error = await settle(agent.invoke({ messages: [new HumanMessage('List the files')] }));
    const calls = model.calls.length;
    const again = await settle(agent.invoke({ messages: [new HumanMessage('And now?')] }));

    const failure = hookErrorOf(error, event);
    expect(failure).toBeInstanceOf(HookError);
    expect(failure).toMatchObject({ hookName: 'buggy', event });
    expect(hooks.failure).toBe(failure);
    expect(warnings).toEqual([expect.objectContaining({ code: 'hook-failed', event, hookName: 'buggy' })]);
    expect(events.slice(-2)).toEqual(['AgentFailed', 'ExecutionEnd failed']);
    // A later invocation ends in beforeAgent, which LangChain does not wrap.
    expect(again).toBe(failure);
    expect(model.calls).toHaveLength(calls);
  });
});

it("an ExecutionEnd hook that throws under 'fail' fails the invocation after the fact: AgentFailed fires last, as in our agent", async () => {
  const { hooks, events } = failing('ExecutionEnd');
  const { bash } = bashTool();
  const agent = createAgent({ model: scripted(), tools: [bash], middleware: [langchainMiddleware(hooks)] });

  const error = await settle(agent.invoke({ messages: [new HumanMessage('List the files')] }));

  expect(error).toBe(hooks.failure);
  expect(error).toMatchObject({ name: 'HookError', hookName: 'buggy', event: 'ExecutionEnd' });
  expect(events.slice(-2)).toEqual(['ExecutionEnd completed', 'AgentFailed']);
});

describe("a tool hook that throws under 'fail': nothing runs after it", () => {
  it.each(['PreToolUse', 'PostToolUse'] as const)('%s: the model is not called again', async (event) => {
    const { hooks } = failing(event);
    const model = scripted();
    const { bash, ran } = bashTool();
    const agent = createAgent({ model, tools: [bash], middleware: [langchainMiddleware(hooks)] });

    const error = await settle(agent.invoke({ messages: [new HumanMessage('List the files')] }));

    expect(hookErrorOf(error, event)).toBeInstanceOf(HookError);

    expect(ran).toEqual(event === 'PreToolUse' ? [] : ['ls']);
    expect(model.calls).toHaveLength(1);
  });
});

describe('the other policies, in langchainMiddleware', () => {
  it("'ignore': the hook is skipped with a hook-error warning, the tool runs and the agent answers", async () => {
    const { hooks, warnings } = failing('PreToolUse', 'ignore');
    const model = scripted();
    const { bash, ran } = bashTool();
    const agent = createAgent({ model, tools: [bash], middleware: [langchainMiddleware(hooks)] });

    const result = await agent.invoke({ messages: [new HumanMessage('List the files')] });

    expect(ran).toEqual(['ls']);
    expect(result.messages.at(-1)?.content).toBe('Done.');
    expect(warnings).toEqual([expect.objectContaining({ code: 'hook-error', event: 'PreToolUse', hookName: 'buggy' })]);
  });

  it("'block': the call is refused with the hook's error as the reason, without its stack, and the agent goes on", async () => {
    const { hooks } = failing('PreToolUse', 'block');
    const model = scripted();
    const { bash, ran } = bashTool();
    const agent = createAgent({ model, tools: [bash], middleware: [langchainMiddleware(hooks)] });

    const result = await agent.invoke({ messages: [new HumanMessage('List the files')] });

    expect(ran).toEqual([]);
    const told = model.calls[1]!.find((m) => m.getType() === 'tool')!;
    expect(told.content).toBe("Tool call blocked by a hook: Hook 'buggy' failed on PreToolUse: hook bug");
    expect(result.messages.at(-1)?.content).toBe('Done.');
    expect(hooks.failure).toBeUndefined();
  });
});
