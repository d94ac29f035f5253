import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentBuilder,
  ExecutionTimingHook,
  HookOutcome,
  ScriptedModel,
  defineTool,
  type ExecutionTiming,
  type ExecutionTimings,
  type ModelRequest,
  type ScriptedStep,
} from 'agent-hooks';
import { callsStep, toolMessages } from '../agent/support.js';

/** A clock the test moves: the model takes 100 ms per call, `slow` 30 ms, `fail` 5 ms before it throws. */
function timedAgent(hook: (now: () => number) => ExecutionTimingHook, script: readonly ScriptedStep[]) {
  let now = 0;
  const clock = () => now;
  const timing = hook(clock);
  let call = 0;
  const model = new ScriptedModel(() => {
    now += 100;
    return script[call++] ?? 'Done.';
  });
  const slow = defineTool({ name: 'slow', input: z.object({}), execute: () => ((now += 30), 'ok') });
  const fail = defineTool({
    name: 'fail',
    input: z.object({}),
    execute: () => {
      now += 5;
      throw new Error('nope');
    },
  });
  const builder = AgentBuilder.new().withModel(model).withTools(slow, fail).withHook(timing);
  return { timing, builder, tick: (ms: number) => void (now += ms) };
}

describe('ExecutionTimingHook', () => {
  it('records the run, each step and each tool call in the run’s metadata, and emits each', async () => {
    const seen: ExecutionTiming[] = [];
    const { timing, builder } = timedAgent((now) => new ExecutionTimingHook({ now, onTiming: (t) => seen.push(t) }), [
      callsStep(['slow', {}, 'c1'], ['fail', {}, 'c2']),
      callsStep(['slow', {}, 'c3']),
    ]);
    const emitted: string[] = [];
    timing.emitter.on('run', (t) => emitted.push(`run ${t.durationMs}`));
    timing.emitter.on('step', (t) => emitted.push(`step ${t.stepIndex} ${t.durationMs}`));
    timing.emitter.on('tool', (t) => emitted.push(`tool ${t.toolName} ${t.durationMs}`));
    const agent = builder.build();
    const result = await agent.run('Go');

    const timings = result.metadata[ExecutionTimingHook.metadataKey] as ExecutionTimings;
    expect(timings.tools).toEqual([
      { kind: 'tool', agentId: agent.id, stepIndex: 0, toolName: 'slow', toolCallId: 'c1', ok: true, durationMs: 30 },
      { kind: 'tool', agentId: agent.id, stepIndex: 0, toolName: 'fail', toolCallId: 'c2', ok: false, durationMs: 5 },
      { kind: 'tool', agentId: agent.id, stepIndex: 1, toolName: 'slow', toolCallId: 'c3', ok: true, durationMs: 30 },
    ]);
    expect(timings.steps).toEqual([
      { kind: 'step', agentId: agent.id, stepIndex: 0, durationMs: 135 },
      { kind: 'step', agentId: agent.id, stepIndex: 1, durationMs: 130 },
      { kind: 'step', agentId: agent.id, stepIndex: 2, durationMs: 100 },
    ]);
    expect(timings.run).toEqual({ kind: 'run', agentId: agent.id, status: 'completed', durationMs: 365 });
    expect(emitted).toEqual(['tool slow 30', 'tool fail 5', 'step 0 135', 'tool slow 30', 'step 1 130', 'step 2 100', 'run 365']);
    expect(seen.map((t) => t.kind)).toEqual(['tool', 'tool', 'step', 'tool', 'step', 'step', 'run']);
  });

  it('measures a tool call from the end of its PreToolUse hooks to the start of its PostToolUse hooks', async () => {
    const durations = async (priority?: number) => {
      const { builder, tick } = timedAgent((now) => new ExecutionTimingHook({ now, ...(priority !== undefined ? { priority } : {}) }), [callsStep(['slow', {}])]);
      const agent = builder
        .onBeforeToolUse(() => tick(7))
        .onAfterToolUse(() => tick(11))
        .build();
      const result = await agent.run('Go');
      return (result.metadata[ExecutionTimingHook.metadataKey] as ExecutionTimings).tools.map((t) => t.durationMs);
    };
    expect(await durations()).toEqual([30]);
    // Registered after another PostToolUse hook, it counts that hook's time too.
    expect(await durations(-1000)).toEqual([41]);
  });

  it('does not measure a call a hook refused, and keeps the measurements of concurrent runs apart', async () => {
    const { builder } = timedAgent((now) => new ExecutionTimingHook({ now }), []);
    const model = new ScriptedModel((request: ModelRequest): ScriptedStep => {
      const done = toolMessages(request).length;
      return done < 2 ? callsStep([done === 0 ? 'fail' : 'slow', {}]) : 'Done.';
    });
    const agent = builder
      .withModel(model)
      .onBeforeToolUse(() => HookOutcome.block('no failing today'), { matcher: 'fail' })
      .build();
    const results = await Promise.all([agent.run('a'), agent.run('b')]);
    for (const result of results) {
      const timings = result.metadata[ExecutionTimingHook.metadataKey] as ExecutionTimings;
      expect(timings.tools.map((t) => t.toolName)).toEqual(['slow']);
      expect(timings.steps).toHaveLength(3);
      expect(timings.run?.status).toBe('completed');
    }
  });

  it('keeps its measurements under the metadata key it is given, and reports a stopped run', async () => {
    const { builder } = timedAgent((now) => new ExecutionTimingHook({ now, metadataKey: 'timing' }), [callsStep(['slow', {}])]);
    const agent = builder.onBeforeStep((ctx) => (ctx.stepIndex === 1 ? HookOutcome.stop('enough') : undefined)).build();
    const result = await agent.run('Go');
    const timings = result.metadata['timing'] as ExecutionTimings;
    expect(timings.run).toMatchObject({ status: 'stopped', durationMs: 130 });
    expect(timings.steps.map((t) => t.durationMs)).toEqual([130]);
    expect(timings.tools.map((t) => t.durationMs)).toEqual([30]);
    expect(result.metadata[ExecutionTimingHook.metadataKey]).toBeUndefined();
  });

  it('measures with performance.now by default', async () => {
    const timing = new ExecutionTimingHook();
    const { builder } = timedAgent(() => timing, [callsStep(['slow', {}])]);
    const result = await builder.build().run('Go');
    const timings = result.metadata[ExecutionTimingHook.metadataKey] as ExecutionTimings;
    expect(timings.run!.durationMs).toBeGreaterThanOrEqual(0);
    expect(timings.steps).toHaveLength(2);
    expect(() => new ExecutionTimingHook({ onTiming: 'log' as never })).toThrow(/onTiming must be a function/);
  });
});
