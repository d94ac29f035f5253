/**
 * The stack's fast paths keep the semantics of the general one: an event without hooks, event callbacks run in a
 * loop (no `next` function, no promise per hook), and a dispatch that resumes after an asynchronous callback.
 */
import { describe, expect, it } from 'vitest';
import {
  AgentBuilder,
  BeforeToolHook,
  CallableHook,
  EventHook,
  ExecutionHookContext,
  HookError,
  HookOutcome,
  HookStack,
  ScriptedModel,
  StopHook,
  StopHookContext,
  ToolCall,
  ToolHookContext,
  type AnyHookContext,
  type DispatchRecord,
  type HookRunInfo,
  type NextFn,
} from 'agent-hooks';

const pre = (name = 'bash', args: Record<string, unknown> = { command: 'ls' }) => ToolHookContext.beforeToolUse(ToolCall.create(name, args));

/** A hook with a `next` function that logs around it. */
const around = (log: string[], name: string) =>
  new CallableHook(
    (ctx: AnyHookContext, next: NextFn) => {
      log.push(`before ${name}`);
      const result = next(ctx);
      const after = (r: HookOutcome) => (log.push(`after ${name}`), r);
      return result instanceof Promise ? result.then(after) : after(result);
    },
    undefined,
    { name },
  );

describe('HookStack, an event without hooks', () => {
  const withBashHooks = new HookStack().with(new BeforeToolHook(() => undefined, { matcher: 'bash' }));

  it.each([
    ['an empty stack', new HookStack(), () => pre()],
    ['an event no hook listens to', withBashHooks, () => StopHookContext.stop({ stopReason: 'no_tool_calls' })],
    ['a tool no hook matches', withBashHooks, () => pre('read')],
  ])('%s: dispatch returns, synchronously, a proceed carrying the very context dispatched', async (_, stack, make) => {
    const ctx = make();
    const outcome = stack.dispatch(ctx);
    expect(outcome).toBeInstanceOf(HookOutcome);
    expect((outcome as HookOutcome).type).toBe('proceed');
    expect((outcome as HookOutcome).context).toBe(ctx);
    expect((outcome as HookOutcome).additionalContext).toEqual([]);
    expect((await stack.process(ctx)).context).toBe(ctx);
  });

  it('still runs the terminal, with the context, and returns what it decides', async () => {
    const ctx = pre('read');
    const seen: AnyHookContext[] = [];
    const outcome = await withBashHooks.process(ctx, (c) => (seen.push(c), HookOutcome.block('terminal says no')));
    expect(seen).toEqual([ctx]);
    expect(outcome.reason).toBe('terminal says no');
    // A context-free proceed from the terminal goes on with the dispatched context.
    expect((await new HookStack().process(ctx, () => HookOutcome.proceed())).context).toBe(ctx);
  });

  it('has no hooks for the event, as hasHooksFor says', () => {
    expect(withBashHooks.hasHooksFor('Stop')).toBe(false);
    expect(withBashHooks.hasHooksFor('PreToolUse')).toBe(true);
    expect(new HookStack().hasHooksFor('PreToolUse')).toBe(false);
  });

  it('an agent still reports every event to its listeners, and builds no context when nobody listens', async () => {
    const built: string[] = [];
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel(['Done.']))
      .onStop((ctx) => void built.push(ctx.event))
      .build();
    const records: DispatchRecord[] = [];
    agent.events.on('dispatched', (r) => records.push(r));
    await agent.run('Go');
    // ExecutionStart has no hook, but a listener: it is dispatched, with a proceed carrying its context.
    const start = records.find((r) => r.context.event === 'ExecutionStart')!;
    expect(start.outcome.type).toBe('proceed');
    expect(start.outcome.context).toBe(start.context);
    // BeforeToolSelection decides inside BeforeModel's chain, before the model call its terminal makes.
    expect(records.map((r) => r.context.event)).toEqual([
      'ExecutionStart',
      'UserPromptSubmit',
      'BeforeStep',
      'BeforeToolSelection',
      'BeforeModel',
      'AfterModel',
      'AfterStep',
      'Stop',
      'AfterStop',
      'AfterAgent',
      'ExecutionEnd',
    ]);
    expect(built).toEqual(['Stop']);
  });
});

