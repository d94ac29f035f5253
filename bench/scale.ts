/**
 * Scale: 1,000 registered hooks over 100 tool names, 10 of them for the tool called, against a stack holding only
 * those 10. The chain is indexed by event and exact tool name, built once per stack, so the other 990 cost nothing.
 */
import { BeforeToolHook, HookStack, ToolCall, ToolHookContext } from '../src/index.js';
import { measure, ratioTarget, timingRow, type Row } from './harness.js';

const ctx = ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'ls -la' }));

export async function scaleSuite(): Promise<Row[]> {
  const tools = Array.from({ length: 100 }, (_, i) => (i === 0 ? 'bash' : `tool_${i}`));
  const big = new HookStack(
    Array.from({ length: 1000 }, (_, i) => ({ hook: new BeforeToolHook(() => undefined, { matcher: tools[i % 100] }), priority: i % 5 })),
  );
  const small = new HookStack(Array.from({ length: 10 }, () => ({ hook: new BeforeToolHook(() => undefined, { matcher: 'bash' }), priority: 0 })));
  if (big.hooksFor('PreToolUse', 'bash').length !== 10) throw new Error('scale bench: expected 10 hooks for bash');
  const ONLY = 'stack of the 10 matching hooks';
  const m = await measure([
    { name: ONLY, op: () => small.process(ctx), async: true },
    { name: '1,000 hooks over 100 tools', op: () => big.process(ctx), async: true },
  ]);
  const suite = 'Scale, PreToolUse for one of 100 tools';
  const base = { name: ONLY, timing: m.get(ONLY)! };
  return [timingRow(suite, ONLY, base.timing), timingRow(suite, '1,000 hooks over 100 tools', m.get('1,000 hooks over 100 tools')!, base, ratioTarget(2, ONLY))];
}
