import { generateText, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, HookOutcome, StepHookContext, type AnyHookContext } from 'agent-hooks';
import { HOOK_STOP_FINISH_REASON, LoopHooks, hooksMiddleware, withHooks } from 'agent-hooks/ai-sdk';
import { mockModel, textAnswer, toolCallAnswer, usage } from './ai-sdk-support.js';

const bashTool = (execute = vi.fn(async ({ command }: { command: string }) => `ran ${command}`)) => ({
  execute,
  tools: { bash: tool({ description: 'Runs a shell command', inputSchema: z.object({ command: z.string() }), execute }) },
});

/** A builder recording every event its hooks see, in order. */
function recording() {
  const events: string[] = [];
  const contexts: AnyHookContext[] = [];
  const builder = AgentBuilder.new();
  for (const event of ['BeforeStep', 'AfterStep', 'PreToolUse', 'PostToolUse'] as const) {
    builder.addHook(event, (ctx: AnyHookContext) => void (events.push(event), contexts.push(ctx)));
  }
  return { events, contexts, builder };
}

describe('hooksMiddleware around the model calls of a generateText loop', () => {
  it('fires BeforeStep before each model call and AfterStep when its answer is in, around the tool events', async () => {
    const { events, contexts, builder } = recording();
    const hooks = new LoopHooks(builder);
    const mock = mockModel(toolCallAnswer('bash', { command: 'ls' }, 'call-ls', usage(10, 5)), textAnswer('Done.', usage(30, 2)));
    const model = wrapLanguageModel({ model: mock, middleware: hooksMiddleware(hooks) });

    const result = await generateText({ model, tools: withHooks(bashTool().tools, hooks), stopWhen: stepCountIs(5), prompt: 'List' });

    expect(result.text).toBe('Done.');
    expect(events).toEqual(['BeforeStep', 'AfterStep', 'PreToolUse', 'PostToolUse', 'BeforeStep', 'AfterStep']);
    const afterSteps = contexts.filter((c): c is StepHookContext<'AfterStep'> => c.event === 'AfterStep');
    expect(afterSteps.map((c) => c.stepIndex)).toEqual([0, 1]);
    expect(afterSteps[0]).toBeInstanceOf(StepHookContext);
    expect(afterSteps[0]!.step!.toolCalls.map((c) => c.toJSON())).toEqual([{ id: 'call-ls', name: 'bash', args: { command: 'ls' } }]);
    expect(afterSteps[0]!.step!.usage).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    expect(afterSteps[1]!.step!.text).toBe('Done.');
    expect(afterSteps[1]!.state.stepCount).toBe(2);
    expect(hooks.stepCount).toBe(2);
  });

  it('sends the additional context of tool and step hooks with the next model call', async () => {
    const builder = AgentBuilder.new()
      .onBeforeStep((ctx) => (ctx.stepIndex === 0 ? HookOutcome.proceed(ctx, { additionalContext: 'The repo uses pnpm.' }) : undefined))
      .onBeforeToolUse((ctx) => HookOutcome.proceed(ctx, { additionalContext: 'bash runs in a sandbox.' }));
    const hooks = new LoopHooks(builder);
    const mock = mockModel(toolCallAnswer('bash', { command: 'ls' }), textAnswer('ok'));
    const model = wrapLanguageModel({ model: mock, middleware: hooksMiddleware(hooks) });

    await generateText({ model, tools: withHooks(bashTool().tools, hooks), stopWhen: stepCountIs(5), prompt: 'go' });

    expect(mock.doGenerateCalls[0]!.prompt.at(-1)).toEqual({ role: 'system', content: 'The repo uses pnpm.' });
    const second = mock.doGenerateCalls[1]!.prompt;
    expect(second.at(-1)).toEqual({ role: 'system', content: 'bash runs in a sandbox.' });
    expect(second.at(-2)?.role).toBe('tool');
  });

  it('after a stop, answers the next model call itself, so the loop ends without calling the model again', async () => {
    const hooks = new LoopHooks(AgentBuilder.new().onBeforeToolUse(() => HookOutcome.stop('out of budget')));
    const { tools, execute } = bashTool();
    const mock = mockModel(toolCallAnswer('bash', { command: 'ls' }), textAnswer('never'));
    const model = wrapLanguageModel({ model: mock, middleware: hooksMiddleware(hooks) });

    const result = await generateText({ model, tools: withHooks(tools, hooks), stopWhen: stepCountIs(5), prompt: 'go' });

    expect(execute).not.toHaveBeenCalled();
    expect(mock.doGenerateCalls).toHaveLength(1);
    expect(result.steps).toHaveLength(2);
    expect(result.text).toBe('');
    expect(result.rawFinishReason).toBe(HOOK_STOP_FINISH_REASON);
    expect(hooks.stopReason).toBe('out of budget');
    expect(result.steps[0]!.toolResults[0]!.output).toBe('Not run: the run was stopped.');
  });

  it('a BeforeStep stop keeps the model from being called at all', async () => {
    const hooks = new LoopHooks(AgentBuilder.new().onBeforeStep(() => HookOutcome.stop('maintenance window')));
    const mock = mockModel(textAnswer('never'));
    const result = await generateText({ model: wrapLanguageModel({ model: mock, middleware: hooksMiddleware(hooks) }), prompt: 'go' });
    expect(mock.doGenerateCalls).toHaveLength(0);
    expect(result.rawFinishReason).toBe(HOOK_STOP_FINISH_REASON);
    expect(hooks.stopReason).toBe('maintenance window');
  });

  it('fires the same step events around a streamText call, with the streamed text and tool calls', async () => {
    const { events, contexts, builder } = recording();
    const hooks = new LoopHooks(builder);
    const finish = (unified: 'stop' | 'tool-calls') => ({ type: 'finish' as const, finishReason: { unified, raw: unified }, usage: usage(4, 2) });
    const mock = new MockLanguageModelV3({
      doStream: [
        {
          stream: convertArrayToReadableStream([
            { type: 'stream-start', warnings: [] },
            { type: 'tool-call', toolCallId: 's1', toolName: 'bash', input: '{"command":"pwd"}' },
            finish('tool-calls'),
          ]),
        },
        {
          stream: convertArrayToReadableStream([
            { type: 'stream-start', warnings: [] },
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'All ' },
            { type: 'text-delta', id: 't', delta: 'done.' },
            { type: 'text-end', id: 't' },
            finish('stop'),
          ]),
        },
      ],
    });
    const model = wrapLanguageModel({ model: mock, middleware: hooksMiddleware(hooks) });

    const result = streamText({ model, tools: withHooks(bashTool().tools, hooks), stopWhen: stepCountIs(5), prompt: 'Where am I?' });

    expect(await result.text).toBe('All done.');
    // streamText starts a tool as soon as its call has streamed, so the tool events may come before the step ends.
    expect(events.slice(0, 4).sort()).toEqual(['AfterStep', 'BeforeStep', 'PostToolUse', 'PreToolUse']);
    expect(events[0]).toBe('BeforeStep');
    expect(events.slice(4)).toEqual(['BeforeStep', 'AfterStep']);
    const steps = contexts.filter((c): c is StepHookContext<'AfterStep'> => c.event === 'AfterStep').map((c) => c.step!);
    expect(steps[0]!.toolCalls.map((c) => c.id)).toEqual(['s1']);
    expect(steps[1]!.text).toBe('All done.');
    expect(steps[1]!.usage).toEqual({ inputTokens: 4, outputTokens: 2, totalTokens: 6 });
  });
});
