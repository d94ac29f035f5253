import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AgentState,
  CallableMatcher,
  CompositeMatcher,
  EventTypeMatcher,
  ExecutionHookContext,
  HookEvent,
  InputPatternMatcher,
  Matcher,
  MatcherSyntaxError,
  StepHookContext,
  StopHookContext,
  ToolCall,
  ToolExecution,
  ToolHookContext,
  ToolNameMatcher,
  toolAliases,
  UnknownEventError,
  type AnyHookContext,
  type HookMatcher,
  type MatcherLike,
  type MatchPredicate,
} from 'agent-hooks';
import { catchError } from '../support/catch-error.js';

const pre = (name: string, args: Record<string, unknown> = {}) => ToolHookContext.beforeToolUse(ToolCall.create(name, args));
const post = (name: string, args: Record<string, unknown> = {}) =>
  ToolHookContext.afterToolUse(ToolExecution.success(ToolCall.create(name, args), 'ok'));
const TOOL_EVENTS = ['PreToolUse', 'PermissionRequest', 'PermissionDenied', 'PostToolUse', 'PostToolUseFailure'];

const syntaxError = (fn: () => unknown): MatcherSyntaxError => {
  const error = catchError(fn);
  expect(error).toBeInstanceOf(MatcherSyntaxError);
  expect(error).toBeInstanceOf(SyntaxError);
  return error as MatcherSyntaxError;
};

/** Names a tool-name matcher accepts, out of `names`, tested on a PreToolUse context. */
const accepted = (m: HookMatcher, names: readonly string[]) => names.filter((n) => m.matches(pre(n)));

const nonToolContexts = (): AnyHookContext[] => [
  ExecutionHookContext.onStart(),
  ExecutionHookContext.onEnd({ status: 'completed' }),
  StepHookContext.beforeStep(0),
  StopHookContext.stop({ stopReason: 'no_tool_calls' }),
];

