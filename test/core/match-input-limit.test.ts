import { describe, expect, it } from 'vitest';
import {
  boundedTest,
  CompositeMatcher,
  HookOutcome,
  HookStack,
  InputPatternMatcher,
  MATCH_INPUT_LIMIT,
  ToolCall,
  ToolHookContext,
  ToolNameMatcher,
  type Hook,
} from 'agent-hooks';

/** A regex that records the length of every string it is tested against. */
class RecordingRegExp extends RegExp {
  readonly lengths: number[] = [];
  override test(text: string): boolean {
    this.lengths.push(text.length);
    return super.test(text);
  }
}

const pre = (name: string, args: Record<string, unknown>) => ToolHookContext.beforeToolUse(ToolCall.create(name, args));

describe('the bound on what a matcher regex is tested against', () => {
  it('is 16 KiB of code units; a longer string is not tested and counts as a match', () => {
    expect(MATCH_INPUT_LIMIT).toBe(16 * 1024);
    const re = new RecordingRegExp('never-there');
    expect(boundedTest(re, 'x'.repeat(MATCH_INPUT_LIMIT))).toBe(false);
    expect(boundedTest(re, 'x'.repeat(MATCH_INPUT_LIMIT + 1))).toBe(true);
    expect(re.lengths).toEqual([MATCH_INPUT_LIMIT]);
  });

  it('an input pattern matches an over-long input without testing it, and tests a short one', () => {
    const re = new RecordingRegExp('rm -rf');
    const matcher = new InputPatternMatcher(re);
    expect(matcher.matches(pre('bash', { command: 'ls' }))).toBe(false);
    expect(matcher.matches(pre('bash', { command: `${' '.repeat(MATCH_INPUT_LIMIT)}ls` }))).toBe(true);
    expect(Math.max(...re.lengths)).toBeLessThanOrEqual(MATCH_INPUT_LIMIT);
  });

  it('so does one argument, with { field }', () => {
    const re = new RecordingRegExp('^/etc/');
    const matcher = new InputPatternMatcher(re, { field: 'path' });
    expect(matcher.matches(pre('write', { path: '/tmp/a', content: 'x'.repeat(MATCH_INPUT_LIMIT * 2) }))).toBe(false);
    expect(matcher.matches(pre('write', { path: `/tmp/${'a/'.repeat(MATCH_INPUT_LIMIT)}` }))).toBe(true);
    expect(matcher.matches(pre('write', { path: { nested: 'y'.repeat(MATCH_INPUT_LIMIT) } }))).toBe(true);
    expect(Math.max(...re.lengths)).toBeLessThanOrEqual(MATCH_INPUT_LIMIT);
  });

  it('a tool-name regex or glob treats an over-long name as a match; an exact name still compares exactly', () => {
    const long = `read_${'x'.repeat(MATCH_INPUT_LIMIT)}`;
    const re = new RecordingRegExp('^write_');
    expect(new ToolNameMatcher(re).matches(pre(long, {}))).toBe(true);
    expect(re.lengths).toEqual([]);
    expect(new ToolNameMatcher('/^write_/').matches(pre(long, {}))).toBe(true);
    expect(new ToolNameMatcher('write_*').matches(pre(long, {}))).toBe(true);
    expect(new ToolNameMatcher('write_file').matches(pre(long, {}))).toBe(false);
    expect(new ToolNameMatcher('/^write_/').matches(pre('read_file', {}))).toBe(false);
  });

  it('under a negation, an over-long input does not match (as documented)', () => {
    const matcher = CompositeMatcher.not(new InputPatternMatcher(/safe-command/));
    expect(matcher.matches(pre('bash', { command: 'x'.repeat(MATCH_INPUT_LIMIT) }))).toBe(false);
  });

  it('a dispatch with a slow pattern and a megabyte of input runs the guard, testing no more than the bound', async () => {
    // Quadratic: on a megabyte of blanks without the final x this would take minutes.
    const re = new RecordingRegExp('\\s+x$');
    const guard: Hook = {
      name: 'guard',
      events: ['PreToolUse'],
      matcher: new InputPatternMatcher(re, { field: 'command' }),
      handle: () => HookOutcome.block('guarded'),
    };
    const stack = new HookStack().with(guard);
    const padded = await stack.process(pre('bash', { command: `${' '.repeat(1024 * 1024)}rm -rf /` }));
    expect(padded.isBlocked()).toBe(true);
    const short = await stack.process(pre('bash', { command: `${' '.repeat(100)}ls` }));
    expect(short.isBlocked()).toBe(false);
    expect(re.lengths).toEqual([102]);
  });
});
