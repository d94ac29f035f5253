import { describe, expect, it } from 'vitest';
import {
  AgentBuilder,
  HookError,
  HookOutcome,
  ScriptedModel,
  type DispatchRecord,
  type HookEndInfo,
  type HookErrorInfo,
  type HookRunInfo,
  type StopForcedInfo,
  type ToolBlockedInfo,
} from 'agent-hooks';
import { ONE_TOOL_RUN, callsStep, echoTool, oneCall } from './support.js';


describe('agent.events', () => {
  it('emits `event` for each lifecycle event in order, even with no hook registered', async () => {
    const agent = oneCall().builder.build();
    const events: string[] = [];
    agent.events.on('event', (ctx) => events.push(ctx.event));
    await agent.run('Go');

    expect(events).toEqual([...ONE_TOOL_RUN]);
  });

  it('emits `dispatched` after each event with the hooks’ outcome and a duration', async () => {
    const agent = oneCall()
      .builder.onBeforeToolUse(() => HookOutcome.block('No echo today'))
      .build();
    const records: DispatchRecord[] = [];
    agent.events.on('dispatched', (r) => records.push(r));
    await agent.run('Go');

    // BeforeToolSelection is dispatched inside BeforeModel's chain (before the model call, its terminal): its hooks
    // decide first.
    const decided = [...ONE_TOOL_RUN].filter((e) => e !== 'PostToolUse').map((e) => (e === 'BeforeModel' ? 'BeforeToolSelection' : e === 'BeforeToolSelection' ? 'BeforeModel' : e));
    expect(records.map((r) => r.context.event)).toEqual(decided);
    const pre = records.find((r) => r.context.event === 'PreToolUse')!;
    expect(pre.outcome.type).toBe('block');
    expect(pre.outcome.reason).toBe('No echo today');
    for (const r of records) {
      expect(typeof r.durationMs).toBe('number');
      expect(r.durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(records.find((r) => r.context.event === 'Stop')!.outcome.type).toBe('proceed');
  });

  it('emits hook:start and hook:end with the hook’s name, priority, event and own duration', async () => {
    const agent = oneCall()
      .builder.onBeforeToolUse(() => {}, { name: 'guard', priority: 100 })
      .onStop(() => {}, { name: 'gate', priority: -5 })
      .build();
    const starts: HookRunInfo[] = [];
    const ends: HookEndInfo[] = [];
    agent.events.on('hook:start', (i) => starts.push(i));
    agent.events.on('hook:end', (i) => ends.push(i));
    await agent.run('Go');

    expect(starts).toEqual([
      { hookName: 'guard', priority: 100, event: 'PreToolUse' },
      { hookName: 'gate', priority: -5, event: 'Stop' },
    ]);
    expect(ends.map(({ hookName, priority, event }) => ({ hookName, priority, event }))).toEqual(starts);
    for (const end of ends) {
      expect(typeof end.durationMs).toBe('number');
      expect(end.durationMs).toBeGreaterThanOrEqual(0);
      expect(end.outcome.type).toBe('proceed');
    }
  });

  it('emits hook:error for a hook that throws under the fail policy', async () => {
    const agent = oneCall()
      .builder.onBeforeToolUse(
        () => {
          throw new Error('oops');
        },
        { name: 'broken', priority: 3 },
      )
      .build();
    const errors: HookErrorInfo[] = [];
    agent.events.on('hook:error', (i) => errors.push(i));
    await expect(agent.run('Go')).rejects.toBeInstanceOf(HookError);

    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ hookName: 'broken', priority: 3, event: 'PreToolUse' });
    expect(errors[0]!.error).toBeInstanceOf(HookError);
    expect(errors[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('emits tool:blocked naming who refused the call: a hook or the approver', async () => {
    const echo = echoTool();
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([callsStep(['echo', { text: 'blocked' }, 'c1'], ['echo', { text: 'asked' }, 'c2']), 'Done.']))
      .withTools(echo.tool)
      .withApprover(() => ({ approved: false, reason: 'Denied by the approver' }))
      .onBeforeToolUse((ctx) =>
        ctx.toolCall.arg('text') === 'blocked' ? HookOutcome.block('Blocked by policy') : HookOutcome.ask('Please confirm'),
      )
      .build();
    const blocked: ToolBlockedInfo[] = [];
    agent.events.on('tool:blocked', (i) => blocked.push(i));
    await agent.run('Go');

    expect(blocked.map((b) => [b.toolCall.id, b.by])).toEqual([
      ['c1', 'hook'],
      ['c2', 'approver'],
    ]);
    expect(blocked[0]!.reason).toContain('Blocked by policy');
    expect(blocked[1]!.reason).toContain('Denied by the approver');
    expect(echo.execute).not.toHaveBeenCalled();
  });

  it('emits stop:forced when Stop hooks keep the agent working past the limit', async () => {
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel(() => 'again'))
      .withOptions({ stopLoopLimit: 1 })
      .onStop(() => HookOutcome.block('Not yet'))
      .build();
    const forced: StopForcedInfo[] = [];
    agent.events.on('stop:forced', (i) => forced.push(i));
    await agent.run('Go');

    expect(forced).toHaveLength(1);
    expect(forced[0]!.blocks).toBe(2);
    expect(forced[0]!.reason).toContain('Not yet');
  });

  it('runs without any listener', async () => {
    const { builder } = oneCall();
    let ran = 0;
    const agent = builder
      .onBeforeToolUse(() => {
        ran++;
      })
      .build();
    expect(agent.events.eventNames()).toEqual([]);
    const result = await agent.run('Go');

    expect(result.status).toBe('completed');
    expect(result.text).toBe('Done.');
    expect(ran).toBe(1);
  });
});
