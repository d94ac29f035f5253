/**
 * One test per bug of the PHP original (DESIGN.md section 4), each proving this runtime does not have it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentBuilder, HookOutcome, HookStack, ScriptedModel, defineSubagent, type Hook } from 'agent-hooks';
import { callStep, collectWarnings, echoTool, failTool, toolMessages } from './support.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('lessons from the PHP original', () => {
  it('runs ExecutionStart, ExecutionEnd, Stop and SubagentStop hooks (PHP accepted them and never ran them)', async () => {
    const ran: string[] = [];
    const model = new ScriptedModel([callStep('helper', { task: 'Sub task' }), 'child answer', 'Done.']);
    await AgentBuilder.new()
      .withModel(model)
      .withSubagents(defineSubagent({ name: 'helper' }))
      .onExecutionStart((ctx) => {
        ran.push(`${ctx.state.parentAgentId ? 'child ' : ''}ExecutionStart`);
      })
      .onSubagentStop(() => {
        ran.push('SubagentStop');
      })
      .onStop(() => {
        ran.push('Stop');
      })
      .onExecutionEnd((ctx) => {
        ran.push(`${ctx.state.parentAgentId ? 'child ' : ''}ExecutionEnd`);
      })
      .build()
      .run('Go');

    expect(ran).toEqual(['ExecutionStart', 'child ExecutionStart', 'SubagentStop', 'child ExecutionEnd', 'Stop', 'ExecutionEnd']);
  });

  it('runs AgentFailed hooks (PHP accepted them and never ran them)', async () => {
    const boom = new Error('model down');
    const failures: unknown[] = [];
    const agent = AgentBuilder.new()
      .withModel(
        new ScriptedModel(() => {
          throw boom;
        }),
      )
      .onAgentFailed((ctx) => {
        failures.push(ctx.error, ctx.errorMessage, ctx.errorClass);
      })
      .build();

    await expect(agent.run('Go')).rejects.toBe(boom);
    expect(failures).toEqual([boom, 'model down', 'Error']);
  });

  it('honours the event given to addHook (PHP ignored it)', async () => {
    const seen: string[] = [];
    const everywhere: Hook = {
      handle(ctx, next) {
        seen.push(ctx.event);
        return next(ctx);
      },
    };
    await AgentBuilder.new()
      .withModel(new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']))
      .withTools(echoTool().tool)
      .addHook('ExecutionStart', everywhere)
      .addHook('Stop', (ctx) => {
        seen.push(`callback:${ctx.event}`);
      })
      .build()
      .run('Go');

    expect(seen).toEqual(['ExecutionStart', 'callback:Stop']);
  });

  it('proceeds when a callback returns nothing (PHP blocked the tool call)', async () => {
    const echo = echoTool();
    const result = await AgentBuilder.new()
      .withModel(new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']))
      .withTools(echo.tool)
      .onBeforeToolUse(() => {})
      .onBeforeToolUse(() => null)
      .onBeforeToolUse(async () => {})
      .onAfterToolUse(() => undefined)
      .build()
      .run('Go');

    expect(echo.execute).toHaveBeenCalledTimes(1);
    expect(result.steps[0]!.executions[0]!.result).toBe('echo: hi');
  });

  it('goes on after a blocked tool call (PHP threw, failed the step and ended the run)', async () => {
    const echo = echoTool();
    const model = new ScriptedModel([callStep('echo', { text: 'rm -rf /' }), callStep('echo', { text: 'ls' }), 'Done.']);
    const result = await AgentBuilder.new()
      .withModel(model)
      .withTools(echo.tool)
      .onBeforeToolUse((ctx) => (String(ctx.toolCall.arg('text')).includes('rm -rf') ? HookOutcome.block('Dangerous command') : undefined))
      .build()
      .run('Go');

    expect(result.status).toBe('completed');
    expect(result.text).toBe('Done.');
    expect(model.callCount).toBe(3);
    expect(echo.execute).toHaveBeenCalledTimes(1);
    expect(echo.execute.mock.calls[0]![0]).toEqual({ text: 'ls' });
    expect(toolMessages(model.requests[1]!)[0]!.content).toContain('Dangerous command');
  });

  it('halts on a stop from PostToolUse, and reports a block from an observer (PHP dropped both silently)', async () => {
    const model = new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']);
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(echoTool().tool)
      .onAfterToolUse(() => HookOutcome.stop('Budget exceeded'))
      .onExecutionStart(() => HookOutcome.block('Observers cannot block'))
      .build();
    const warnings = collectWarnings(agent);
    const result = await agent.run('Go');

    expect(result.status).toBe('stopped');
    expect(result.reason).toBe('Budget exceeded');
    expect(model.callCount).toBe(1);
    expect(warnings).toContainEqual(expect.objectContaining({ code: 'ignored-outcome', event: 'ExecutionStart' }));
    expect(warnings.find((w) => w.event === 'ExecutionStart')!.message).toContain('Observers cannot block');
  });

  it('keeps every hook when tools or subagents are added later (PHP rebuilt the executor without them)', async () => {
    const ran: string[] = [];
    const builder = AgentBuilder.new()
      .withModel(new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']))
      .onBeforeToolUse(() => {
        ran.push('PreToolUse');
      })
      .onAfterToolUse(() => {
        ran.push('PostToolUse');
      });
    builder.withTools(echoTool().tool);
    builder.withSubagents(defineSubagent({ name: 'helper' }));
    builder.withTools(failTool().tool);
    await builder.build().run('Go');

    expect(ran).toEqual(['PreToolUse', 'PostToolUse']);
  });

  it('runs the parent’s hooks in subagents (PHP subagents inherited none)', async () => {
    const echo = echoTool();
    const model = new ScriptedModel([callStep('helper', { task: 'Echo' }), callStep('echo', { text: 'rm -rf /' }), 'child done', 'Done.']);
    const blockedInChild: string[] = [];
    await AgentBuilder.new()
      .withModel(model)
      .withSubagents(defineSubagent({ name: 'helper', tools: [echo.tool] }))
      .onBeforeToolUse(
        (ctx) => {
          blockedInChild.push(ctx.state.parentAgentId ?? 'parent');
          return HookOutcome.block('Dangerous command');
        },
        { matcher: 'echo' },
      )
      .build()
      .run('Go');

    expect(echo.execute).not.toHaveBeenCalled();
    expect(blockedInChild).toHaveLength(1);
    expect(blockedInChild[0]).not.toBe('parent');
  });

  it('keeps metadata from ExecutionStart to ExecutionEnd (PHP lost it between events)', async () => {
    let duration: number | undefined;
    const result = await AgentBuilder.new()
      .withModel(new ScriptedModel(['Done.']))
      .onExecutionStart((ctx) => HookOutcome.proceed(ctx.withMetadata('started_at', performance.now())))
      .onExecutionEnd((ctx) => {
        duration = performance.now() - ctx.get<number>('started_at');
      })
      .build()
      .run('Go');

    expect(typeof result.metadata['started_at']).toBe('number');
    expect(duration).toBeGreaterThanOrEqual(0);
    expect(Number.isNaN(duration)).toBe(false);
  });

  it('dispatches through one stack, sorted once (PHP re-sorted it on every dispatch)', async () => {
    const names = (stack: HookStack) => stack.hooksFor('PreToolUse').map((e) => e.name);
    const agent = AgentBuilder.new()
      // Each run: one echo call, then an answer.
      .withModel(new ScriptedModel((request) => (request.messages.at(-1)!.role === 'user' ? callStep('echo', { text: 'hi' }) : 'Done.')))
      .withTools(echoTool().tool)
      .onBeforeToolUse(() => {}, { name: 'b', priority: 0 })
      .onBeforeToolUse(() => {}, { name: 'c', priority: -1 })
      .onBeforeToolUse(() => {}, { name: 'a', priority: 1 })
      .build();
    await agent.ready();
    const stack = agent.hooks;
    const order = names(stack);
    const process = vi.spyOn(stack, 'process');
    const rebuild = vi.spyOn(HookStack.prototype, 'withAll');

    await agent.run('one');
    await agent.run('two');

    expect(agent.hooks).toBe(stack);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(names(agent.hooks)).toEqual(order);
    expect(stack.hooksFor('PreToolUse')[0]!.hook).toBe(stack.hooksFor('PreToolUse')[0]!.hook);
    // Every dispatch of both runs went through that one instance; no stack was built (and sorted) along the way.
    expect(process.mock.calls.map(([ctx]) => ctx.event)).toEqual(['PreToolUse', 'PreToolUse']);
    expect(rebuild).not.toHaveBeenCalled();
  });
});