describe('ToolNameMatcher', () => {
  // `reader` and `file_read` are no agent's names; OpenCode's `read` is the ReadFile of the vocabulary (see below).
  const NAMES = ['bash', 'Bash', 'bash2', 'shell', 'read_file', 'write_file', 'edit_file', 'reader', 'file_read', 'mcp__github__create_issue', 'mcp_x', 'BASH'];

  it("an exact name matches that name, case-sensitively, and the other names of its tool ('bash')", () => {
    const m = new ToolNameMatcher('bash');
    expect(accepted(m, NAMES)).toEqual(['bash', 'Bash']);
    expect(m.hints.toolNames).toEqual(new Set(toolAliases('bash')));
    const own = new ToolNameMatcher('deploy');
    expect(accepted(own, [...NAMES, 'deploy', 'Deploy'])).toEqual(['deploy']);
    expect(own.hints.toolNames).toEqual(new Set(['deploy']));
    expect(m.hints.exact).toBe(true);
    expect(String(m)).toBe('tool:bash');
  });

  it("'*' and '' match every tool, on every tool event", () => {
    for (const pattern of ['*', '', '  ']) {
      const m = new ToolNameMatcher(pattern);
      expect(accepted(m, NAMES), JSON.stringify(pattern)).toEqual(NAMES);
      expect(m.matches(post('anything'))).toBe(true);
      expect(m.matches(ToolHookContext.permissionRequest(ToolCall.create('x')))).toBe(true);
      expect(m.matches(ToolHookContext.toolFailure(ToolCall.create('x'), new Error('boom')))).toBe(true);
      expect(m.hints.exact).toBe(true);
      expect(m.hints.toolNames).toBeUndefined();
      expect([...(m.hints.events ?? [])]).toEqual(TOOL_EVENTS);
    }
  });

  it('globs: read_*, *_file, mcp__*, {read,write}_file', () => {
    expect(accepted(new ToolNameMatcher('read_*'), NAMES)).toEqual(['read_file']);
    expect(accepted(new ToolNameMatcher('*_file'), NAMES)).toEqual(['read_file', 'write_file', 'edit_file']);
    expect(accepted(new ToolNameMatcher('mcp__*'), NAMES)).toEqual(['mcp__github__create_issue']);
    const braces = new ToolNameMatcher('{read,write}_file');
    expect(accepted(braces, NAMES)).toEqual(['read_file', 'write_file']);
    // Braces of plain names match a fixed list: indexed by it, with every other name of those tools.
    expect(braces.hints.toolNames).toEqual(new Set([...toolAliases('read_file'), ...toolAliases('write_file')]));
    expect(braces.hints.exact).toBe(true);
    expect(new ToolNameMatcher('read_*').hints.toolNames).toBeUndefined();
  });

  it("a glob matching one agent's name of a tool matches the others' names of it (OpenCode's read for read_*)", () => {
    expect(toolAliases('read')).toContain('read_file');
    expect(accepted(new ToolNameMatcher('read_*'), ['read', 'reader', 'write'])).toEqual(['read']);
    expect(accepted(new ToolNameMatcher('*_file'), ['read', 'write', 'edit', 'reader'])).toEqual(['read', 'write', 'edit']);
  });

  it("a '|' list of exact names ('bash|shell') matches any of them and hints the exact set", () => {
    const m = new ToolNameMatcher('bash|shell');
    expect(accepted(m, NAMES)).toEqual(['bash', 'Bash', 'shell']);
    expect(m.hints.toolNames).toEqual(new Set([...toolAliases('bash'), 'shell']));
    expect(m.hints.exact).toBe(true);
    expect(accepted(new ToolNameMatcher(' bash | shell '), NAMES)).toEqual(['bash', 'Bash', 'shell']);
  });

  it("a '|' list may mix names and globs ('bash|read_*')", () => {
    const m = new ToolNameMatcher('bash|read_*');
    expect(accepted(m, NAMES)).toEqual(['bash', 'Bash', 'read_file']);
    expect(m.hints.exact).toBeUndefined();
    expect(m.hints.toolNames).toBeUndefined();
  });

  it("a regex literal '/^(read|write)_.+$/' matches by regex (the | is not a list)", () => {
    const m = new ToolNameMatcher('/^(read|write)_.+$/');
    expect(accepted(m, NAMES)).toEqual(['read_file', 'write_file']);
    expect(m.hints.toolNames).toBeUndefined();
    expect(m.hints.exact).toBeUndefined();
  });

  it("a regex literal with flags '/^BASH$/i' is case-insensitive", () => {
    expect(accepted(new ToolNameMatcher('/^BASH$/i'), NAMES)).toEqual(['bash', 'Bash', 'BASH']);
    expect(accepted(new ToolNameMatcher('/^BASH$/'), NAMES)).toEqual(['BASH']);
  });

  it('a RegExp object matches by regex', () => {
    const m = new ToolNameMatcher(/^mcp__/);
    expect(accepted(m, NAMES)).toEqual(['mcp__github__create_issue']);
    expect(m.pattern).toBe('/^mcp__/');
    expect(String(m)).toBe('tool:/^mcp__/');
  });

  it('a /g regex gives the same answer twice in a row (no lastIndex state)', () => {
    const re = /bash/g;
    const m = new ToolNameMatcher(re);
    const ctx = pre('bash');
    expect([m.matches(ctx), m.matches(ctx), m.matches(ctx)]).toEqual([true, true, true]);
    expect([m.matchesName('bash'), m.matchesName('bash')]).toEqual([true, true]);
    expect(re.lastIndex).toBe(0);
    const literal = new ToolNameMatcher('/bash/g');
    expect([literal.matches(ctx), literal.matches(ctx)]).toEqual([true, true]);
    const sticky = new ToolNameMatcher(/sh/y);
    expect([sticky.matchesName('bash'), sticky.matchesName('bash')]).toEqual([true, true]);
  });

  it('never matches a non-tool event, even with * or a matching regex', () => {
    for (const pattern of ['*', '', 'bash', '/.*/']) {
      const m = new ToolNameMatcher(pattern);
      for (const ctx of nonToolContexts()) expect(m.matches(ctx), `${pattern} on ${ctx.event}`).toBe(false);
    }
    const re = new ToolNameMatcher(/.*/);
    expect(re.matches(ExecutionHookContext.onStart())).toBe(false);
    expect(re.matches(StepHookContext.beforeStep(0))).toBe(false);
  });

  it('matches the tool name on PostToolUse too', () => {
    const m = new ToolNameMatcher('bash');
    expect(m.matches(post('bash'))).toBe(true);
    expect(m.matches(post('shell'))).toBe(false);
  });

  it("an invalid regex '/(/' throws MatcherSyntaxError naming the pattern", () => {
    const error = syntaxError(() => new ToolNameMatcher('/(/'));
    expect(error.name).toBe('MatcherSyntaxError');
    expect(error.pattern).toBe('/(/');
    expect(error.message).toContain('/(/');
    expect(error.message).toMatch(/^Invalid matcher pattern "\/\(\/"/);
  });

  it("an empty item in a '|' list throws MatcherSyntaxError", () => {
    for (const pattern of [' | ', 'bash|', '|bash', 'bash||shell']) {
      const error = syntaxError(() => new ToolNameMatcher(pattern));
      expect(error.pattern).toBe(pattern);
      expect(error.message).toContain(JSON.stringify(pattern));
    }
  });

  it('a pattern of another type throws TypeError', () => {
    expect(() => new ToolNameMatcher(42 as unknown as string)).toThrow(TypeError);
  });

  it('matchesName tests a name without a context', () => {
    const m = new ToolNameMatcher('read_*|bash');
    expect(m.matchesName('read_file')).toBe(true);
    expect(m.matchesName('bash')).toBe(true);
    expect(m.matchesName('shell')).toBe(false);
    expect(new ToolNameMatcher('*').matchesName('whatever')).toBe(true);
    expect(new ToolNameMatcher('/^a/').matchesName('abc')).toBe(true);
    expect(new ToolNameMatcher('/^a/').matchesName('cba')).toBe(false);
  });

  it('an identifier-like name matches itself and not itself + "x" (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/), (n) => {
        const m = new ToolNameMatcher(n);
        expect(m.matches(pre(n))).toBe(true);
        expect(m.matches(pre(n + 'x'))).toBe(false);
        expect(m.matches(pre('x' + n))).toBe(false);
      }),
    );
  });

  it("a '|'-joined list matches exactly the names in the list (property)", () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/);
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 8 }), fc.array(name, { maxLength: 10 }), (names, probes) => {
        const m = new ToolNameMatcher(names.join('|'));
        expect(m.hints.toolNames).toEqual(new Set(names));
        expect(m.hints.exact).toBe(true);
        for (const probe of [...names, ...probes, ...names.map((n) => n + 'x')]) {
          expect(m.matches(pre(probe)), probe).toBe(names.includes(probe));
        }
      }),
    );
  });
});

