import { describe, expect, it } from 'vitest';
import {
  configMatcher,
  loadClaudeHooks,
  loadCopilotHooks,
  loadCursorHooks,
  loadGeminiHooks,
  MATCH_INPUT_LIMIT,
  SessionHookContext,
  UnsafeRegexError,
  type LoadedConfigHooks,
} from 'agent-hooks';
import { catchError } from '../support/catch-error.js';
import { SAFE_PATTERNS, UNSAFE_PATTERNS } from '../support/regex-patterns.js';
import { sandbox } from './support.js';

const setup = sandbox();
const cmd = (command: string) => ({ type: 'command', command });

/** One agent's config file with a hook per matcher, and how to load it. */
interface Kind {
  readonly name: string;
  readonly path: string;
  readonly file: (matchers: readonly string[]) => unknown;
  readonly field: (index: number) => string;
  readonly load: (projectDir: string) => Promise<LoadedConfigHooks>;
}

const KINDS: readonly Kind[] = [
  {
    name: 'Claude Code',
    path: '.claude/settings.json',
    file: (matchers) => ({ hooks: { PreToolUse: matchers.map((matcher, i) => ({ matcher, hooks: [cmd(`./h${i}.sh`)] })) } }),
    field: (i) => `hooks.PreToolUse[${i}].matcher`,
    load: (projectDir) => loadClaudeHooks({ projectDir, homeDir: false, trust: 'all' }),
  },
  {
    name: 'Gemini CLI',
    path: '.gemini/settings.json',
    file: (matchers) => ({ hooks: { BeforeTool: matchers.map((matcher, i) => ({ matcher, hooks: [cmd(`./h${i}.sh`)] })) } }),
    field: (i) => `hooks.BeforeTool[${i}].matcher`,
    load: (projectDir) => loadGeminiHooks({ projectDir, homeDir: false, trust: 'all' }),
  },
  {
    name: 'Copilot',
    path: '.github/hooks/hooks.json',
    file: (matchers) => ({ version: 1, hooks: { preToolUse: matchers.map((matcher, i) => ({ type: 'command', bash: `./h${i}.sh`, matcher })) } }),
    field: (i) => `hooks.preToolUse[${i}].matcher`,
    load: (projectDir) => loadCopilotHooks({ projectDir, homeDir: false, trust: 'all' }),
  },
  {
    name: 'Cursor',
    path: '.cursor/hooks.json',
    file: (matchers) => ({ version: 1, hooks: { preToolUse: matchers.map((matcher, i) => ({ command: `./h${i}.sh`, matcher })) } }),
    field: (i) => `hooks.preToolUse[${i}].matcher`,
    load: (projectDir) => loadCursorHooks({ projectDir, homeDir: false, trust: 'all' }),
  },
];

describe.each(KINDS)('a $name matcher that can backtrack catastrophically', (kind) => {
  it('is refused with a problem naming the file, the field, the pattern and the fix; the other hooks load', async () => {
    const { project, write } = await setup();
    // Known-bad ones, then known-good ones; Claude Code reads plain names as exact names, not as regexes.
    const bad = UNSAFE_PATTERNS.map(([pattern]) => pattern);
    const good = SAFE_PATTERNS.filter((p) => !p.includes('curl'));
    const file = await write(project, kind.path, kind.file([...bad, ...good]));
    const loaded = await kind.load(project);
    expect(loaded.problems).toEqual(
      bad.map((pattern, i) =>
        expect.objectContaining({
          file,
          field: kind.field(i),
          found: `"${pattern}"`,
          severity: 'error',
          code: 'unsafe-regex',
          message: expect.stringContaining(`The matcher '${pattern}' can take `),
        }),
      ),
    );
    for (const problem of loaded.problems) expect(problem.message).toMatch(/\(ReDoS\): rewrite it /);
    expect(loaded.hooks).toHaveLength(good.length);
  });
});

describe('configMatcher', () => {
  it('names the pattern as written for a Copilot matcher, though it judges the anchored regex that runs', () => {
    const error = catchError(() => configMatcher('(a+)+', 'PreToolUse', 'anchored')) as UnsafeRegexError;
    expect(error).toBeInstanceOf(UnsafeRegexError);
    expect(error.pattern).toBe('(a+)+');
    expect(error.complexity).toBe('exponential');
  });

  it('anchors can make a pattern safe: a Copilot matcher is judged as it runs', () => {
    // Unanchored, a*a*b is searched for at every start (cubic); anchored at both ends it is quadratic.
    expect(() => configMatcher('a*a*b', 'PreToolUse', 'regex')).toThrow(UnsafeRegexError);
    expect(configMatcher('a*a*b', 'PreToolUse', 'anchored')).toBeDefined();
  });

  it('a subject on a non-tool event is tested against at most the bound', () => {
    const matcher = configMatcher('^start', 'SessionStart', 'regex')!;
    expect(matcher.matches(SessionHookContext.onStart({ source: 'startup' }))).toBe(true);
    expect(matcher.matches(SessionHookContext.onStart({ source: 'resume' }))).toBe(false);
    expect(matcher.matches(SessionHookContext.onStart({ source: 'resume'.repeat(MATCH_INPUT_LIMIT) as 'resume' }))).toBe(true);
  });
});
