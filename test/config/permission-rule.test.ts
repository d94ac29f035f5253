import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolCall, ToolHookContext } from 'agent-hooks';
import { parsePermissionRule, permissionRuleMatcher, simpleCommands, type PermissionRule } from '../../src/config/permission-rule.js';

const rule = (text: string): PermissionRule => {
  const parsed = parsePermissionRule(text);
  if (!('tool' in parsed)) throw new Error(parsed.message);
  return parsed;
};

const call = (tool: string, args: Record<string, unknown>) => ToolHookContext.beforeToolUse(ToolCall.create(tool, args));

const runsOn = (text: string, command: string): boolean => permissionRuleMatcher(rule(text), 'PreToolUse', '/p').matches(call('Bash', { command }));

describe('permission rules as Claude Code 2.1.330 applies them to a hook’s "if"', () => {
  // Each row was read from Claude Code 2.1.330 itself: a PreToolUse hook per rule, recording the commands it ran on.
  const GIT = ['Bash(git *)', 'Bash(git status)', 'Bash(npm run test:*)', 'Bash(git)', 'Bash(*push*)', 'Bash(git push*)'];
  const ECHO = ['Bash(echo *)', 'Bash(echo hi > out.txt)'];
  const RM = ['Bash(rm *)'];
  const OBSERVED: readonly [command: string, probed: readonly string[], ran: readonly string[] | 'all'][] = [
    ['git', GIT, ['Bash(git *)', 'Bash(git)']],
    ['git status', GIT, ['Bash(git *)', 'Bash(git status)']],
    ['git status --short', GIT, ['Bash(git *)']],
    ['git  status', GIT, ['Bash(git *)', 'Bash(git status)']],
    ['ls && git status', GIT, ['Bash(git *)', 'Bash(git status)']],
    ['FOO=1 git status', GIT, ['Bash(git *)', 'Bash(git status)']],
    ['echo x | git apply', GIT, ['Bash(git *)']],
    ['bash -c "git push"', GIT, ['Bash(*push*)']],
    ['sudo git push', GIT, ['Bash(*push*)']],
    ['timeout 5 git status', GIT, []],
    ['/usr/bin/git status', GIT, []],
    ['npm run test', GIT, ['Bash(npm run test:*)']],
    ['npm run test:unit', GIT, []],
    ['git status', ECHO, []],
    ['echo hi', ECHO, ['Bash(echo *)']],
    ['echo  hi', ECHO, ['Bash(echo *)']],
    ['echo hi > out.txt', ECHO, ['Bash(echo *)']],
    // What cannot be taken apart with certainty runs every hook.
    ['echo $(git push)', GIT, 'all'],
    ['echo `git push`', GIT, 'all'],
    ['(cd /tmp; git status)', GIT, 'all'],
    ['cat <<EOF\ngit push\nEOF', GIT, 'all'],
    // Claude Code 2.1.332 takes quotes and backslashes out of the words before it matches (test/agents/claude-rules.test.ts),
    // and runs no hook behind a wrapper or a path.
    ['"rm" -rf x', RM, ['Bash(rm *)']],
    ['\\rm -rf x', RM, ['Bash(rm *)']],
    ["'rm' -rf x", RM, ['Bash(rm *)']],
    ['r"m" -rf x', RM, ['Bash(rm *)']],
    ['ls && "git" status', GIT, ['Bash(git *)', 'Bash(git status)']],
    ['timeout 5 rm -rf x', RM, []],
    ['command rm -rf x', RM, []],
    ['env rm -rf x', RM, []],
    ['/bin/rm -rf x', RM, []],
  ];

  it.each(OBSERVED)('%j runs the hooks of exactly the rules Claude Code ran', (command, probed, expected) => {
    const ran = probed.filter((r) => runsOn(r, command));
    expect(ran).toEqual(expected === 'all' ? probed : probed.filter((r) => expected.includes(r)));
  });

  it('Bash, Bash() and a rule of another tool', () => {
    expect(runsOn('Bash', 'anything at all')).toBe(true);
    expect(runsOn('Bash()', 'anything at all')).toBe(true);
    expect(runsOn('Read', 'cat x')).toBe(false);
  });

  it('what is not a rule is reported with the fix, as Claude Code never runs such a hook', () => {
    for (const text of ["tool_input.command matches 'git'", 'Bash(git', 'Bash git *']) {
      const parsed = parsePermissionRule(text);
      expect('message' in parsed && parsed.message, text).toMatch(/Bash\(git push\*\)/);
    }
  });

  it('matches nothing on an event without a tool call', () => {
    expect(permissionRuleMatcher(rule('Bash'), 'Stop', '/p').matches(call('Bash', { command: 'ls' }))).toBe(false);
  });

  it('path rules: relative to the project, // absolute, ~/ home, and a bare name at any depth', () => {
    const on = (text: string, path: string, tool = 'Edit') => permissionRuleMatcher(rule(text), 'PreToolUse', '/p', '/home/u').matches(call(tool, { file_path: path }));
    expect(on('Edit(src/**)', '/p/src/a/b.ts')).toBe(true);
    expect(on('Edit(src/**)', 'src/a.ts')).toBe(true);
    expect(on('Edit(src/**)', '/p/test/a.ts')).toBe(false);
    expect(on('Edit(/src/*.ts)', '/p/src/a.ts')).toBe(true);
    expect(on('Read(//etc/passwd)', '/etc/passwd', 'Read')).toBe(true);
    expect(on('Read(~/.ssh/**)', '/home/u/.ssh/id_rsa', 'Read')).toBe(true);
    expect(on('Read(*.env)', '/p/deep/down/a.env', 'Read')).toBe(true);
    expect(on('Read(*.env)', '/p/deep/down/a.txt', 'Read')).toBe(false);
    expect(on('Read(.env)', '/p/deep/down/.env', 'Read')).toBe(true);
    expect(on('Write(*.md)', '/p/docs/a.md', 'Write')).toBe(true);
    // A call without a path cannot be told apart: the hook runs.
    expect(permissionRuleMatcher(rule('Edit(src/**)'), 'PreToolUse', '/p').matches(call('Edit', {}))).toBe(true);
  });

  it('WebFetch(domain:…) matches the host and its subdomains', () => {
    const on = (url: string) => permissionRuleMatcher(rule('WebFetch(domain:example.com)'), 'PreToolUse', '/p').matches(call('WebFetch', { url }));
    expect(on('https://example.com/a')).toBe(true);
    expect(on('https://docs.example.com/a')).toBe(true);
    expect(on('https://notexample.com/a')).toBe(false);
  });

  it('a specifier not understood here runs the hook on every call of its tool', () => {
    expect(permissionRuleMatcher(rule('mcp__github__create_issue(owner:me)'), 'PreToolUse', '/p').matches(call('mcp__github__create_issue', { owner: 'you' }))).toBe(true);
  });
});