describe('InputPatternMatcher', () => {
  const rm = pre('bash', { command: 'rm -rf /', cwd: '/tmp' });
  const ls = pre('bash', { command: 'ls -la' });

  it('tests a regex against the JSON of the whole input', () => {
    const m = new InputPatternMatcher(/rm -rf/);
    expect(m.matches(rm)).toBe(true);
    expect(m.matches(ls)).toBe(false);
    expect(new InputPatternMatcher(/"cwd":"\/tmp"/).matches(rm)).toBe(true);
    expect(m.matches(post('bash', { command: 'rm -rf /' }))).toBe(true);
    expect(m.hints.events).toEqual(new Set(TOOL_EVENTS));
    expect(m.hints.exact).toBeUndefined();
  });

  it('with { field } tests one argument only', () => {
    const m = new InputPatternMatcher(/^rm\b/, { field: 'command' });
    expect(m.matches(rm)).toBe(true);
    expect(m.matches(ls)).toBe(false);
    // Anchored on the argument itself, not on the JSON text.
    expect(new InputPatternMatcher(/^rm/).matches(rm)).toBe(false);
    // The pattern is not found in another argument.
    expect(new InputPatternMatcher(/tmp/, { field: 'command' }).matches(rm)).toBe(false);
    expect(m.field).toBe('command');
    expect(String(m)).toBe('input.command:/^rm\\b/');
  });

  it("a dotted field 'options.path' reaches a nested argument", () => {
    const m = new InputPatternMatcher(/^\/etc\//, { field: 'options.path' });
    expect(m.matches(pre('read_file', { options: { path: '/etc/passwd' } }))).toBe(true);
    expect(m.matches(pre('read_file', { options: { path: '/home/me' } }))).toBe(false);
    expect(m.matches(pre('read_file', { path: '/etc/passwd' }))).toBe(false);
  });

  it('a non-string field is tested as JSON', () => {
    const m = new InputPatternMatcher(/^\d+$/, { field: 'timeout' });
    expect(m.matches(pre('bash', { timeout: 30 }))).toBe(true);
    expect(m.matches(pre('bash', { timeout: 'soon' }))).toBe(false);
  });

  it('a missing field does not match, even with a pattern that matches anything', () => {
    const m = new InputPatternMatcher(/.*/, { field: 'command' });
    expect(m.matches(pre('bash', { command: '' }))).toBe(true);
    expect(m.matches(pre('bash', {}))).toBe(false);
    expect(m.matches(pre('bash', { other: 'rm -rf' }))).toBe(false);
    const nested = new InputPatternMatcher(/.*/, { field: 'options.path' });
    expect(nested.matches(pre('x', { options: 'not an object' }))).toBe(false);
    expect(nested.matches(pre('x', { options: null }))).toBe(false);
    expect(nested.matches(pre('x', { options: {} }))).toBe(false);
    expect(nested.matches(pre('x', { options: { path: undefined } }))).toBe(false);
    expect(new InputPatternMatcher(/.*/, { field: 'toString' }).matches(pre('x', {}))).toBe(false);
  });

  it('a string pattern is a bare regex source', () => {
    const m = new InputPatternMatcher('rm\\s+-rf');
    expect(m.regex.source).toBe('rm\\s+-rf');
    expect(m.matches(rm)).toBe(true);
    expect(m.matches(pre('bash', { command: 'RM -RF /' }))).toBe(false);
    expect(m.matches(ls)).toBe(false);
  });

  it("a string pattern may be a '/…/i' literal", () => {
    const m = new InputPatternMatcher('/RM -RF/i', { field: 'command' });
    expect(m.regex.flags).toBe('i');
    expect(m.matches(rm)).toBe(true);
    expect(m.matches(pre('bash', { command: 'Rm -Rf ~' }))).toBe(true);
    expect(m.matches(ls)).toBe(false);
  });

  it('a /g pattern gives the same answer twice in a row', () => {
    const m = new InputPatternMatcher(/rm/g);
    expect([m.matches(rm), m.matches(rm), m.matches(rm)]).toEqual([true, true, true]);
  });

  it('an invalid pattern throws MatcherSyntaxError naming it', () => {
    const bare = syntaxError(() => new InputPatternMatcher('rm ('));
    expect(bare.pattern).toBe('rm (');
    expect(bare.message).toContain('"rm ("');
    const literal = syntaxError(() => new InputPatternMatcher('/[a-/'));
    expect(literal.pattern).toBe('/[a-/');
    expect(literal.message).toContain('"/[a-/"');
  });

  it('does not match non-tool events', () => {
    const m = new InputPatternMatcher(/.*/);
    for (const ctx of nonToolContexts()) expect(m.matches(ctx), ctx.event).toBe(false);
    expect(m.matches(ls)).toBe(true);
  });
});

describe('EventTypeMatcher', () => {
  it('matches a single event', () => {
    const m = new EventTypeMatcher('Stop');
    expect(m.matches(StopHookContext.stop({ stopReason: 'no_tool_calls' }))).toBe(true);
    expect(m.matches(StepHookContext.beforeStep(0))).toBe(false);
    expect(m.matches(pre('bash'))).toBe(false);
    expect(String(m)).toBe('event:Stop');
  });

  it('matches any of several events', () => {
    const m = new EventTypeMatcher('BeforeStep', 'Stop');
    expect(m.matches(StepHookContext.beforeStep(3))).toBe(true);
    expect(m.matches(StopHookContext.stop({ stopReason: 'max_steps' }))).toBe(true);
    expect(m.matches(ExecutionHookContext.onStart())).toBe(false);
    expect(m.matches(pre('bash'))).toBe(false);
    expect(String(m)).toBe('event:BeforeStep|Stop');
  });

  it("accepts any dialect's alias ('before_tool' is PreToolUse)", () => {
    const m = new EventTypeMatcher('before_tool', 'post-tool-call', 'errorOccurred');
    expect(m.events).toEqual(new Set(['PreToolUse', 'PostToolUse', 'AgentFailed']));
    expect(m.matches(pre('bash'))).toBe(true);
    expect(m.matches(post('bash'))).toBe(true);
    expect(m.matches(StepHookContext.beforeStep(0))).toBe(false);
    // Without a dialect, AfterAgent is the canonical AfterAgent, not Gemini's Stop.
    expect(new EventTypeMatcher('AfterAgent').events).toEqual(new Set(['AfterAgent']));
  });

  it('throws UnknownEventError for an unknown name', () => {
    expect(() => new EventTypeMatcher('pretooluse')).toThrow(UnknownEventError);
    expect(() => new EventTypeMatcher('Stop', 'Nope')).toThrow(UnknownEventError);
    expect(() => new EventTypeMatcher('pretooluse')).toThrow(/PreToolUse/);
    expect(() => new EventTypeMatcher()).toThrow(TypeError);
  });

  it('hints are exactly its events', () => {
    const m = new EventTypeMatcher('PreToolUse', 'before_tool', 'Stop');
    expect(m.hints.events).toEqual(new Set(['PreToolUse', 'Stop']));
    expect(m.hints.exact).toBe(true);
    expect(m.hints.toolNames).toBeUndefined();
  });
});

describe('CallableMatcher', () => {
  it('matches when its predicate says so', () => {
    const m = new CallableMatcher((ctx) => ctx.state.stepCount < 5);
    expect(m.matches(pre('bash').withState(AgentState.create({ stepCount: 3 })))).toBe(true);
    expect(ToolHookContext.beforeToolUse(ToolCall.create('bash'), { state: AgentState.create({ stepCount: 3 }) }).state.stepCount).toBe(3);
    expect(m.matches(ToolHookContext.beforeToolUse(ToolCall.create('bash'), { state: AgentState.create({ stepCount: 3 }) }))).toBe(true);
    expect(m.matches(StepHookContext.beforeStep(0, { state: AgentState.create({ stepCount: 5 }) }))).toBe(false);
    expect(m.matches(ExecutionHookContext.onStart({ state: AgentState.create({ stepCount: 9 }) }))).toBe(false);
  });

  it('coerces the answer to a boolean', () => {
    const m = new CallableMatcher((() => 'yes') as unknown as MatchPredicate);
    expect(m.matches(pre('bash'))).toBe(true);
    expect(new CallableMatcher((() => 0) as unknown as MatchPredicate).matches(pre('bash'))).toBe(false);
  });

  it('has no hints and names its function', () => {
    function isSafe(ctx: AnyHookContext) {
      return ctx.get('safe_mode') === true;
    }
    const m = new CallableMatcher(isSafe);
    expect((m as HookMatcher).hints).toBeUndefined();
    expect(String(m)).toBe('fn:isSafe');
  });

  it('throws TypeError for a non-function', () => {
    expect(() => new CallableMatcher('ctx => true' as unknown as MatchPredicate)).toThrow(TypeError);
    expect(() => new CallableMatcher(undefined as unknown as MatchPredicate)).toThrow(TypeError);
  });
});

describe('CompositeMatcher', () => {
  const yes = new CallableMatcher(() => true);
  const no = new CallableMatcher(() => false);
  const ctx = pre('bash');

  it('and / or / not', () => {
    expect(CompositeMatcher.and(yes, yes).matches(ctx)).toBe(true);
    expect(CompositeMatcher.and(yes, no).matches(ctx)).toBe(false);
    expect(CompositeMatcher.or(no, yes).matches(ctx)).toBe(true);
    expect(CompositeMatcher.or(no, no).matches(ctx)).toBe(false);
    expect(CompositeMatcher.not(no).matches(ctx)).toBe(true);
    expect(CompositeMatcher.not(yes).matches(ctx)).toBe(false);
    expect(CompositeMatcher.and(new ToolNameMatcher('bash'), new EventTypeMatcher('PreToolUse')).matches(ctx)).toBe(true);
    expect(CompositeMatcher.and(new ToolNameMatcher('bash'), new EventTypeMatcher('PostToolUse')).matches(ctx)).toBe(false);
  });

  it('nests: and(or(tool bash, tool shell), callable safe_mode) — the PHP example', () => {
    const safeMode = (c: AnyHookContext) => c.get('safe_mode') === true;
    const m = CompositeMatcher.and(
      CompositeMatcher.or(new ToolNameMatcher('bash'), new ToolNameMatcher('shell')),
      new CallableMatcher(safeMode),
    );
    expect(m.matches(pre('bash').withMetadata('safe_mode', true))).toBe(true);
    expect(m.matches(pre('shell').withMetadata('safe_mode', true))).toBe(true);
    expect(m.matches(pre('zsh').withMetadata('safe_mode', true))).toBe(false);
    expect(m.matches(pre('bash'))).toBe(false);
    expect(m.matches(pre('bash').withMetadata('safe_mode', false))).toBe(false);
    expect(m.matches(pre('bash').withState(AgentState.create({ metadata: { safe_mode: true } })))).toBe(true);
    expect(String(m)).toBe('and(or(tool:bash, tool:shell), fn:safeMode)');
    expect(m.operator).toBe('and');
    expect(m.matchers).toHaveLength(2);
    expect(m.hints?.toolNames).toEqual(new Set([...toolAliases('bash'), 'shell']));
    expect(m.hints?.exact).toBe(false);
  });

  it('toString shows the tree', () => {
    const m = CompositeMatcher.or(
      CompositeMatcher.not(new EventTypeMatcher('Stop')),
      new InputPatternMatcher(/rm/, { field: 'command' }),
      new CallableMatcher((() => true) as MatchPredicate),
    );
    expect(String(m)).toBe('or(not(event:Stop), input.command:/rm/, fn:anonymous)');
  });

  it('and(tool bash, callable) keeps toolNames {bash}, not exact', () => {
    const m = CompositeMatcher.and(new ToolNameMatcher('bash'), yes);
    expect(m.hints?.toolNames).toEqual(new Set(toolAliases('bash')));
    expect(m.hints?.events).toEqual(new Set(TOOL_EVENTS));
    expect(m.hints?.exact).toBe(false);
  });

  it('and of exact parts is exact, with the intersection', () => {
    const m = CompositeMatcher.and(new ToolNameMatcher('bash|shell'), new EventTypeMatcher('PreToolUse', 'Stop'));
    expect(m.hints?.events).toEqual(new Set(['PreToolUse']));
    expect(m.hints?.toolNames).toEqual(new Set([...toolAliases('bash'), 'shell']));
    expect(m.hints?.exact).toBe(true);
  });

  it('or(tool a, tool b) gives toolNames {a, b}, exact', () => {
    const m = CompositeMatcher.or(new ToolNameMatcher('a'), new ToolNameMatcher('b'));
    expect(m.hints?.toolNames).toEqual(new Set(['a', 'b']));
    expect(m.hints?.events).toEqual(new Set(TOOL_EVENTS));
    expect(m.hints?.exact).toBe(true);
    expect(accepted(m, ['a', 'b', 'c', 'ab'])).toEqual(['a', 'b']);
  });

  it('or with a part without hints knows nothing of tool names and is not exact', () => {
    const m = CompositeMatcher.or(new ToolNameMatcher('a'), yes);
    expect(m.hints?.toolNames).toBeUndefined();
    expect(m.hints?.events).toBeUndefined();
    expect(m.hints?.exact).toBe(false);
    const mixed = CompositeMatcher.or(new ToolNameMatcher('a'), new EventTypeMatcher('Stop'));
    expect(mixed.hints?.exact).toBe(false);
    expect(mixed.hints?.events).toEqual(new Set([...TOOL_EVENTS, 'Stop']));
  });

  it('not(EventTypeMatcher Stop) is exact, with every event but Stop', () => {
    const m = CompositeMatcher.not(new EventTypeMatcher('Stop'));
    expect(m.hints?.exact).toBe(true);
    expect(m.hints?.events?.has('Stop')).toBe(false);
    expect(m.hints?.events).toEqual(new Set(HookEvent.all.filter((e) => e !== 'Stop')));
    expect(m.matches(StopHookContext.stop({ stopReason: 'no_tool_calls' }))).toBe(false);
    expect(m.matches(StepHookContext.beforeStep(0))).toBe(true);
  });

  it('not of a tool-name or callable matcher has no hints', () => {
    expect(CompositeMatcher.not(new ToolNameMatcher('bash')).hints).toBeUndefined();
    expect(CompositeMatcher.not(yes).hints).toBeUndefined();
    const notBash = CompositeMatcher.not(new ToolNameMatcher('bash'));
    expect(notBash.matches(pre('shell'))).toBe(true);
    expect(notBash.matches(pre('bash'))).toBe(false);
    expect(notBash.matches(ExecutionHookContext.onStart())).toBe(true);
  });

  it('a non-matcher argument throws TypeError; so does an empty and()', () => {
    expect(() => CompositeMatcher.and(yes, {} as unknown as HookMatcher)).toThrow(TypeError);
    expect(() => CompositeMatcher.and(yes, {} as unknown as HookMatcher)).toThrow(/argument 2/);
    expect(() => CompositeMatcher.or('bash' as unknown as HookMatcher)).toThrow(TypeError);
    expect(() => CompositeMatcher.not(null as unknown as HookMatcher)).toThrow(TypeError);
    expect(() => CompositeMatcher.and()).toThrow(TypeError);
    expect(() => CompositeMatcher.or()).toThrow(TypeError);
  });

  it('and / or / not agree with every / some / ! (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 10 }), (bools) => {
        const parts = bools.map((b) => new CallableMatcher(() => b));
        expect(CompositeMatcher.and(...parts).matches(ctx)).toBe(bools.every(Boolean));
        expect(CompositeMatcher.or(...parts).matches(ctx)).toBe(bools.some(Boolean));
        parts.forEach((p, i) => expect(CompositeMatcher.not(p).matches(ctx)).toBe(!bools[i]));
        expect(CompositeMatcher.not(CompositeMatcher.and(...parts)).matches(ctx)).toBe(!bools.every(Boolean));
        expect(CompositeMatcher.and(CompositeMatcher.or(...parts), CompositeMatcher.not(CompositeMatcher.and(...parts))).matches(ctx)).toBe(
          bools.some(Boolean) && !bools.every(Boolean),
        );
      }),
    );
  });
});

