import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AfterToolHook,
  BeforeToolHook,
  CallableHook,
  CompositeMatcher,
  EventTypeMatcher,
  ExecutionHookContext,
  HookError,
  HookOutcome,
  HookStack,
  InputPatternMatcher,
  StopHookContext,
  ToolCall,
  ToolExecution,
  ToolHookContext,
  ToolNameMatcher,
  type AnyHookContext,
  type Hook,
  type NextFn,
} from 'agent-hooks';

const pre = (name = 'bash', args: Record<string, unknown> = { command: 'ls' }) =>
  ToolHookContext.beforeToolUse(ToolCall.create(name, args));

/** A hook that records its name before and after `next`. */
const recorder = (log: string[], name: string, extra: Partial<Hook> = {}): Hook => ({
  name,
  ...extra,
  handle(ctx: AnyHookContext, next: NextFn) {
    log.push(`before ${name}`);
    const result = next(ctx);
    const after = (r: HookOutcome) => {
      log.push(`after ${name}`);
      return r;
    };
    return result instanceof Promise ? result.then(after) : after(result);
  },
});

describe('HookStack ordering', () => {
  it('runs higher priority first, whatever the registration order', async () => {
    const log: string[] = [];
    const stack = new HookStack()
      .with(recorder(log, 'logging'), -100)
      .with(recorder(log, 'normal'))
      .with(recorder(log, 'security'), 100);
    await stack.process(pre());
    expect(log.filter((l) => l.startsWith('before'))).toEqual(['before security', 'before normal', 'before logging']);
  });

  it('keeps registration order for equal priorities (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 30 }), async (priorities) => {
        const ran: number[] = [];
        let stack = new HookStack();
        priorities.forEach((priority, i) => {
          stack = stack.with(
            new CallableHook((ctx, next) => {
              ran.push(i);
              return next(ctx);
            }),
            priority,
          );
        });
        await stack.process(pre());
        const expected = priorities
          .map((priority, i) => ({ priority, i }))
          .sort((a, b) => b.priority - a.priority || a.i - b.i)
          .map((x) => x.i);
        expect(ran).toEqual(expected);
      }),
    );
  });

  it('gives the same order whether hooks are added one by one, with withAll, or by concat (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 20 }), fc.nat(20), (priorities, cut) => {
        const hooks = priorities.map((priority, i) => ({ hook: new CallableHook((c, n) => n(c), undefined, { name: `h${i}` }), priority }));
        const one = hooks.reduce((s, h) => s.with(h.hook, h.priority), new HookStack());
        const all = new HookStack().withAll(hooks);
        const split = new HookStack(hooks.slice(0, cut)).concat(new HookStack(hooks.slice(cut)));
        const names = (s: HookStack) => s.all().map((e) => e.name);
        expect(names(all)).toEqual(names(one));
        expect(names(split)).toEqual(names(one));
      }),
    );
  });

  it('is immutable: with() returns a new stack and leaves the old one as it was', async () => {
    const empty = new HookStack();
    const one = empty.with(new CallableHook((c, n) => n(c)));
    expect(empty.isEmpty).toBe(true);
    expect(empty.count).toBe(0);
    expect(one.count).toBe(1);
    expect(one).not.toBe(empty);
    const blocked = one.with(new BeforeToolHook(() => HookOutcome.block('no')));
    expect((await one.process(pre())).isProceed()).toBe(true);
    expect((await blocked.process(pre())).isBlocked()).toBe(true);
  });

  it('rejects a non-finite priority and a non-hook', () => {
    expect(() => new HookStack().with(new CallableHook((c, n) => n(c)), Number.NaN)).toThrow(/finite number/);
    expect(() => new HookStack().with({} as Hook)).toThrow(/handle\(ctx, next\)/);
  });
});

describe('HookStack default priority', () => {
  it("registers a hook at its own priority when none is given, and at the given one otherwise", () => {
    const own = { name: 'own', priority: 50, handle: (ctx: AnyHookContext, next: NextFn) => next() };
    const plain = { name: 'plain', handle: (ctx: AnyHookContext, next: NextFn) => next() };
    const stack = new HookStack().with(plain).with(own).withAll([{ hook: { ...own, name: 'overridden' }, priority: -5 }]);
    expect(stack.all().map((e) => [e.name, e.priority])).toEqual([
      ['own', 50],
      ['plain', 0],
      ['overridden', -5],
    ]);
  });
});

