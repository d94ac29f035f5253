import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  AgentBuilder,
  HookOutcome,
  ScriptedModel,
  ToolExecution,
  ToolInputError,
  UnknownToolError,
  defineSubagent,
  defineTool,
  type ExecutionHookContext,
  type HookEventName,
  type StopHookContext,
  type ToolHookContext,
} from 'agent-hooks';
import { callStep, callsStep, collectWarnings, echoTool, failTool, lastMessage, pairTool, recordEvents, toolMessages } from './support.js';

/** An agent with the echo tool and a model playing `steps`. */
const echoAgent = (steps: ConstructorParameters<typeof ScriptedModel>[0]) => {
  const echo = echoTool();
  const model = new ScriptedModel(steps);
  const builder = AgentBuilder.new().withModel(model).withTools(echo.tool);
  return { echo, model, builder };
};

describe('PreToolUse outcomes', () => {
  it('block: the call is not executed, the model is told why, other calls of the batch run, the run completes', async () => {
    const danger = echoTool('danger');
    const { echo, model, builder } = echoAgent([callsStep(['danger', { text: 'rm -rf /' }, 'c1'], ['echo', { text: 'ok' }, 'c2']), 'Done.']);
    builder.withTools(danger.tool).onBeforeToolUse(() => HookOutcome.block('Destructive command'), { matcher: 'danger' });
    const result = await builder.build().run('Go');

    expect(danger.execute).not.toHaveBeenCalled();
    expect(echo.execute).toHaveBeenCalledTimes(1);
    const [blocked, ran] = toolMessages(model.requests[1]!);
    expect(blocked).toMatchObject({ toolCallId: 'c1', name: 'danger' });
    expect(blocked!.content).toMatch(/blocked/i);
    expect(blocked!.content).toContain('Destructive command');
    expect(ran).toMatchObject({ toolCallId: 'c2', content: 'echo: ok' });
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Done.');
    expect(model.callCount).toBe(2);
  });

  it('ask without an approver: the call is refused with a reason that mentions the approver', async () => {
    const { echo, model, builder } = echoAgent([callStep('echo', { text: 'hi' }), 'Done.']);
    builder.onBeforeToolUse(() => HookOutcome.ask('Needs review'));
    const result = await builder.build().run('Go');

    expect(echo.execute).not.toHaveBeenCalled();
    const [told] = toolMessages(model.requests[1]!);
    expect(told!.content).toMatch(/refused/i);
    expect(told!.content).toMatch(/approver/);
    expect(result.status).toBe('completed');
  });

  it('ask with an approver that says true: the call runs', async () => {
    const approver = vi.fn(() => true);
    const { echo, model, builder } = echoAgent([callStep('echo', { text: 'hi' }), 'Done.']);
    builder.withApprover(approver).onBeforeToolUse(() => HookOutcome.ask('Needs review'));
    await builder.build().run('Go');

    expect(approver).toHaveBeenCalledTimes(1);
    expect(approver.mock.calls[0]).toMatchObject([{ reason: 'Needs review' }]);
    expect(echo.execute).toHaveBeenCalledTimes(1);
    expect(toolMessages(model.requests[1]!)[0]!.content).toBe('echo: hi');
  });

  it('ask with an approver refusing with a reason: the call is refused and the model gets the reason', async () => {
    const { echo, model, builder } = echoAgent([callStep('echo', { text: 'hi' }), 'Done.']);
    builder.withApprover(() => ({ approved: false, reason: 'Not on Fridays' })).onBeforeToolUse(() => HookOutcome.ask('Needs review'));
    const result = await builder.build().run('Go');

    expect(echo.execute).not.toHaveBeenCalled();
    expect(toolMessages(model.requests[1]!)[0]!.content).toContain('Not on Fridays');
    expect(result.status).toBe('completed');
  });

  it('ask with an approver refusing with stopRun: the Stop gate fires with stopReason tool_rejected', async () => {
    const stops: StopHookContext<'Stop'>[] = [];
    const { echo, model, builder } = echoAgent([callStep('echo', { text: 'hi' })]);
    builder
      .withApprover(() => ({ approved: false, reason: 'Abort everything', stopRun: true }))
      .onBeforeToolUse(() => HookOutcome.ask('Needs review'))
      .onStop((ctx) => {
        stops.push(ctx);
      });
    const result = await builder.build().run('Go');

    expect(echo.execute).not.toHaveBeenCalled();
    expect(stops.map((s) => s.stopReason)).toEqual(['tool_rejected']);
    expect(result.stopReason).toBe('tool_rejected');
    expect(model.callCount).toBe(1);
  });

  it('PermissionRequest allow(): the call runs without asking the approver', async () => {
    const approver = vi.fn(() => false);
    const { echo, builder } = echoAgent([callStep('echo', { text: 'hi' }), 'Done.']);
    builder
      .withApprover(approver)
      .onBeforeToolUse(() => HookOutcome.ask('Needs review'))
      .onPermissionRequest(() => HookOutcome.allow());
    await builder.build().run('Go');

    expect(approver).not.toHaveBeenCalled();
    expect(echo.execute).toHaveBeenCalledTimes(1);
  });

  it('PermissionRequest block: the call is refused without asking the approver', async () => {
    const approver = vi.fn(() => true);
    const { echo, model, builder } = echoAgent([callStep('echo', { text: 'hi' }), 'Done.']);
    builder
      .withApprover(approver)
      .onBeforeToolUse(() => HookOutcome.ask('Needs review'))
      .onPermissionRequest(() => HookOutcome.block('Policy says no'));
    await builder.build().run('Go');

    expect(approver).not.toHaveBeenCalled();
    expect(echo.execute).not.toHaveBeenCalled();
    expect(toolMessages(model.requests[1]!)[0]!.content).toContain('Policy says no');
  });

  it('a returned ToolCall rewrites the input the tool receives', async () => {
    const { echo, builder } = echoAgent([callStep('echo', { text: 'original' }), 'Done.']);
    builder.onBeforeToolUse((ctx) => ctx.toolCall.withArgs({ text: 'rewritten' }));
    await builder.build().run('Go');

    expect(echo.execute).toHaveBeenCalledTimes(1);
    expect(echo.execute.mock.calls[0]![0]).toEqual({ text: 'rewritten' });
  });

  it('edits of two PreToolUse hooks compose: both reach execute', async () => {
    const pair = pairTool();
    const model = new ScriptedModel([callStep('pair', { a: 'a', b: 'b' }), 'Done.']);
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(pair.tool)
      .onBeforeToolUse((ctx) => ctx.toolCall.withArg('a', 'A'), { priority: 10 })
      .onBeforeToolUse((ctx) => ctx.toolCall.withArg('b', 'B'))
      .build();
    await agent.run('Go');

    expect(pair.execute.mock.calls[0]![0]).toEqual({ a: 'A', b: 'B' });
    expect(toolMessages(model.requests[1]!)[0]!.content).toBe('A+B');
  });

  it('additionalContext reaches the next model request as a system message', async () => {
    const { model, builder } = echoAgent([callStep('echo', { text: 'hi' }), 'Done.']);
    builder.onBeforeToolUse(() => HookOutcome.proceed(undefined, { additionalContext: 'Remember the style guide' }));
    await builder.build().run('Go');

    expect(model.requests[0]!.messages.some((m) => m.content.includes('Remember the style guide'))).toBe(false);
    const system = model.requests[1]!.messages.filter((m) => m.role === 'system');
    expect(system.map((m) => m.content)).toEqual([expect.stringContaining('Remember the style guide')]);
  });
});

