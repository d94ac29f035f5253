/**
 * The empty path: an event no hook listens to, against a bare function call returning a constant. Every op is called
 * through one shared call site, as a real call: the baseline is what a call itself costs.
 */
import { BeforeToolHook, HookOutcome, HookStack, StopHookContext, ToolCall, ToolHookContext, type AnyHookContext } from '../src/index.js';
import { measure, ratioTarget, timingRow, type Case, type Row } from './harness.js';

const stopCtx = StopHookContext.stop({ stopReason: 'no_tool_calls' });
const readCtx = ToolHookContext.beforeToolUse(ToolCall.create('read', { path: 'README.md' }));
const CONSTANT = HookOutcome.proceed(stopCtx);

/** The baseline: a function of the context that returns a constant. */
function bare(ctx: AnyHookContext): HookOutcome {
  return ctx === undefined ? HookOutcome.proceed() : CONSTANT;
}

const BARE = 'bare function call';

export async function emptySuite(): Promise<Row[]> {
  // Hooks for PreToolUse on 'bash' only: Stop has none, and neither has PreToolUse on 'read'.
  const stack = new HookStack(Array.from({ length: 10 }, () => new BeforeToolHook(() => undefined, { matcher: 'bash' })));
  const empty = new HookStack();
  const cases: Case[] = [
    { name: BARE, op: () => bare(stopCtx), async: false },
    { name: 'hasHooksFor(event), the runtime’s check', op: () => stack.hasHooksFor('Stop'), async: false },
    { name: 'dispatch, event without hooks', op: () => stack.dispatch(stopCtx), async: false },
    { name: 'dispatch, empty stack', op: () => empty.dispatch(stopCtx), async: false },
    { name: 'dispatch, tool without hooks', op: () => stack.dispatch(readCtx), async: false },
  ];
  const m = await measure(cases, { batch: 10_000, loop: 'shared', rounds: 3 });
  const suite = 'Empty path';
  const base = { name: BARE, timing: m.get(BARE)! };
  return cases.map((c) =>
    c.name === BARE ? timingRow(suite, BARE, base.timing) : timingRow(suite, c.name, m.get(c.name)!, base, ratioTarget(2, BARE)),
  );
}