describe('HookStack onion', () => {
  it('runs before1, before2, terminal, after2, after1', async () => {
    const log: string[] = [];
    const stack = new HookStack().with(recorder(log, '1'), 10).with(recorder(log, '2'), 5);
    await stack.process(pre(), (ctx) => {
      log.push('terminal');
      return HookOutcome.proceed(ctx);
    });
    expect(log).toEqual(['before 1', 'before 2', 'terminal', 'after 2', 'after 1']);
  });

  it('keeps the onion order with async hooks and an async terminal', async () => {
    const log: string[] = [];
    const asyncRecorder = (name: string) =>
      new CallableHook(async (ctx, next) => {
        log.push(`before ${name}`);
        await new Promise((r) => setTimeout(r, 1));
        const outcome = await next(ctx);
        log.push(`after ${name}`);
        return outcome;
      });
    const stack = new HookStack().with(asyncRecorder('1'), 2).with(recorder(log, '2'), 1);
    await stack.process(pre(), async (ctx) => {
      await new Promise((r) => setTimeout(r, 1));
      log.push('terminal');
      return HookOutcome.proceed(ctx);
    });
    expect(log).toEqual(['before 1', 'before 2', 'terminal', 'after 2', 'after 1']);
  });

  it('short-circuits on block: later hooks and the terminal do not run', async () => {
    const log: string[] = [];
    const stack = new HookStack()
      .with(recorder(log, 'outer'), 10)
      .with(new BeforeToolHook(() => HookOutcome.block('Dangerous command')), 5)
      .with(recorder(log, 'inner'), 0);
    const outcome = await stack.process(pre(), (ctx) => {
      log.push('terminal');
      return HookOutcome.proceed(ctx);
    });
    expect(outcome.isBlocked()).toBe(true);
    expect(outcome.reason).toBe('Dangerous command');
    expect(log).toEqual(['before outer', 'after outer']);
  });

  it('short-circuits on stop', async () => {
    const log: string[] = [];
    const stack = new HookStack()
      .with(new CallableHook(() => HookOutcome.stop('Budget exceeded')), 5)
      .with(recorder(log, 'later'), 0);
    const outcome = await stack.process(ExecutionHookContext.onStart(), () => {
      log.push('terminal');
      return HookOutcome.proceed();
    });
    expect(outcome.isStopped()).toBe(true);
    expect(outcome.reason).toBe('Budget exceeded');
    expect(log).toEqual([]);
  });

  it('lets a hook act after next(): replace the outcome on the way out', async () => {
    const stack = new HookStack().with(
      new CallableHook(async (ctx, next) => {
        const inner = await next(ctx);
        return inner.isProceed() ? HookOutcome.block('post-check failed') : inner;
      }),
    );
    expect((await stack.process(pre())).reason).toBe('post-check failed');
  });

  it('runs the terminal with the final context and attaches it to a context-free proceed', async () => {
    const stack = new HookStack().with(new BeforeToolHook((ctx) => ctx.toolCall.withArg('command', 'ls -la')));
    let seen: AnyHookContext | undefined;
    const outcome = await stack.process(pre(), (ctx) => {
      seen = ctx;
      return HookOutcome.proceed();
    });
    expect(seen && 'toolCall' in seen ? seen.toolCall.args.command : undefined).toBe('ls -la');
    expect(outcome.context).toBe(seen);
  });

  it('defaults the terminal to proceed with the final context', async () => {
    const ctx = pre();
    const outcome = await new HookStack().process(ctx);
    expect(outcome.isProceed()).toBe(true);
    expect(outcome.context).toBe(ctx);
  });

  it('stays synchronous with dispatch() when every hook is synchronous', () => {
    const stack = new HookStack().with(new BeforeToolHook(() => undefined)).with(recorder([], 'sync'));
    const result = stack.dispatch(pre());
    expect(result).toBeInstanceOf(HookOutcome);
    expect(result instanceof Promise).toBe(false);
  });

  it('becomes asynchronous with dispatch() as soon as one hook returns a promise', async () => {
    const stack = new HookStack().with(new BeforeToolHook(async () => undefined));
    const result = stack.dispatch(pre());
    expect(result).toBeInstanceOf(Promise);
    expect((await result).isProceed()).toBe(true);
  });
});

