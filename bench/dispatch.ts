/**
 * In-process dispatch: a PreToolUse context through N proceeding hooks, against koa-compose running N equivalent async
 * middlewares in the same run; and a 1,000-hook stack against a stack holding only the hooks that match.
 */
import compose from 'koa-compose';
import { BeforeToolHook, HookOutcome, HookStack, StopHookContext, ToolCall, ToolHookContext } from '../src/index.js';
import { measure, type Case, type Row } from './harness.js';

const ctx = ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'ls -la' }));

/** N callbacks with a tool-name matcher, each proceeding (returning nothing), as users write them. */
function stackOf(n: number, async = false): HookStack {
  let stack = new HookStack();
  for (let i = 0; i < n; i++) {
    const hook = async ? new BeforeToolHook(async () => undefined, { matcher: 'bash' }) : new BeforeToolHook(() => undefined, { matcher: 'bash' });
    stack = stack.with(hook, i % 3);
  }
  return stack;
}

/** The same N middlewares in koa-compose: check the tool name, then await next. */
function koaOf(n: number) {
  type Ctx = { toolName: string };
  const middlewares = Array.from({ length: n }, () => async (c: Ctx, next: () => Promise<unknown>) => {
    if (c.toolName === 'bash') {
      /* a proceeding hook does nothing */
    }
    await next();
  });
  const fn = compose<Ctx>(middlewares);
  return () => fn({ toolName: ctx.toolCall.name });
}

export async function dispatchSuite(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const n of [1, 10, 100]) {
    const stack = stackOf(n);
    const asyncStack = stackOf(n, true);
    const cases: Case[] = [
      { name: `koa-compose`, op: koaOf(n), async: true },
      { name: `HookStack.process`, op: () => stack.process(ctx), async: true },
      { name: `HookStack.process (async callbacks)`, op: () => asyncStack.process(ctx), async: true },
      { name: `HookStack.dispatch (sync path)`, op: () => stack.dispatch(ctx), async: false },
    ];
    const m = await measure(cases, n >= 100 ? 100 : 1000);
    const koa = m.get('koa-compose')!;
    for (const c of cases) {
      const r = m.get(c.name)!;
      rows.push({
        suite: `PreToolUse, ${n} hook${n > 1 ? 's' : ''}`,
        name: c.name,
        nsPerOp: r.ns,
        rme: r.rme,
        ...(c.name === 'koa-compose' ? {} : { baseline: 'koa-compose', ratio: r.ns / koa.ns }),
        ...(n === 10 && c.name === 'HookStack.process' ? { target: '≤ 1.0×' } : {}),
      });
    }
  }

  // 1,000 hooks over 100 tool names, 10 of them for 'bash', against a stack of only those 10.
  const tools = Array.from({ length: 100 }, (_, i) => (i === 0 ? 'bash' : `tool_${i}`));
  const big = new HookStack(
    Array.from({ length: 1000 }, (_, i) => ({ hook: new BeforeToolHook(() => undefined, { matcher: tools[i % 100] }), priority: i % 5 })),
  );
  const small = new HookStack(
    Array.from({ length: 10 }, (_, i) => ({ hook: new BeforeToolHook(() => undefined, { matcher: 'bash' }), priority: (i * 100) % 5 })),
  );
  if (big.hooksFor('PreToolUse', 'bash').length !== 10) throw new Error('scale bench: expected 10 hooks for bash');
  const scale = await measure([
    { name: '10 hooks only', op: () => small.process(ctx), async: true },
    { name: '1,000 hooks, 10 match', op: () => big.process(ctx), async: true },
  ]);
  const base = scale.get('10 hooks only')!;
  const bigR = scale.get('1,000 hooks, 10 match')!;
  rows.push({ suite: 'Scale (100 tools)', name: '10 hooks only', nsPerOp: base.ns, rme: base.rme });
  rows.push({
    suite: 'Scale (100 tools)',
    name: '1,000 hooks, 10 match',
    nsPerOp: bigR.ns,
    rme: bigR.rme,
    baseline: '10 hooks only',
    ratio: bigR.ns / base.ns,
    target: '≤ 2.0×',
  });
  // An event no hook listens to, against a bare function call returning a constant.
  const stopCtx = StopHookContext.stop({ stopReason: 'no_tool_calls' });
  const constant = HookOutcome.proceed(stopCtx);
  const bare = (c: StopHookContext) => (c.event === 'Stop' ? constant : undefined);
  const withOthers = stackOf(10);
  const empty = await measure(
    [
      { name: 'bare function call', op: () => bare(stopCtx), async: false },
      { name: 'HookStack.dispatch, no hook for the event', op: () => withOthers.dispatch(stopCtx), async: false },
      { name: 'HookStack.hasHooksFor', op: () => withOthers.hasHooksFor('Stop'), async: false },
    ],
    10_000,
  );
  const bareR = empty.get('bare function call')!;
  rows.push({ suite: 'Empty path', name: 'bare function call', nsPerOp: bareR.ns, rme: bareR.rme });
  for (const name of ['HookStack.dispatch, no hook for the event', 'HookStack.hasHooksFor']) {
    const r = empty.get(name)!;
    rows.push({ suite: 'Empty path', name, nsPerOp: r.ns, rme: r.rme, baseline: 'bare call', ratio: r.ns / bareR.ns });
  }
  return rows;
}