describe('HookStack, event callbacks among other hooks', () => {
  it('keeps the priority order and the onion: a wrapping hook sees the later callbacks inside its next()', async () => {
    const log: string[] = [];
    const stack = new HookStack()
      .with(new BeforeToolHook(() => void log.push('callback 30')), 30)
      .with(around(log, 'outer 20'), 20)
      .with(new BeforeToolHook(() => void log.push('callback 10')), 10)
      .with(new BeforeToolHook(async () => void log.push('async callback 5')), 5)
      .with(around(log, 'inner 0'), 0)
      .with(new BeforeToolHook(() => void log.push('callback -10')), -10);
    await stack.process(pre(), (ctx) => (log.push('terminal'), HookOutcome.proceed(ctx)));
    expect(log).toEqual([
      'callback 30',
      'before outer 20',
      'callback 10',
      'async callback 5',
      'before inner 0',
      'callback -10',
      'terminal',
      'after inner 0',
      'after outer 20',
    ]);
  });

  it('stays synchronous through synchronous callbacks, and goes asynchronous at the first promise', async () => {
    const sync = new HookStack().withAll([new BeforeToolHook(() => undefined), new BeforeToolHook(() => undefined)]);
    expect(sync.dispatch(pre())).toBeInstanceOf(HookOutcome);
    const mixed = sync.with(new BeforeToolHook(async () => undefined), -1).with(new BeforeToolHook(() => undefined), -2);
    const result = mixed.dispatch(pre());
    expect(result).toBeInstanceOf(Promise);
    expect((await result).type).toBe('proceed');
  });

  it('hands each callback the context as earlier callbacks left it, across awaits, and ends with it', async () => {
    const seen: string[] = [];
    const stack = new HookStack()
      .with(new BeforeToolHook((ctx) => ctx.toolCall.withArg('step', 'a')), 30)
      .with(new BeforeToolHook(async (ctx) => ctx.toolCall.withArg('step', `${String(ctx.toolCall.args['step'])}b`)), 20)
      .with(new BeforeToolHook((ctx) => void seen.push(String(ctx.toolCall.args['step']))), 15)
      .with(new BeforeToolHook(async (ctx) => ctx.withMetadata('seen', true)), 10)
      .with(new BeforeToolHook((ctx) => ctx.toolCall.withArg('step', `${String(ctx.toolCall.args['step'])}c`)), 0);
    const outcome = await stack.process(pre());
    const ctx = outcome.context as ToolHookContext;
    expect(seen).toEqual(['ab']);
    expect(ctx.toolCall.args['step']).toBe('abc');
    expect(ctx.get('seen')).toBe(true);
  });

  it('re-selects the chain when an asynchronous callback renames the tool', async () => {
    const ran: string[] = [];
    const stack = new HookStack()
      .with(new BeforeToolHook(async (ctx) => ctx.toolCall.withName('safe_bash'), { matcher: 'bash' }), 10)
      .with(new BeforeToolHook(() => void ran.push('bash hook'), { matcher: 'bash' }), 5)
      .with(new BeforeToolHook(async () => void ran.push('safe_bash hook'), { matcher: 'safe_bash' }), 5)
      .with(new BeforeToolHook(() => void ran.push('any')), 0);
    const outcome = await stack.process(pre('bash'));
    expect(ran).toEqual(['safe_bash hook', 'any']);
    expect((outcome.context as ToolHookContext).toolName).toBe('safe_bash');
  });

  it('ends the chain at a block, sync or async: no later hook or terminal runs', async () => {
    for (const block of [() => HookOutcome.block('no'), async () => HookOutcome.block('no')]) {
      const log: string[] = [];
      const stack = new HookStack()
        .with(new BeforeToolHook(async () => void log.push('first')), 10)
        .with(new BeforeToolHook(block), 5)
        .with(around(log, 'later'), 0);
      const outcome = await stack.process(pre(), () => (log.push('terminal'), HookOutcome.proceed()));
      expect(outcome.type).toBe('block');
      expect(log).toEqual(['first']);
    }
  });

  it('merges an ask, a grant and extras with what the later hooks decide, in order', async () => {
    const asked = await new HookStack()
      .with(new BeforeToolHook(async () => HookOutcome.ask('check this', { additionalContext: 'one' })), 10)
      .with(new BeforeToolHook(() => HookOutcome.proceed(undefined, { additionalContext: 'two' })), 5)
      .with(new BeforeToolHook(async () => HookOutcome.proceed(undefined, { systemMessage: 'three' })), 0)
      .process(pre());
    expect(asked.type).toBe('ask');
    expect(asked.reason).toBe('check this');
    expect(asked.additionalContext).toEqual(['one', 'two']);
    expect(asked.systemMessages).toEqual(['three']);
    expect(asked.context?.event).toBe('PreToolUse');

    const denied = await new HookStack()
      .with(new BeforeToolHook(() => HookOutcome.allow()), 10)
      .with(new BeforeToolHook(async () => HookOutcome.block('later deny wins')), 0)
      .process(pre());
    expect(denied.type).toBe('block');

    const granted = await new HookStack().with(new BeforeToolHook(() => HookOutcome.allow()), 10).with(new BeforeToolHook(async () => undefined), 0).process(pre());
    expect(granted.granted).toBe(true);
  });

  it('wraps a throwing callback, sync or async, in a HookError naming it, which a wrapping hook around it can catch', async () => {
    for (const explode of [
      function explode(): undefined {
        throw new Error('boom');
      },
      async function explode(): Promise<undefined> {
        throw new Error('boom');
      },
    ]) {
      const stack = new HookStack().with(new BeforeToolHook(async () => undefined), 20).with(new BeforeToolHook(explode), 0);
      const error = (await stack.process(pre()).catch((e: unknown) => e)) as HookError;
      expect(error).toBeInstanceOf(HookError);
      expect(error.hookName).toBe('explode');
      expect((error.cause as Error).message).toBe('boom');

      const rescued = await stack
        .with(
          new CallableHook(
            async (ctx, next) => {
              try {
                return await next(ctx);
              } catch {
                return HookOutcome.block('rescued');
              }
            },
            undefined,
            { name: 'rescuer' },
          ),
          10,
        )
        .process(pre());
      expect(rescued.reason).toBe('rescued');
    }
  });

  it('says what is wrong when a callback proceeds with a context of another event, or answers with a thenable', async () => {
    const other = ExecutionHookContext.onStart();
    const wrong = new HookStack().with(new BeforeToolHook(() => HookOutcome.proceed(other) as never, { name: 'wrong' }));
    await expect(wrong.process(pre())).rejects.toThrow(/'wrong'.*passed a ExecutionStart context to next\(\)/);
    // Only a real promise is waited for, as EventHook.handle has always done.
    const thenable = new HookStack().with(new BeforeToolHook(() => ({ then: () => undefined }) as never, { name: 'thenable' }));
    await expect(thenable.process(pre())).rejects.toThrow(/'thenable'.*returned an object/);
  });

  it('runs the handle of an EventHook subclass that overrides it', async () => {
    const log: string[] = [];
    class TimedHook extends EventHook<'PreToolUse'> {
      override handle(ctx: AnyHookContext, next: NextFn) {
        log.push('timed before');
        const result = super.handle(ctx, next);
        log.push('timed after');
        return result;
      }
    }
    const stack = new HookStack().with(new TimedHook('PreToolUse', () => void log.push('callback')), 10).with(new BeforeToolHook(() => void log.push('later')), 0);
    await stack.process(pre());
    expect(log).toEqual(['timed before', 'callback', 'later', 'timed after']);
  });

  it('tells an observer about every callback, in order, as it does for any hook', async () => {
    const starts: HookRunInfo[] = [];
    const ends: string[] = [];
    const stack = new HookStack()
      .with(new BeforeToolHook(() => undefined, { name: 'a' }), 10)
      .with(new BeforeToolHook(async () => undefined, { name: 'b' }), 5)
      .with(new StopHook(() => undefined, { name: 'stop only' }), 0);
    await stack.process(pre(), undefined, {
      observer: { onHookStart: (info) => starts.push(info), onHookEnd: (info) => ends.push(`${info.hookName}:${info.outcome.type}`) },
    });
    expect(starts).toEqual([
      { hookName: 'a', priority: 10, event: 'PreToolUse' },
      { hookName: 'b', priority: 5, event: 'PreToolUse' },
    ]);
    expect(ends).toEqual(['b:proceed', 'a:proceed']);
  });
});