describe('HookStack merging', () => {
  it('a void callback proceeds (it does not block, unlike the PHP original)', async () => {
    const stack = new HookStack().with(new BeforeToolHook(() => {}));
    const outcome = await stack.process(pre());
    expect(outcome.isProceed()).toBe(true);
    expect(outcome.isBlocked()).toBe(false);
  });

  it('a returned ToolCall modifies the call, and the next hook sees the modification', async () => {
    const seen: unknown[] = [];
    const stack = new HookStack()
      .with(new BeforeToolHook((ctx) => ctx.toolCall.withArg('command', 'ls --safe')), 10)
      .with(
        new BeforeToolHook((ctx) => {
          seen.push(ctx.toolCall.args.command);
        }),
        0,
      );
    const outcome = await stack.process(pre());
    expect(seen).toEqual(['ls --safe']);
    const ctx = outcome.context as ToolHookContext;
    expect(ctx.toolCall.args.command).toBe('ls --safe');
  });

  it('two hooks that each modify the input both take effect, in priority order', async () => {
    const stack = new HookStack()
      .with(new BeforeToolHook((ctx) => ctx.toolCall.withArg('command', `${String(ctx.toolCall.args.command)} --first`)), 2)
      .with(new BeforeToolHook((ctx) => ctx.toolCall.withArg('timeout', 30)), 1)
      .with(new BeforeToolHook((ctx) => HookOutcome.proceed(ctx.withArgs({ ...ctx.toolCall.args, command: `${String(ctx.toolCall.args.command)} --third` }))), 0);
    const outcome = await stack.process(pre());
    const call = (outcome.context as ToolHookContext).toolCall;
    expect(call.args).toEqual({ command: 'ls --first --third', timeout: 30 });
  });

  it('a PostToolUse hook replaces the result', async () => {
    const call = ToolCall.create('read_file', { path: 'a' });
    const stack = new HookStack()
      .with(new AfterToolHook((ctx) => ctx.execution!.withResult('[redacted]')), 1)
      .with(new AfterToolHook((ctx) => ToolExecution.success(ctx.toolCall, `${String(ctx.execution!.result)}!`)), 0);
    const outcome = await stack.process(ToolHookContext.afterToolUse(ToolExecution.success(call, 'secret')));
    expect((outcome.context as ToolHookContext).execution!.result).toBe('[redacted]!');
  });

  it('ask + allow → ask', async () => {
    const stack = new HookStack()
      .with(new BeforeToolHook(() => HookOutcome.ask('Writes outside the project')), 10)
      .with(new BeforeToolHook(() => HookOutcome.proceed()), 0);
    const outcome = await stack.process(pre());
    expect(outcome.needsApproval()).toBe(true);
    expect(outcome.decision).toBe('ask');
    expect(outcome.reason).toBe('Writes outside the project');
    expect(outcome.context?.event).toBe('PreToolUse');
  });

  it('allow + ask → ask (a later ask is not lost)', async () => {
    const stack = new HookStack()
      .with(new BeforeToolHook(() => HookOutcome.proceed()), 10)
      .with(new BeforeToolHook(() => HookOutcome.ask('Needs a human')), 0);
    expect((await stack.process(pre())).decision).toBe('ask');
  });

  it('deny + ask → deny, whichever runs first', async () => {
    const askFirst = new HookStack()
      .with(new BeforeToolHook(() => HookOutcome.ask('maybe')), 10)
      .with(new BeforeToolHook(() => HookOutcome.block('no')), 0);
    const denyFirst = new HookStack()
      .with(new BeforeToolHook(() => HookOutcome.block('no')), 10)
      .with(new BeforeToolHook(() => HookOutcome.ask('maybe')), 0);
    for (const stack of [askFirst, denyFirst]) {
      const outcome = await stack.process(pre());
      expect(outcome.decision).toBe('deny');
      expect(outcome.reason).toBe('no');
    }
  });

  it('a modified input from an ask hook reaches later hooks', async () => {
    const seen: unknown[] = [];
    const stack = new HookStack()
      .with(new BeforeToolHook((ctx) => HookOutcome.ask('check', { context: ctx.withArgs({ command: 'ls -1' }) })), 1)
      .with(new BeforeToolHook((ctx) => void seen.push(ctx.toolCall.args.command)), 0);
    const outcome = await stack.process(pre());
    expect(seen).toEqual(['ls -1']);
    expect((outcome.context as ToolHookContext).toolCall.args.command).toBe('ls -1');
  });

  it('keeps every additionalContext and systemMessage, in order, even when a later hook blocks', async () => {
    const stack = new HookStack()
      .with(new BeforeToolHook(() => HookOutcome.proceed(undefined, { additionalContext: 'first', systemMessage: 'note 1' })), 3)
      .with(new BeforeToolHook(() => HookOutcome.ask('second', { additionalContext: ['second a', 'second b'] })), 2)
      .with(new BeforeToolHook(() => HookOutcome.block('third', { additionalContext: 'third', systemMessage: 'note 3' })), 1)
      .with(new BeforeToolHook(() => HookOutcome.proceed(undefined, { additionalContext: 'never' })), 0);
    const outcome = await stack.process(pre());
    expect(outcome.type).toBe('block');
    expect(outcome.additionalContext).toEqual(['first', 'second a', 'second b', 'third']);
    expect(outcome.systemMessages).toEqual(['note 1', 'note 3']);
  });

  it('metadata set by one hook is read by later hooks of the same dispatch', async () => {
    const stack = new HookStack()
      .with(new CallableHook((ctx, next) => next(ctx.withMetadata('started_at', 42))), 1)
      .with(new BeforeToolHook((ctx) => (ctx.get('started_at') === 42 ? undefined : HookOutcome.block('metadata lost'))), 0);
    const outcome = await stack.process(pre());
    expect(outcome.isProceed()).toBe(true);
    expect(outcome.context?.get('started_at')).toBe(42);
  });
});