describe('input validation', () => {
  it('invalid input: PreToolUse does not fire, PostToolUseFailure gets a ToolInputError, the model is told', async () => {
    const { echo, model, builder } = echoAgent([callStep('echo', { text: 42 }), 'Done.']);
    const rec = recordEvents(builder);
    const result = await builder.build().run('Go');

    expect(rec.events).not.toContain('PreToolUse');
    expect(rec.events).toContain('PostToolUseFailure');
    const failure = rec.contexts.find((c) => c.event === 'PostToolUseFailure') as ToolHookContext<'PostToolUseFailure'>;
    expect(failure.error).toBeInstanceOf(ToolInputError);
    expect((failure.error as ToolInputError).issues.join()).toContain('text');
    expect(echo.execute).not.toHaveBeenCalled();
    expect(toolMessages(model.requests[1]!)[0]!.content).toContain("Invalid input for tool 'echo'");
    expect(result.status).toBe('completed');
  });

  it('unknown tool: PostToolUseFailure gets an UnknownToolError and the model is told', async () => {
    const { model, builder } = echoAgent([callStep('nope', {}), 'Done.']);
    const rec = recordEvents(builder);
    await builder.build().run('Go');

    expect(rec.events).not.toContain('PreToolUse');
    const failure = rec.contexts.find((c) => c.event === 'PostToolUseFailure') as ToolHookContext<'PostToolUseFailure'>;
    expect(failure.error).toBeInstanceOf(UnknownToolError);
    expect(failure.toolCall.name).toBe('nope');
    const told = toolMessages(model.requests[1]!)[0]!.content;
    expect(told).toContain("Unknown tool 'nope'");
    expect(told).toContain('echo');
  });

  it('a hook rewriting the input into an invalid one: PostToolUseFailure, execute not called', async () => {
    const { echo, model, builder } = echoAgent([callStep('echo', { text: 'fine' }), 'Done.']);
    builder.onBeforeToolUse((ctx) => ctx.toolCall.withArgs({ text: ['not', 'a', 'string'] }));
    const rec = recordEvents(builder);
    await builder.build().run('Go');

    expect(echo.execute).not.toHaveBeenCalled();
    expect(rec.events).toContain('PostToolUseFailure');
    expect(rec.events).not.toContain('PostToolUse');
    const failure = rec.contexts.find((c) => c.event === 'PostToolUseFailure') as ToolHookContext<'PostToolUseFailure'>;
    expect(failure.error).toBeInstanceOf(ToolInputError);
    expect(toolMessages(model.requests[1]!)[0]!.content).toContain("Invalid input for tool 'echo'");
  });
  it('a hook rewriting the input into a value zod cannot name: still a ToolInputError, the run completes', async () => {
    const { echo, model, builder } = echoAgent([callStep('echo', { text: 'fine' }), 'Done.']);
    const odd = Object.assign(Object.create(null) as Record<string, unknown>, { constructor: { name: Object.create(null) } });
    builder.onBeforeToolUse((ctx) => ctx.toolCall.withArgs({ text: odd }));
    const rec = recordEvents(builder);
    const result = await builder.build().run('Go');

    expect(echo.execute).not.toHaveBeenCalled();
    const failure = rec.contexts.find((c) => c.event === 'PostToolUseFailure') as ToolHookContext<'PostToolUseFailure'>;
    expect(failure.error).toBeInstanceOf(ToolInputError);
    expect((failure.error as ToolInputError).issues.join()).toContain('text');
    expect(toolMessages(model.requests[1]!)[0]!.content).toContain("Invalid input for tool 'echo'");
    expect(result.status).toBe('completed');
  });

  it("the model is told in zod's words, and in the user's own where z.config({ customError }) sets them", async () => {
    const plain = echoAgent([callStep('echo', { text: 42 }), 'Done.']);
    await plain.builder.build().run('Go');
    expect(toolMessages(plain.model.requests[1]!)[0]!.content).toContain('text: Invalid input: expected string, received number');

    const before = z.config().customError;
    z.config({ customError: (issue) => (issue.code === 'invalid_type' ? `not a ${issue.expected}, friend` : undefined) });
    try {
      const custom = echoAgent([callStep('echo', { text: 42 }), 'Done.']);
      await custom.builder.build().run('Go');
      expect(toolMessages(custom.model.requests[1]!)[0]!.content).toContain('text: not a string, friend');
    } finally {
      z.config({ customError: before });
    }
  });

  it('parses the input once and hands the tool the parsed value (defaults applied); a rewritten input is parsed again', async () => {
    let parses = 0;
    const received: unknown[] = [];
    const counted = defineTool({
      name: 'counted',
      input: z.object({ text: z.string().transform((t) => (parses++, t)), times: z.number().default(1) }),
      execute: (input) => (received.push(input), 'ok'),
    });
    const model = new ScriptedModel([callStep('counted', { text: 'a' }), callStep('counted', { text: 'b' }), 'Done.']);
    const builder = AgentBuilder.new().withModel(model).withTools(counted);
    builder.onBeforeToolUse((ctx) => (ctx.toolCall.args['text'] === 'b' ? ctx.toolCall.withArgs({ text: 'c', times: 2 }) : undefined));
    await builder.build().run('Go');

    expect(received).toEqual([{ text: 'a', times: 1 }, { text: 'c', times: 2 }]);
    // One parse for 'a'; for 'b', one before the hooks and one of the rewritten input.
    expect(parses).toBe(3);
  });
});

