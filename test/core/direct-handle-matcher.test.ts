import { describe, expect, it } from 'vitest';
import {
  AgentBuilder,
  BeforeToolHook,
  CallableHook,
  CallableMatcher,
  EventHook,
  HookOutcome,
  HookStack,
  ToolCall,
  ToolHookContext,
  type AnyHookContext,
  type Hook,
  type MaybePromise,
  type NextFn,
} from 'agent-hooks';

const call = (name: string) => ToolHookContext.beforeToolUse(ToolCall.create(name, { command: 'ls' }));
const next: NextFn = (ctx) => HookOutcome.proceed(ctx);
/** The hooks here answer synchronously. */
const sync = (result: MaybePromise<HookOutcome>): HookOutcome => result as HookOutcome;

/** A predicate matcher that counts how often it is asked: what "evaluated once" is measured by. */
function counting(tool: string) {
  const seen = { count: 0 };
  const matcher = new CallableMatcher((ctx) => {
    seen.count++;
    return ctx.event === 'PreToolUse' && ctx.toolCall.name === tool;
  });
  return { matcher, seen };
}

describe('a built-in hook called directly honours its own matcher', () => {
  it('BeforeToolHook: skips straight to next where the matcher does not match, as the PHP hooks did', () => {
    const seen: string[] = [];
    const hook = new BeforeToolHook((ctx) => void seen.push(ctx.toolCall.name), { matcher: 'Bash' });
    expect(sync(hook.handle(call('Read'), next)).type).toBe('proceed');
    expect(seen).toEqual([]);
    hook.handle(call('Bash'), next);
    expect(seen).toEqual(['Bash']);
  });

  it('BeforeToolHook: a non-matching call is not blocked by a callback that would block it', () => {
    const hook = new BeforeToolHook(() => HookOutcome.block('no'), { matcher: 'Bash' });
    expect(sync(hook.handle(call('Read'), next)).type).toBe('proceed');
    expect(sync(hook.handle(call('Bash'), next)).type).toBe('block');
  });

  it('CallableHook: the function is not called where the matcher does not match', () => {
    const hook = new CallableHook(() => HookOutcome.block('no'), 'Bash');
    expect(hook.handle(call('Read'), next, undefined as never)).toMatchObject({ type: 'proceed' });
    expect(hook.handle(call('Bash'), next, undefined as never)).toMatchObject({ type: 'block' });
  });

  it('a hook that wraps a built-in hook gets the inner matcher applied, inside a stack too', async () => {
    const inner = new BeforeToolHook(() => HookOutcome.block('Bash is off'), { matcher: 'Bash' });
    const wrapper: Hook = { name: 'wrapper', handle: (ctx, n) => inner.handle(ctx, n) };
    const stack = new HookStack().with(wrapper);
    expect((await stack.process(call('Read'))).type).toBe('proceed');
    expect((await stack.process(call('Bash'))).type).toBe('block');
  });

  it("leaves a user's own Hook class alone: its handle runs whatever its matcher, when called directly", () => {
    class AlwaysBlocks implements Hook {
      readonly matcher = 'Bash';
      handle(): HookOutcome {
        return HookOutcome.block('mine');
      }
    }
    expect((new AlwaysBlocks().handle() as HookOutcome).type).toBe('block');
  });
});

describe('the matcher is evaluated once per dispatch in a stack', () => {
  it('CallableHook (the stack checks it, then calls handle)', async () => {
    const { matcher, seen } = counting('Bash');
    const stack = new HookStack().with(new CallableHook((ctx, n) => n(ctx), matcher));
    await stack.process(call('Bash'));
    expect(seen.count).toBe(1);
    await stack.process(call('Read'));
    expect(seen.count).toBe(2);
  });

  it('an EventHook subclass whose handle calls super.handle', async () => {
    const { matcher, seen } = counting('Bash');
    const ran: string[] = [];
    class Logged extends EventHook<'PreToolUse'> {
      constructor() {
        super('PreToolUse', (ctx) => void ran.push(ctx.toolCall.name), { matcher });
      }
      override handle(ctx: AnyHookContext, n: NextFn) {
        return super.handle(ctx, n);
      }
    }
    const stack = new HookStack().with(new Logged());
    await stack.process(call('Bash'));
    expect(ran).toEqual(['Bash']);
    expect(seen.count).toBe(1);
  });

  it('an EventHook under an observer (the stack goes through handle to time it)', async () => {
    const { matcher, seen } = counting('Bash');
    const stack = new HookStack().with(new BeforeToolHook(() => undefined, { matcher }));
    await stack.process(call('Bash'), undefined, { observer: {} });
    expect(seen.count).toBe(1);
  });

  it('a hook the builder wraps (onHookError, addHook with a Hook)', async () => {
    const { matcher, seen } = counting('Bash');
    const builder = AgentBuilder.new()
      .onHookError('ignore')
      .addHook('PreToolUse', new CallableHook((ctx, n) => n(ctx), matcher))
      .addHook('PreToolUse', new CallableHook((ctx, n) => n(ctx), matcher), { matcher: () => true });
    const { stack } = await builder.resolveHooks();
    await stack.process(call('Bash'));
    expect(seen.count).toBe(2);
  });
});
