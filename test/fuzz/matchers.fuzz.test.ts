/**
 * Random matcher strings, in every place a user writes one: each either compiles or is refused with the documented
 * error (a MatcherSyntaxError, or a problem with a message), and a matcher that compiled never throws when matched.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  configMatcher,
  HookEvent,
  InputPatternMatcher,
  manifestMatcher,
  MATCH_INPUT_LIMIT,
  Matcher,
  MatcherSyntaxError,
  sampleContext,
  ToolCall,
  ToolHookContext,
  ToolNameMatcher,
  validateFrontmatter,
  type AnyHookContext,
  type HookEventName,
  type HookMatcher,
  type MatcherRule,
} from 'agent-hooks';
import { ConfigCollector } from '../../src/config/config-source.js';
import { sized } from '../support/size.js';

const SYNTAX = 'aabB_-|*+?(){}[]\\^$./!@,:=<>12swdigyuv '.split('');
/** Strings made of regex and glob syntax, short enough that the ReDoS checker stays quick on them. */
const patternText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: fc.constantFrom(...SYNTAX), maxLength: 10 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 10 }) },
  { weight: 1, arbitrary: fc.constantFrom('Bash|Write', '/regex/i', '/a/gy', '/(/', 'read_*', '{a,b}_file', '!(x)', '+(a|aa)', '*', '', ' ', '||', 'a||b', '(a+)+$', '\\', '[', '/etc/') },
);

const EVENTS: readonly HookEventName[] = HookEvent.all;

/** A tool context with any name and any input, or a context of any other event. */
const anyContext: fc.Arbitrary<AnyHookContext> = fc.oneof(
  fc
    .record({
      name: fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('Bash', 'Write', 'read_file', 'mcp__x__y'), fc.constant('n'.repeat(MATCH_INPUT_LIMIT + 1))),
      args: fc.dictionary(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('command', 'path', '__proto__')), fc.jsonValue({ maxDepth: 3 })),
      post: fc.boolean(),
    })
    .map(({ name, args, post }) => {
      const ctx = ToolHookContext.beforeToolUse(ToolCall.create(name, args));
      return post ? sampleContext('PostToolUse', { tool_name: name, tool_input: args }) : ctx;
    }),
  fc.constantFrom(...EVENTS).map((event) => sampleContext(event)),
);

/** Runs `make`; a throw must be a MatcherSyntaxError naming the pattern. */
function compiled<T>(pattern: string, make: () => T): T | undefined {
  try {
    return make();
  } catch (error) {
    expect(error).toBeInstanceOf(MatcherSyntaxError);
    expect((error as MatcherSyntaxError).pattern).toBe(pattern);
    expect((error as Error).message).toContain(JSON.stringify(pattern));
    return undefined;
  }
}

function expectMatchesQuietly(matcher: HookMatcher, contexts: readonly AnyHookContext[]): void {
  for (const ctx of contexts) expect(typeof matcher.matches(ctx)).toBe('boolean');
  expect(typeof String(matcher)).toBe('string');
}

describe('builder matchers from random strings', () => {
  it('a tool-name pattern compiles or throws MatcherSyntaxError; what compiled matches any context without throwing', () => {
    fc.assert(
      fc.property(patternText, fc.array(anyContext, { maxLength: 4 }), (pattern, contexts) => {
        const matcher = compiled(pattern, () => new ToolNameMatcher(pattern));
        const viaFrom = compiled(pattern, () => Matcher.from(pattern));
        expect(viaFrom === undefined).toBe(matcher === undefined);
        if (matcher !== undefined) expectMatchesQuietly(matcher, contexts);
      }),
      { numRuns: sized(1000) },
    );
  });

  it('an input pattern, on the whole input or one argument, compiles or throws MatcherSyntaxError, and matches quietly', () => {
    fc.assert(
      fc.property(patternText, fc.option(fc.constantFrom('command', 'a.b', '', '.', '__proto__', 'constructor.name')), fc.array(anyContext, { maxLength: 4 }), (pattern, field, contexts) => {
        const matcher = compiled(pattern, () => new InputPatternMatcher(pattern, field === null ? {} : { field }));
        if (matcher !== undefined) expectMatchesQuietly(matcher, contexts);
      }),
      { numRuns: sized(1000) },
    );
  });
});

describe('HOOK.md matchers from random strings', () => {
  it('validation accepts a matcher or names the field with a reason; what it accepts, the runner builds and matches quietly', () => {
    fc.assert(
      fc.property(fc.option(patternText, { nil: undefined }), fc.option(patternText, { nil: undefined }), fc.array(anyContext, { maxLength: 3 }), (tool, pattern, contexts) => {
        const matcher = { ...(tool !== undefined ? { tool } : {}), ...(pattern !== undefined ? { pattern } : {}) };
        const { manifest, problems } = validateFrontmatter({ name: 'm', description: 'd', trigger: 'pre-tool-call', matcher }, { file: '/h/m/HOOK.md' });
        for (const problem of problems) {
          expect(['matcher.tool', 'matcher.pattern']).toContain(problem.field);
          expect(['invalid-regex', 'unsafe-regex', 'unknown-tool', 'javascript-only-regex']).toContain(problem.code);
          // A tool matcher that no agent's tool meets, or a regex only JavaScript reads (the reference runtime
          // would not load it), is loaded with a warning; a bad regex is an error.
          const warns = problem.code === 'unknown-tool' || problem.code === 'javascript-only-regex';
          expect(problem.severity).toBe(warns ? 'warning' : 'error');
          expect(problem.message.trim()).not.toBe('');
        }
        if (manifest === undefined) {
          expect(problems.filter((p) => p.severity === 'error').length).toBeGreaterThan(0);
          return;
        }
        const built = manifestMatcher(manifest);
        if (built !== undefined) expectMatchesQuietly(built, contexts);
      }),
      { numRuns: sized(300) },
    );
  });
});

describe('config matchers from random strings', () => {
  const rules: readonly MatcherRule[] = ['claude', 'anchored', 'regex'];

  it('configMatcher compiles or throws MatcherSyntaxError under every rule, on every event, and matches quietly', () => {
    fc.assert(
      fc.property(patternText, fc.constantFrom(...rules), fc.constantFrom(...EVENTS), fc.array(anyContext, { maxLength: 3 }), (pattern, rule, event, contexts) => {
        let matcher: HookMatcher | undefined;
        try {
          matcher = configMatcher(pattern, event, rule);
        } catch (error) {
          expect(error).toBeInstanceOf(MatcherSyntaxError);
          return;
        }
        if (matcher !== undefined) expectMatchesQuietly(matcher, contexts);
      }),
      { numRuns: sized(300) },
    );
  });

  it('a loader reports any matcher value it cannot use as a problem with a message, and loads the rest', () => {
    const value = fc.oneof(patternText, fc.jsonValue({ maxDepth: 2 }));
    fc.assert(
      fc.property(value, fc.constantFrom(...rules), fc.constantFrom(...EVENTS), (pattern, rule, event) => {
        const out = new ConfigCollector({});
        const matcher = out.matcher(pattern, event, rule, '/p/settings.json', 'hooks.X[0].matcher');
        if (matcher === null) {
          expect(out.problems.filter((p) => p.severity === 'error')).toHaveLength(1);
        }
        for (const problem of out.problems) {
          expect(problem.file).toBe('/p/settings.json');
          expect(problem.field).toBe('hooks.X[0].matcher');
          expect(problem.code).not.toBe('');
          expect(problem.message.trim()).not.toBe('');
        }
      }),
      { numRuns: sized(300) },
    );
  });
});
