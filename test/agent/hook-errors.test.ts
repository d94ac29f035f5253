import { describe, expect, it } from 'vitest';
import { AgentBuilder, HookError, ScriptedModel, type HookErrorPolicy } from 'agent-hooks';
import { callStep, collectWarnings, echoTool, recordEvents, toolMessages } from './support.js';

const bug = new Error('hook bug');

/** A PreToolUse callback that throws `bug`, synchronously or by rejecting. */
const thrower = (how: 'sync' | 'async') =>
  how === 'sync'
    ? () => {
        throw bug;
      }
    : async () => {
        await Promise.resolve();
        throw bug;
      };

/** An agent whose PreToolUse hook named `buggy` throws, then a later hook logs, under `policy` (unset: default). */
const setup = (how: 'sync' | 'async', policy?: HookErrorPolicy) => {
  const echo = echoTool();
  const model = new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']);
  const later: string[] = [];
  const builder = AgentBuilder.new().withModel(model).withTools(echo.tool);
  if (policy !== undefined) builder.withOptions({ onHookError: policy });
  const rec = recordEvents(builder);
  builder
    .onBeforeToolUse(thrower(how), { name: 'buggy', priority: 10 })
    .onBeforeToolUse(
      (ctx) => {
        later.push(ctx.toolCall.name);
      },
      { name: 'later' },
    );
  const agent = builder.build();
  const warnings = collectWarnings(agent);
  return { echo, model, rec, agent, later, warnings };
};

describe.each(['sync', 'async'] as const)('a PreToolUse hook that throws (%s)', (how) => {
  it("'fail' (the default): AgentFailed, then ExecutionEnd, and run rejects with a HookError naming the hook and event", async () => {
    const { echo, rec, agent } = setup(how);
    const error = await agent.run('Go').then(
      () => undefined,
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(HookError);
    expect((error as HookError).hookName).toBe('buggy');
    expect((error as HookError).event).toBe('PreToolUse');
    expect((error as HookError).cause).toBe(bug);
    expect(rec.events.slice(-2)).toEqual(['AgentFailed', 'ExecutionEnd']);
    const end = rec.contexts.at(-1)!;
    expect(end.event === 'ExecutionEnd' ? end.status : undefined).toBe('failed');
    expect(echo.execute).not.toHaveBeenCalled();
  });

  it("'fail' set explicitly behaves as the default", async () => {
    const { agent } = setup(how, 'fail');
    await expect(agent.run('Go')).rejects.toMatchObject({ name: 'HookError', hookName: 'buggy', event: 'PreToolUse' });
  });

  it("'ignore': a hook-error warning, the later hook still runs, the tool runs, the run completes", async () => {
    const { echo, agent, later, warnings } = setup(how, 'ignore');
    const result = await agent.run('Go');

    expect(result.status).toBe('completed');
    expect(later).toEqual(['echo']);
    expect(echo.execute).toHaveBeenCalledTimes(1);
    const hookErrors = warnings.filter((w) => w.code === 'hook-error');
    expect(hookErrors).toHaveLength(1);
    expect(hookErrors[0]).toMatchObject({ event: 'PreToolUse', hookName: 'buggy' });
    expect(hookErrors[0]!.message).toContain('hook bug');
  });

  it("'block': the failing hook blocks the call, the model is told, and the run goes on", async () => {
    const { echo, model, agent, later } = setup(how, 'block');
    const result = await agent.run('Go');

    expect(echo.execute).not.toHaveBeenCalled();
    expect(later).toEqual([]);
    const told = toolMessages(model.requests[1]!)[0]!.content;
    expect(told).toMatch(/blocked/i);
    expect(told).toContain('hook bug');
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Done.');
  });
});

describe('AgentFailed hooks', () => {
  it('an AgentFailed hook that throws does not replace the original error', async () => {
    const boom = new Error('model down');
    const ends: string[] = [];
    const agent = AgentBuilder.new()
      .withModel(
        new ScriptedModel(() => {
          throw boom;
        }),
      )
      .onAgentFailed(
        () => {
          throw new Error('alerting is down too');
        },
        { name: 'alerting' },
      )
      .onExecutionEnd((ctx) => {
        ends.push(ctx.status!);
      })
      .build();
    const warnings = collectWarnings(agent);

    await expect(agent.run('Go')).rejects.toBe(boom);
    expect(ends).toEqual(['failed']);
    expect(warnings.map((w) => w.code)).toContain('hook-error');
    expect(warnings.find((w) => w.code === 'hook-error')!.message).toContain('alerting is down too');
  });
});
