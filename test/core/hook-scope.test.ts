import { describe, expect, it } from 'vitest';
import {
  HookError,
  HookOutcome,
  HookScope,
  HookStack,
  ToolCall,
  ToolHookContext,
  type HookNote,
  type HookObserver,
  type HookRunInfo,
} from 'agent-hooks';

const pre = () => ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'ls' }));

const busyWait = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('HookScope', () => {
  it('hands every hook the same empty scope when a dispatch has no options', async () => {
    const seen: HookScope[] = [];
    const stack = new HookStack()
      .with((ctx, next, scope) => (seen.push(scope), next()))
      .with((ctx, next, scope) => (seen.push(scope), next()));
    await stack.process(pre());
    expect(seen).toEqual([HookScope.none, HookScope.none]);
    expect(HookScope.none.signal).toBeUndefined();
    expect(() => HookScope.none.report({} as HookNote)).not.toThrow();
  });

  it('passes the signal, and routes notes and handed-over work to the dispatcher', async () => {
    const controller = new AbortController();
    const notes: HookNote[] = [];
    const handed: Promise<unknown>[] = [];
    const note: HookNote = { level: 'warning', hookName: 'h', event: 'PreToolUse', message: 'crashed', code: 'exit-code' };
    let signal: AbortSignal | undefined;
    const stack = new HookStack().with((ctx, next, scope) => {
      signal = scope.signal;
      scope.report(note);
      scope.waitUntil(Promise.resolve('later'));
      return next();
    });
    await stack.process(pre(), undefined, { signal: controller.signal, onNote: (n) => notes.push(n), waitUntil: (w) => handed.push(w) });
    expect(signal).toBe(controller.signal);
    expect(notes).toEqual([note]);
    expect(await Promise.all(handed)).toEqual(['later']);
  });

  it('never lets handed-over work become an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const stack = new HookStack().with((ctx, next, scope) => {
        scope.waitUntil(Promise.reject(new Error('async hook failed')));
        return next();
      });
      await stack.process(pre(), undefined, { waitUntil: () => {} });
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('HookObserver', () => {
  const observe = () => {
    const log: string[] = [];
    const ends: (HookRunInfo & { durationMs: number; outcome: HookOutcome })[] = [];
    const errors: (HookRunInfo & { error: unknown })[] = [];
    const observer: HookObserver = {
      onHookStart: (info) => log.push(`start ${info.hookName}`),
      onHookEnd: (info) => (log.push(`end ${info.hookName}`), ends.push(info)),
      onHookError: (info) => (log.push(`error ${info.hookName}`), errors.push(info)),
    };
    return { log, ends, errors, observer };
  };

  it('reports each hook in run order, inner hooks ending first', async () => {
    const { log, ends, observer } = observe();
    const stack = new HookStack()
      .with({ name: 'outer', handle: (ctx, next) => next() }, 10)
      .with({ name: 'inner', handle: () => HookOutcome.block('no') }, 0);
    const outcome = await stack.process(pre(), undefined, { observer });
    expect(outcome.isBlocked()).toBe(true);
    expect(log).toEqual(['start outer', 'start inner', 'end inner', 'end outer']);
    expect(ends.map((e) => [e.hookName, e.priority, e.event, e.outcome.type])).toEqual([
      ['inner', 0, 'PreToolUse', 'block'],
      ['outer', 10, 'PreToolUse', 'block'],
    ]);
  });

  it("counts a hook's own time, not the time spent in the hooks after it", async () => {
    const { ends, observer } = observe();
    const stack = new HookStack()
      .with({ name: 'fast-outer', handle: (ctx, next) => next() }, 10)
      .with({ name: 'slow-inner', handle: async (ctx, next) => (busyWait(30), next()) }, 0);
    await stack.process(pre(), undefined, { observer });
    const byName = Object.fromEntries(ends.map((e) => [e.hookName, e.durationMs]));
    expect(byName['slow-inner']).toBeGreaterThanOrEqual(25);
    expect(byName['fast-outer']).toBeLessThan(byName['slow-inner']! / 2);
  });

  it('reports a failing hook once, by its own name, and the dispatch still rejects', async () => {
    const { errors, observer } = observe();
    const stack = new HookStack()
      .with({ name: 'outer', handle: (ctx, next) => next() }, 10)
      .with({ name: 'thrower', handle: () => { throw new Error('boom'); } }, 0);
    await expect(stack.process(pre(), undefined, { observer })).rejects.toBeInstanceOf(HookError);
    expect(errors.map((e) => e.hookName)).toEqual(['thrower']);
    expect((errors[0]!.error as HookError).hookName).toBe('thrower');
  });

  it('leaves the synchronous path synchronous', () => {
    const { log, observer } = observe();
    const stack = new HookStack().with({ name: 'sync', handle: (ctx, next) => next() });
    const result = stack.dispatch(pre(), undefined, { observer });
    expect(result).toBeInstanceOf(HookOutcome);
    expect(log).toEqual(['start sync', 'end sync']);
  });
});

describe('HookOutcome.allow', () => {
  it('is a proceed that grants, and keeps the grant through a later proceed', () => {
    const granted = HookOutcome.allow(undefined, { reason: 'trusted' });
    expect(granted.isProceed()).toBe(true);
    expect(granted.granted).toBe(true);
    expect(HookOutcome.proceed().granted).toBe(false);
    expect(HookOutcome.merge(granted, HookOutcome.proceed()).granted).toBe(true);
    expect(HookOutcome.merge(granted, HookOutcome.block('no')).isBlocked()).toBe(true);
    expect(HookOutcome.merge(granted, HookOutcome.ask('check')).needsApproval()).toBe(true);
  });
});

describe('HookScope.of', () => {
  it('makes one scope per options object, so a runtime reusing its options pays once', async () => {
    const seen: HookScope[] = [];
    const stack = new HookStack().with((ctx, next, scope) => (seen.push(scope), next()));
    const options = { onNote: () => {} };
    await stack.process(pre(), undefined, options);
    await stack.process(pre(), undefined, options);
    await stack.process(pre(), undefined, { onNote: () => {} });
    expect(seen[0]).toBe(seen[1]);
    expect(seen[2]).not.toBe(seen[0]);
  });

  it('keeps the scope out of sight on the options object, which reads, spreads and serialises as it did', () => {
    const options = { signal: new AbortController().signal, onNote: () => {} };
    const scope = HookScope.of(options);
    expect(HookScope.of(options)).toBe(scope);
    // On the object itself, not in a table keyed by it (whose entries the young generation's collections keep).
    expect(Object.getOwnPropertySymbols(options).map((key) => Object.getOwnPropertyDescriptor(options, key)?.value)).toEqual([scope]);
    expect(Object.keys(options)).toEqual(['signal', 'onNote']);
    expect(Object.keys({ ...options })).toEqual(['signal', 'onNote']);
    expect(JSON.stringify(options)).toBe('{"signal":{}}');
    expect(HookScope.of({ ...options })).not.toBe(scope);
  });

  it('gives frozen options a scope of their own on each dispatch, each lending what the options say', async () => {
    const notes: string[] = [];
    const options = Object.freeze({ onNote: (note: HookNote) => notes.push(note.message) });
    const note = (message: string): HookNote => ({ level: 'warning', hookName: 'h', event: 'PreToolUse', message, code: 'test' });
    const first = HookScope.of(options);
    const second = HookScope.of(options);
    expect(second).not.toBe(first);
    first.report(note('one'));
    second.report(note('two'));
    expect(notes).toEqual(['one', 'two']);
    const stack = new HookStack().with((ctx, next, scope) => (scope.report(note('from a hook')), next()));
    await stack.process(pre(), undefined, options);
    expect(notes).toEqual(['one', 'two', 'from a hook']);
  });

  it('dispatches with options behind a proxy that refuses new properties', async () => {
    const notes: string[] = [];
    const options = new Proxy({ onNote: (note: HookNote) => notes.push(note.message) }, { defineProperty: () => { throw new Error('no'); } });
    const stack = new HookStack().with((ctx, next, scope) => (scope.report({ level: 'info', hookName: 'h', event: 'PreToolUse', message: 'seen', code: 'test' }), next()));
    await stack.process(pre(), undefined, options);
    await stack.process(pre(), undefined, options);
    expect(notes).toEqual(['seen', 'seen']);
  });
});
