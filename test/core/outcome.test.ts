import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  HookOutcome,
  HookOutcomeError,
  PromptHookContext,
  ToolCall,
  ToolHookContext,
  type AnyHookContext,
  type OutcomeType,
} from 'agent-hooks';

const ctxA = (): ToolHookContext<'PreToolUse'> => ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'ls' }, 'a'));
const ctxB = (): ToolHookContext<'PreToolUse'> => ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'pwd' }, 'b'));

const flags = (o: HookOutcome) => [o.isProceed(), o.isBlocked(), o.isStopped(), o.needsApproval()];

describe('HookOutcome factories', () => {
  it('proceed()', () => {
    const o = HookOutcome.proceed();
    expect(o.type).toBe('proceed');
    expect(o.reason).toBeUndefined();
    expect(o.context).toBeUndefined();
    expect(flags(o)).toEqual([true, false, false, false]);
    expect(o.decision).toBe('allow');
    expect(o.additionalContext).toEqual([]);
    expect(o.systemMessages).toEqual([]);
    expect(o.systemMessage).toBeUndefined();
    expect(o.toJSON()).toStrictEqual({ type: 'proceed', decision: 'allow' });
    expect(o.toString()).toBe('proceed');
    expect(HookOutcome.isOutcome(o)).toBe(true);
    expect(HookOutcome.isOutcome({ type: 'proceed' })).toBe(false);
  });

  it('proceed(ctx) carries the context', () => {
    const ctx = ctxA();
    const o = HookOutcome.proceed(ctx);
    expect(o.type).toBe('proceed');
    expect(o.context).toBe(ctx);
    expect(o.reason).toBeUndefined();
    expect(o.decision).toBe('allow');
    expect(o.toJSON()).toStrictEqual({ type: 'proceed', decision: 'allow' });
    expect(o.toString()).toBe('proceed');
    // The shared context-free proceed is not affected.
    expect(HookOutcome.proceed().context).toBeUndefined();
  });

  it('block(reason)', () => {
    const o = HookOutcome.block('Dangerous command: rm -rf');
    expect(o.type).toBe('block');
    expect(o.reason).toBe('Dangerous command: rm -rf');
    expect(o.context).toBeUndefined();
    expect(flags(o)).toEqual([false, true, false, false]);
    expect(o.decision).toBe('deny');
    expect(o.toJSON()).toStrictEqual({ type: 'block', decision: 'deny', reason: 'Dangerous command: rm -rf' });
    expect(o.toString()).toBe('block: Dangerous command: rm -rf');
  });

  it('stop(reason)', () => {
    const o = HookOutcome.stop('Budget exhausted');
    expect(o.type).toBe('stop');
    expect(o.reason).toBe('Budget exhausted');
    expect(o.context).toBeUndefined();
    expect(flags(o)).toEqual([false, false, true, false]);
    expect(o.decision).toBe('deny');
    expect(o.toJSON()).toStrictEqual({ type: 'stop', decision: 'deny', reason: 'Budget exhausted' });
    expect(o.toString()).toBe('stop: Budget exhausted');
  });

  it('ask(reason), with and without a context', () => {
    const o = HookOutcome.ask('Writes outside the workspace');
    expect(o.type).toBe('ask');
    expect(o.reason).toBe('Writes outside the workspace');
    expect(o.context).toBeUndefined();
    expect(flags(o)).toEqual([false, false, false, true]);
    expect(o.decision).toBe('ask');
    expect(o.toJSON()).toStrictEqual({ type: 'ask', decision: 'ask', reason: 'Writes outside the workspace' });
    expect(o.toString()).toBe('ask: Writes outside the workspace');
    const ctx = ctxA();
    expect(HookOutcome.ask('r', { context: ctx }).context).toBe(ctx);
  });

  it('toJSON with extras has exactly these keys', () => {
    const o = HookOutcome.block('no', { additionalContext: ['a', 'b'], systemMessage: 'Blocked rm' });
    expect(o.toJSON()).toStrictEqual({
      type: 'block',
      decision: 'deny',
      reason: 'no',
      additionalContext: ['a', 'b'],
      systemMessage: ['Blocked rm'],
    });
    // toJSON returns copies, not the frozen internals.
    const json = o.toJSON();
    json.additionalContext?.push('c');
    expect(o.additionalContext).toEqual(['a', 'b']);
    expect(JSON.parse(JSON.stringify(o))).toStrictEqual(o.toJSON());
  });

  describe('a reason is required', () => {
    const cases: [string, () => unknown][] = [
      ["block('')", () => HookOutcome.block('')],
      ["block('   ')", () => HookOutcome.block('   ')],
      ["block('\\n\\t')", () => HookOutcome.block('\n\t')],
      ["stop('')", () => HookOutcome.stop('')],
      ["stop('  ')", () => HookOutcome.stop('  ')],
      ["ask('')", () => HookOutcome.ask('')],
      ['block(undefined)', () => HookOutcome.block(undefined as unknown as string)],
      ['stop(undefined)', () => HookOutcome.stop(undefined as unknown as string)],
      ['ask(undefined)', () => HookOutcome.ask(undefined as unknown as string)],
      ['block(42)', () => HookOutcome.block(42 as unknown as string)],
    ];
    for (const [name, build] of cases) {
      it(`${name} throws HookOutcomeError`, () => {
        let caught: unknown;
        try {
          build();
        } catch (e) {
          caught = e;
        }
        expect(caught).toBeInstanceOf(HookOutcomeError);
        expect(caught).toBeInstanceOf(TypeError);
        expect((caught as Error).name).toBe('HookOutcomeError');
        expect((caught as Error).message).toMatch(/needs a non-empty reason/);
      });
    }

    it('the message names the factory', () => {
      expect(() => HookOutcome.stop('')).toThrow(/HookOutcome\.stop\(\)/);
      expect(() => HookOutcome.ask('')).toThrow(/HookOutcome\.ask\(\)/);
    });
  });
});

