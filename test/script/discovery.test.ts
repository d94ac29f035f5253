import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  discoverManifests,
  HookLoadError,
  loadManifest,
  projectHooksDir,
  readHookBody,
  userHooksDir,
  type DiscoveryOptions,
  type HookProblem,
} from '../../src/script/index.js';
import { fields, frontmatter, tempDirs, writeHook } from '../support/hook-folders.js';

const dirs = tempDirs();
afterEach(dirs.cleanup);

/** A project and a user hooks folder in a fresh temporary folder. */
async function setup() {
  const base = await dirs.make();
  const projectDir = join(base, 'project');
  const project = projectHooksDir(projectDir);
  const user = join(base, 'user-hooks');
  await mkdir(project, { recursive: true });
  await mkdir(user, { recursive: true });
  const discover = (options: DiscoveryOptions = {}) => discoverManifests({ projectDir, userDir: user, ...options });
  return { base, projectDir, project, user, discover };
}

const names = (result: { manifests: readonly { name: string }[] }) => result.manifests.map((m) => m.name);

describe('discoverManifests', () => {
  it('loads the good hooks next to a bad one, and reports the bad one by file and field', async () => {
    const { project, discover } = await setup();
    await writeHook(project, 'alpha');
    await writeHook(project, 'broken', { fields: fields('broken', { priority: 5000 }) });
    await writeHook(project, 'gamma');
    const result = await discover();
    expect(names(result)).toEqual(['alpha', 'gamma']);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({
      file: join(project, 'broken', 'HOOK.md'),
      field: 'priority',
      code: 'out-of-range',
      hookName: 'broken',
      severity: 'error',
    });
    expect(result.stats.folders).toBe(3);
  });

  const badCases: [string, Parameters<typeof writeHook>[2], string, string | undefined][] = [
    ['missing-name', { fields: fields('missing-name', { name: undefined }) }, 'missing-field', 'name'],
    ['missing-description', { fields: fields('missing-description', { description: undefined }) }, 'missing-field', 'description'],
    ['missing-trigger', { fields: fields('missing-trigger', { trigger: undefined }) }, 'missing-field', 'trigger'],
    ['unknown-trigger', { fields: fields('unknown-trigger', { trigger: 'before-tool' }) }, 'unknown-trigger', 'trigger'],
    ['bad-priority', { fields: fields('bad-priority', { priority: -5 }) }, 'out-of-range', 'priority'],
    ['bad-timeout', { fields: fields('bad-timeout', { timeout: 700_000 }) }, 'out-of-range', 'timeout'],
    ['bad-tool-regex', { fields: fields('bad-tool-regex', { matcher: { tool: '*' } }) }, 'invalid-regex', 'matcher.tool'],
    ['bad-pattern-regex', { fields: fields('bad-pattern-regex', { matcher: { pattern: '(rm' } }) }, 'invalid-regex', 'matcher.pattern'],
    ['unknown-key', { fields: fields('unknown-key', { prio: 3 }) }, 'unknown-key', 'prio'],
    ['mismatch', { fields: fields('another-name') }, 'name-mismatch', 'name'],
    ['yaml-error', { hookMd: '---\nname: yaml-error\ndescription: [oops\n---\n' }, 'yaml-syntax', undefined],
    ['no-frontmatter', { hookMd: '# Just markdown\n' }, 'no-frontmatter', undefined],
    ['unterminated', { hookMd: '---\nname: unterminated\n' }, 'unterminated-frontmatter', undefined],
  ];

  it('names the file and the field of every bad frontmatter, and loads nothing bad', async () => {
    const { project, discover } = await setup();
    for (const [folder, spec] of badCases) await writeHook(project, folder, spec);
    await writeHook(project, 'good');
    const result = await discover();
    expect(names(result)).toEqual(['good']);
    for (const [folder, , code, field] of badCases) {
      const problem = result.problems.find((p) => p.file === join(project, folder, 'HOOK.md'));
      expect(problem, folder).toMatchObject({ code, severity: 'error', hookName: expect.any(String) });
      expect(problem!.field, folder).toBe(field);
      expect(problem!.message.length, folder).toBeGreaterThan(10);
    }
    const yaml = result.problems.find((p) => p.code === 'yaml-syntax')!;
    expect(yaml.line).toBeGreaterThanOrEqual(3);
  });

  it('reports a missing or non-executable script at discovery, and skips the check when told to', async () => {
    const { project, discover } = await setup();
    await writeHook(project, 'no-script', { script: false });
    await writeHook(project, 'not-exec', { executable: false });
    const result = await discover();
    expect(result.manifests).toEqual([]);
    const byCode = (code: string) => result.problems.find((p) => p.code === code);
    expect(byCode('no-entry')).toMatchObject({ file: join(project, 'no-script', 'HOOK.md'), hookName: 'no-script' });
    expect(byCode('not-executable')).toMatchObject({ file: join(project, 'not-exec', 'scripts', 'run'), hookName: 'not-exec' });
    expect(byCode('not-executable')!.message).toContain('chmod +x');
    const unchecked = await discover({ checkEntries: false });
    expect(names(unchecked)).toEqual(['no-script', 'not-exec']);
    expect(unchecked.problems).toEqual([]);
  });

  it('reports frontmatter and script problems of one hook together', async () => {
    const { project, discover } = await setup();
    await writeHook(project, 'twice-bad', { fields: fields('twice-bad', { timeout: 1 }), script: false });
    expect((await discover()).problems.map((p) => p.code)).toEqual(['out-of-range', 'no-entry']);
  });

  it('puts user hooks before project hooks, each level sorted by folder name', async () => {
    const { project, user, discover } = await setup();
    for (const name of ['zeta', 'alpha', 'mid']) await writeHook(project, name);
    for (const name of ['user-b', 'user-a']) await writeHook(user, name);
    const result = await discover();
    expect(names(result)).toEqual(['user-a', 'user-b', 'alpha', 'mid', 'zeta']);
    expect(result.manifests.map((m) => m.source)).toEqual(['user', 'user', 'project', 'project', 'project']);
  });

  it('lets a project hook replace the user hook of the same name, silently, and lists the replaced one', async () => {
    const { project, user, discover } = await setup();
    await writeHook(user, 'guard', { fields: fields('guard', { priority: 1 }) });
    await writeHook(user, 'logger');
    await writeHook(project, 'guard', { fields: fields('guard', { priority: 900 }) });
    const result = await discover();
    expect(names(result)).toEqual(['logger', 'guard']);
    const guard = result.manifests.find((m) => m.name === 'guard')!;
    expect(guard).toMatchObject({ source: 'project', priority: 900, dir: join(project, 'guard') });
    expect(result.problems).toEqual([]);
    expect(result.overridden.map((m) => [m.name, m.source, m.priority])).toEqual([['guard', 'user', 1]]);
  });

  it('adds the hooks of extra folders after the project, dropping a taken name with a warning', async () => {
    const { base, project, user, discover } = await setup();
    await writeHook(user, 'shared');
    await writeHook(project, 'local');
    const extraA = join(base, 'extra-a');
    const extraB = join(base, 'extra-b');
    await writeHook(extraA, 'plugin-z');
    await writeHook(extraA, 'shared');
    await writeHook(extraB, 'plugin-a');
    await writeHook(extraB, 'plugin-z');
    const result = await discover({ extraDirs: [extraA, extraB] });
    expect(names(result)).toEqual(['shared', 'local', 'plugin-z', 'plugin-a']);
    expect(result.manifests.map((m) => m.source)).toEqual(['user', 'project', 'extra', 'extra']);
    expect(result.manifests[2]!.dir).toBe(join(extraA, 'plugin-z'));
    const dupes = result.problems.filter((p) => p.code === 'duplicate-name');
    expect(dupes.map((p) => [p.file, p.severity, p.field])).toEqual([
      [join(extraA, 'shared', 'HOOK.md'), 'warning', 'name'],
      [join(extraB, 'plugin-z', 'HOOK.md'), 'warning', 'name'],
    ]);
  });

  it('resolves relative extra folders against the project, and reads a folder named twice once', async () => {
    const { projectDir, project, discover } = await setup();
    await writeHook(project, 'only-once');
    await writeHook(join(projectDir, 'more'), 'extra-one');
    const result = await discover({ extraDirs: ['more', '.agents/hooks'] });
    expect(names(result)).toEqual(['only-once', 'extra-one']);
    expect(result.problems).toEqual([]);
  });

  it('honours XDG_CONFIG_HOME, then HOME, from the hostEnv option', async () => {
    const { base, projectDir } = await setup();
    const xdg = join(base, 'xdg');
    await writeHook(join(xdg, 'agents', 'hooks'), 'from-xdg');
    await writeHook(join(base, 'home', '.config', 'agents', 'hooks'), 'from-home');
    const withXdg = await discoverManifests({ projectDir, hostEnv: { XDG_CONFIG_HOME: xdg, HOME: join(base, 'home') } });
    expect(names(withXdg)).toEqual(['from-xdg']);
    expect(withXdg.manifests[0]!.source).toBe('user');
    const withHome = await discoverManifests({ projectDir, hostEnv: { HOME: join(base, 'home') } });
    expect(names(withHome)).toEqual(['from-home']);
    // A relative XDG_CONFIG_HOME is invalid per the XDG spec and ignored.
    expect(userHooksDir({ XDG_CONFIG_HOME: 'relative', HOME: '/h' })).toBe(join('/h', '.config', 'agents', 'hooks'));
    expect(names(await discoverManifests({ projectDir, userDir: false, hostEnv: { XDG_CONFIG_HOME: xdg } }))).toEqual([]);
  });

  it('ignores folders without a HOOK.md, stray files and missing hooks folders', async () => {
    const { base, project, discover } = await setup();
    await mkdir(join(project, 'not-a-hook', 'scripts'), { recursive: true });
    await writeFile(join(project, 'README.md'), '# hooks\n');
    await writeHook(project, 'real');
    const result = await discover({ extraDirs: [join(base, 'does-not-exist')] });
    expect(names(result)).toEqual(['real']);
    expect(result.problems).toEqual([]);
    const empty = await discoverManifests({ projectDir: join(base, 'nothing-here'), userDir: join(base, 'nor-here') });
    expect(empty).toMatchObject({ manifests: [], problems: [], stats: { folders: 0, bytesRead: 0 } });
  });

  it('follows a symlinked hook folder', async () => {
    const { base, project, discover } = await setup();
    const real = await writeHook(join(base, 'elsewhere'), 'linked');
    await symlink(real, join(project, 'linked'), 'dir');
    expect(names(await discover())).toEqual(['linked']);
  });

  it('throws a HookLoadError listing every problem in strict mode, when any is an error', async () => {
    const { project, discover } = await setup();
    await writeHook(project, 'good');
    await writeHook(project, 'bad-one', { fields: fields('bad-one', { trigger: 'nope' }) });
    await writeHook(project, 'bad-two', { fields: fields('bad-two', { timeout: 5 }), script: false });
    await writeHook(project, 'warned', { fields: fields('warned', { trigger: 'pre-session', matcher: { tool: 'x' } }) });
    const error = await discover({ strict: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookLoadError);
    const problems = (error as HookLoadError).problems;
    expect(problems.map((p: HookProblem) => p.code)).toEqual(['unknown-trigger', 'out-of-range', 'no-entry', 'ignored-matcher']);
    expect((error as HookLoadError).message).toContain(join(project, 'bad-one', 'HOOK.md'));
  });

  it('does not throw in strict mode for warnings alone', async () => {
    const { project, discover } = await setup();
    await writeHook(project, 'warned', { fields: fields('warned', { trigger: 'pre-session', matcher: { tool: 'x' } }) });
    const result = await discover({ strict: true });
    expect(names(result)).toEqual(['warned']);
    expect(result.problems.map((p) => p.severity)).toEqual(['warning']);
  });

  it('reads only frontmatters: a 1 MB body costs less than 16 KiB, and is read on demand', async () => {
    const { project, discover } = await setup();
    const body = `\n${'All work and no play makes Jack a dull boy.\n'.repeat(25_000)}`;
    await writeHook(project, 'big-docs', { body });
    const result = await discover();
    expect(result.stats.bytesRead).toBeLessThan(16 * 1024);
    const manifest = result.manifests[0]!;
    expect(manifest.bodyOffset).toBe(frontmatter(fields('big-docs')).length);
    expect(await readHookBody(manifest)).toBe(body.slice(1));
  });

  it('keeps the same order and problems whatever the concurrency', async () => {
    const { project, user, discover } = await setup();
    for (let i = 0; i < 30; i++) await writeHook(i % 3 === 0 ? user : project, `hook-${String(i).padStart(2, '0')}`, i % 7 === 0 ? { script: false } : {});
    const one = await discover({ concurrency: 1 });
    const many = await discover({ concurrency: 64 });
    expect(names(many)).toEqual(names(one));
    expect(many.problems).toEqual(one.problems);
  });
});

describe('loadManifest', () => {
  it('reports a folder without HOOK.md as missing-file', async () => {
    const dir = join(await dirs.make(), 'empty');
    await mkdir(dir);
    const load = await loadManifest(dir);
    expect(load).toMatchObject({ manifest: undefined, found: false });
    expect(load.problems[0]).toMatchObject({ file: join(dir, 'HOOK.md'), code: 'missing-file' });
  });

  it('never throws on arbitrary HOOK.md contents, and gives a manifest or a problem naming the file', async () => {
    const root = await dirs.make();
    const dir = await writeHook(root, 'fuzzed');
    const file = join(dir, 'HOOK.md');
    const content = fc.oneof(
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
      fc.string({ maxLength: 300 }).map((text) => `---\n${text}\n---\n`),
      fc.dictionary(fc.constantFrom('name', 'description', 'trigger', 'timeout', 'priority', 'matcher', 'x'), fc.jsonValue()).map((f) =>
        frontmatter({ name: 'fuzzed', description: 'd', trigger: 'pre-tool-call', ...f }),
      ),
    );
    await fc.assert(
      fc.asyncProperty(content, async (text) => {
        await writeFile(file, text);
        const load = await loadManifest(dir);
        expect(load.found).toBe(true);
        if (load.manifest === undefined) expect(load.problems.some((p) => p.severity === 'error')).toBe(true);
        for (const p of load.problems) {
          expect(p.file.startsWith(dir)).toBe(true);
          expect(p.message).not.toBe('');
        }
      }),
      { numRuns: 200 },
    );
  });

  it('loads one folder with its source and body offset', async () => {
    const dir = await writeHook(await dirs.make(), 'solo', { body: 'Body.\n' });
    const load = await loadManifest(dir, { source: 'user' });
    expect(load.manifest).toMatchObject({ name: 'solo', source: 'user', file: join(dir, 'HOOK.md') });
    expect(await readHookBody(load.manifest!)).toBe('Body.\n');
  });
});

describe('discoverManifests on odd hooks folders', () => {
  it('warns about a hooks folder that is a file, and loads the others', async () => {
    const base = await dirs.make();
    const projectDir = join(base, 'project');
    await writeHook(projectHooksDir(projectDir), 'fine');
    const notADir = join(base, 'hooks-file');
    await writeFile(notADir, 'oops');
    const result = await discoverManifests({ projectDir, userDir: notADir });
    expect(names(result)).toEqual(['fine']);
    expect(result.problems).toEqual([expect.objectContaining({ file: notADir, severity: 'warning', code: 'unreadable' })]);
  });
});
