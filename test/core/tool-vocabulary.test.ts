import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalToolName,
  HookStack,
  type Hook,
  HookOutcome,
  KNOWN_TOOL_NAMES,
  Matcher,
  TOOL_VOCABULARY,
  TOOL_VOCABULARY_AGENTS,
  ToolCall,
  ToolHookContext,
  ToolNameMatcher,
  toolAliases,
} from 'agent-hooks';

const pre = (name: string) => ToolHookContext.beforeToolUse(ToolCall.create(name, { command: 'ls' }));

describe('the tool vocabulary', () => {
  it('gives each name one tool: no name belongs to two canonical tools', () => {
    const owner = new Map<string, string>();
    for (const tool of TOOL_VOCABULARY) {
      for (const name of [tool.canonical, ...Object.values(tool.names).flat()]) {
        const before = owner.get(name);
        expect(before === undefined || before === tool.canonical, `${name} is both ${before} and ${tool.canonical}`).toBe(true);
        owner.set(name, tool.canonical);
      }
    }
    expect(new Set(KNOWN_TOOL_NAMES)).toEqual(new Set(owner.keys()));
  });

  it('names every agent’s shell tool, and knows each agent of the table', () => {
    const shell = TOOL_VOCABULARY.find((t) => t.canonical === 'Shell')!;
    expect(Object.keys(shell.names).sort()).toEqual([...TOOL_VOCABULARY_AGENTS].sort());
    for (const name of ['Bash', 'bash', 'run_shell_command', 'Shell', 'Execute']) expect(canonicalToolName(name)).toBe('Shell');
    expect(canonicalToolName('deploy')).toBeUndefined();
    expect(canonicalToolName('BASH')).toBeUndefined();
    expect(toolAliases('deploy')).toEqual(['deploy']);
    expect(toolAliases('Bash')[0]).toBe('Shell');
    expect(ToolCall.create('run_shell_command').canonicalName).toBe('Shell');
    expect(ToolCall.create('mcp__github__create_issue').canonicalName).toBeUndefined();
  });

  it('a HOOK.md-style regex (`Shell`, `^Shell$`) matches every agent’s shell tool; an agent’s own name keeps working', () => {
    for (const pattern of [/Shell/, /^Shell$/, /^Bash$/, /run_shell/, 'Shell', 'Bash', 'run_shell_command', 'bash', '/^(Bash|Shell)$/', 'B*h']) {
      const m = new ToolNameMatcher(pattern);
      for (const name of ['Bash', 'bash', 'run_shell_command', 'Shell', 'run_in_terminal']) {
        expect(m.matches(pre(name)), `${String(pattern)} on ${name}`).toBe(true);
      }
      expect(m.matches(pre('Read')), `${String(pattern)} on Read`).toBe(false);
      expect(m.matches(pre('deploy')), `${String(pattern)} on deploy`).toBe(false);
    }
  });

  it('for any known name, an exact matcher of any other name of the same tool matches it, and one of another tool does not', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KNOWN_TOOL_NAMES), fc.constantFrom(...KNOWN_TOOL_NAMES), (a, b) => {
        const same = canonicalToolName(a) === canonicalToolName(b);
        expect(new ToolNameMatcher(a).matches(pre(b))).toBe(same);
        expect(Matcher.from(b)!.matches(pre(a))).toBe(same);
      }),
    );
  });

  it('one hook decides the same in a stack whichever agent named the call', async () => {
    const guard: Hook = {
      handle: (ctx, next) => ('toolCall' in ctx && String(ctx.toolCall.args.command).includes('rm -rf') ? HookOutcome.block('no') : next(ctx)),
      matcher: new ToolNameMatcher('Shell'),
    };
    const stack = new HookStack().with(guard, 0);
    for (const name of ['Bash', 'bash', 'run_shell_command', 'Shell', 'Execute']) {
      const outcome = await stack.process(ToolHookContext.beforeToolUse(ToolCall.create(name, { command: 'rm -rf build' })));
      expect(outcome.type, name).toBe('block');
    }
  });
});
