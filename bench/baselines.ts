/**
 * The same N proceeding hooks written for each library the stack is compared with, and as a hand-written loop. Every
 * hook does the same work as the stack's callbacks: it applies to one tool name and looks at the command.
 */
import compose from 'koa-compose';
import { createHooks } from 'hookable';
import { AsyncSeriesBailHook, SyncBailHook } from 'tapable';
import { BeforeToolHook, HookOutcome, HookStack, type ToolHookContext } from '../src/index.js';

type Ctx = ToolHookContext<'PreToolUse'>;

/** Never true for the bench's context: every hook proceeds. */
const dangerous = (ctx: Ctx): boolean => ctx.toolCall.args['command'] === 'rm -rf /';

/** N callbacks with a tool-name matcher, each proceeding (returning nothing), as users write them. */
export function hookStack(n: number, kind: 'sync' | 'async'): HookStack {
  const hooks = Array.from({ length: n }, (_, i) => ({
    hook:
      kind === 'sync'
        ? new BeforeToolHook((ctx) => (dangerous(ctx) ? HookOutcome.block('dangerous') : undefined), { matcher: 'bash' })
        : new BeforeToolHook(async (ctx) => (dangerous(ctx) ? HookOutcome.block('dangerous') : undefined), { matcher: 'bash' }),
    priority: i % 3,
  }));
  return new HookStack(hooks);
}

/** The same hooks as functions of the context that return a blocking reason, or nothing to go on. */
function guards(n: number, kind: 'sync' | 'async'): ((ctx: Ctx) => unknown)[] {
  return Array.from({ length: n }, () =>
    kind === 'sync'
      ? (ctx: Ctx) => (ctx.toolCall.name === 'bash' && dangerous(ctx) ? 'dangerous' : undefined)
      : async (ctx: Ctx) => (ctx.toolCall.name === 'bash' && dangerous(ctx) ? 'dangerous' : undefined),
  );
}

/** The practical limit: a `for` loop awaiting each hook, stopping at the first answer. */
export function forLoop(n: number, kind: 'sync' | 'async'): (ctx: Ctx) => Promise<unknown> {
  const fns = guards(n, kind);
  return async (ctx) => {
    for (let i = 0; i < fns.length; i++) {
      const answer = await fns[i]!(ctx);
      if (answer !== undefined) return answer;
    }
    return undefined;
  };
}

/** The same hooks as koa-compose middlewares: check, then go on with `next`. */
export function koa(n: number, kind: 'sync' | 'async'): (ctx: Ctx) => Promise<unknown> {
  type Mw = compose.Middleware<Ctx>;
  const middlewares: Mw[] = Array.from({ length: n }, () =>
    kind === 'sync'
      ? (ctx: Ctx, next: () => Promise<unknown>) => (ctx.toolCall.name === 'bash' && dangerous(ctx) ? Promise.resolve('dangerous') : next())
      : async (ctx: Ctx, next: () => Promise<unknown>) => {
          if (ctx.toolCall.name === 'bash' && dangerous(ctx)) return 'dangerous';
          await next();
          return undefined;
        },
  );
  const fn = compose<Ctx>(middlewares);
  return (ctx) => fn(ctx);
}

/**
 * The async koa-compose middlewares of {@link koa}, but returning what `next()` resolved with, and the innermost
 * `next()` resolving with `outcome`: the same answers a stack's middlewares pass back. With `checked`, each
 * middleware's promise goes through one `then` more, as a stack's check of an async hook's result does.
 */
export function koaReturning(n: number, outcome: unknown, checked: boolean): (ctx: Ctx) => Promise<unknown> {
  type Mw = compose.Middleware<Ctx>;
  const check = (value: unknown): unknown => value;
  const rethrow = (error: unknown): never => {
    throw error;
  };
  const middleware = async (ctx: Ctx, next: () => Promise<unknown>): Promise<unknown> => {
    if (ctx.toolCall.name === 'bash' && dangerous(ctx)) return 'dangerous';
    return await next();
  };
  const middlewares: Mw[] = Array.from({ length: n }, () =>
    checked ? (ctx: Ctx, next: () => Promise<unknown>) => middleware(ctx, next).then(check, rethrow) : middleware,
  );
  const fn = compose<Ctx>(middlewares);
  const innermost = () => Promise.resolve(outcome);
  return (ctx) => fn(ctx, innermost);
}

/** The same hooks registered with hookable, called with `callHook`. */
export function hookable(n: number, kind: 'sync' | 'async'): (ctx: Ctx) => unknown {
  const hooks = createHooks<{ PreToolUse: (ctx: Ctx) => Promise<void> | void }>();
  for (const fn of guards(n, kind)) hooks.hook('PreToolUse', fn as (ctx: Ctx) => Promise<void> | void);
  return (ctx) => hooks.callHook('PreToolUse', ctx);
}

/** The same hooks tapped into a tapable AsyncSeriesBailHook, called with `promise`. */
export function tapableAsync(n: number, kind: 'sync' | 'async'): (ctx: Ctx) => Promise<unknown> {
  const hook = new AsyncSeriesBailHook<[Ctx], unknown>(['ctx']);
  for (const [i, fn] of guards(n, kind).entries()) {
    if (kind === 'sync') hook.tap(`hook ${i}`, fn);
    else hook.tapPromise(`hook ${i}`, fn as (ctx: Ctx) => Promise<unknown>);
  }
  return (ctx) => hook.promise(ctx);
}

/** The same hooks tapped into a tapable SyncBailHook, called with `call`. */
export function tapableSync(n: number): (ctx: Ctx) => unknown {
  const hook = new SyncBailHook<[Ctx], unknown>(['ctx']);
  for (const [i, fn] of guards(n, 'sync').entries()) hook.tap(`hook ${i}`, fn);
  return (ctx) => hook.call(ctx);
}

/** A synchronous `for` loop over the hooks: what no promise at all costs. */
export function syncForLoop(n: number): (ctx: Ctx) => unknown {
  const fns = guards(n, 'sync');
  return (ctx) => {
    for (let i = 0; i < fns.length; i++) {
      const answer = fns[i]!(ctx);
      if (answer !== undefined) return answer;
    }
    return undefined;
  };
}