describe('PostToolUse outcomes', () => {
  it('a replaced ToolExecution (execution.withResult) is what the model sees', async () => {
    const { model, builder } = echoAgent([callStep('echo', { text: 'secret' }), 'Done.']);
    builder.onAfterToolUse((ctx) => ctx.execution!.withResult('[redacted]'));
    await builder.build().run('Go');

    expect(toolMessages(model.requests[1]!)[0]!.content).toBe('[redacted]');
  });

  it('a replaced ToolExecution (ToolExecution.success) is what the model sees', async () => {
    const { model, builder } = echoAgent([callStep('echo', { text: 'secret' }), 'Done.']);
    builder.onAfterToolUse((ctx) => ToolExecution.success(ctx.toolCall, { replaced: true }));
    const result = await builder.build().run('Go');

    expect(toolMessages(model.requests[1]!)[0]!.content).toBe('{"replaced":true}');
    expect(result.steps[0]!.executions[0]!.result).toEqual({ replaced: true });
  });

  it('block: the model is told the result was rejected, not the result', async () => {
    const { echo, model, builder } = echoAgent([callStep('echo', { text: 'secret' }), 'Done.']);
    builder.onAfterToolUse(() => HookOutcome.block('Contains a secret'));
    const result = await builder.build().run('Go');

    expect(echo.execute).toHaveBeenCalledTimes(1);
    const told = toolMessages(model.requests[1]!)[0]!.content;
    expect(told).toMatch(/rejected/i);
    expect(told).toContain('Contains a secret');
    expect(told).not.toContain('echo: secret');
    expect(result.status).toBe('completed');
  });
});

