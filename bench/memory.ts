/**
 * Memory: 1,000,000 dispatches, then the heap after a full GC against the heap before them (after a warm-up, so that
 * compiled code and the chains a stack builds once are not counted). Needs `--expose-gc` (`npm run bench` sets it).
 */
import { AfterToolHook, BeforeToolHook, HookStack, ToolCall, ToolHookContext } from '../src/index.js';
import { finishRow, valueTarget, type Row } from './harness.js';

const DISPATCHES = 1_000_000;
const MB = 1024 * 1024;

function collect(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('The memory bench needs --expose-gc: run it with `npm run bench`, or node --expose-gc --import tsx bench/index.ts.');
  // Twice: finalizers and weak references freed by the first pass are reclaimed by the second.
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

async function growth(name: string, dispatch: (i: number) => unknown): Promise<Row> {
  for (let i = 0; i < 20_000; i++) await dispatch(i);
  const before = collect();
  const started = performance.now();
  for (let i = 0; i < DISPATCHES; i++) {
    const result = dispatch(i);
    if (result instanceof Promise) await result;
  }
  const ms = performance.now() - started;
  const grown = collect() - before;
  return finishRow({
    suite: `Memory, ${DISPATCHES.toLocaleString('en')} dispatches`,
    name,
    unit: 'B',
    mean: grown,
    target: valueTarget(MB, '< 1 MiB heap growth'),
    note: `${((ms * 1e6) / DISPATCHES).toFixed(0)} ns per dispatch`,
  });
}

export async function memorySuite(): Promise<Row[]> {
  const tools = ['bash', 'read', 'write', 'edit', 'grep', 'glob', 'fetch', 'search', 'list', 'task'];
  const hooks = tools.flatMap((tool) => [
    new BeforeToolHook(() => undefined, { matcher: tool }),
    new BeforeToolHook((ctx) => (ctx.toolCall.args['command'] === 'rm -rf /' ? undefined : undefined)),
    new AfterToolHook(() => undefined, { matcher: tool }),
  ]);
  const stack = new HookStack(hooks);
  const calls = tools.map((tool) => ToolCall.create(tool, { command: 'ls -la' }));
  const options = { signal: new AbortController().signal, onNote: () => {}, waitUntil: () => {} };
  return [
    // A fresh context per dispatch, as the runtime makes them.
    await growth('process, new context each, 10 tools', (i) => stack.process(ToolHookContext.beforeToolUse(calls[i % 10]!), undefined, options)),
    await growth('dispatch (synchronous), new context each, one tool', () => stack.dispatch(ToolHookContext.beforeToolUse(calls[0]!))),
    // Every dispatch for a tool name never seen before: the per-tool chain cache must stay bounded.
    await growth('process, a new tool name each', (i) => stack.process(ToolHookContext.beforeToolUse(ToolCall.create(`tool_${i}`, {})))),
  ];
}
