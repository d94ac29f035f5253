import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentBuilder,
  HookOutcome,
  HookStack,
  RateLimitHook,
  ScriptedModel,
  ToolCall,
  ToolHookContext,
  defineTool,
  type ModelRequest,
  type ScriptedStep,
} from 'agent-hooks';
import { callsStep, toolMessages } from '../agent/support.js';

/** A clock the test moves by hand. */
const manualClock = (start = 1_000) => {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
};

const pre = (tool = 'fetch') => ToolHookContext.beforeToolUse(ToolCall.create(tool));

describe('RateLimitHook', () => {
  it('allows `limit` calls within a sliding window, then refuses with the time to wait', async () => {
    const clock = manualClock();
    const stack = new HookStack().with(new RateLimitHook({ limit: 2, windowMs: 1_000, now: clock.now }));
    const decide = async () => (await stack.process(pre())).toString();

    expect(await decide()).toBe('proceed');
    clock.advance(400);
    expect(await decide()).toBe('proceed');
    clock.advance(100);
    expect(await decide()).toBe('block: Rate limit reached: at most 2 tool calls per 1 s; try again in 500 ms.');
    // The first call leaves the window 1 000 ms after it was allowed; the second one still counts.
    clock.advance(500);
    expect(await decide()).toBe('proceed');
    expect(await decide()).toBe('block: Rate limit reached: at most 2 tool calls per 1 s; try again in 400 ms.');
    clock.advance(400);
    expect(await decide()).toBe('proceed');
  });

  it('keeps one budget for all tools, or one per tool with scope: tool', async () => {
    const clock = manualClock();
    const global = new HookStack().with(new RateLimitHook({ limit: 1, windowMs: 60_000, now: clock.now }));
    expect((await global.process(pre('a'))).type).toBe('proceed');
    expect((await global.process(pre('b'))).reason).toBe('Rate limit reached: at most 1 tool call per 60 s; try again in 60 s.');

    const perTool = new RateLimitHook({ limit: 1, windowMs: 60_000, scope: 'tool', now: clock.now });
    const stack = new HookStack().with(perTool);
    expect((await stack.process(pre('a'))).type).toBe('proceed');
    expect((await stack.process(pre('b'))).type).toBe('proceed');
    clock.advance(15_000);
    expect((await stack.process(pre('a'))).reason).toBe('Rate limit reached: at most 1 call to a per 60 s; try again in 45 s.');
    expect([perTool.remaining('a'), perTool.remaining('c')]).toEqual([0, 1]);
  });

  it('gives the slot back when a later hook refuses the call, and when it throws', async () => {
    const clock = manualClock();
    const limiter = new RateLimitHook({ limit: 1, windowMs: 1_000, now: clock.now });
    let verdict: 'block' | 'throw' | 'proceed' = 'block';
    const stack = new HookStack().with(limiter, 10).with(async (ctx, next) => {
      if (verdict === 'block') return HookOutcome.block('no');
      if (verdict === 'throw') throw new Error('broken hook');
      return next(ctx);
    });
    expect((await stack.process(pre())).reason).toBe('no');
    verdict = 'throw';
    await expect(stack.process(pre())).rejects.toThrow(/broken hook/);
    expect(limiter.remaining()).toBe(1);
    verdict = 'proceed';
    expect((await stack.process(pre())).type).toBe('proceed');
    expect(limiter.remaining()).toBe(0);
  });

  it('does not let concurrent calls overdraw the budget while a slow hook decides', async () => {
    const clock = manualClock();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const stack = new HookStack()
      .with(new RateLimitHook({ limit: 2, windowMs: 1_000, now: clock.now }), 10)
      .with(async (ctx, next) => {
        await gate;
        return next(ctx);
      });
    const pending = [stack.process(pre()), stack.process(pre()), stack.process(pre())];
    release();
    expect((await Promise.all(pending)).map((o) => o.type)).toEqual(['proceed', 'proceed', 'block']);
  });

  it('shares its budget across the runs of an agent, and stops the run with behaviour stop', async () => {
    const clock = manualClock();
    const fetched: string[] = [];
    const fetchTool = defineTool({
      name: 'fetch',
      input: z.object({ url: z.string() }),
      execute: ({ url }) => {
        fetched.push(url);
        // Each request takes 300 ms of the test's clock.
        clock.advance(300);
        return 'page';
      },
    });
    const model = new ScriptedModel((request: ModelRequest): ScriptedStep => {
      const done = toolMessages(request).length;
      return done < 2 ? callsStep(['fetch', { url: `${request.messages[0]!.content}/${done + 1}` }]) : 'Done.';
    });
    const build = (behaviour: 'block' | 'stop') =>
      AgentBuilder.new()
        .withModel(model)
        .withTools(fetchTool)
        .withHook(new RateLimitHook({ limit: 3, windowMs: 1_000, matcher: 'fetch', behaviour, now: clock.now }))
        .build();

    const agent = build('block');
    const first = await agent.run('a');
    const second = await agent.run('b');
    expect(fetched).toEqual(['a/1', 'a/2', 'b/1']);
    expect(first.status).toBe('completed');
    expect(toolMessages(second.messages)[1]!.content).toBe('Tool call blocked by a hook: Rate limit reached: at most 3 tool calls per 1 s; try again in 100 ms.');

    fetched.length = 0;
    clock.advance(5_000);
    const stopping = build('stop');
    await stopping.run('c');
    const halted = await stopping.run('d');
    expect(fetched).toEqual(['c/1', 'c/2', 'd/1']);
    expect([halted.status, halted.stopReason]).toEqual(['stopped', 'hook_stop']);
  });

  it('rejects invalid options where they are given', () => {
    expect(() => new RateLimitHook({ limit: 0, windowMs: 1 })).toThrow(/limit must be an integer ≥ 1, got 0/);
    expect(() => new RateLimitHook({ limit: 1, windowMs: 0 })).toThrow(/windowMs must be a positive number/);
    expect(() => new RateLimitHook({ limit: 1, windowMs: 10, scope: 'agent' as never })).toThrow(/scope must be 'global' or 'tool'/);
  });
});