describe('additionalContext and systemMessage', () => {
  it('any outcome accepts a string or an array, kept in order', () => {
    const ctx = ctxA();
    const outcomes = [
      HookOutcome.proceed(undefined, { additionalContext: ['one', 'two'], systemMessage: 'sys' }),
      HookOutcome.proceed(ctx, { additionalContext: ['one', 'two'], systemMessage: ['sys'] }),
      HookOutcome.block('r', { additionalContext: ['one', 'two'], systemMessage: 'sys' }),
      HookOutcome.stop('r', { additionalContext: ['one', 'two'], systemMessage: 'sys' }),
      HookOutcome.ask('r', { additionalContext: ['one', 'two'], systemMessage: 'sys' }),
    ];
    for (const o of outcomes) {
      expect(o.additionalContext, o.type).toEqual(['one', 'two']);
      expect(o.systemMessages, o.type).toEqual(['sys']);
      expect(o.systemMessage, o.type).toBe('sys');
      expect(Object.isFrozen(o.additionalContext)).toBe(true);
      expect(Object.isFrozen(o.systemMessages)).toBe(true);
    }
    expect(HookOutcome.proceed(undefined, { additionalContext: 'single' }).additionalContext).toEqual(['single']);
  });

  it('empty strings are dropped', () => {
    const o = HookOutcome.proceed(undefined, { additionalContext: ['a', '', 'b'], systemMessage: '' });
    expect(o.additionalContext).toEqual(['a', 'b']);
    expect(o.systemMessages).toEqual([]);
    expect(o.systemMessage).toBeUndefined();
  });

  it('the caller’s array is copied', () => {
    const input = ['a'];
    const o = HookOutcome.ask('r', { additionalContext: input });
    input.push('b');
    expect(o.additionalContext).toEqual(['a']);
  });

  it('withAdditionalContext appends and returns a new outcome', () => {
    const ctx = ctxA();
    const o = HookOutcome.ask('check', { context: ctx, additionalContext: 'first' });
    const next = o.withAdditionalContext('second', 'third');
    expect(next).not.toBe(o);
    expect(next.additionalContext).toEqual(['first', 'second', 'third']);
    expect(next.type).toBe('ask');
    expect(next.reason).toBe('check');
    expect(next.context).toBe(ctx);
    expect(o.additionalContext).toEqual(['first']);

    const fromProceed = HookOutcome.proceed().withAdditionalContext('x');
    expect(fromProceed.additionalContext).toEqual(['x']);
    expect(fromProceed.type).toBe('proceed');
    expect(HookOutcome.proceed().additionalContext).toEqual([]);
  });

  it('withSystemMessage appends and returns a new outcome; systemMessage joins with newlines', () => {
    const o = HookOutcome.block('no', { systemMessage: 'line 1' });
    const next = o.withSystemMessage('line 2', 'line 3');
    expect(next).not.toBe(o);
    expect(next.systemMessages).toEqual(['line 1', 'line 2', 'line 3']);
    expect(next.systemMessage).toBe('line 1\nline 2\nline 3');
    expect(next.type).toBe('block');
    expect(next.reason).toBe('no');
    expect(o.systemMessages).toEqual(['line 1']);
    expect(o.systemMessage).toBe('line 1');
    expect(next.toJSON().systemMessage).toEqual(['line 1', 'line 2', 'line 3']);
  });

  it('non-string entries throw HookOutcomeError', () => {
    const bad = [1, null, { text: 'x' }, undefined] as unknown as string[];
    for (const entry of bad) {
      expect(() => HookOutcome.proceed(undefined, { additionalContext: ['ok', entry] as unknown as string[] }), String(entry)).toThrow(
        HookOutcomeError,
      );
      expect(() => HookOutcome.block('r', { systemMessage: [entry] as unknown as string[] }), String(entry)).toThrow(HookOutcomeError);
      expect(() => HookOutcome.proceed().withAdditionalContext(entry as unknown as string), String(entry)).toThrow(HookOutcomeError);
      expect(() => HookOutcome.stop('r').withSystemMessage(entry as unknown as string), String(entry)).toThrow(HookOutcomeError);
    }
    expect(() => HookOutcome.ask('r', { additionalContext: [42] as unknown as string[] })).toThrow(/additionalContext/);
    expect(() => HookOutcome.ask('r', { systemMessage: [42] as unknown as string[] })).toThrow(/systemMessage/);
  });

  it('a non-string, non-array value throws HookOutcomeError', () => {
    expect(() => HookOutcome.proceed(undefined, { additionalContext: 42 as unknown as string })).toThrow(HookOutcomeError);
    expect(() => HookOutcome.block('r', { systemMessage: null as unknown as string })).toThrow(HookOutcomeError);
    expect(() => HookOutcome.ask('r', { additionalContext: { text: 'x' } as unknown as string })).toThrow(HookOutcomeError);
  });
});