describe('simple commands of a shell line', () => {
  it('splits at the operators, leaves out assignments and redirections', () => {
    expect(simpleCommands('A=1 B=2 make -j4 2>&1 | tee log && echo ok; rm -f x &> /dev/null || true & wait')).toEqual(['make -j4', 'tee log', 'echo ok', 'rm -f x', 'true', 'wait']);
    expect(simpleCommands("grep 'a|b' file > out")).toEqual(["grep 'a|b' file"]);
    expect(simpleCommands('echo "a && b"')).toEqual(['echo "a && b"']);
    expect(simpleCommands('echo "a && b"', 'bare')).toEqual(['echo a && b']);
    expect(simpleCommands('\\rm "-rf" \'x y\' "a\\"b" "c\\d"', 'bare')).toEqual(['rm -rf x y a"b c\\d']);
  });

  it('gives up on what it cannot take apart: substitutions, subshells, here-documents, open quotes', () => {
    for (const line of ['echo $(id)', 'echo "$(id)"', 'echo `id`', '(ls)', '{ ls; }', 'cat <<EOF', 'diff <(a) <(b)', 'echo "open']) {
      expect(simpleCommands(line), line).toBeUndefined();
    }
  });

  it('never throws, and what it returns are non-empty commands', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '&', '|', ';', '>', '<', '"', "'", '$', '(', ')', '`', '=', '2', '\n', '\\', '{', '}') }), (line) => {
        const parts = simpleCommands(line);
        if (parts === undefined) return;
        for (const part of parts) {
          expect(part).not.toBe('');
          expect(part).not.toMatch(/^\s/);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('commands joined by operators come back one by one', () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9._-]{0,6}$/);
    const command = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 5 }), fc.array(fc.constantFrom(' && ', ' || ', '; ', ' | ', '\n', ' & '), { minLength: 4, maxLength: 4 }), (commands, ops) => {
        const line = commands.map((c, i) => (i === 0 ? c : `${ops[i % ops.length]}${c}`)).join('');
        expect(simpleCommands(line)).toEqual(commands);
      }),
    );
  });
});