describe('Matcher.from', () => {
  it('a string is a ToolNameMatcher', () => {
    const m = Matcher.from('bash|shell');
    expect(m).toBeInstanceOf(ToolNameMatcher);
    expect((m as ToolNameMatcher).pattern).toBe('bash|shell');
    expect(m?.matches(pre('shell'))).toBe(true);
    expect(m?.matches(pre('zsh'))).toBe(false);
  });

  it('a RegExp is a ToolNameMatcher', () => {
    const m = Matcher.from(/^read_/);
    expect(m).toBeInstanceOf(ToolNameMatcher);
    expect(m?.matches(pre('read_file'))).toBe(true);
    expect(m?.matches(pre('write_file'))).toBe(false);
  });

  it('a function is a CallableMatcher', () => {
    const m = Matcher.from((ctx) => ctx.event === 'Stop');
    expect(m).toBeInstanceOf(CallableMatcher);
    expect(m?.matches(StopHookContext.stop({ stopReason: 'no_tool_calls' }))).toBe(true);
    expect(m?.matches(pre('bash'))).toBe(false);
  });

  it('a matcher is returned as is', () => {
    const m = new EventTypeMatcher('Stop');
    expect(Matcher.from(m)).toBe(m);
    const custom: HookMatcher = { matches: () => true, toString: () => 'custom' };
    expect(Matcher.from(custom)).toBe(custom);
  });

  it('an array is the OR of its items', () => {
    const m = Matcher.from(['bash', /^read_/, (ctx: AnyHookContext) => ctx.event === 'Stop']);
    expect(m).toBeInstanceOf(CompositeMatcher);
    expect((m as CompositeMatcher).operator).toBe('or');
    expect((m as CompositeMatcher).matchers).toHaveLength(3);
    expect(m?.matches(pre('bash'))).toBe(true);
    expect(m?.matches(pre('read_file'))).toBe(true);
    expect(m?.matches(StopHookContext.stop({ stopReason: 'no_tool_calls' }))).toBe(true);
    expect(m?.matches(pre('shell'))).toBe(false);
    expect(m?.matches(StepHookContext.beforeStep(0))).toBe(false);
    const single = Matcher.from(['bash']);
    expect(single).toBeInstanceOf(ToolNameMatcher);
    const nested = Matcher.from([['a', 'b'], 'c']);
    expect(accepted(nested!, ['a', 'b', 'c', 'd'])).toEqual(['a', 'b', 'c']);
    expect(Matcher.from([])).toBeUndefined();
  });

  it('undefined and null mean no matcher', () => {
    expect(Matcher.from(undefined)).toBeUndefined();
    expect(Matcher.from(null)).toBeUndefined();
  });

  it('a number throws TypeError', () => {
    expect(() => Matcher.from(42 as unknown as MatcherLike)).toThrow(TypeError);
    expect(() => Matcher.from({} as unknown as MatcherLike)).toThrow(TypeError);
    expect(() => Matcher.from([42] as unknown as MatcherLike)).toThrow(TypeError);
  });

  it('an invalid pattern throws MatcherSyntaxError', () => {
    syntaxError(() => Matcher.from('/(/'));
    syntaxError(() => Matcher.from(['bash', ' | ']));
  });
});

describe('regex literals and paths', () => {
  it('reads a path as a name or a plain pattern, not as a regex with bogus flags', () => {
    const call = (name: string, args: Record<string, unknown> = {}) => ToolHookContext.beforeToolUse(ToolCall.create(name, args));
    expect(new ToolNameMatcher('/bin/bash').matches(call('/bin/bash'))).toBe(true);
    expect(new InputPatternMatcher('/etc/passwd').matches(call('read_file', { path: '/etc/passwd' }))).toBe(true);
    expect(new InputPatternMatcher('/etc/passwd').matches(call('read_file', { path: '/etc/hosts' }))).toBe(false);
    expect(new ToolNameMatcher('/^BASH$/i').matches(call('bash'))).toBe(true);
  });
});
