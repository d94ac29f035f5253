import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileManifestRegex, discoverHooks, hookStackOf, MatcherSyntaxError, ToolCall, ToolHookContext, validateFrontmatter } from 'agent-hooks';
import { translatePythonRegex } from '../../src/script/internal/python-regex.js';
import { tempDirs } from '../support/hook-folders.js';
import { writeExecutable } from '../support/script-fixture.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** Patterns Python's re accepts and JavaScript refuses or reads otherwise, with inputs to search. */
const PYTHON_PATTERNS: readonly (readonly [pattern: string, inputs: readonly string[]])[] = [
  ['(?i)shell', ['Shell', 'SHELL', 'bash']],
  ['(?is)^.*mkfs', ['\nMKFS', 'ls']],
  ['(?P<cmd>rm|mv) (?P=cmd)', ['rm rm', 'rm mv']],
  ['rm(?# the command) -rf', ['rm -rf /', 'rm  -rf']],
  ['(?x) rm \\s+ -rf   # recursive\n | mkfs  # format', ['rm   -rf', 'mkfs', 'rm-rf']],
  ['a++b', ['aaab', 'aaa']],
  ['^(?>a+)a', ['aaa', 'a']],
  ['x*+y', ['xxy', 'y', 'xx']],
  ['\\Ashell\\Z', ['shell', 'a shell', 'shells']],
  ['a{,2}b', ['aab', 'b', 'c']],
  ['(?i:ab)c', ['ABc', 'ABC']],
  ['(?s:a.b)|c.d', ['a\nb', 'c\nd', 'cxd']],
  ['[]a]', [']', 'a', 'b']],
  ['[^]a]+$', ['bcd', 'b]']],
  ['\\U0001F600', ['😀', ':)']],
  ['(?m)^rm$', ['ls\nrm\nx', 'rmx']],
];

