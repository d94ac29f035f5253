/**
 * A hook that throws inside a real AI SDK loop (`generateText`, `streamText`), under each `onHookError` policy.
 */
import { generateText, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, BeforeToolHook, HookError, HookStack, type AgentWarning, type HookErrorPolicy, type HookEventName } from 'agent-hooks';
import { LoopHooks, hooksMiddleware, withHooks } from 'agent-hooks/ai-sdk';
import { mockModel, mockStreamingModel, textAnswer, toolCallAnswer, toolResults } from './ai-sdk-support.js';

/** What the hook throws: an Error, whose stack (with this file's path) the model must never see. */
const bug = () => new Error('hook bug');

/** A LoopHooks whose hook `buggy` on `event` throws, under `policy` (unset: the default); with its warnings and events. */
function failing(event: HookEventName, policy?: HookErrorPolicy) {
  const builder = AgentBuilder.new().addHook(event, () => {
    throw bug();
  }, { name: 'buggy' });
  if (policy !== undefined) builder.withOptions({ onHookError: policy });
  const failed: unknown[] = [];
  builder.onAgentFailed((ctx) => void failed.push(ctx.error));
  const hooks = new LoopHooks(builder);
  const warnings: AgentWarning[] = [];
  hooks.events.on('warning', (w) => void warnings.push(w));
  return { hooks, warnings, failed };
}

function bashTool() {
  const execute = vi.fn(async ({ command }: { command: string }) => `ran ${command}`);
  return { execute, tools: { bash: tool({ description: 'Runs a shell command', inputSchema: z.object({ command: z.string() }), execute }) } };
}

const settle = (promise: PromiseLike<unknown>): Promise<unknown> =>
  Promise.resolve(promise).then(
    () => undefined,
    (error: unknown) => error,
  );

/** Everything the model was sent, as text. */
const sent = (calls: readonly { prompt: unknown }[]): string => calls.map((c) => JSON.stringify(c.prompt)).join('\n');

/** Reads a `streamText` result to its end: the error it ended on (thrown or an `error` part), if any. */
async function drainStream(result: { fullStream: AsyncIterable<{ type: string; error?: unknown }> }): Promise<unknown> {
  try {
    for await (const part of result.fullStream) if (part.type === 'error') return part.error;
  } catch (error) {
    return error;
  }
  return undefined;
}

const expectHookError = (error: unknown, event: HookEventName) => {
  expect(error).toBeInstanceOf(HookError);
  expect(error).toMatchObject({ hookName: 'buggy', event });
};

describe.each(['PreToolUse', 'PostToolUse'] as const)("a %s hook that throws under 'fail' (the default), in withHooks' tools", (event) => {
  it('generateText rejects with the HookError; the model is not called again, and never sees the error', async () => {
    const { hooks, warnings, failed } = failing(event);
    const { tools, execute } = bashTool();
    const model = mockModel(toolCallAnswer('bash', { command: 'ls' }), textAnswer('Done.'));

    const error = await settle(generateText({ model, tools: withHooks(tools, hooks), stopWhen: stepCountIs(5), prompt: 'List the files' }));

    expectHookError(error, event);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(execute).toHaveBeenCalledTimes(event === 'PreToolUse' ? 0 : 1);
    expect(hooks.failure).toBe(error);
    expect(warnings).toEqual([expect.objectContaining({ code: 'hook-failed', event, hookName: 'buggy' })]);
    expect(failed).toEqual([error]);
    expect(sent(model.doGenerateCalls)).not.toContain('hook bug');
  });

  it('streamText ends on the HookError before the model is called again', async () => {
    const { hooks } = failing(event);
    const { tools } = bashTool();
    const model = mockStreamingModel([toolCallAnswer('bash', { command: 'ls' }), textAnswer('Done.')]);

    const result = streamText({ model, tools: withHooks(tools, hooks), stopWhen: stepCountIs(5), prompt: 'List the files', onError: () => {} });
    const error = await drainStream(result);

    expectHookError(error, event);
    expect(model.doStreamCalls).toHaveLength(1);
    expect(hooks.failure).toBe(error);
  });

  it('with the middleware too, the conversation makes no more calls: a later generateText rejects before the provider', async () => {
    const { hooks } = failing(event);
    const { tools } = bashTool();
    const model = mockModel(toolCallAnswer('bash', { command: 'ls' }), textAnswer('Done.'), textAnswer('again'));
    const wrapped = wrapLanguageModel({ model, middleware: hooksMiddleware(hooks) });

    const first = await settle(generateText({ model: wrapped, tools: withHooks(tools, hooks), stopWhen: stepCountIs(5), prompt: 'List the files' }));
    const second = await settle(generateText({ model: wrapped, tools: withHooks(tools, hooks), prompt: 'And now?' }));

    expectHookError(first, event);
    expect(second).toBe(first);
    expect(model.doGenerateCalls).toHaveLength(1);
  });
});