describe('HookStack matchers and indexing', () => {
  it('skips a hook whose matcher does not match, and runs the rest', async () => {
    const log: string[] = [];
    const stack = new HookStack()
      .with(recorder(log, 'bash only', { matcher: new ToolNameMatcher('bash') }), 2)
      .with(recorder(log, 'read only', { matcher: new ToolNameMatcher('read_*') }), 1)
      .with(recorder(log, 'all'), 0);
    await stack.process(pre('read_file'));
    expect(log.filter((l) => l.startsWith('before'))).toEqual(['before read only', 'before all']);
  });

  it('runs a hook only for the events it declares', async () => {
    const log: string[] = [];
    const stack = new HookStack().with(recorder(log, 'pre only', { events: ['PreToolUse'] })).with(recorder(log, 'stop only', { events: ['before_stop' as 'Stop'] }));
    await stack.process(pre());
    await stack.process(StopHookContext.stop({ stopReason: 'no_tool_calls' }));
    expect(log.filter((l) => l.startsWith('before'))).toEqual(['before pre only', 'before stop only']);
  });

  it('hooksFor lists the hooks an event and tool can reach, in order', () => {
    const stack = new HookStack()
      .with(new BeforeToolHook(() => {}, { matcher: 'bash', name: 'bash guard' }), 100)
      .with(new BeforeToolHook(() => {}, { matcher: 'read_file|write_file', name: 'files' }), 50)
      .with(new AfterToolHook(() => {}, { name: 'after' }))
      .with(new CallableHook((c, n) => n(c), undefined, { name: 'everything' }), -100);
    expect(stack.hooksFor('PreToolUse', 'bash').map((e) => e.name)).toEqual(['bash guard', 'everything']);
    expect(stack.hooksFor('before_tool', 'write_file').map((e) => e.name)).toEqual(['files', 'everything']);
    expect(stack.hooksFor('PreToolUse').map((e) => e.name)).toEqual(['bash guard', 'files', 'everything']);
    expect(stack.hooksFor('PostToolUse', 'bash').map((e) => e.name)).toEqual(['after', 'everything']);
    expect(stack.hooksFor('Stop').map((e) => e.name)).toEqual(['everything']);
    expect(stack.hasHooksFor('Notification')).toBe(true);
    expect(new HookStack().with(new BeforeToolHook(() => {})).hasHooksFor('Stop')).toBe(false);
  });

  it('a 1,000-hook stack over 100 tools runs exactly the matching hooks for a tool (property)', async () => {
    const tools = Array.from({ length: 100 }, (_, i) => `tool_${i}`);
    const ran: string[] = [];
    const hooks = Array.from({ length: 1000 }, (_, i) => ({
      hook: new BeforeToolHook(() => void ran.push(`h${i}`), { matcher: tools[i % 100], name: `h${i}` }),
      priority: i % 7,
    }));
    const stack = new HookStack(hooks);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 99 }), async (t) => {
        ran.length = 0;
        await stack.process(pre(tools[t]!));
        const expected = hooks
          .map((h, i) => ({ ...h, i }))
          .filter((h) => h.i % 100 === t)
          .sort((a, b) => b.priority - a.priority || a.i - b.i)
          .map((h) => `h${h.i}`);
        expect(ran).toEqual(expected);
      }),
      { numRuns: 30 },
    );
  });

  it('re-selects hooks when an earlier hook renames the tool', async () => {
    const ran: string[] = [];
    const stack = new HookStack()
      .with(new BeforeToolHook(() => void ran.push('first')), 20)
      .with(new BeforeToolHook((ctx) => ctx.toolCall.withName('safe_bash'), { matcher: 'bash', name: 'rename' }), 10)
      .with(new BeforeToolHook(() => void ran.push('bash hook'), { matcher: 'bash' }), 5)
      .with(new BeforeToolHook(() => void ran.push('safe_bash hook'), { matcher: 'safe_bash' }), 5)
      .with(new BeforeToolHook(() => void ran.push('any')), 0);
    const outcome = await stack.process(pre('bash'));
    // Hooks that already ran (the catch-all first one) do not run again on the new name's chain.
    expect(ran).toEqual(['first', 'safe_bash hook', 'any']);
    expect((outcome.context as ToolHookContext).toolName).toBe('safe_bash');
  });

  it('checks matchers against the context as modified by earlier hooks', async () => {
    const ran: string[] = [];
    const stack = new HookStack()
      .with(new BeforeToolHook((ctx) => ctx.toolCall.withArg('command', 'rm -rf /tmp/x')), 10)
      .with(new BeforeToolHook(() => void ran.push('rm guard'), { matcher: new InputPatternMatcher(/rm -rf/, { field: 'command' }) }), 0);
    await stack.process(pre('bash', { command: 'ls' }));
    expect(ran).toEqual(['rm guard']);
  });

  it('honours composite and event-type matchers on hook classes', async () => {
    const ran: string[] = [];
    const stack = new HookStack().with(
      recorder(ran, 'composite', {
        matcher: CompositeMatcher.and(new EventTypeMatcher('PreToolUse'), CompositeMatcher.not(new ToolNameMatcher('read_*'))),
      }),
    );
    await stack.process(pre('bash'));
    await stack.process(pre('read_file'));
    await stack.process(ExecutionHookContext.onStart());
    expect(ran.filter((l) => l.startsWith('before'))).toEqual(['before composite']);
  });
});

