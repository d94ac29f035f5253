import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, type AnyHookContext, type HookScope, type NextFn } from 'agent-hooks';

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
    expect(seen.slice(-2)).toEqual(['AgentFailed:none', 'ExecutionEnd:none']);
    // The second call of the batch never ran.
    expect(seen.filter((s) => s.startsWith('PreToolUse'))).toHaveLength(1);
  });
});
