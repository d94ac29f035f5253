/**
 * A `(ctx, next)` middleware decides the same whichever way it is written: synchronously, as an `async` function that
 * awaits `next()`, or handing back the very promise `next()` returned (which the stack passes on without a reaction
 * of its own). Outcomes, errors (and the hook they name) and the order hooks and the terminal run in are compared.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BeforeToolHook,
  CallableHook,
  HookError,
  HookOutcome,
  HookStack,
  ToolCall,
  ToolHookContext,
  type AnyHookContext,
  type HookFn,
  type MaybePromise,
  type NextFn,
} from 'agent-hooks';

const pre = () => ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'ls' }));

/** What one middleware does. */
type Behaviour = 'next' | 'edit' | 'block' | 'throw' | 'undefined' | 'bareProceed' | 'extras' | 'rescue' | 'throwAfter';
/** How it is written. */
type Style = 'sync' | 'async' | 'pass';

const BEHAVIOURS: readonly Behaviour[] = ['next', 'edit', 'block', 'throw', 'undefined', 'bareProceed', 'extras', 'rescue', 'throwAfter'];

/** `f` applied to what `next` returned, staying synchronous when it did. */
const andThen = (r: MaybePromise<HookOutcome>, f: (o: HookOutcome) => HookOutcome): MaybePromise<HookOutcome> =>
  r instanceof Promise ? r.then(f) : f(r);

const named = (e: unknown): string => (HookError.isHookError(e) ? e.hookName : 'raw');

/** A bare `(ctx, next)` function named `name`, so that errors say which hook failed. */
function middleware(name: string, behaviour: Behaviour, style: Style, log: string[]): HookFn {
  return Object.defineProperty(written(name, behaviour, style, log), 'name', { value: name });
}

function written(name: string, behaviour: Behaviour, style: Style, log: string[]): HookFn {
  const edit = (ctx: AnyHookContext) => (ctx as ToolHookContext<'PreToolUse'>).withArgs({ command: `${String((ctx as ToolHookContext<'PreToolUse'>).toolCall.args['command'])} ${name}` });
  const extras = (o: HookOutcome) => (o.type === 'proceed' ? HookOutcome.proceed(undefined, { additionalContext: name }) : o);
  if (style === 'async') {
    return async (ctx, next) => {
      log.push(name);
      switch (behaviour) {
        case 'next':
          return await next();
        case 'edit':
          return await next(edit(ctx));
        case 'block':
          return HookOutcome.block(name);
        case 'throw':
          throw new Error(name);
        case 'undefined':
          return undefined as never;
        case 'bareProceed':
          return HookOutcome.proceed();
        case 'extras':
          return extras(await next());
        case 'rescue':
          try {
            return await next();
          } catch (error) {
            return HookOutcome.block(`rescued ${named(error)}`);
          }
        case 'throwAfter':
          await next();
          throw new Error(name);
      }
    };
  }
  // `sync` and `pass` differ in `next` and `edit`: `pass` hands back what `next` returned, `sync` a copy of it.
  return (ctx, next: NextFn) => {
    log.push(name);
    switch (behaviour) {
      case 'next':
        return style === 'pass' ? next() : andThen(next(), (o) => o);
      case 'edit':
        return style === 'pass' ? next(edit(ctx)) : andThen(next(edit(ctx)), (o) => o);
      case 'block':
        return HookOutcome.block(name);
      case 'throw':
        throw new Error(name);
      case 'undefined':
        return undefined as never;
      case 'bareProceed':
        return HookOutcome.proceed();
      case 'extras':
        return andThen(next(), extras);
      case 'rescue': {
        const rescue = (error: unknown) => HookOutcome.block(`rescued ${named(error)}`);
        try {
          const r = next();
          return r instanceof Promise ? r.catch(rescue) : r;
        } catch (error) {
          return rescue(error);
        }
      }
      case 'throwAfter':
        return andThen(next(), () => {
          throw new Error(name);
        });
    }
  };
}