it("a call whose PreToolUse hooks were running when another call's hook failed does not run its tool", async () => {
  const { tools, execute } = bashTool();
  const builder = AgentBuilder.new().onBeforeToolUse(
    async (ctx) => {
      const first = ctx.toolCall.arg('command') === 'first';
      await new Promise((resolve) => setTimeout(resolve, first ? 10 : 60));
      if (first) throw bug();
    },
    { name: 'buggy' },
  );
  const both = toolCallAnswer('bash', { command: 'first' }, 'c1');
  const model = mockModel({ ...both, content: [...both.content, { type: 'tool-call', toolCallId: 'c2', toolName: 'bash', input: JSON.stringify({ command: 'second' }) }] }, textAnswer('Done.'));
  const hooks = new LoopHooks(builder);

  const error = await settle(generateText({ model, tools: withHooks(tools, hooks), stopWhen: stepCountIs(5), prompt: 'Run both' }));

  expectHookError(error, 'PreToolUse');
  expect(execute).not.toHaveBeenCalled();
});

describe.each(['BeforeStep', 'BeforeModel', 'BeforeToolSelection', 'AfterModel', 'AfterStep'] as const)("a %s hook that throws under 'fail', in hooksMiddleware", (event) => {
  it('generateText rejects with the HookError; no tool runs after it', async () => {
    const { hooks, warnings } = failing(event);
    const { tools, execute } = bashTool();
    const model = mockModel(toolCallAnswer('bash', { command: 'ls' }), textAnswer('Done.'));
    const wrapped = wrapLanguageModel({ model, middleware: hooksMiddleware(hooks) });

    const error = await settle(generateText({ model: wrapped, tools: withHooks(tools, hooks), stopWhen: stepCountIs(5), prompt: 'List the files' }));

    expectHookError(error, event);
    expect(execute).not.toHaveBeenCalled();
    expect(model.doGenerateCalls.length).toBeLessThanOrEqual(1);
    expect(warnings.map((w) => w.code)).toEqual(['hook-failed']);
  });

  it('streamText has the HookError as its error', async () => {
    const { hooks } = failing(event);
    const { tools } = bashTool();
    const model = mockStreamingModel([toolCallAnswer('bash', { command: 'ls' }), textAnswer('Done.')]);
    const wrapped = wrapLanguageModel({ model, middleware: hooksMiddleware(hooks) });

    const error = await drainStream(streamText({ model: wrapped, tools: withHooks(tools, hooks), stopWhen: stepCountIs(5), prompt: 'List the files', onError: () => {} }));

    expectHookError(error, event);
    expect(model.doStreamCalls.length).toBeLessThanOrEqual(1);
  });
});

