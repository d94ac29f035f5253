import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HookOutcome, HookStack, ToolCall, ToolHookContext, type AnyHookContext, type Hook, type NextFn } from 'agent-hooks';
import { ParallelHooks } from '../../src/core/hooks/parallel-hooks.js';

const pre = (command = 'ls') => ToolHookContext.beforeToolUse(ToolCall.create('Bash', { command }, 'c1'));

/** A hook deciding `decide(ctx)` after `started` has been called, for checking that members overlap. */
const hook = (decide: (ctx: ToolHookContext<'PreToolUse'>, next: NextFn) => HookOutcome | Promise<HookOutcome>, extra: Partial<Hook> = {}): Hook => ({
  events: ['PreToolUse'],
  handle: (ctx: AnyHookContext, next: NextFn) => decide(ctx as ToolHookContext<'PreToolUse'>, next),
  ...extra,
});

describe('ParallelHooks', () => {
  it('runs its members at the same time: each starts before any finishes', async () => {
    const started: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const member = (i: number) =>
      hook(async (ctx, next) => {
        started.push(i);
        if (started.length === 3) release();
        await gate;
        return next(ctx);
      });
    const outcome = await new HookStack().with(new ParallelHooks([member(1), member(2), member(3)])).process(pre());
    expect(started.sort()).toEqual([1, 2, 3]);
    expect(outcome.type).toBe('proceed');
  });

  it('no member sees another’s rewrite; the last rewrite wins and reaches the rest of the stack', async () => {
    const seen: string[] = [];
    const rewrite = (to: string) => hook((ctx, next) => (seen.push(String(ctx.toolCall.args.command)), next(ctx.withArgs({ command: to }))));
    const after: string[] = [];
    const outcome = await new HookStack()
      .with(new ParallelHooks([rewrite('first'), hook((ctx, next) => next(ctx)), rewrite('second'), hook((ctx, next) => next())]), 10)
      .with((ctx: AnyHookContext, next: NextFn) => (after.push(String((ctx as ToolHookContext).toolCall.args.command)), next()), 1)
      .process(pre('original'));
    expect(seen).toEqual(['original', 'original']);
    expect(after).toEqual(['second']);
    expect((outcome.context as ToolHookContext).toolCall.args.command).toBe('second');
  });

  it('a block wins, the rest of the stack does not run, and every context and message is kept in order', async () => {
    let rest = false;
    const outcome = await new HookStack()
      .with(
        new ParallelHooks([
          hook((ctx, next) => HookOutcome.merge(HookOutcome.proceed(undefined, { additionalContext: 'a' }), next(ctx) as HookOutcome)),
          hook(() => HookOutcome.block('no', { additionalContext: 'b' })),
          hook(() => HookOutcome.ask('sure?')),
        ]),
        10,
      )
      .with((_: AnyHookContext, next: NextFn) => ((rest = true), next()), 1)
      .process(pre());
    expect(outcome.type).toBe('block');
    expect(outcome.reason).toBe('no');
    expect(outcome.additionalContext).toEqual(['a', 'b']);
    expect(rest).toBe(false);
  });

  it('honours each member’s events and matcher', async () => {
    const ran: string[] = [];
    const group = new ParallelHooks([
      hook((ctx, next) => (ran.push('bash'), next(ctx)), { matcher: 'Bash' }),
      hook((ctx, next) => (ran.push('write'), next(ctx)), { matcher: 'Write' }),
      { events: ['Stop'], handle: (ctx: AnyHookContext, next: NextFn) => (ran.push('stop'), next(ctx)) },
    ]);
    await new HookStack().with(group).process(pre());
    expect(ran).toEqual(['bash']);
    expect(group.events).toEqual(['PreToolUse', 'Stop']);
  });

  it('a member that throws does so after the others have finished', async () => {
    let finished = false;
    const group = new ParallelHooks([
      hook(() => {
        throw new Error('boom');
      }),
      hook(async (ctx, next) => {
        await new Promise((r) => setTimeout(r, 30));
        finished = true;
        return next(ctx);
      }),
    ]);
    await expect(group.handle(pre(), () => HookOutcome.proceed(), { signal: new AbortController().signal } as never)).rejects.toThrow('boom');
    expect(finished).toBe(true);
  });

  it('decides as the same hooks in a stack decide, whatever the mix of decisions (without rewrites)', async () => {
    const decision = fc.constantFrom('proceed', 'allow', 'ask', 'block', 'stop');
    await fc.assert(
      fc.asyncProperty(fc.array(decision, { minLength: 1, maxLength: 6 }), async (kinds) => {
        const members = kinds.map((kind, i) =>
          hook((ctx, next) => {
            const extras = { additionalContext: `c${i}` };
            if (kind === 'block') return HookOutcome.block(`b${i}`, extras);
            if (kind === 'stop') return HookOutcome.stop(`s${i}`, extras);
            const own = kind === 'ask' ? HookOutcome.ask(`a${i}`, extras) : kind === 'allow' ? HookOutcome.allow(undefined, extras) : HookOutcome.proceed(undefined, extras);
            return HookOutcome.merge(own, next(ctx) as HookOutcome);
          }),
        );
        const parallel = await new HookStack().with(new ParallelHooks(members)).process(pre());
        const sequential = await members.reduce((stack, m, i) => stack.with(m, 100 - i), new HookStack()).process(pre());
        expect(parallel.type).toBe(sequential.type);
        expect(parallel.granted).toBe(sequential.granted);
        if (parallel.type !== 'proceed') expect(parallel.reason).toBe(sequential.reason);
        // The stack stops at a block; side by side, every member ran, so its contexts may hold more.
        for (const c of sequential.additionalContext) expect(parallel.additionalContext).toContain(c);
      }),
      { numRuns: 200 },
    );
  });
});