describe('Stop outcomes', () => {
  it('block keeps the agent working with the reason as a user message; stopHookActive and continuationCount follow', async () => {
    const seen: { active: boolean; count: number }[] = [];
    const { model, builder } = echoAgent(['Draft', 'Final']);
    builder.onStop((ctx) => {
      seen.push({ active: ctx.stopHookActive, count: ctx.continuationCount });
      if (ctx.continuationCount === 0) return HookOutcome.block('Also add tests');
    });
    const result = await builder.build().run('Write code');

    expect(seen).toEqual([
      { active: false, count: 0 },
      { active: true, count: 1 },
    ]);
    expect(model.callCount).toBe(2);
    expect(lastMessage(model.requests[1])).toMatchObject({ role: 'user', content: 'Also add tests' });
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Final');
  });

  it('a Stop hook blocking forever is overridden after stopLoopLimit continuations (stop:forced and a warning)', async () => {
    const model = new ScriptedModel(() => 'Still here');
    const agent = AgentBuilder.new()
      .withModel(model)
      .withOptions({ stopLoopLimit: 3 })
      .onStop(() => HookOutcome.block('Keep going'))
      .build();
    const forced = vi.fn();
    agent.events.on('stop:forced', forced);
    const warnings = collectWarnings(agent);
    const result = await agent.run('Go');

    expect(result.status).toBe('completed');
    expect(model.callCount).toBe(4); // the first answer + 3 continuations
    expect(forced).toHaveBeenCalledTimes(1);
    expect(forced.mock.calls[0]![0]).toMatchObject({ blocks: 4 });
    expect(warnings.map((w) => w.code)).toContain('stop-forced');
  });

  it('the default stopLoopLimit is 8', async () => {
    const model = new ScriptedModel(() => 'Still here');
    const agent = AgentBuilder.new()
      .withModel(model)
      .onStop(() => HookOutcome.block('Keep going'))
      .build();
    const result = await agent.run('Go');

    expect(result.status).toBe('completed');
    expect(model.callCount).toBe(9);
  });
});

