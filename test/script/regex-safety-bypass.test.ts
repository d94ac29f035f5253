import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileManifestRegex, discoverHooks, UnsafeRegexError } from 'agent-hooks';
import { hasNestedRepeat, isSimpleRegex, judgeRegex } from '../../src/script/internal/regex-safety.js';
import { catchError } from '../support/catch-error.js';
import { fields, tempDirs, writeHook } from '../support/hook-folders.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('the shape scanner reads a brace quantifier whole, however long', () => {
  it('a quantifier longer than any fixed window still quantifies the group before it', () => {
    const long = `(a+){1,${'9'.repeat(30)}}$`;
    expect(new RegExp(long).test('aaa')).toBe(true);
    expect(isSimpleRegex(long)).toBe(false);
    expect(hasNestedRepeat(long)).toBe(true);
    expect(catchError(() => compileManifestRegex(long))).toBeInstanceOf(UnsafeRegexError);
  });

  it('a huge finite bound repeats as an unbounded one does', () => {
    expect(hasNestedRepeat('(a{1,999999999}){1,999999999}$')).toBe(true);
    expect(judgeRegex('(a{1,999999999}){1,999999999}$', '', 1)).toMatchObject({ safe: false });
    // Small fixed counts stay what they are.
    expect(hasNestedRepeat('(a+){2}')).toBe(false);
  });
});

describe('a pattern the checker cannot clear', () => {
  it('is refused, not accepted, when the checker runs out of time', () => {
    expect(judgeRegex('(?:.*,){10}x', '', 1)).toEqual({ safe: false, complexity: 'polynomial', degree: undefined, by: 'undecided' });
  });

  it('is refused at load with a problem naming the file, the field and the fix', async () => {
    const project = await dirs.make();
    const hooks = join(project, '.agents', 'hooks');
    await writeHook(hooks, 'csv-guard', { fields: fields('csv-guard', { matcher: { pattern: '(?:.*,){10}x' } }) });
    const found = await discoverHooks({ projectDir: project, userDir: false, trust: 'all' });
    expect(found.hooks).toEqual([]);
    expect(found.problems).toEqual([
      expect.objectContaining({
        file: join(hooks, 'csv-guard', 'HOOK.md'),
        field: 'matcher.pattern',
        code: 'unsafe-regex',
        message: expect.stringMatching(/^matcher\.pattern '\(\?:\.\*,\)\{10\}x' (can take|could not be proven|repeats).*rewrite it/),
      }),
    ]);
  }, 30_000);
});
