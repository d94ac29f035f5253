import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readVerdicts, storeVerdict, verdictCacheFile } from '../../src/script/internal/regex-verdict-cache.js';
import { cliProjects, runCliJson, scriptHook } from '../support/cli.js';

const temps: string[] = [];
const temp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-hooks-verdicts-'));
  temps.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const project = cliProjects();
// Not simple by shape (two varying repeats and a quantified group), so only the checker or the cache can judge it.
const PATTERN = '(curl|wget)[^|]*\\|\\s*(ba)?sh';

describe('the cache of regex verdicts', () => {
  it('lives in AGENT_HOOKS_CACHE_DIR, else the XDG cache folder, LOCALAPPDATA on Windows, or ~/.cache', () => {
    expect(verdictCacheFile({ AGENT_HOOKS_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' })).toBe(join('/c', 'regex-verdicts.json'));
    expect(verdictCacheFile({ AGENT_HOOKS_CACHE_DIR: 'off', XDG_CACHE_HOME: '/x' })).toBeUndefined();
    expect(verdictCacheFile({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe(join('/x', 'agent-hooks', 'regex-verdicts.json'));
    expect(verdictCacheFile({ XDG_CACHE_HOME: 'relative', HOME: '/h' }, 'linux')).toBe(join('/h', '.cache', 'agent-hooks', 'regex-verdicts.json'));
    expect(verdictCacheFile({ LOCALAPPDATA: '/l', HOME: '/h' }, 'win32')).toBe(join('/l', 'agent-hooks', 'regex-verdicts.json'));
  });

  it('keeps what two writers stored, and forgets verdicts made under other rules', () => {
    const file = join(temp(), 'deep', 'regex-verdicts.json');
    storeVerdict(file, 'rules 1', '/a+b+', { safe: true, by: 'checked' });
    storeVerdict(file, 'rules 1', '/(a+)+$', { safe: false, complexity: 'exponential', degree: undefined, by: 'checked' });
    expect([...readVerdicts(file, 'rules 1')]).toEqual([
      ['/a+b+', { safe: true, by: 'checked' }],
      ['/(a+)+$', { safe: false, complexity: 'exponential', by: 'checked' }],
    ]);
    expect(readVerdicts(file, 'rules 2').size).toBe(0);
  });

  it('reads a corrupt file or entry as absent, and replaces the file on the next write', () => {
    const file = join(temp(), 'regex-verdicts.json');
    writeFileSync(file, '{"format": "rules 1", "verdicts": {"/x": {"safe": "yes"}');
    expect(readVerdicts(file, 'rules 1').size).toBe(0);
    writeFileSync(file, JSON.stringify({ format: 'rules 1', verdicts: { '/x': { safe: 'yes' }, '/y': { safe: true, by: 'checked' } } }));
    expect([...readVerdicts(file, 'rules 1').keys()]).toEqual(['/y']);
    storeVerdict(file, 'rules 1', '/z', { safe: true, by: 'undecided' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ format: 'rules 1', verdicts: { '/y': { safe: true, by: 'checked' }, '/z': { safe: true, by: 'undecided' } } });
  });

  it('carries a verdict from one process to the next: the second validate takes the stored one, not the checker', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'pipes', { matcher: { pattern: PATTERN } });
    const cacheDir = temp();
    const env = { AGENT_HOOKS_CACHE_DIR: cacheDir };

    const first = await runCliJson<{ problems: unknown[] }>(['validate', '--json'], { cwd: dir, env });
    expect(first.code).toBe(0);
    const file = join(cacheDir, 'regex-verdicts.json');
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { format: string; verdicts: Record<string, { safe: boolean }> };
    expect(stored.format).toMatch(/^recheck \d+\.\d+\.\d+; degree <= 2; /);
    expect(stored.verdicts[`/${PATTERN}`]).toMatchObject({ safe: true });

    // A verdict the checker would never give proves that the next process reads the file instead of checking.
    stored.verdicts[`/${PATTERN}`] = { safe: false, complexity: 'exponential', by: 'checked' } as never;
    writeFileSync(file, JSON.stringify(stored));
    const second = await runCliJson<{ problems: { code: string }[] }>(['validate', '--json'], { cwd: dir, env });
    expect(second.code).toBe(1);
    expect(second.json.problems).toEqual([expect.objectContaining({ code: 'unsafe-regex' })]);
  });

  it('stores nothing for simple patterns, and nothing at all when turned off', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'simple', { matcher: { pattern: 'rm\\s+-rf' } });
    const cacheDir = temp();
    expect((await runCliJson(['validate', '--json'], { cwd: dir, env: { AGENT_HOOKS_CACHE_DIR: cacheDir } })).code).toBe(0);
    // No verdicts; on Node 22.1 and later the executable's compile cache (`compile/`) is there, and nothing else.
    expect(readdirSync(cacheDir).filter((name) => name !== 'compile')).toEqual([]);
    await scriptHook(hooks, 'pipes', { matcher: { pattern: PATTERN } });
    const home = temp();
    expect((await runCliJson(['validate', '--json'], { cwd: dir, env: { AGENT_HOOKS_CACHE_DIR: 'off', HOME: home, XDG_CACHE_HOME: home } })).code).toBe(0);
    expect(readdirSync(home)).toEqual([]);
  });
});