describe('HookOutcome.merge (deny > ask > allow)', () => {
  it('merge(ask, proceed) is ask, with the later context', () => {
    const a = ctxA();
    const b = ctxB();
    const m = HookOutcome.merge<AnyHookContext>(HookOutcome.ask('approve?', { context: a }), HookOutcome.proceed(b));
    expect(m.type).toBe('ask');
    expect(m.reason).toBe('approve?');
    expect(m.context).toBe(b);
    // Without a later context the ask keeps its own.
    const kept = HookOutcome.merge<AnyHookContext>(HookOutcome.ask('approve?', { context: a }), HookOutcome.proceed());
    expect(kept.type).toBe('ask');
    expect(kept.context).toBe(a);
  });

  it('merge(ask, block) is block', () => {
    const m = HookOutcome.merge<AnyHookContext>(HookOutcome.ask('approve?'), HookOutcome.block('denied'));
    expect(m.type).toBe('block');
    expect(m.reason).toBe('denied');
    expect(m.decision).toBe('deny');
  });

  it('merge(ask, stop) is stop', () => {
    const m = HookOutcome.merge<AnyHookContext>(HookOutcome.ask('approve?'), HookOutcome.stop('halt'));
    expect(m.type).toBe('stop');
    expect(m.reason).toBe('halt');
  });

  it('merge(proceed, ask) is ask', () => {
    const b = ctxB();
    const m = HookOutcome.merge<AnyHookContext>(HookOutcome.proceed(ctxA()), HookOutcome.ask('approve?', { context: b }));
    expect(m.type).toBe('ask');
    expect(m.reason).toBe('approve?');
    expect(m.context).toBe(b);
  });

  it('merge(proceed, stop) is stop', () => {
    const m = HookOutcome.merge<AnyHookContext>(HookOutcome.proceed(ctxA()), HookOutcome.stop('halt'));
    expect(m.type).toBe('stop');
    expect(m.reason).toBe('halt');
    expect(m.context).toBeUndefined();
  });

  it('merge(block, proceed) is block; merge(stop, block) is stop', () => {
    const m = HookOutcome.merge<AnyHookContext>(HookOutcome.block('first'), HookOutcome.proceed(ctxA()));
    expect(m.type).toBe('block');
    expect(m.reason).toBe('first');
    expect(m.context).toBeUndefined();
    const s = HookOutcome.merge<AnyHookContext>(HookOutcome.stop('halt'), HookOutcome.block('later'));
    expect(s.type).toBe('stop');
    expect(s.reason).toBe('halt');
  });

  it('merge(proceed, proceed) goes on with the later context', () => {
    const b = ctxB();
    const m = HookOutcome.merge<AnyHookContext>(HookOutcome.proceed(ctxA()), HookOutcome.proceed(b));
    expect(m.type).toBe('proceed');
    expect(m.context).toBe(b);
  });

  it('keeps both additional contexts and system messages, first’s before then’s', () => {
    const first = HookOutcome.ask('a?', { additionalContext: ['f1', 'f2'], systemMessage: 'fs' });
    const then = HookOutcome.block('no', { additionalContext: 't1', systemMessage: ['ts1', 'ts2'] });
    const m = HookOutcome.merge<AnyHookContext>(first, then);
    expect(m.type).toBe('block');
    expect(m.additionalContext).toEqual(['f1', 'f2', 't1']);
    expect(m.systemMessages).toEqual(['fs', 'ts1', 'ts2']);
    expect(m.systemMessage).toBe('fs\nts1\nts2');

    const p = HookOutcome.merge<AnyHookContext>(
      HookOutcome.proceed(undefined, { additionalContext: 'p1' }),
      HookOutcome.proceed(undefined, { additionalContext: 'p2', systemMessage: 'sp' }),
    );
    expect(p.additionalContext).toEqual(['p1', 'p2']);
    expect(p.systemMessages).toEqual(['sp']);

    const b = HookOutcome.merge<AnyHookContext>(HookOutcome.block('x', { additionalContext: 'b1' }), HookOutcome.proceed(undefined, { additionalContext: 'b2' }));
    expect(b.additionalContext).toEqual(['b1', 'b2']);

    // The inputs are untouched.
    expect(first.additionalContext).toEqual(['f1', 'f2']);
    expect(then.additionalContext).toEqual(['t1']);
  });
});

