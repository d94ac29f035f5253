import { describe, expect, it } from 'vitest';
import {
  AgentBuilder,
  AgentState,
  HookOutcome,
  ScriptedModel,
  defineSubagent,
  type CompactHookContext,
  type ExecutionHookContext,
  type NotificationHookContext,
  type ToolHookContext,
} from 'agent-hooks';
import { ONE_TOOL_RUN, callStep, echoTool, failTool, loggingModel, recordEvents, toolMessages } from './support.js';

describe('the lifecycle of a run', () => {
  it('fires every event of a plain run with one tool call, in order, each with its context class', async () => {
    const { tool } = echoTool();
    const builder = AgentBuilder.new()
      .withModel(new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']))
      .withTools(tool);
    const rec = recordEvents(builder);
    const result = await builder.build().run('Say hi');

    expect(rec.events).toEqual([...ONE_TOOL_RUN]);
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Done.');
  });

  it('fires SessionStart before the first run only, SessionEnd once on close, and keeps the conversation', async () => {
    const model = new ScriptedModel(['first answer', 'second answer']);
    const builder = AgentBuilder.new().withModel(model);
    const rec = recordEvents(builder);
    const session = builder.build().session();

    await session.run('one');
    const afterFirst = rec.events.splice(0);
    await session.run('two');
    const afterSecond = rec.events.splice(0);
    await session.close();
    await session.close();

    const turn = ['ExecutionStart', 'UserPromptSubmit', 'BeforeStep', 'BeforeModel', 'BeforeToolSelection', 'AfterModel', 'AfterStep', 'Stop', 'AfterStop', 'AfterAgent', 'ExecutionEnd'];
    expect(afterFirst).toEqual(['SessionStart', ...turn]);
    expect(afterSecond).toEqual(turn);
    expect(rec.events).toEqual(['SessionEnd']);
    expect(session.isClosed).toBe(true);

    const second = model.requests[1]!;
    expect(second.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'one'],
      ['assistant', 'first answer'],
      ['user', 'two'],
    ]);
  });

  it("ends a session with reason 'error' when its last turn failed, 'close' when it did not, and the reason close() is given", async () => {
    const reasons: (string | undefined)[] = [];
    const failing = (): never => {
      throw Object.assign(new Error('model down'), { status: 500 });
    };
    const end = async (steps: ConstructorParameters<typeof ScriptedModel>[0], reason?: string): Promise<void> => {
      const session = AgentBuilder.new()
        .withModel(new ScriptedModel(steps))
        .onSessionEnd((ctx) => {
          reasons.push(ctx.reason);
        })
        .build()
        .session();
      await session.run('go').catch(() => undefined);
      await session.close(reason);
    };
    await end(failing);
    await end(['fine']);
    await end(failing, 'logout');
    expect(reasons).toEqual(['error', 'close', 'logout']);
  });

  it('ends a session with the last turn’s outcome: a failed turn followed by one that completed ends it with close', async () => {
    let calls = 0;
    const reasons: (string | undefined)[] = [];
    const session = AgentBuilder.new()
      .withModel(
        new ScriptedModel(() => {
          calls += 1;
          if (calls === 1) throw new Error('model down');
          return 'fine';
        }),
      )
      .onSessionEnd((ctx) => {
        reasons.push(ctx.reason);
      })
      .build()
      .session();
    await expect(session.run('one')).rejects.toThrow('model down');
    await session.run('two');
    await session.close();
    expect(reasons).toEqual(['close']);
  });

  it('fires PostToolUseFailure (not PostToolUse) when a tool throws, and tells the model the error', async () => {
    const fail = failTool('disk on fire');
    const model = new ScriptedModel([callStep('fail', {}, 'c1'), 'Sorry.']);
    const builder = AgentBuilder.new().withModel(model).withTools(fail.tool);
    const rec = recordEvents(builder);
    const result = await builder.build().run('Try it');

    expect(rec.events).toEqual(ONE_TOOL_RUN.map((e) => (e === 'PostToolUse' ? 'PostToolUseFailure' : e)));
    const failure = rec.contexts.find((c) => c.event === 'PostToolUseFailure') as ToolHookContext<'PostToolUseFailure'>;
    expect(failure.error).toBe(fail.error);
    const [told] = toolMessages(model.requests[1]!);
    expect(told).toMatchObject({ role: 'tool', toolCallId: 'c1', name: 'fail' });
    expect(told!.content).toContain('disk on fire');
    expect(result.status).toBe('completed');
  });

  it('asks: PreToolUse ask → PermissionRequest → Notification (permission_prompt) → approver → tool', async () => {
    const log: string[] = [];
    const echo = echoTool();
    echo.execute.mockImplementation((input) => {
      log.push('tool');
      return `echo: ${input.text}`;
    });
    const builder = AgentBuilder.new()
      .withModel(new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']))
      .withTools(echo.tool)
      .withApprover(() => {
        log.push('approver');
        return true;
      });
    const rec = recordEvents(builder, log);
    builder.onBeforeToolUse(() => HookOutcome.ask('Echo needs a human'));
    await builder.build().run('Ask first');

    expect(rec.events).toEqual([
      'ExecutionStart',
      'UserPromptSubmit',
      'BeforeStep',
      'BeforeModel',
      'BeforeToolSelection',
      'AfterModel',
      'PreToolUse',
      'PermissionRequest',
      'Notification',
      'approver',
      'tool',
      'PostToolUse',
      'PostToolBatch',
      'AfterStep',
      'BeforeStep',
      'BeforeModel',
      'BeforeToolSelection',
      'AfterModel',
      'AfterStep',
      'Stop',
      'AfterStop',
      'AfterAgent',
      'ExecutionEnd',
    ]);
    const note = rec.contexts.find((c) => c.event === 'Notification') as NotificationHookContext;
    expect(note.notificationType).toBe('permission_prompt');
    expect(note.message).toContain('Echo needs a human');
    const perm = rec.contexts.find((c) => c.event === 'PermissionRequest') as ToolHookContext<'PermissionRequest'>;
    expect(perm.permissionReason).toBe('Echo needs a human');
  });

  it('runs a subagent between PreToolUse/SubagentStart and PostToolUse, with SubagentStop as its stop gate', async () => {
    // The child uses the parent's model: the script is played across both.
    const model = new ScriptedModel([callStep('helper', { task: 'Summarize' }), 'child result', 'parent done']);
    const builder = AgentBuilder.new()
      .withModel(model)
      .withSubagents(defineSubagent({ name: 'helper', description: 'Helps' }));
    const rec = recordEvents(builder);
    const agent = builder.build();
    const result = await agent.run('Delegate');

    expect(rec.labelled()).toEqual([
      'ExecutionStart',
      'UserPromptSubmit',
      'BeforeStep',
      'BeforeModel',
      'BeforeToolSelection',
      'AfterModel',
      'PreToolUse',
      'SubagentStart',
      'child:ExecutionStart',
      'child:UserPromptSubmit',
      'child:BeforeStep',
      'child:BeforeModel',
      'child:BeforeToolSelection',
      'child:AfterModel',
      'child:AfterStep',
      'child:SubagentStop',
      'child:AfterStop',
      'child:AfterAgent',
      'child:ExecutionEnd',
      'PostToolUse',
      'PostToolBatch',
      'AfterStep',
      'BeforeStep',
      'BeforeModel',
      'BeforeToolSelection',
      'AfterModel',
      'AfterStep',
      'Stop',
      'AfterStop',
      'AfterAgent',
      'ExecutionEnd',
    ]);
    const pre = rec.contexts.find((c) => c.event === 'PreToolUse') as ToolHookContext<'PreToolUse'>;
    expect(pre.toolCall.name).toBe('helper');
    expect(pre.toolCall.args).toEqual({ task: 'Summarize' });

    const parentId = rec.contexts[0]!.state.agentId;
    expect(parentId).toBe(agent.id);
    const child = rec.contexts.filter((c) => c.state.parentAgentId !== undefined);
    expect(child.length).toBe(11);
    for (const c of child) expect(c.state.parentAgentId).toBe(parentId);
    const childPrompt = child.find((c) => c.event === 'UserPromptSubmit');
    expect(childPrompt && 'prompt' in childPrompt ? childPrompt.prompt : undefined).toBe('Summarize');

    const post = rec.contexts.find((c) => c.event === 'PostToolUse') as ToolHookContext<'PostToolUse'>;
    expect(post.execution?.result).toBe('child result');
    expect(result.text).toBe('parent done');
  });

  it('gives a subagent an agent id of its own, distinct from its parent', async () => {
    const model = new ScriptedModel([callStep('helper', { task: 'Summarize' }), 'child result', 'parent done']);
    const builder = AgentBuilder.new().withModel(model).withSubagents(defineSubagent({ name: 'helper' }));
    const rec = recordEvents(builder);
    // Line the id counters up as they are in a fresh process, where the first agent runs its first subagent: the
    // agent's default id and the next generated state id are both `agent_<n>`.
    const number = (id: string) => Number(id.slice('agent_'.length));
    let agent = builder.build();
    let lastState = number(AgentState.create().agentId);
    while (lastState + 1 !== number(agent.id)) {
      if (lastState + 1 > number(agent.id)) agent = builder.build();
      else lastState = number(AgentState.create().agentId);
    }
    await agent.run('Delegate');

    const child = rec.contexts.find((c) => c.state.parentAgentId !== undefined)!;
    expect(child.state.parentAgentId).toBe(agent.id);
    // A hook keyed on agentId (a per-agent budget, a trace span) must not mistake the child for its parent.
    expect(child.state.agentId).not.toBe(agent.id);
  });

  it('compacts between BeforeStep and the model call, and the next request starts with the summary', async () => {
    const log: string[] = [];
    const { tool } = echoTool();
    const model = loggingModel(log, [callStep('echo', { text: 'a' }), callStep('echo', { text: 'b' }), 'Done.']);
    const builder = AgentBuilder.new().withModel(model).withTools(tool).withCompaction({ maxMessages: 4, keepLast: 2 });
    const rec = recordEvents(builder, log);
    await builder.build().run('Echo twice');

    expect(rec.events).toEqual([
      'ExecutionStart',
      'UserPromptSubmit',
      'BeforeStep',
      'BeforeModel',
      'BeforeToolSelection',
      'model',
      'AfterModel',
      'PreToolUse',
      'PostToolUse',
      'PostToolBatch',
      'AfterStep',
      'BeforeStep',
      'BeforeModel',
      'BeforeToolSelection',
      'model',
      'AfterModel',
      'PreToolUse',
      'PostToolUse',
      'PostToolBatch',
      'AfterStep',
      'BeforeStep',
      'PreCompact',
      'PostCompact',
      // The compacted conversation starts again, as in Claude Code.
      'SessionStart',
      'BeforeModel',
      'BeforeToolSelection',
      'model',
      'AfterModel',
      'AfterStep',
      'Stop',
      'AfterStop',
      'AfterAgent',
      'ExecutionEnd',
    ]);
    const pre = rec.contexts.find((c) => c.event === 'PreCompact') as CompactHookContext<'PreCompact'>;
    const post = rec.contexts.find((c) => c.event === 'PostCompact') as CompactHookContext<'PostCompact'>;
    // user, assistant+call, tool, assistant+call, tool → summary, assistant+call, tool.
    expect(pre.messagesBefore).toHaveLength(5);
    expect(post.messagesBefore).toHaveLength(5);
    expect(post.messagesAfter).toHaveLength(3);
    expect(pre.trigger).toBe('auto');

    const request = model.requests[2]!;
    expect(request.messages).toHaveLength(3);
    expect(request.messages[0]!.role).toBe('system');
    expect(request.messages[0]!.content).toContain('Echo twice');
    expect(request.messages.slice(1).map((m) => m.role)).toEqual(['assistant', 'tool']);
  });

  it('fires StopFailure, AgentFailed then ExecutionEnd (failed) when the model throws, and rejects with the same error', async () => {
    const boom = new Error('model down');
    const builder = AgentBuilder.new().withModel(
      new ScriptedModel(() => {
        throw boom;
      }),
    );
    const rec = recordEvents(builder);
    const agent = builder.build();

    await expect(agent.run('Hi')).rejects.toBe(boom);
    // The model threw inside BeforeModel's chain: AfterModel never fires.
    // The turn ended on the model's error: StopFailure in place of Stop, as in Claude Code.
    expect(rec.events).toEqual(['ExecutionStart', 'UserPromptSubmit', 'BeforeStep', 'BeforeModel', 'BeforeToolSelection', 'StopFailure', 'AgentFailed', 'ExecutionEnd']);
    const failed = rec.contexts.find((c) => c.event === 'AgentFailed');
    expect(failed && 'error' in failed ? failed.error : undefined).toBe(boom);
    const end = rec.contexts.at(-1) as ExecutionHookContext<'ExecutionEnd'>;
    expect(end.status).toBe('failed');
    expect(end.reason).toBe('model down');
  });

  it('resolves with status failed and the error when rejectOnFailure is false', async () => {
    const boom = new Error('model down');
    const builder = AgentBuilder.new().withModel(
      new ScriptedModel(() => {
        throw boom;
      }),
    );
    const rec = recordEvents(builder);
    const result = await builder.build().run('Hi', { rejectOnFailure: false });

    expect(result.status).toBe('failed');
    expect(result.error).toBe(boom);
    expect(result.reason).toBe('model down');
    expect(rec.events.slice(-2)).toEqual(['AgentFailed', 'ExecutionEnd']);
  });
});
