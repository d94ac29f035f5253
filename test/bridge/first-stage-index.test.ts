/**
 * The first stage's index on disk (src/bridge/first-stage-index.ts): a folder of the build's, with its lessons in one
 * file and what each root's hook folders hold in a file of that root's own. Real files in a temporary cache folder.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FirstStageIndex, firstStageIndexFile } from '../../src/bridge/first-stage-index.js';

const DAY = 24 * 60 * 60 * 1000;
let cache: string;
let lessons: string;

beforeEach(() => {
  cache = mkdtempSync(join(tmpdir(), 'agent-hooks-first-stage-index-'));
  lessons = firstStageIndexFile({ AGENT_HOOKS_CACHE_DIR: cache })!;
});
afterEach(() => {
  rmSync(cache, { recursive: true, force: true });
});

const rootFiles = (): string[] => readdirSync(dirname(lessons)).filter((name) => name.startsWith('root-')).sort();
const verdict = { event: 'PreToolUse', tools: { kind: 'exact', names: ['Write'] } } as const;

describe('the first stage index', () => {
  it("is this build's folder in the cache folder, its lessons in lessons.json", () => {
    expect(basename(dirname(lessons))).toMatch(/^bridge-index-[0-9a-f]{16}$/);
    expect(basename(lessons)).toBe('lessons.json');
    expect(firstStageIndexFile({ AGENT_HOOKS_CACHE_DIR: 'off' })).toBeUndefined();
  });

  it('keeps each root in a file of its own, and a call reads back only the roots it looks at', () => {
    const index = new FirstStageIndex(lessons);
    index.setEvent('claude|PreToolUse', 'PreToolUse');
    index.setFolder('/home/u/.config/agents/hooks/guard', 'k1', verdict);
    index.setFolder('/repo/a/.agents/hooks/one', 'k2', 'none');
    index.setFolder('/repo/b/.agents/hooks/two', 'k3', 'problem');
    index.save();
    expect(rootFiles()).toHaveLength(3);
    const texts = rootFiles().map((name) => readFileSync(join(dirname(lessons), name), 'utf8'));
    // Each file holds its root's folders and no other's.
    const folders = ['/home/u/.config/agents/hooks/guard', '/repo/a/.agents/hooks/one', '/repo/b/.agents/hooks/two'];
    expect(texts.map((text) => folders.filter((folder) => text.includes(folder)).length)).toEqual([1, 1, 1]);
    expect(readFileSync(lessons, 'utf8')).not.toContain('/repo/');

    const again = new FirstStageIndex(lessons);
    expect(again.event('claude|PreToolUse')).toBe('PreToolUse');
    expect(again.folder('/repo/a/.agents/hooks/one', 'k2')).toBe('none');
    expect(again.folder('/repo/a/.agents/hooks/one', 'other stat')).toBeUndefined();
    expect(again.folder('/home/u/.config/agents/hooks/guard', 'k1')).toEqual(verdict);
    expect(again.folder('/repo/c/.agents/hooks/three', 'k4')).toBeUndefined();
  });

  it("reads a root's file written for another root, or by another build, as empty", () => {
    const index = new FirstStageIndex(lessons);
    index.setFolder('/repo/a/.agents/hooks/one', 'k2', 'none');
    index.save();
    const [name] = rootFiles();
    const file = join(dirname(lessons), name!);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { format: string; root: string; folders: Record<string, unknown> };
    writeFileSync(file, JSON.stringify({ ...stored, root: '/elsewhere/.agents/hooks' }));
    expect(new FirstStageIndex(lessons).folder('/repo/a/.agents/hooks/one', 'k2')).toBeUndefined();
    writeFileSync(file, JSON.stringify({ ...stored, format: 'first-stage-2:another build' }));
    expect(new FirstStageIndex(lessons).folder('/repo/a/.agents/hooks/one', 'k2')).toBeUndefined();
    writeFileSync(file, JSON.stringify(stored));
    expect(new FirstStageIndex(lessons).folder('/repo/a/.agents/hooks/one', 'k2')).toBe('none');
  });

  it("removes the files of roots not written for a month when a root's first file is written, and keeps the others", () => {
    const first = new FirstStageIndex(lessons);
    first.setFolder('/repo/old/.agents/hooks/x', 'k', 'none');
    first.setFolder('/repo/recent/.agents/hooks/y', 'k', 'none');
    first.save();
    const [a, b] = rootFiles().map((name) => join(dirname(lessons), name));
    const oldName = readFileSync(a!, 'utf8').includes('/repo/old/') ? a! : b!;
    const old = new Date(Date.now() - 31 * DAY);
    utimesSync(oldName, old, old);
    const next = new FirstStageIndex(lessons);
    next.setFolder('/repo/new/.agents/hooks/z', 'k', 'none');
    next.save();
    expect(rootFiles()).toHaveLength(2);
    expect(rootFiles()).not.toContain(basename(oldName));
  });

  it("a build's first lessons remove the index folders of builds written longest ago, and the one file of the builds before", () => {
    mkdirSync(cache, { recursive: true });
    writeFileSync(join(cache, 'bridge-index.json'), '{}');
    const stale = join(cache, 'bridge-index-0123456789abcdef');
    mkdirSync(stale);
    writeFileSync(join(stale, 'lessons.json'), '{}');
    const old = new Date(Date.now() - 31 * DAY);
    for (const path of [join(cache, 'bridge-index.json'), stale]) utimesSync(path, old, old);
    const index = new FirstStageIndex(lessons);
    index.setAliases('Bash', ['Bash', 'Shell']);
    index.save();
    expect(readdirSync(cache)).toEqual([basename(dirname(lessons))]);
  });
});