/** Everything a dispatch shows: its outcome or error, and who ran. */
async function observe(
  layers: readonly { behaviour: Behaviour; style: Style }[],
  terminal: 'sync' | 'async' | 'throws',
): Promise<unknown> {
  const log: string[] = [];
  const stack = new HookStack(layers.map((l, i) => ({ hook: middleware(`h${i}`, l.behaviour, l.style, log), priority: layers.length - i })));
  const end = (ctx: ToolHookContext<'PreToolUse'>): MaybePromise<HookOutcome> => {
    log.push(`terminal ${String(ctx.toolCall.args['command'])}`);
    if (terminal === 'throws') throw new Error('terminal');
    return terminal === 'async' ? Promise.resolve(HookOutcome.proceed()) : HookOutcome.proceed();
  };
  try {
    const o = await stack.process(pre(), end);
    const context = o.context as ToolHookContext<'PreToolUse'> | undefined;
    return { log, type: o.type, reason: o.reason, extra: o.additionalContext, command: context?.toolCall.args['command'] };
  } catch (error) {
    return { log, error: error instanceof Error ? `${error.constructor.name} ${named(error)} ${error.message}` : String(error) };
  }
}

describe('HookStack: a middleware written sync, async or handing back next()', () => {
  it('gives the same outcome, error and run order whichever way each middleware is written (property)', async () => {
    const layer = fc.record({ behaviour: fc.constantFrom(...BEHAVIOURS), style: fc.constantFrom<Style>('sync', 'async', 'pass') });
    await fc.assert(
      fc.asyncProperty(fc.array(layer, { maxLength: 6 }), fc.constantFrom('sync', 'async', 'throws'), async (layers, terminal) => {
        const asWritten = await observe(layers, terminal as 'sync' | 'async' | 'throws');
        const allAsync = await observe(
          layers.map((l) => ({ ...l, style: 'async' as const })),
          terminal as 'sync' | 'async' | 'throws',
        );
        const allPass = await observe(
          layers.map((l) => ({ ...l, style: 'pass' as const })),
          terminal as 'sync' | 'async' | 'throws',
        );
        expect(asWritten).toEqual(allAsync);
        expect(allPass).toEqual(allAsync);
      }),
      { numRuns: 300 },
    );
  });

  it('a hook handing back next()’s promise passes on the inner hook’s checked outcome and its named error', async () => {
    const pass = new CallableHook((ctx, next) => next(ctx), undefined, { name: 'pass' });
    // An inner hook that proceeds without a context: the outer one gets the outcome with the inner one's context.
    const bare = await new HookStack().with(pass, 10).with(async () => HookOutcome.proceed(), 0).process(pre());
    expect(bare.type).toBe('proceed');
    expect(bare.context?.event).toBe('PreToolUse');
    // An inner hook that throws a plain error: the error names the inner hook, not the one that handed it on.
    const thrown = (await new HookStack()
      .with(pass, 10)
      .with(new BeforeToolHook(async function inner(): Promise<undefined> {
        throw new Error('boom');
      }), 0)
      .process(pre())
      .catch((e: unknown) => e)) as HookError;
    expect(thrown).toBeInstanceOf(HookError);
    expect(thrown.hookName).toBe('inner');
    // An inner hook that answers nothing: the contract error names it.
    const nothing = (await new HookStack()
      .with(pass, 10)
      .with(new CallableHook(async () => undefined as never, undefined, { name: 'silent' }), 0)
      .process(pre())
      .catch((e: unknown) => e)) as HookError;
    expect(nothing.hookName).toBe('silent');
    expect(nothing.message).toMatch(/returned undefined/);
    // An error of the terminal passes through unchanged.
    const terminalError = new Error('terminal');
    await expect(new HookStack().with(pass).process(pre(), () => Promise.reject(terminalError))).rejects.toBe(terminalError);
  });

  it('a hook handing back a promise other than next()’s is still checked', async () => {
    const other = new CallableHook(
      (ctx, next) => {
        void next(ctx);
        return Promise.resolve(undefined as never);
      },
      undefined,
      { name: 'other' },
    );
    const error = (await new HookStack()
      .with(other, 10)
      .with(async (_ctx, next) => await next(), 0)
      .process(pre())
      .catch((e: unknown) => e)) as HookError;
    expect(error).toBeInstanceOf(HookError);
    expect(error.hookName).toBe('other');
  });
});
