import { describe, expect, it } from 'vitest';
import {
  AgentBuilder,
  HookOutcome,
  HookStack,
  ScriptedModel,
  ToolCall,
  ToolCallLimitHook,
  ToolHookContext,
  type ModelRequest,
  type ScriptedStep,
  type ToolCallCounts,
} from 'agent-hooks';
import { callsStep, echoTool, toolMessages } from '../agent/support.js';

/** A model that makes `calls` one-at-a-time echo calls (then answers), whatever run it serves. */
const callingModel = (calls: readonly string[]) =>
  new ScriptedModel((request: ModelRequest): ScriptedStep => {
    const done = toolMessages(request).length;
    return done < calls.length ? callsStep([calls[done]!, { text: `#${done + 1}` }]) : 'Done.';
  });

const countsOf = (metadata: Readonly<Record<string, unknown>>) => metadata[ToolCallLimitHook.metadataKey] as ToolCallCounts | undefined;

describe('ToolCallLimitHook', () => {
  it('refuses the calls of a run past its limit, tells the model, and records the counts in the run’s metadata', async () => {
    const echo = echoTool();
    const model = callingModel(['echo', 'echo', 'echo']);
    const agent = AgentBuilder.new().withModel(model).withTools(echo.tool).withHook(new ToolCallLimitHook({ limit: 2 })).build();
    const result = await agent.run('Go');

    expect(result.status).toBe('completed');
    expect(echo.execute).toHaveBeenCalledTimes(2);
    expect(toolMessages(result.messages).map((m) => m.content)).toEqual([
      'echo: #1',
      'echo: #2',
      'Tool call blocked by a hook: Tool call limit reached: at most 2 tool calls per run.',
    ]);
    expect(countsOf(result.metadata)).toEqual({ total: 2, byTool: { echo: 2 } });
  });

  it('limits each tool on its own with perTool, besides the overall limit', async () => {
    const echo = echoTool();
    const other = echoTool('other');
    const agent = AgentBuilder.new()
      .withModel(callingModel(['echo', 'echo', 'other', 'other', 'echo']))
      .withTools(echo.tool, other.tool)
      .withHook(new ToolCallLimitHook({ perTool: { echo: 1 }, limit: 3 }))
      .build();
    const result = await agent.run('Go');

    expect(toolMessages(result.messages).map((m) => m.content)).toEqual([
      'echo: #1',
      'Tool call blocked by a hook: Tool call limit reached: echo may be called at most 1 time per run.',
      'echo: #3',
      'echo: #4',
      'Tool call blocked by a hook: Tool call limit reached: echo may be called at most 1 time per run.',
    ]);
    expect(countsOf(result.metadata)).toEqual({ total: 3, byTool: { echo: 1, other: 2 } });
  });

  it("halts the run with behaviour 'stop'", async () => {
    const echo = echoTool();
    const agent = AgentBuilder.new()
      .withModel(callingModel(['echo', 'echo']))
      .withTools(echo.tool)
      .withHook(new ToolCallLimitHook({ limit: 1, behaviour: 'stop' }))
      .build();
    const result = await agent.run('Go');
    expect([result.status, result.stopReason, result.reason]).toEqual(['stopped', 'hook_stop', 'Tool call limit reached: at most 1 tool call per run.']);
    expect(echo.execute).toHaveBeenCalledTimes(1);
  });

  it('counts per run: concurrent runs of one agent, and later runs, start from zero', async () => {
    const echo = echoTool();
    const agent = AgentBuilder.new().withModel(callingModel(['echo', 'echo'])).withTools(echo.tool).withHook(new ToolCallLimitHook({ limit: 2 })).build();
    const results = await Promise.all([agent.run('a'), agent.run('b'), agent.run('c')]);
    const later = await agent.run('d');

    for (const result of [...results, later]) {
      expect(toolMessages(result.messages).map((m) => m.content)).toEqual(['echo: #1', 'echo: #2']);
      expect(countsOf(result.metadata)).toEqual({ total: 2, byTool: { echo: 2 } });
    }
    expect(echo.execute).toHaveBeenCalledTimes(8);
  });

  it('does not count a call that a later PreToolUse hook refused', async () => {
    const echo = echoTool();
    let first = true;
    const agent = AgentBuilder.new()
      .withModel(callingModel(['echo', 'echo', 'echo']))
      .withTools(echo.tool)
      .withHook(new ToolCallLimitHook({ limit: 2 }), { priority: 10 })
      .onBeforeToolUse(() => {
        if (first) return (first = false), HookOutcome.block('not this one');
      })
      .build();
    const result = await agent.run('Go');
    expect(echo.execute).toHaveBeenCalledTimes(2);
    expect(countsOf(result.metadata)).toEqual({ total: 2, byTool: { echo: 2 } });
  });

  it('counts only the calls its matcher selects', async () => {
    const echo = echoTool();
    const other = echoTool('other');
    const agent = AgentBuilder.new()
      .withModel(callingModel(['other', 'other', 'echo', 'echo']))
      .withTools(echo.tool, other.tool)
      .withHook(new ToolCallLimitHook({ limit: 1, matcher: 'echo' }))
      .build();
    const result = await agent.run('Go');
    expect(other.execute).toHaveBeenCalledTimes(2);
    expect(echo.execute).toHaveBeenCalledTimes(1);
    expect(countsOf(result.metadata)).toEqual({ total: 1, byTool: { echo: 1 } });
  });

  it('keeps its counts under the metadata key it is given, and reads them from a context', async () => {
    const hook = new ToolCallLimitHook({ limit: 5, metadataKey: 'calls' });
    const outcome = await new HookStack().with(hook).process(ToolHookContext.beforeToolUse(ToolCall.create('x'), { metadata: { calls: { total: 4, byTool: { x: 4 } } } }));
    expect(outcome.type).toBe('proceed');
    expect(hook.counts(outcome.context!)).toEqual({ total: 5, byTool: { x: 5 } });
    const over = await new HookStack().with(hook).process(ToolHookContext.beforeToolUse(ToolCall.create('x'), { metadata: { calls: hook.counts(outcome.context!) } }));
    expect(over.type).toBe('block');
  });

  it('rejects a missing or invalid limit where it is given', () => {
    expect(() => new ToolCallLimitHook({})).toThrow(/needs a limit/);
    expect(() => new ToolCallLimitHook({ limit: -1 })).toThrow(/limit must be an integer ≥ 0, got -1/);
    expect(() => new ToolCallLimitHook({ perTool: { bash: 1.5 } })).toThrow(/perTool.bash must be an integer/);
    expect(() => new ToolCallLimitHook({ limit: 1, behaviour: 'halt' as never })).toThrow(/behaviour must be 'block' or 'stop'/);
  });
});