describe('stop(reason) halts the run from every event that can halt', () => {
  const HALTING: readonly HookEventName[] = [
    'ExecutionStart',
    'UserPromptSubmit',
    'BeforeStep',
    'PreToolUse',
    'PostToolUse',
    'AfterStep',
    'Stop',
    'SubagentStart',
  ];

  it.each(HALTING)('stop from %s: status stopped with the reason, ExecutionEnd still fires (stopped)', async (event) => {
    // Reaches every event above: a tool call, a subagent call, then a text answer.
    const echo = echoTool();
    const model = new ScriptedModel([callStep('echo', { text: 'hi' }), callStep('helper', { task: 'Sub task' }), 'child', 'Done.']);
    const ends: ExecutionHookContext<'ExecutionEnd'>[] = [];
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(echo.tool)
      .withSubagents(defineSubagent({ name: 'helper', inheritHooks: false }))
      .addHook(event, () => HookOutcome.stop(`halted at ${event}`))
      .onExecutionEnd((ctx) => {
        ends.push(ctx);
      })
      .build();
    const result = await agent.run('Go');

    expect(result.status).toBe('stopped');
    expect(result.reason).toBe(`halted at ${event}`);
    expect(result.stopReason).toBe('hook_stop');
    expect(ends).toHaveLength(1);
    expect(ends[0]!.status).toBe('stopped');
    expect(ends[0]!.reason).toBe(`halted at ${event}`);
  });

  it('a stop from PostToolUse leaves the tool result the tool did produce in the conversation', async () => {
    const { echo, builder } = echoAgent([callStep('echo', { text: 'hi' }, 'c1'), 'Done.']);
    builder.onAfterToolUse(() => HookOutcome.stop('Enough'));
    const session = builder.build().session();
    const result = await session.run('Go');

    expect(result.status).toBe('stopped');
    expect(echo.execute).toHaveBeenCalledTimes(1);
    // The next turn of the session shows the model this conversation: it must not claim the call never ran.
    const answer = toolMessages(session.messages).find((m) => m.toolCallId === 'c1');
    expect(answer?.content).not.toMatch(/not run/i);
    expect(answer?.content).toBe('echo: hi');
  });
  it('a stop from PostToolUseFailure leaves the error the tool did raise in the conversation', async () => {
    const fail = failTool('disk on fire');
    const model = new ScriptedModel([callStep('fail', {}, 'c1'), 'Done.']);
    const session = AgentBuilder.new()
      .withModel(model)
      .withTools(fail.tool)
      .onToolFailure(() => HookOutcome.stop('Too many failures'))
      .build()
      .session();
    const result = await session.run('Go');

    expect(result.status).toBe('stopped');
    expect(fail.execute).toHaveBeenCalledTimes(1);
    const answer = toolMessages(session.messages).find((m) => m.toolCallId === 'c1');
    expect(answer?.content).not.toMatch(/not run/i);
    expect(answer?.content).toContain('disk on fire');
  });
});

describe('UserPromptSubmit outcomes', () => {
  it('block: status stopped, stopReason prompt_blocked, the model is never called', async () => {
    const { model, builder } = echoAgent(['never']);
    builder.onUserPromptSubmit(() => HookOutcome.block('No secrets in prompts'));
    const result = await builder.build().run('my password is hunter2');

    expect(result.status).toBe('stopped');
    expect(result.stopReason).toBe('prompt_blocked');
    expect(result.reason).toBe('No secrets in prompts');
    expect(model.callCount).toBe(0);
  });

  it('a returned string is the prompt the model sees', async () => {
    const { model, builder } = echoAgent(['ok']);
    builder.onUserPromptSubmit((ctx) => `${ctx.prompt} (answer in French)`);
    await builder.build().run('Hello');

    expect(model.requests[0]!.messages).toEqual([{ role: 'user', content: 'Hello (answer in French)' }]);
  });
});

describe('extras and metadata', () => {
  it('systemMessage ends up in result.systemMessages', async () => {
    const { builder } = echoAgent([callStep('echo', { text: 'hi' }), 'Done.']);
    builder
      .onBeforeToolUse(() => HookOutcome.proceed(undefined, { systemMessage: 'Echo was used' }))
      .onExecutionEnd(() => HookOutcome.proceed(undefined, { systemMessage: 'Bye' }));
    const result = await builder.build().run('Go');

    expect(result.systemMessages).toEqual(['Echo was used', 'Bye']);
  });

  it('metadata set at ExecutionStart is readable at ExecutionEnd with ctx.get, and in result.metadata', async () => {
    let readAtEnd: unknown;
    let readInTool: unknown;
    const { builder } = echoAgent([callStep('echo', { text: 'hi' }), 'Done.']);
    builder
      .onExecutionStart((ctx) => HookOutcome.proceed(ctx.withMetadata('started_at', 1234)))
      .onBeforeToolUse((ctx) => {
        readInTool = ctx.get('started_at');
      })
      .onExecutionEnd((ctx) => {
        readAtEnd = ctx.get('started_at');
      });
    const result = await builder.build().run('Go');

    expect(readInTool).toBe(1234);
    expect(readAtEnd).toBe(1234);
    expect(result.metadata['started_at']).toBe(1234);
  });

  it('a block on an observer event (AfterStep) is ignored with an ignored-outcome warning', async () => {
    const { model, builder } = echoAgent([callStep('echo', { text: 'hi' }), 'Done.']);
    builder.onAfterStep(() => HookOutcome.block('I do not like this step'));
    const agent = builder.build();
    const warnings = collectWarnings(agent);
    const result = await agent.run('Go');

    expect(result.status).toBe('completed');
    expect(model.callCount).toBe(2);
    const ignored = warnings.filter((w) => w.code === 'ignored-outcome');
    expect(ignored).toHaveLength(2);
    expect(ignored[0]).toMatchObject({ event: 'AfterStep' });
    expect(ignored[0]!.message).toContain('I do not like this step');
  });
});
