/**
 * The all-synchronous fast path: when every hook returns synchronously, `HookStack.dispatch` runs the chain without a
 * promise, as hookable does. Timed against tapable's SyncBailHook and a synchronous `for` loop; and the promises one
 * dispatch creates are counted with an async_hooks PROMISE hook, so "no promise per hook" is checked, not assumed.
 */
import { createHook } from 'node:async_hooks';
import { ToolCall, ToolHookContext } from '../src/index.js';
import { forLoop, hookStack, syncForLoop, tapableSync } from './baselines.js';
import { finishRow, measure, timingRow, valueTarget, type Case, type Row } from './harness.js';

const ctx = ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'ls -la' }));

/**
 * How many promises `op` creates until its result settles, counted by V8's promise hook (so the ones created inside
 * libraries and by `await` count too). While a promise result settles the hook also sees the promises of whoever
 * waits for it; {@link promisesOf} takes those off.
 */
function promisesCreated(op: () => unknown): Promise<{ count: number; settled: boolean }> {
  return new Promise((resolve, reject) => {
    let count = 0;
    const hook = createHook({
      init(_id, type) {
        if (type === 'PROMISE') count++;
      },
    });
    hook.enable();
    let result: unknown;
    try {
      result = op();
    } catch (error) {
      hook.disable();
      reject(error);
      return;
    }
    if (!(result instanceof Promise)) {
      hook.disable();
      resolve({ count, settled: false });
      return;
    }
    result.then(
      () => {
        hook.disable();
        resolve({ count, settled: true });
      },
      (error: unknown) => {
        hook.disable();
        reject(error);
      },
    );
  });
}

/** The promises `op` creates: what the hook counts, less what it counts for an op known to create exactly one. */
async function promisesOf(op: () => unknown): Promise<number> {
  // The first count is one higher than the next ones (lazy initialisation): take the second.
  await promisesCreated(() => Promise.resolve());
  const waiting = (await promisesCreated(() => Promise.resolve())).count - 1;
  const { count, settled } = await promisesCreated(op);
  return settled ? count - waiting : count;
}

const TAPABLE = 'tapable SyncBailHook';

export async function syncSuite(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const n of [1, 10, 100]) {
    const stack = hookStack(n, 'sync');
    const cases: Case[] = [
      { name: 'for loop (synchronous)', op: syncForLoop(n).bind(null, ctx), async: false },
      { name: TAPABLE, op: tapableSync(n).bind(null, ctx), async: false },
      { name: 'HookStack.dispatch', op: () => stack.dispatch(ctx), async: false },
    ];
    const m = await measure(cases, { batch: n >= 100 ? 100 : 1000 });
    const suite = `Synchronous path, ${n} callback${n > 1 ? 's' : ''}`;
    const base = { name: TAPABLE, timing: m.get(TAPABLE)! };
    rows.push(timingRow(suite, TAPABLE, base.timing));
    rows.push(timingRow(suite, 'for loop (synchronous)', m.get('for loop (synchronous)')!, base));
    rows.push(timingRow(suite, 'HookStack.dispatch', m.get('HookStack.dispatch')!, base));
  }

  const suite = 'Promises per dispatch, 10 callbacks';
  const sync = hookStack(10, 'sync');
  const async = hookStack(10, 'async');
  const count = (name: string, op: () => unknown, max?: number) =>
    promisesOf(op).then((n) =>
      finishRow({ suite, name, unit: 'count', mean: n, ...(max === undefined ? {} : { target: valueTarget(max, `≤ ${max}`) }) }),
    );
  // Warm up first: a first call may create promises of its own (lazy initialisation).
  for (let i = 0; i < 100; i++) {
    sync.dispatch(ctx);
    await sync.process(ctx);
    await async.process(ctx);
  }
  rows.push(await count('HookStack.dispatch, sync callbacks', () => sync.dispatch(ctx), 0));
  rows.push(await count('HookStack.process, sync callbacks', () => sync.process(ctx), 1));
  const loop = forLoop(10, 'async');
  rows.push(await count('for loop, async callbacks', () => loop(ctx)));
  rows.push(await count('HookStack.process, async callbacks', () => async.process(ctx)));
  return rows;
}