describe('withContext', () => {
  it('on block and stop returns the same outcome', () => {
    const block = HookOutcome.block('no');
    const stop = HookOutcome.stop('halt');
    expect(block.withContext(ctxA())).toBe(block);
    expect(stop.withContext(ctxA())).toBe(stop);
    expect(block.context).toBeUndefined();
  });

  it('on proceed returns a new outcome with that context', () => {
    const base = HookOutcome.proceed(undefined, { additionalContext: 'keep' });
    const ctx = ctxA();
    const next = base.withContext(ctx);
    expect(next).not.toBe(base);
    expect(next.type).toBe('proceed');
    expect(next.context).toBe(ctx);
    expect(next.additionalContext).toEqual(['keep']);
    expect(base.context).toBeUndefined();
    const plain = HookOutcome.proceed();
    const p = PromptHookContext.onSubmit('hi');
    expect(plain.withContext(p).context).toBe(p);
    expect(plain.context).toBeUndefined();
  });

  it('on ask keeps the reason', () => {
    const ctx = ctxB();
    const next = HookOutcome.ask('approve?').withContext(ctx);
    expect(next.type).toBe('ask');
    expect(next.reason).toBe('approve?');
    expect(next.context).toBe(ctx);
  });
});

describe('immutability', () => {
  it('outcomes are read-only at run time', () => {
    const all = [
      HookOutcome.proceed(),
      HookOutcome.proceed(ctxA()),
      HookOutcome.block('b'),
      HookOutcome.stop('s'),
      HookOutcome.ask('a'),
      HookOutcome.proceed().withAdditionalContext('x'),
      HookOutcome.merge<AnyHookContext>(HookOutcome.ask('a'), HookOutcome.proceed(ctxA())),
    ];
    for (const o of all) {
      expect(() => {
        (o as unknown as { type: string }).type = 'proceed';
      }).toThrow(TypeError);
      expect(() => {
        (o.additionalContext as string[]).push('x');
      }).toThrow(TypeError);
    }
    expect(HookOutcome.block('b').type).toBe('block');
  });
});

