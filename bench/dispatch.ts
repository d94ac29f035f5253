/**
 * In-process dispatch: a PreToolUse context through N = 1, 10, 100 proceeding callbacks with matchers, against the
 * same N hooks in koa-compose, hookable (`callHook`), tapable's AsyncSeriesBailHook and a hand-written `for` loop
 * awaiting each one, all measured in the same run. Once with synchronous callbacks, once with `async` ones. Then
 * N `async (ctx, next)` middlewares, each checking the command and awaiting `next()`, against the same middlewares in
 * koa-compose; and, for reference, against koa-compose whose middlewares return the outcome `next()` resolved with (as
 * a stack's must), with and without one promise reaction per middleware: what checking each async hook's result (the
 * stack names the hook that broke the contract, and an outer hook awaiting `next()` gets that checked result) costs
 * at the least. Last, N - 1 synchronous middlewares that hand back what `next()` returned, around one `async` one.
 */
import { HookOutcome, HookStack, ToolCall, ToolHookContext, type HookFn } from '../src/index.js';
import { forLoop, hookable, hookStack, koa, koaReturning, tapableAsync } from './baselines.js';
import { measure, ratioTarget, timingRow, type Case, type Row } from './harness.js';

const ctx = ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'ls -la' }));

const LOOP = 'for loop';
const KOA = 'koa-compose';
const HOOKABLE = 'hookable callHook';
const OURS = 'HookStack.process';

export async function dispatchSuite(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const kind of ['sync', 'async'] as const) {
    for (const n of [1, 10, 100]) {
      const stack = hookStack(n, kind);
      const cases: Case[] = [
        { name: LOOP, op: forLoop(n, kind).bind(null, ctx), async: true },
        { name: KOA, op: koa(n, kind).bind(null, ctx), async: true },
        { name: HOOKABLE, op: hookable(n, kind).bind(null, ctx), async: true },
        { name: 'tapable AsyncSeriesBailHook', op: tapableAsync(n, kind).bind(null, ctx), async: true },
        { name: OURS, op: () => stack.process(ctx), async: true },
      ];
      const m = await measure(cases, { batch: n >= 100 ? 50 : n >= 10 ? 300 : 1000 });
      const suite = `Dispatch, ${n} ${kind} callback${n > 1 ? 's' : ''}`;
      const loop = { name: LOOP, timing: m.get(LOOP)! };
      for (const c of cases) {
        if (c.name === LOOP) rows.push(timingRow(suite, c.name, loop.timing));
        else if (c.name !== OURS) rows.push(timingRow(suite, c.name, m.get(c.name)!, loop));
      }
      const ours = m.get(OURS)!;
      rows.push(timingRow(suite, OURS, ours, loop, ratioTarget(1.5, LOOP)));
      if (n === 10) {
        rows.push(timingRow(suite, OURS, ours, { name: KOA, timing: m.get(KOA)! }, ratioTarget(1.0, KOA)));
        rows.push(timingRow(suite, OURS, ours, { name: HOOKABLE, timing: m.get(HOOKABLE)! }, ratioTarget(1.0, HOOKABLE)));
      }
    }
  }
  const RETURNING = 'koa-compose, returning the outcome';
  const CHECKED = 'koa-compose, returning the outcome, + 1 reaction per middleware';
  for (const n of [1, 10, 100]) {
    const stack = middlewareStack(n);
    const cases: Case[] = [
      { name: KOA, op: koa(n, 'async').bind(null, ctx), async: true },
      { name: RETURNING, op: koaReturning(n, HookOutcome.proceed(ctx), false).bind(null, ctx), async: true },
      { name: CHECKED, op: koaReturning(n, HookOutcome.proceed(ctx), true).bind(null, ctx), async: true },
      { name: OURS, op: () => stack.process(ctx), async: true },
    ];
    const m = await measure(cases, { batch: n >= 100 ? 50 : n >= 10 ? 300 : 1000 });
    const suite = `Dispatch, ${n} async (ctx, next) middleware${n > 1 ? 's' : ''}`;
    const base = { name: KOA, timing: m.get(KOA)! };
    rows.push(
      timingRow(suite, KOA, base.timing),
      timingRow(suite, RETURNING, m.get(RETURNING)!, base),
      timingRow(suite, CHECKED, m.get(CHECKED)!, base),
      timingRow(suite, OURS, m.get(OURS)!, base, ratioTarget(1.0, KOA)),
      timingRow(suite, OURS, m.get(OURS)!, { name: CHECKED, timing: m.get(CHECKED)! }),
    );
  }
  const n = 10;
  const passing = passingStack(n);
  const cases: Case[] = [
    { name: KOA, op: koa(n, 'async').bind(null, ctx), async: true },
    { name: OURS, op: () => passing.process(ctx), async: true },
  ];
  const m = await measure(cases, { batch: 300 });
  const suite = `Dispatch, ${n - 1} sync (ctx, next) middlewares returning next(), around 1 async one`;
  const base = { name: KOA, timing: m.get(KOA)! };
  rows.push(timingRow(suite, `${KOA}, ${n} async middlewares`, base.timing), timingRow(suite, OURS, m.get(OURS)!, base, ratioTarget(1.0, KOA)));
  return rows;
}

/** N `async (ctx, next)` middlewares doing what the koa-compose ones do: check the command, then await `next()`. */
function middlewareStack(n: number): HookStack {
  type Ctx = ToolHookContext<'PreToolUse'>;
  const middleware: HookFn = async (ctx, next) => {
    const c = ctx as Ctx;
    if (c.toolCall.name === 'bash' && c.toolCall.args['command'] === 'rm -rf /') return HookOutcome.block('dangerous');
    return await next();
  };
  return new HookStack(Array.from({ length: n }, (_, i) => ({ hook: middleware, priority: i % 3 })));
}

/**
 * N - 1 synchronous `(ctx, next)` middlewares, each checking the command and handing back what `next()` returned,
 * around one `async` middleware that awaits `next()`: a Hook class's usual shape, in a chain one async hook makes
 * asynchronous.
 */
function passingStack(n: number): HookStack {
  type Ctx = ToolHookContext<'PreToolUse'>;
  const dangerous = (c: Ctx) => c.toolCall.name === 'bash' && c.toolCall.args['command'] === 'rm -rf /';
  const passing: HookFn = (ctx, next) => (dangerous(ctx as Ctx) ? HookOutcome.block('dangerous') : next());
  const waiting: HookFn = async (ctx, next) => (dangerous(ctx as Ctx) ? HookOutcome.block('dangerous') : await next());
  return new HookStack(Array.from({ length: n }, (_, i) => ({ hook: i === n - 1 ? waiting : passing, priority: n - i })));
}
