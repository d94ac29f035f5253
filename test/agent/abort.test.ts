import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, HookStack, ScriptedModel, ToolCall, defineTool, type AnyHookContext, type HookScope, type NextFn } from 'agent-hooks';
import { LoopHooks } from 'agent-hooks/ai-sdk';

describe('cancelling a run', () => {
  it('fails with the signal’s reason after AgentFailed and ExecutionEnd, whose hooks get no cancelled signal', async () => {
    const controller = new AbortController();
    const slow = defineTool({
      name: 'slow',
      input: z.object({}),
      execute: () => (controller.abort(new Error('user cancelled')), 'done'),
    });
    const seen: string[] = [];
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([{ toolCalls: [{ name: 'slow', args: {} }, { name: 'slow', args: {} }] }, 'never']))
      .withTools(slow)
      .withHook({
        name: 'signal-probe',
        handle(ctx: AnyHookContext, next: NextFn, scope: HookScope) {
          seen.push(`${ctx.event}:${scope.signal === undefined ? 'none' : scope.signal.aborted ? 'aborted' : 'live'}`);
          return next();
        },
      })
      .build();
    const error = await agent.run('go', { signal: controller.signal }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('user cancelled');
    expect(seen).toContain('PreToolUse:live');
    // Their own signal (every in-process hook has one, for its timeout) is not the run's: it is not cancelled.
    expect(seen.slice(-2)).toEqual(['AgentFailed:live', 'ExecutionEnd:live']);
    // The second call of the batch never ran.
    expect(seen.filter((s) => s.startsWith('PreToolUse'))).toHaveLength(1);
  });
});

describe('cancelling a run under a PreToolUse hook', () => {
  it('runs no tool, whatever the hook answered once the run was cancelled', async () => {
    const controller = new AbortController();
    const execute = vi.fn(() => 'deleted everything');
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([{ toolCalls: [{ name: 'wipe', args: {} }] }, 'done']))
      .withTools(defineTool({ name: 'wipe', input: z.object({}), execute }))
      // A guard that was cut short: the cancellation came while it ran, and it says nothing against the call.
      .onBeforeToolUse(() => {
        controller.abort(new Error('user cancelled'));
      })
      .build();
    const error = await agent.run('go', { signal: controller.signal }).then(() => undefined, (e: unknown) => e);
    expect((error as Error | undefined)?.message).toBe('user cancelled');
    expect(execute).not.toHaveBeenCalled();
  });

  it('LoopHooks.runTool does not run the tool either, and rejects with the signal’s reason', async () => {
    const controller = new AbortController();
    const run = vi.fn(() => 'ran');
    const hooks = new LoopHooks(
      new HookStack().with({
        name: 'cut-short',
        handle(ctx: AnyHookContext, next: NextFn) {
          if (ctx.event === 'PreToolUse') controller.abort(new Error('user cancelled'));
          return next();
        },
      }),
    );
    const error = await hooks.runTool(ToolCall.create('wipe', {}), run, { signal: controller.signal }).then(() => undefined, (e: unknown) => e);
    expect((error as Error | undefined)?.message).toBe('user cancelled');
    expect(run).not.toHaveBeenCalled();
  });
});