describe("the other policies, in withHooks' tools", () => {
  it("'ignore': the hook is skipped with a hook-error warning, the tool runs and the loop goes on", async () => {
    const { hooks, warnings } = failing('PreToolUse', 'ignore');
    const { tools, execute } = bashTool();
    const model = mockModel(toolCallAnswer('bash', { command: 'ls' }), textAnswer('Done.'));

    const result = await generateText({ model, tools: withHooks(tools, hooks), stopWhen: stepCountIs(5), prompt: 'List the files' });

    expect(result.text).toBe('Done.');
    expect(execute).toHaveBeenCalledTimes(1);
    expect(toolResults(model.doGenerateCalls[1]!.prompt)).toEqual(['bash: ran ls']);
    expect(warnings).toEqual([expect.objectContaining({ code: 'hook-error', event: 'PreToolUse', hookName: 'buggy' })]);
    expect(hooks.failure).toBeUndefined();
  });

  it('a HookStack source takes its policy from the options', async () => {
    const stack = new HookStack().with(new BeforeToolHook(() => {
      throw bug();
    }, { name: 'buggy' }));
    const run = (policy: HookErrorPolicy) => {
      const { tools, execute } = bashTool();
      const model = mockModel(toolCallAnswer('bash', { command: 'ls' }), textAnswer('Done.'));
      const done = settle(generateText({ model, tools: withHooks(tools, new LoopHooks(stack, { onHookError: policy })), stopWhen: stepCountIs(5), prompt: 'List the files' }));
      return done.then((error) => ({ error, ran: execute.mock.calls.length, told: model.doGenerateCalls[1] ? toolResults(model.doGenerateCalls[1].prompt) : [] }));
    };

    expect((await run('fail')).error).toMatchObject({ name: 'HookError', hookName: 'buggy', event: 'PreToolUse' });
    expect(await run('ignore')).toEqual({ error: undefined, ran: 1, told: ['bash: ran ls'] });
    expect(await run('block')).toEqual({ error: undefined, ran: 0, told: ["bash: Tool call blocked by a hook: Hook 'buggy' failed on PreToolUse: hook bug"] });
  });

  it('a HookStack source takes its hook timeout from the options: a hook that never settles fails the loop as a timeout', async () => {
    let aborted: unknown;
    const stack = new HookStack().with(new BeforeToolHook((_ctx, scope) => {
      scope.signal?.addEventListener('abort', () => (aborted = scope.signal?.reason));
      return new Promise(() => {});
    }, { name: 'hangs' }));
    const { tools, execute } = bashTool();
    const model = mockModel(toolCallAnswer('bash', { command: 'ls' }), textAnswer('Done.'));

    const error = await settle(generateText({ model, tools: withHooks(tools, new LoopHooks(stack, { hookTimeout: 200 })), stopWhen: stepCountIs(5), prompt: 'List the files' }));

    expect(error).toMatchObject({ name: 'HookError', code: 'timeout', hookName: 'hangs', event: 'PreToolUse' });
    expect(aborted).toBe(error);
    expect(execute).not.toHaveBeenCalled();
    expect(() => new LoopHooks(stack, { hookTimeout: 0 })).toThrow(/LoopHooks\(\{ hookTimeout \}\) must be a positive number of milliseconds/);
  });

  it("'block': the call is refused with the hook's error as the reason, without its stack; the loop goes on", async () => {
    const { hooks } = failing('PreToolUse', 'block');
    const { tools, execute } = bashTool();
    const model = mockModel(toolCallAnswer('bash', { command: 'ls' }), textAnswer('Done.'));

    const result = await generateText({ model, tools: withHooks(tools, hooks), stopWhen: stepCountIs(5), prompt: 'List the files' });

    expect(result.text).toBe('Done.');
    expect(execute).not.toHaveBeenCalled();
    const [told] = toolResults(model.doGenerateCalls[1]!.prompt);
    expect(told).toMatch(/^bash: Tool call blocked by a hook: Hook 'buggy' failed on PreToolUse: hook bug$/);
    expect(sent(model.doGenerateCalls)).not.toContain('hook-errors.test');
    expect(hooks.failure).toBeUndefined();
  });
});
