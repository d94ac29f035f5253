/**
 * Scale: 1,000 registered hooks over 100 tool names, 10 of them for the tool called, against a stack holding only
 * those 10 with exact names. The chain is indexed by event and tool name, built once per stack, so the other 990 cost
 * nothing — for exact names, for regexes that only match a fixed list of names (`/^bash$/`, `^(?:bash)$` as Copilot
 * configs compile, `/^(bash|sh)$/`) and for globs that only match a fixed list (`{bash,sh}`). A regex that can match
 * other names (here unanchored, `/bash/`) cannot be indexed and is tested once per hook: shown for comparison.
 */
import { BeforeToolHook, HookStack, ToolCall, ToolHookContext, type MatcherLike } from '../src/index.js';
import { measure, ratioTarget, timingRow, type Case, type Row } from './harness.js';

const ctx = ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'ls -la' }));

const escape = (name: string): string => name.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

/** Each kind of matcher, for the hooks of one tool name. */
const KINDS: { name: string; matcher: (tool: string) => MatcherLike; indexed: boolean }[] = [
  { name: 'exact names', matcher: (tool) => tool, indexed: true },
  { name: 'anchored regexes /^name$/', matcher: (tool) => new RegExp(`^${escape(tool)}$`), indexed: true },
  { name: 'anchored regexes ^(?:name)$ (Copilot)', matcher: (tool) => new RegExp(`^(?:${escape(tool)})$`), indexed: true },
  { name: 'anchored regexes /^(name|name_x)$/', matcher: (tool) => new RegExp(`^(${escape(tool)}|${escape(tool)}_x)$`), indexed: true },
  { name: 'brace globs {name,name_x}', matcher: (tool) => `{${tool},${tool}_x}`, indexed: true },
  { name: 'unanchored regexes /name/', matcher: (tool) => new RegExp(escape(tool)), indexed: false },
];

export async function scaleSuite(): Promise<Row[]> {
  const tools = Array.from({ length: 100 }, (_, i) => (i === 0 ? 'bash' : `tool_${i}`));
  const stack = (count: number, matcher: (tool: string) => MatcherLike) =>
    new HookStack(Array.from({ length: count }, (_, i) => ({ hook: new BeforeToolHook(() => undefined, { matcher: matcher(tools[i % 100]!) }), priority: i % 5 })));
  const small = new HookStack(Array.from({ length: 10 }, () => ({ hook: new BeforeToolHook(() => undefined, { matcher: 'bash' }), priority: 0 })));
  const ONLY = 'stack of the 10 matching hooks (exact names)';
  const cases: Case[] = [{ name: ONLY, op: () => small.process(ctx), async: true }];
  for (const kind of KINDS) {
    const big = stack(1000, kind.matcher);
    let ran = 0;
    // Every kind selects the same 10 hooks for `bash` (the unanchored regex, `bash` in no other name, too).
    const probe = new HookStack(
      Array.from({ length: 1000 }, (_, i) => ({ hook: new BeforeToolHook(() => void ran++, { matcher: kind.matcher(tools[i % 100]!) }), priority: i % 5 })),
    );
    await probe.process(ctx);
    if (ran !== 10) throw new Error(`scale bench: ${kind.name} ran ${ran} hooks for bash instead of 10`);
    cases.push({ name: `1,000 hooks over 100 tools, ${kind.name}`, op: () => big.process(ctx), async: true });
  }
  // A case that cannot be indexed takes hundreds of times as long: a few samples of it are enough.
  const m = await measure(cases, { iterations: 10 });
  const suite = 'Scale, PreToolUse for one of 100 tools';
  const base = { name: ONLY, timing: m.get(ONLY)! };
  return [
    timingRow(suite, ONLY, base.timing),
    ...KINDS.map((kind) => {
      const name = `1,000 hooks over 100 tools, ${kind.name}`;
      return timingRow(suite, name, m.get(name)!, base, kind.indexed ? ratioTarget(2, ONLY) : undefined);
    }),
  ];
}