describe('HookStack errors', () => {
  class ExplodingHook implements Hook {
    handle(): HookOutcome {
      throw new Error('boom');
    }
  }

  it('a throwing hook makes process reject with a HookError that names it and the event', async () => {
    const stack = new HookStack().with(new ExplodingHook(), 7);
    const error = await stack.process(pre()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookError);
    const hookError = error as HookError;
    expect(hookError.hookName).toBe('ExplodingHook');
    expect(hookError.event).toBe('PreToolUse');
    expect(hookError.priority).toBe(7);
    expect(hookError.message).toBe("Hook 'ExplodingHook' (priority 7) failed on PreToolUse: boom");
    expect((hookError.cause as Error).message).toBe('boom');
  });

  it('names a callback by its function name, and wraps async rejections the same way', async () => {
    const denyEverything = async (): Promise<HookOutcome> => {
      throw new TypeError('async boom');
    };
    const error = (await new HookStack()
      .with(new BeforeToolHook(denyEverything))
      .process(pre())
      .catch((e: unknown) => e)) as HookError;
    expect(error).toBeInstanceOf(HookError);
    expect(error.hookName).toBe('denyEverything');
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('attributes an inner hook error to the inner hook, not to the hooks around it', async () => {
    const outer = new CallableHook((ctx, next) => next(ctx), undefined, { name: 'outer' });
    const stack = new HookStack().with(outer, 10).with(new ExplodingHook(), 0);
    const error = (await stack.process(pre()).catch((e: unknown) => e)) as HookError;
    expect(error.hookName).toBe('ExplodingHook');
  });

  it('passes an error thrown by the terminal through unchanged', async () => {
    const original = new Error('tool crashed');
    const stack = new HookStack().with(new CallableHook(async (ctx, next) => next(ctx), undefined, { name: 'outer' }));
    await expect(stack.process(pre(), () => { throw original; })).rejects.toBe(original);
  });

  it('rejects, never throws synchronously, and leaves no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const stack = new HookStack().with(new ExplodingHook());
      let promise: Promise<HookOutcome> | undefined;
      expect(() => {
        promise = stack.process(pre());
      }).not.toThrow();
      await expect(promise).rejects.toBeInstanceOf(HookError);
      await new Promise((r) => setTimeout(r, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a hook that calls next() twice gets a clear error', async () => {
    const twice = new CallableHook(
      (ctx, next) => {
        next(ctx);
        return next(ctx);
      },
      undefined,
      { name: 'twice' },
    );
    const error = (await new HookStack().with(twice).process(pre()).catch((e: unknown) => e)) as HookError;
    expect(error).toBeInstanceOf(HookError);
    expect(error.hookName).toBe('twice');
    expect(error.message).toMatch(/called next\(\) more than once on PreToolUse/);
  });

  it('an async hook that awaits next() twice gets the same error', async () => {
    const twice = new CallableHook(async (ctx, next) => {
      await next(ctx);
      return next(ctx);
    });
    await expect(new HookStack().with(twice).process(pre())).rejects.toThrow(/more than once/);
  });

  it('a Hook class that returns nothing gets a clear error instead of a silent decision', async () => {
    const forgetful: Hook = {
      name: 'forgetful',
      handle(ctx, next) {
        next(ctx);
        return undefined as unknown as HookOutcome;
      },
    };
    await expect(new HookStack().with(forgetful).process(pre())).rejects.toThrow(
      /Hook 'forgetful' \(priority 0\) returned undefined instead of a HookOutcome on PreToolUse/,
    );
  });

  it('a callback that returns a meaningless value gets an error that says what to return', async () => {
    const stack = new HookStack().with(new BeforeToolHook(() => 42 as never, { name: 'numeric' }));
    await expect(stack.process(pre())).rejects.toThrow(/returned a number \(42\).*a modified ToolCall/);
  });

  it('a matcher that throws is reported as that hook’s error', async () => {
    const stack = new HookStack().with(
      new BeforeToolHook(() => {}, {
        name: 'picky',
        matcher: () => {
          throw new Error('bad predicate');
        },
      }),
    );
    const error = (await stack.process(pre()).catch((e: unknown) => e)) as HookError;
    expect(error.hookName).toBe('picky');
    expect(error.message).toMatch(/matcher .* threw.*bad predicate/);
  });

  it('next() with a context of another event is an error', async () => {
    const wrong = new CallableHook((_ctx, next) => next(ExecutionHookContext.onStart() as never), undefined, { name: 'wrong' });
    await expect(new HookStack().with(wrong).process(pre())).rejects.toThrow(/passed a ExecutionStart context to next\(\)/);
  });

  it('the stack still works after a failed dispatch', async () => {
    let fail = true;
    const stack = new HookStack().with(
      new BeforeToolHook(() => {
        if (fail) throw new Error('once');
      }),
    );
    await expect(stack.process(pre())).rejects.toBeInstanceOf(HookError);
    fail = false;
    expect((await stack.process(pre())).isProceed()).toBe(true);
  });
});

describe('HookStack.dispatch errors', () => {
  it('throws synchronously, with the same HookError, when a synchronous hook fails', () => {
    const stack = new HookStack().with(
      new BeforeToolHook(
        () => {
          throw new Error('sync boom');
        },
        { name: 'syncFailure' },
      ),
    );
    let thrown: unknown;
    try {
      stack.dispatch(pre());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HookError);
    expect((thrown as HookError).message).toBe("Hook 'syncFailure' (priority 0) failed on PreToolUse: sync boom");
  });
});
