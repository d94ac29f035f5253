import { describe, expect, it } from 'vitest';
import {
  AgentBuilder,
  EVENT_DIALECTS,
  HOOK_EVENTS,
  HOOK_TRIGGER_NAMES,
  HookEvent,
  ToolCall,
  ToolHookContext,
  validateFrontmatter,
  type HookEventName,
} from 'agent-hooks';

/** The string values of the PHP AgentBuilder's `HookEvent` enum (`case PreToolUse = 'pre_tool_use'`, …). */
const PHP_VALUES: readonly (readonly [string, HookEventName])[] = [
  ['pre_tool_use', 'PreToolUse'],
  ['post_tool_use', 'PostToolUse'],
  ['before_step', 'BeforeStep'],
  ['after_step', 'AfterStep'],
  ['execution_start', 'ExecutionStart'],
  ['execution_end', 'ExecutionEnd'],
  ['stop', 'Stop'],
  ['subagent_stop', 'SubagentStop'],
  ['agent_failed', 'AgentFailed'],
];

describe('the PHP enum’s string values as event names', () => {
  it.each(PHP_VALUES)('HookEvent.parse(%j) is %s, with and without the php-value dialect, and writes back', (value, event) => {
    expect(HookEvent.parse(value)).toBe(event);
    expect(HookEvent.parse(value, 'php-value')).toBe(event);
    expect(HookEvent.toDialect(event, 'php-value')).toBe(value);
    expect(HookEvent.aliasesOf(event)).toContainEqual({ dialect: 'php-value', name: value });
  });

  it('keeps the php dialect’s names the enum’s case names, and the php-value dialect the values only', () => {
    expect(EVENT_DIALECTS).toContain('php-value');
    expect(HookEvent.toDialect('PreToolUse', 'php')).toBe('PreToolUse');
    expect(HookEvent.tryParse('PreToolUse', 'php-value')).toBeUndefined();
    expect(HookEvent.tryParse('pre_tool_use', 'php')).toBeUndefined();
    const named = HOOK_EVENTS.filter((event) => HookEvent.toDialect(event, 'php-value') !== undefined);
    expect(named).toEqual(HOOK_EVENTS.filter((event) => HookEvent.toDialect(event, 'php') !== undefined));
  });

  it('resolves the collisions with HOOK.md’s snake_case names and Cursor’s `stop` to the same event, so no name changes meaning', () => {
    // PHP `stop` is the gate that can keep the agent working: Stop, as Cursor’s `stop` and HOOK.md’s `before_stop`.
    expect(HookEvent.parse('stop')).toBe('Stop');
    expect(HookEvent.parse('stop', 'cursor')).toBe('Stop');
    expect(HookEvent.parse('before_stop', 'hookmd-legacy')).toBe('Stop');
    // …and not the observers HOOK.md names after a stop.
    expect(HookEvent.parse('post-agent-turn-stop')).toBe('AfterStop');
    expect(HookEvent.parse('after_agent')).toBe('AfterAgent');
    // `subagent_stop` is the same event in PHP and in old HOOK.md.
    expect(HookEvent.parse('subagent_stop', 'hookmd-legacy')).toBe('SubagentStop');
    expect(HookEvent.parse('subagent_stop', 'php-value')).toBe('SubagentStop');
    // One letter from HOOK.md’s turn events, PHP’s step events stay step events.
    expect(HookEvent.parse('before_step')).toBe('BeforeStep');
    expect(HookEvent.parse('before_agent')).toBe('UserPromptSubmit');
    expect(HookEvent.parse('after_step')).toBe('AfterStep');

    const meanings = new Map<string, Set<HookEventName>>();
    for (const event of HOOK_EVENTS) {
      for (const { name } of HookEvent.aliasesOf(event)) meanings.set(name, (meanings.get(name) ?? new Set()).add(event));
    }
    const ambiguous = [...meanings].filter(([, events]) => events.size > 1).map(([name]) => name);
    // Gemini’s AfterAgent, documented before the PHP values came.
    expect(ambiguous).toEqual(['AfterAgent']);
  });

  it('are accepted by the builder', async () => {
    const seen: string[] = [];
    const builder = AgentBuilder.new().addHook('pre_tool_use', (ctx) => void seen.push(ctx.event));
    const { stack } = await builder.resolveHooks();
    await stack.process(ToolHookContext.beforeToolUse(ToolCall.create('bash')));
    expect(seen).toEqual(['PreToolUse']);
    expect(stack.hooksFor('pre_tool_use')).toHaveLength(1);
  });

  it.each(PHP_VALUES)('are accepted as a HOOK.md trigger: %j', (value, event) => {
    expect(HOOK_TRIGGER_NAMES).toContain(value);
    const result = validateFrontmatter({ name: 'my-hook', description: 'The my-hook hook.', trigger: value }, { file: '/hooks/my-hook/HOOK.md' });
    expect(result.manifest?.trigger).toBe(event);
  });
});
