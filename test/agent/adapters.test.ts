import { describe, expect, it, vi } from 'vitest';
import {
  AgentBuilder,
  ContinuationCriteriaAdapter,
  ScriptedModel,
  StateProcessorAdapter,
  type AgentState,
  type ContinuationCriterion,
  type ContinuationDecision,
  type StateProcessor,
} from 'agent-hooks';
import { callStep, echoTool, lastMessage } from './support.js';

/** Counts its calls in the state's `processed` metadata. */
class CountingProcessor implements StateProcessor {
  readonly process = vi.fn((state: AgentState) => state.withMetadata('processed', ((state.metadata['processed'] as number) ?? 0) + 1));
}

/** An agent making one tool call, then answering: two steps. */
const twoSteps = () =>
  AgentBuilder.new()
    .withModel(new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']))
    .withTools(echoTool().tool);

describe('StateProcessorAdapter', () => {
  it("position 'before' processes the state on BeforeStep; later hooks and result.state see it", async () => {
    const processor = new CountingProcessor();
    const seenInTool: unknown[] = [];
    const seenInBeforeStep: unknown[] = [];
    const adapter = new StateProcessorAdapter(processor, { position: 'before' });
    const agent = twoSteps()
      .withHook(adapter)
      .onBeforeStep((ctx) => {
        // Runs after the adapter (same priority, registered later) within the same dispatch.
        seenInBeforeStep.push(ctx.state.metadata['processed']);
      })
      .onBeforeToolUse((ctx) => {
        seenInTool.push(ctx.state.metadata['processed']);
      })
      .build();
    const result = await agent.run('Go');

    expect(adapter.events).toEqual(['BeforeStep']);
    expect(adapter.name).toBe('StateProcessorAdapter(CountingProcessor)');
    expect(processor.process).toHaveBeenCalledTimes(2);
    expect(seenInBeforeStep).toEqual([1, 2]);
    expect(seenInTool).toEqual([1]);
    expect(result.state.metadata['processed']).toBe(2);
  });

  it("position 'after' (the default) processes the state on AfterStep; the Stop gate and result.state see it", async () => {
    const processor = new CountingProcessor();
    const seenInTool: unknown[] = [];
    const seenAtStop: unknown[] = [];
    const adapter = new StateProcessorAdapter(processor);
    const agent = twoSteps()
      .withHook(adapter)
      .onBeforeToolUse((ctx) => {
        seenInTool.push(ctx.state.metadata['processed']);
      })
      .onStop((ctx) => {
        seenAtStop.push(ctx.get('processed'));
      })
      .build();
    const result = await agent.run('Go');

    expect(adapter.events).toEqual(['AfterStep']);
    expect(processor.process).toHaveBeenCalledTimes(2);
    expect(seenInTool).toEqual([undefined]);
    expect(seenAtStop).toEqual([2]);
    expect(result.state.metadata['processed']).toBe(2);
  });
});

describe('ContinuationCriteriaAdapter', () => {
  const criterion = (decide: (state: AgentState) => ContinuationDecision | { decision: ContinuationDecision; reason?: string }): ContinuationCriterion => ({
    evaluate: vi.fn(decide),
  });

  it("'stop' after a step halts the run with status stopped and the reason", async () => {
    const model = new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']);
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(echoTool().tool)
      .withHook(new ContinuationCriteriaAdapter(criterion(() => ({ decision: 'stop', reason: 'Token budget exceeded' }))))
      .build();
    const result = await agent.run('Go');

    expect(result.status).toBe('stopped');
    expect(result.reason).toBe('Token budget exceeded');
    expect(result.stopReason).toBe('hook_stop');
    expect(model.callCount).toBe(1);
  });

  it("'continue' at Stop keeps the agent working, with the reason as feedback", async () => {
    const model = new ScriptedModel(['Draft', 'Final']);
    const agent = AgentBuilder.new()
      .withModel(model)
      .withHook(
        new ContinuationCriteriaAdapter(
          criterion((state) => (state.stepCount < 2 ? { decision: 'continue', reason: 'Tasks remaining: 1' } : 'neutral')),
        ),
      )
      .build();
    const result = await agent.run('Go');

    expect(model.callCount).toBe(2);
    expect(lastMessage(model.requests[1])).toMatchObject({ role: 'user', content: 'Tasks remaining: 1' });
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Final');
  });

  it("'neutral' changes nothing", async () => {
    const model = new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']);
    const neutral = criterion(() => 'neutral');
    const agent = AgentBuilder.new().withModel(model).withTools(echoTool().tool).withHook(new ContinuationCriteriaAdapter(neutral)).build();
    const result = await agent.run('Go');

    expect(result.status).toBe('completed');
    expect(result.stopReason).toBe('no_tool_calls');
    expect(model.callCount).toBe(2);
    // Asked after each of the two steps and at the Stop gate.
    expect(neutral.evaluate).toHaveBeenCalledTimes(3);
  });
});
