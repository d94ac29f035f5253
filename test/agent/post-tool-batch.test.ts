import { describe, expect, it } from 'vitest';
import { AgentBuilder, HookOutcome, ScriptedModel, ToolBatchHookContext, type ContextFor } from 'agent-hooks';
import { callStep, callsStep, collectWarnings, echoTool, failTool, recordEvents, toolMessages } from './support.js';

describe('PostToolBatch in the run loop', () => {
  it('fires once per step with tool calls, after every call resolved and before AfterStep, with each call and what it produced', async () => {
    const echo = echoTool();
    const fail = failTool('disk on fire');
    const builder = AgentBuilder.new()
      .withModel(new ScriptedModel([callsStep(['echo', { text: 'a' }, 'c1'], ['fail', {}, 'c2'], ['echo', { text: 'no' }, 'c3']), 'Done.']))
      .withTools(echo.tool, fail.tool)
      .onBeforeToolUse((ctx) => (ctx.toolCall.args.text === 'no' ? HookOutcome.block('not that one') : undefined));
    const rec = recordEvents(builder);
    await builder.build().run('Go');

    const step = rec.events.slice(rec.events.indexOf('PreToolUse'), rec.events.indexOf('AfterStep') + 1);
    // The guard registered first refuses the third call before the recorder sees its PreToolUse.
    expect(step).toEqual(['PreToolUse', 'PostToolUse', 'PreToolUse', 'PostToolUseFailure', 'PostToolBatch', 'AfterStep']);
    // The second step answers with text: no batch.
    expect(rec.events.filter((e) => e === 'PostToolBatch')).toHaveLength(1);
    const batch = rec.contexts.find((c): c is ContextFor<'PostToolBatch'> => c.event === 'PostToolBatch')!;
    expect(batch).toBeInstanceOf(ToolBatchHookContext);
    expect(batch.stepIndex).toBe(0);
    expect(batch.toolCalls.map((c) => c.id)).toEqual(['c1', 'c2', 'c3']);
    expect(batch.executionOf('c1')?.result).toBe('echo: a');
    expect(batch.executionOf('c2')?.errorMessage).toBe('disk on fire');
    expect((batch.executionOf('c3')?.error as Error).name).toBe('ToolRefusedError');
  });

  it('puts its hooks’ additional context before the next model call', async () => {
    const model = new ScriptedModel([callsStep(['echo', { text: 'a' }], ['echo', { text: 'b' }]), 'Done.']);
    await AgentBuilder.new()
      .withModel(model)
      .withTools(echoTool().tool)
      .onPostToolBatch((ctx) => HookOutcome.proceed(ctx, { additionalContext: `both ran: ${ctx.executions.map((e) => String(e.result)).join(', ')}` }))
      .build()
      .run('Go');

    const next = model.requests[1]!.messages;
    expect(next.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'system']);
    expect(next.at(-1)!.content).toBe('both ran: echo: a, echo: b');
  });

  it('ends the run on a block, as Claude Code ends the turn: the model is not called again, and no Stop gate runs', async () => {
    const model = new ScriptedModel([callStep('echo', { text: 'a' }), 'never']);
    const builder = AgentBuilder.new()
      .withModel(model)
      .withTools(echoTool().tool)
      .onPostToolBatch(() => HookOutcome.block('enough for today'));
    const rec = recordEvents(builder);
    const result = await builder.build().run('Go');

    expect(model.callCount).toBe(1);
    expect(result).toMatchObject({ status: 'stopped', stopReason: 'hook_stop', reason: 'enough for today' });
    expect(rec.events).not.toContain('Stop');
    // The blocking hook was registered first: the recorder's PostToolBatch hook never ran, nor did AfterStep.
    expect(rec.events.slice(-4)).toEqual(['PostToolUse', 'AfterStop', 'AfterAgent', 'ExecutionEnd']);
    // Every call has its answer: the conversation can go on in a later turn.
    expect(toolMessages(result.messages).map((m) => m.content)).toEqual(['echo: a']);
  });

  it('ends the run on a stop too', async () => {
    const model = new ScriptedModel([callStep('echo', { text: 'a' }), 'never']);
    const result = await AgentBuilder.new()
      .withModel(model)
      .withTools(echoTool().tool)
      .onPostToolBatch(() => HookOutcome.stop('halt'))
      .build()
      .run('Go');
    expect(model.callCount).toBe(1);
    expect(result).toMatchObject({ status: 'stopped', reason: 'halt' });
  });

  it('warns when a hook asks for approval, which means nothing on a batch', async () => {
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([callStep('echo', { text: 'a' }), 'Done.']))
      .withTools(echoTool().tool)
      .onPostToolBatch(() => HookOutcome.ask('really?'))
      .build();
    const warnings = collectWarnings(agent);
    const result = await agent.run('Go');
    expect(result.status).toBe('completed');
    expect(warnings).toContainEqual(expect.objectContaining({ code: 'ignored-outcome', event: 'PostToolBatch' }));
  });
});
