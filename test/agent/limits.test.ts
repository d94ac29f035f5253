import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, HookOutcome, ScriptedModel, defineTool, type AgentWarning, type StopReason } from 'agent-hooks';

const noop = defineTool({ name: 'noop', input: z.object({}), execute: () => 'ok' });
const alwaysTools = () => new ScriptedModel(() => ({ toolCalls: [{ name: 'noop', args: {} }] }));

describe('the step limit', () => {
  it('ends the run through the Stop gate with max_steps after exactly maxSteps model calls', async () => {
    const model = alwaysTools();
    const reasons: StopReason[] = [];
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(noop)
      .withMaxSteps(3)
      .onStop((ctx) => void reasons.push(ctx.stopReason))
      .build();
    const result = await agent.run('go');
    expect(model.callCount).toBe(3);
    expect(reasons).toEqual(['max_steps']);
    expect([result.status, result.stopReason, result.steps.length]).toEqual(['completed', 'max_steps', 3]);
  });

  it('stays a hard limit when a Stop hook blocks: the run ends with a warning', async () => {
    const model = alwaysTools();
    const warnings: AgentWarning[] = [];
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(noop)
      .withMaxSteps(2)
      .onStop(() => HookOutcome.block('keep going'))
      .build();
    agent.events.on('warning', (w) => warnings.push(w));
    const result = await agent.run('go');
    expect(model.callCount).toBe(2);
    expect(result.stopReason).toBe('max_steps');
    expect(warnings.map((w) => w.code)).toEqual(['ignored-outcome']);
    expect(warnings[0]!.message).toContain('step limit (2)');
  });

  it('is not exceeded by Stop continuations either: a gate that blocks on the last allowed step is overruled', async () => {
    const model = new ScriptedModel(() => 'done?');
    const agent = AgentBuilder.new()
      .withModel(model)
      .withMaxSteps(3)
      .withOptions({ stopLoopLimit: 100 })
      .onStop(() => HookOutcome.block('not yet'))
      .build();
    const result = await agent.run('go');
    expect(model.callCount).toBe(3);
    expect(result.status).toBe('completed');
  });
});