const python = (() => {
  try {
    execFileSync('python3', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

describe("HOOK.md regexes are read as Python's re reads them", () => {
  it.each(PYTHON_PATTERNS)('%j compiles here', (pattern) => {
    expect(() => compileManifestRegex(pattern)).not.toThrow();
  });

  it.runIf(python)('and matches what python3 matches, input for input', () => {
    const script = 'import json, re, sys\ncases = json.loads(sys.stdin.read())\nprint(json.dumps([[bool(re.search(p, s)) for s in ins] for p, ins in cases]))';
    const expected = JSON.parse(execFileSync('python3', ['-c', script], { input: JSON.stringify(PYTHON_PATTERNS), encoding: 'utf8' })) as boolean[][];
    const actual = PYTHON_PATTERNS.map(([pattern, inputs]) => {
      const { source, flags } = translatePythonRegex(pattern);
      const re = new RegExp(source, flags);
      return inputs.map((input) => re.test(input));
    });
    expect(actual).toEqual(expected);
  });

  it('translates each construct, and leaves a pattern with none of them as written', () => {
    expect(translatePythonRegex('(?i)shell')).toMatchObject({ source: 'shell', flags: 'i' });
    expect(translatePythonRegex('(?P<n>a)(?P=n)').source).toBe('(?<n>a)\\k<n>');
    expect(translatePythonRegex('a(?#x)b').source).toBe('ab');
    expect(translatePythonRegex('(?x) a b # c').source).toBe('ab');
    expect(translatePythonRegex('a++')).toMatchObject({ source: '(?=(a+))\\1', checkSource: '(?:a+)' });
    expect(translatePythonRegex('(?>ab*)').source).toBe('(?=(ab*))\\1');
    expect(translatePythonRegex('\\Ax\\Z').source).toBe('^x$');
    for (const plain of ['Shell', 'rm -rf /|mkfs', '\\.py$', '^mcp__.*', '(a)\\1', 'https?://[^\\s]+']) {
      expect(translatePythonRegex(plain)).toEqual({ source: plain, flags: '', checkSource: plain, notes: [] });
    }
  });

  it('numbers references past an emulated group as JavaScript counts them', () => {
    const { source } = translatePythonRegex('(a)x++(b)\\2\\1');
    expect(source).toBe('(a)(?=(x+))\\2(b)\\3\\1');
    expect(new RegExp(source).test('axxbba')).toBe(true);
  });

  it('refuses what JavaScript cannot do, naming the pattern and what to write instead', () => {
    for (const [pattern, problem] of [
      ['(a)?(?(1)b|c)', /conditional groups/],
      ['a(?i)b', /must come first/],
      ['\\N{BULLET}', /write the character itself/],
      ['(a)\\2', /does not exist/],
      ['(?i)a(?-i:b)', /cannot be written/],
    ] as const) {
      const error = (() => {
        try {
          compileManifestRegex(pattern);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error, pattern).toBeInstanceOf(MatcherSyntaxError);
      expect((error as MatcherSyntaxError).message).toMatch(problem);
      expect((error as MatcherSyntaxError).pattern).toBe(pattern);
    }
  });

  it('config-file matchers stay JavaScript', () => {
    expect(compileManifestRegex('a{,2}', 'javascript').test('a{,2}')).toBe(true);
    expect(compileManifestRegex('a{,2}').test('a{,2}')).toBe(true);
    expect(compileManifestRegex('^a{,2}$').test('a{,2}')).toBe(false);
  });
});

describe('JavaScript-only syntax in a HOOK.md regex', () => {
  const validate = (pattern: string) =>
    validateFrontmatter({ name: 'guard', description: 'd', trigger: 'pre-tool-call', matcher: { pattern } }, { file: '/p/.agents/hooks/guard/HOOK.md' });

  it.each([
    ['\\p{L}+', /\\p\{…\} is JavaScript syntax/],
    ['(?<word>a)\\k<word>', /\(\?<word>…\) is JavaScript syntax; Python's re writes \(\?P<word>…\)/],
    ['[^]', /\[\^\] is JavaScript syntax/],
  ])('%s loads, with a warning that the reference runtime refuses it', (pattern, message) => {
    const result = validate(pattern);
    expect(result.manifest).toBeDefined();
    expect(result.problems).toContainEqual(
      expect.objectContaining({ severity: 'warning', code: 'javascript-only-regex', field: 'matcher.pattern', message: expect.stringMatching(message) }),
    );
  });

  it('a Python pattern gets no warning', () => {
    expect(validate('(?i)(?P<cmd>rm|mkfs)').problems).toEqual([]);
  });
});

describe('a HOOK.md guard whose matcher uses (?i), run for real', () => {
  it('blocks Shell and shell alike, and runs for no other tool', async () => {
    const project = await dirs.make();
    const folder = join(project, '.agents', 'hooks', 'shell-guard');
    await mkdir(join(folder, 'scripts'), { recursive: true });
    await writeFile(
      join(folder, 'HOOK.md'),
      '---\nname: shell-guard\ndescription: Refuses shell commands that delete.\ntrigger: pre-tool-call\nmatcher:\n  tool: "(?i)^shell$"\n  pattern: "(?P<verb>rm|unlink)\\\\s"\n---\n',
    );
    await writeExecutable(join(folder, 'scripts', 'run'), '#!/bin/sh\ncat >/dev/null\necho "no deleting" >&2\nexit 2\n');
    const found = await discoverHooks({ projectDir: project, userDir: false, trust: 'all' });
    expect(found.problems).toEqual([]);
    const stack = hookStackOf(found.hooks);
    const run = (tool: string, command: string) => stack.process(ToolHookContext.beforeToolUse(ToolCall.create(tool, { command })));
    expect((await run('Shell', 'rm -rf x')).isBlocked()).toBe(true);
    expect((await run('shell', 'unlink x')).isBlocked()).toBe(true);
    expect((await run('Shell', 'ls')).isBlocked()).toBe(false);
    expect((await run('SHELL', 'rm -rf x')).isBlocked()).toBe(true);
    expect((await run('WriteFile', 'rm -rf x')).isBlocked()).toBe(false);
  }, 30_000);
});
