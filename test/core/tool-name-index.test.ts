/**
 * Regexes and globs that only match a fixed list of tool names are indexed by those names, as plain names are: the
 * stack selects exactly the hooks, in exactly the order, that testing every matcher on every dispatch would.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BeforeToolHook,
  CallableHook,
  CallableMatcher,
  CompositeMatcher,
  HookStack,
  InputPatternMatcher,
  MATCH_INPUT_LIMIT,
  Matcher,
  ToolCall,
  ToolHookContext,
  ToolNameMatcher,
  type AnyHookContext,
  type HookMatcher,
  type MatcherLike,
  type NextFn,
} from 'agent-hooks';
import { literalNames } from '../../src/core/internal/literal-names.js';

const pre = (name: string) => ToolHookContext.beforeToolUse(ToolCall.create(name, { command: 'ls' }));

describe('literal names of a regex', () => {
  it.each([
    ['^Bash$', '', ['Bash']],
    ['^(Write|Edit)$', '', ['Write', 'Edit']],
    ['^(?:Write|Edit)$', '', ['Write', 'Edit']],
    ['^(?:^(?:read_file)$)$', '', ['read_file']],
    ['^(?:(Write|Edit))$', '', ['Write', 'Edit']],
    ['^mcp__a\\.b$', '', ['mcp__a.b']],
    ['^(a|b)_(x|y)$', 'u', ['a_x', 'a_y', 'b_x', 'b_y']],
    ['^Bash$|^Shell$', 's', ['Bash', 'Shell']],
    ['^Bash$|a^b', '', ['Bash']],
    ['^(Bash|)$', 'g', ['Bash', '']],
  ])('/%s/%s is exactly %j', (source, flags, names) => {
    expect([...literalNames(new RegExp(source, flags))!].sort()).toEqual([...names].sort());
  });

  it.each([
    ['^Bash$', 'i'],
    ['^Bash$', 'm'],
    ['Bash', ''],
    ['^Bash', ''],
    ['Bash$', ''],
    ['^Bash$|Shell', ''],
    ['^Bas?h$', ''],
    ['^Ba.h$', ''],
    ['^Ba[s]h$', ''],
    ['^(?=B)Bash$', ''],
    ['^(?<n>Bash)$', ''],
    ['^(a)\\1$', ''],
    ['^\\d$', ''],
    ['^a{2}$', ''],
    ['^(a|b)+$', ''],
    ['(?:)', ''],
  ])('/%s/%s is not a fixed list', (source, flags) => {
    expect(literalNames(new RegExp(source, flags))).toBeUndefined();
  });

  it('gives up past a few hundred names rather than filling an index', () => {
    expect(literalNames(/^(a|b|c|d)(a|b|c|d)(a|b|c|d)(a|b|c|d)(a|b|c|d)$/)).toBeUndefined();
    expect(literalNames(/^(a|b|c|d)(a|b|c|d)(a|b|c|d)(a|b|c|d)$/)?.size).toBe(256);
  });

  const pieces = ['a', 'b', 'ab', '_', '\\.', '.', '\\-', '-', 'é', '😀', '\\$'];
  const regexSource: fc.Arbitrary<string> = fc.letrec<{ alt: string; seq: string; term: string }>((tie) => ({
    alt: fc.array(tie('seq'), { minLength: 1, maxLength: 3 }).map((xs) => xs.join('|')),
    seq: fc.array(tie('term'), { minLength: 0, maxLength: 4 }).map((xs) => xs.join('')),
    term: fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom(...pieces, '^', '$', 'a?', 'b*'),
      tie('alt').map((x) => `(${x})`),
      tie('alt').map((x) => `(?:${x})`),
    ),
  })).alt;

  it('names exactly the strings the regex matches, when it names any', () => {
    fc.assert(
      fc.property(regexSource, fc.constantFrom('', 'u', 's', 'i', 'm'), fc.array(fc.string({ unit: fc.constantFrom('a', 'b', '_', '.', '-', 'é', '$', '\n') }), { maxLength: 8 }), (source, flags, probes) => {
        let re: RegExp;
        try {
          re = new RegExp(source, flags);
        } catch {
          return;
        }
        const names = literalNames(re);
        if (names === undefined) return;
        for (const name of names) expect(re.test(name), `/${source}/${flags} on ${JSON.stringify(name)}`).toBe(true);
        for (const probe of [...probes, ...[...names].map((n) => `${n}a`), ...[...names].map((n) => `_${n}`)]) {
          expect(re.test(probe), `/${source}/${flags} on ${JSON.stringify(probe)}`).toBe(names.has(probe));
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('tool-name matchers indexed by name', () => {
  it.each<[MatcherLike, string[]]>([
    [/^(Write|Edit)$/, ['Write', 'Edit']],
    [/^Bash$/, ['Bash', 'Shell', 'bash', 'run_shell_command']],
    [/^(?:mcp__x__a|mcp__x__b)$/, ['mcp__x__a', 'mcp__x__b']],
    ['/^my_tool$/', ['my_tool']],
    ['{Write,Edit}', ['Write', 'Edit']],
    ['@(my_tool|other)', ['my_tool', 'other']],
    ['bash|{my_tool,other}', ['bash', 'Bash', 'my_tool', 'other']],
  ])('%s is indexed by its names, their aliases included', (pattern, names) => {
    const matcher = Matcher.from(pattern) as ToolNameMatcher;
    expect(matcher.hints.exact).toBe(true);
    for (const name of names) expect(matcher.hints.toolNames?.has(name), name).toBe(true);
    for (const name of matcher.hints.toolNames!) expect(matcher.matchesName(name), name).toBe(true);
    expect(matcher.matchesName('Bashful')).toBe(false);
  });

  it.each<MatcherLike>([/^bash$/i, /^bash$/m, /bash/, /^bash/, 'read_*', '{a,b}*', 'bash|read_*'])('%s is not indexed', (pattern) => {
    expect((Matcher.from(pattern) as ToolNameMatcher).hints.toolNames).toBeUndefined();
  });

  it('a stack of 1,000 such hooks over 100 tools chains only the 10 of the tool called', () => {
    const tools = Array.from({ length: 100 }, (_, i) => `tool_${i}`);
    const stack = new HookStack(tools.flatMap((tool) => Array.from({ length: 10 }, () => new BeforeToolHook(() => undefined, { matcher: new RegExp(`^${tool}$`) }))));
    expect(stack.hooksFor('PreToolUse', 'tool_7')).toHaveLength(10);
  });

  it('a regex still counts a tool name too long to test as a match; a plain name does not', async () => {
    const long = `x${'a'.repeat(MATCH_INPUT_LIMIT)}`;
    const log: string[] = [];
    const stack = new HookStack([
      new BeforeToolHook(() => void log.push('regex'), { matcher: /^Write$/ }),
      new BeforeToolHook(() => void log.push('glob'), { matcher: '{Write,Edit}' }),
      new BeforeToolHook(() => void log.push('name'), { matcher: 'Write' }),
    ]);
    await stack.process(pre(long));
    expect(log).toEqual(['regex', 'glob']);
    log.length = 0;
    await stack.process(pre('Write'));
    expect(log).toEqual(['regex', 'glob', 'name']);
  });
});

describe('indexed dispatch is unindexed dispatch', () => {
  const NAMES = ['a', 'b', 'a.b', 'a_b', 'Bash', 'bash', 'Shell', 'run_shell_command', 'Write', 'Edit', 'write_file', 'read_file', 'Read', 'mcp__s__t', ''];
  const escape = (name: string) => name.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  const name = fc.constantFrom(...NAMES.filter((n) => n !== ''));
  const names = fc.array(name, { minLength: 1, maxLength: 3 });

  const regex: fc.Arbitrary<MatcherLike> = fc
    .record({
      items: names,
      form: fc.constantFrom('^(%)$', '^(?:%)$', '^%$', '%', '^%', '^(%)s?$', '^(%).$'),
      join: fc.constantFrom('|', '$|^'),
      flags: fc.constantFrom('', '', 'i', 'm', 'g', 'y', 's', 'u'),
      literal: fc.boolean(),
    })
    .map(({ items, form, join, flags, literal }) => {
      const source = form.replace('%', items.map(escape).join(form.startsWith('^(') ? '|' : join));
      return literal ? `/${source}/${flags}` : new RegExp(source, flags);
    });
  const glob: fc.Arbitrary<MatcherLike> = fc
    .record({ items: names, form: fc.constantFrom('{%}', '@(%)', '%*', '%', '%|{%}', '+(%)') })
    .map(({ items, form }) => form.replaceAll('%', items.join(form.includes('(') || form.startsWith('%|') ? '|' : ',')));
  const matcher: fc.Arbitrary<MatcherLike | undefined> = fc.oneof(
    regex,
    glob,
    names.map((xs) => xs.join('|')),
    fc.constant(undefined),
    fc.constant('*'),
    fc.tuple(regex, glob).map((parts) => [...parts]),
  );
  const hook = fc.record({
    matcher,
    priority: fc.integer({ min: -2, max: 2 }),
    kind: fc.constantFrom('callback', 'middleware', 'and-input'),
  });
  const toolName = fc.oneof(fc.constantFrom(...NAMES.filter((n) => n !== ''), 'Bashful', 'other'), fc.constant(`W${'a'.repeat(MATCH_INPUT_LIMIT)}`));

  type Spec = { matcher: MatcherLike | undefined; priority: number; kind: string };

  /** The hooks of `specs`, each logging its index; `unindexed` hides every hint, so each matcher is tested as it runs. */
  function stackOf(specs: readonly Spec[], log: number[], unindexed: boolean): HookStack {
    return new HookStack(
      specs.map((spec, i) => {
        let m: HookMatcher | undefined = Matcher.from(spec.matcher);
        if (spec.kind === 'and-input' && m !== undefined) m = CompositeMatcher.and(m, new InputPatternMatcher(/ls/));
        if (unindexed && m !== undefined) {
          const inner = m;
          m = new CallableMatcher((ctx) => inner.matches(ctx));
        }
        const hook =
          spec.kind === 'middleware'
            ? new CallableHook((ctx: AnyHookContext, next: NextFn) => (log.push(i), next(ctx)), m)
            : new BeforeToolHook(() => void log.push(i), { matcher: m });
        return { hook, priority: spec.priority };
      }),
    );
  }

  it('runs the same hooks in the same order for any matchers and tool names', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hook, { maxLength: 12 }), fc.array(toolName, { minLength: 1, maxLength: 4 }), async (specs, tools) => {
        const indexedLog: number[] = [];
        const plainLog: number[] = [];
        const indexed = stackOf(specs, indexedLog, false);
        const plain = stackOf(specs, plainLog, true);
        for (const tool of tools) {
          indexedLog.length = 0;
          plainLog.length = 0;
          await indexed.process(pre(tool));
          await plain.process(pre(tool));
          expect(indexedLog, `tool ${tool.slice(0, 40)}`).toEqual(plainLog);
        }
      }),
      { numRuns: 500 },
    );
  });
});
