/**
 * A hook that throws inside a real OpenAI Agents SDK run (`Runner.run`, streamed or not), under each `onHookError`
 * policy.
 */
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Agent, Runner, ToolCallError, Usage, tool, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';
import { AgentBuilder, HookError, type AgentWarning, type HookErrorPolicy, type HookEventName } from 'agent-hooks';
import { LoopHooks, withHooks, withModelHooks } from 'agent-hooks/openai-agents';

const callAnswer = (): ModelResponse => ({
  usage: new Usage(),
  output: [{ type: 'function_call', callId: 'call-1', name: 'bash', arguments: JSON.stringify({ command: 'ls' }), status: 'completed' }],
});

const textAnswer = (text: string): ModelResponse => ({
  usage: new Usage(),
  output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] }],
});

/** A model that calls bash (`ls`), then answers; generated or streamed, recording each request. */
function scriptedModel(): Model & { requests: ModelRequest[] } {
  const answers = [callAnswer(), textAnswer('Done.'), textAnswer('Again.')];
  const requests: ModelRequest[] = [];
  const next = (request: ModelRequest): ModelResponse => {
    requests.push(request);
    const answer = answers.shift();
    if (answer === undefined) throw new Error('no more scripted answers');
    return answer;
  };
  return {
    requests,
    async getResponse(request) {
      return next(request);
    },
    async *getStreamedResponse(request) {
      const response = next(request);
      yield { type: 'response_started' };
      yield { type: 'response_done', response: { id: 'resp', usage: { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 }, output: response.output as never } };
    },
  };
}

/** A LoopHooks whose hook `buggy` on `event` throws, under `policy` (unset: the default); with its warnings and failures. */
function failing(event: HookEventName, policy?: HookErrorPolicy) {
  const builder = AgentBuilder.new().addHook(event, () => {
    throw new Error('hook bug');
  }, { name: 'buggy' });
  if (policy !== undefined) builder.withOptions({ onHookError: policy });
  const failed: unknown[] = [];
  builder.onAgentFailed((ctx) => void failed.push(ctx.error));
  const hooks = new LoopHooks(builder);
  const warnings: AgentWarning[] = [];
  hooks.events.on('warning', (w) => void warnings.push(w));
  return { hooks, warnings, failed };
}

/** An agent on the scripted model, its model and its bash tool wrapped with `hooks`. */
function agentWith(hooks: LoopHooks) {
  const execute = vi.fn(async ({ command }: { command: string }) => `ran ${command}`);
  const bash = tool({ name: 'bash', description: 'Runs a shell command', parameters: z.object({ command: z.string() }), execute });
  const model = scriptedModel();
  const agent = new Agent({ name: 'ops', model: withModelHooks(model, hooks, { modelName: 'scripted' }), tools: withHooks([bash], hooks) });
  return { agent, model, execute };
}

// Tracing would export spans to OpenAI: every run here keeps it off.
const runner = () => new Runner({ tracingDisabled: true });

const settle = (promise: PromiseLike<unknown>): Promise<unknown> =>
  Promise.resolve(promise).then(
    () => undefined,
    (error: unknown) => error,
  );

/** A streamed run read to its end: the error it ended on, if any. */
async function streamed(agent: Agent, input: string): Promise<unknown> {
  try {
    const result = await runner().run(agent, input, { stream: true });
    for await (const _ of result) void _;
    await result.completed;
    return result.error ?? undefined;
  } catch (error) {
    return error;
  }
}

/** The HookError a run rejected with: itself, or, for a tool's hook, the `error` of the SDK's `ToolCallError`. */
const hookErrorOf = (error: unknown, event: HookEventName): unknown => {
  if (event !== 'PreToolUse' && event !== 'PostToolUse') return error;
  expect(error).toBeInstanceOf(ToolCallError);
  return (error as ToolCallError).error;
};

const EVENTS = ['BeforeStep', 'BeforeModel', 'BeforeToolSelection', 'AfterModel', 'AfterStep', 'PreToolUse', 'PostToolUse'] as const;

describe.each(EVENTS)("a %s hook that throws under 'fail' (the default)", (event) => {
  it('run rejects with the HookError; the model is not called again, in this run or a later one', async () => {
    const { hooks, warnings, failed } = failing(event);
    const { agent, model, execute } = agentWith(hooks);

    const error = await settle(runner().run(agent, 'List the files'));
    const calls = model.requests.length;
    const again = await settle(runner().run(agent, 'And now?'));

    const failure = hookErrorOf(error, event);
    expect(failure).toBeInstanceOf(HookError);
    expect(failure).toMatchObject({ hookName: 'buggy', event });
    expect(hooks.failure).toBe(failure);
    expect(warnings).toEqual([expect.objectContaining({ code: 'hook-failed', event, hookName: 'buggy' })]);
    expect(failed).toEqual([failure]);
    expect(calls).toBeLessThanOrEqual(1);
    expect(execute).toHaveBeenCalledTimes(event === 'PostToolUse' ? 1 : 0);
    expect(again).toBe(failure);
    expect(model.requests).toHaveLength(calls);
  });

  it('a streamed run ends on the HookError', async () => {
    const { hooks } = failing(event);
    const { agent, model } = agentWith(hooks);

    const error = await streamed(agent, 'List the files');

    expect(hookErrorOf(error, event)).toBe(hooks.failure);
    expect(hooks.failure).toBeInstanceOf(HookError);
    expect(model.requests.length).toBeLessThanOrEqual(1);
  });
});

describe('the other policies', () => {
  it("'ignore': the hook is skipped with a hook-error warning, the tool runs and the run completes", async () => {
    const { hooks, warnings } = failing('PreToolUse', 'ignore');
    const { agent, execute } = agentWith(hooks);

    const result = await runner().run(agent, 'List the files');

    expect(result.finalOutput).toBe('Done.');
    expect(execute).toHaveBeenCalledTimes(1);
    expect(warnings).toEqual([expect.objectContaining({ code: 'hook-error', event: 'PreToolUse', hookName: 'buggy' })]);
  });

  it("'block': the call is refused with the hook's error as the reason, without its stack, and the run completes", async () => {
    const { hooks } = failing('PreToolUse', 'block');
    const { agent, model, execute } = agentWith(hooks);

    const result = await runner().run(agent, 'List the files');

    expect(result.finalOutput).toBe('Done.');
    expect(execute).not.toHaveBeenCalled();
    const told = JSON.stringify(model.requests[1]!.input);
    expect(told).toContain("Tool call blocked by a hook: Hook 'buggy' failed on PreToolUse: hook bug");
    expect(told).not.toContain('hook-errors.test');
    expect(hooks.failure).toBeUndefined();
  });
});