describe('merge folded over a chain (property)', () => {
  type Kind = OutcomeType;
  const build = (kind: Kind, text: string): HookOutcome<AnyHookContext> => {
    switch (kind) {
      case 'proceed':
        return HookOutcome.proceed(undefined, { additionalContext: text });
      case 'ask':
        return HookOutcome.ask(`ask ${text}`, { additionalContext: text });
      case 'block':
        return HookOutcome.block(`block ${text}`, { additionalContext: text });
      case 'stop':
        return HookOutcome.stop(`stop ${text}`, { additionalContext: text });
    }
  };

  it('is the first block/stop, else ask if any, else proceed; additional context concatenated in order', () => {
    const kind = fc.constantFrom<Kind>('proceed', 'ask', 'block', 'stop');
    const step = fc.record({ kind, text: fc.oneof(fc.constant(''), fc.string()) });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        // A block or stop short-circuits a real chain: the hooks after it never run.
        const cut = steps.findIndex((s) => s.kind === 'block' || s.kind === 'stop');
        const chain = cut === -1 ? steps : steps.slice(0, cut + 1);
        const outcomes = chain.map((s) => build(s.kind, s.text));
        const merged = outcomes.reduceRight((then, first) => HookOutcome.merge(first, then));

        const terminal = cut === -1 ? undefined : steps[cut];
        const expectedType: Kind = terminal ? terminal.kind : chain.some((s) => s.kind === 'ask') ? 'ask' : 'proceed';
        expect(merged.type).toBe(expectedType);
        if (terminal) expect(merged.reason).toBe(`${terminal.kind} ${terminal.text}`);
        if (expectedType === 'ask') expect(merged.reason).toMatch(/^ask /);
        if (expectedType === 'proceed') expect(merged.reason).toBeUndefined();
        expect(merged.additionalContext).toEqual(chain.map((s) => s.text).filter((t) => t.length > 0));
        expect(merged.decision).toBe(expectedType === 'proceed' ? 'allow' : expectedType === 'ask' ? 'ask' : 'deny');
      }),
      { numRuns: 500 },
    );
  });
});
