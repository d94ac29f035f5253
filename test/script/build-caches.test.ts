/**
 * The names of a build's cache files and what a first write removes (src/script/internal/build-caches.ts), on real
 * files in a temporary folder.
 */
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTag, KEEP_BUILDS, MAX_AGE_MS, pruneBuildCaches } from '../../src/script/internal/build-caches.js';

const DAY = 24 * 60 * 60 * 1000;
const INDEX = /^bridge-index(-[0-9a-f]{16})?\.json(\.\d+\.\d+\.tmp)?$/;
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-hooks-build-caches-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Writes `name` in the folder as last written `ageMs` ago. */
function file(name: string, ageMs: number): void {
  writeFileSync(join(dir, name), '{}');
  const at = new Date(Date.now() - ageMs);
  utimesSync(join(dir, name), at, at);
}

const left = (): string[] => readdirSync(dir).sort();
const tagOf = (n: number): string => buildTag(`/some/build/${n}/cli.cjs:1000:${n}`);

describe('buildTag', () => {
  it('is 16 hex digits, whatever the stamp', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (stamp) => /^[0-9a-f]{16}$/.test(buildTag(stamp))));
  });

  it('tells apart the stamps of builds that differ by one digit of their time or size', () => {
    const stamps = Array.from({ length: 2000 }, (_, i) => `/home/u/project/node_modules/agent-hooks/dist/cli.cjs:${27880 + (i % 3)}:${1764700000000 + i}`);
    expect(new Set(stamps.map(buildTag)).size).toBe(stamps.length);
  });
});

describe('pruneBuildCaches', () => {
  it(`keeps the writer's file and the newest ${KEEP_BUILDS - 1} of other builds, and removes the older ones`, () => {
    const own = `bridge-index-${tagOf(0)}.json`;
    file(own, 0);
    for (let i = 1; i <= 10; i++) file(`bridge-index-${tagOf(i)}.json`, i * 1000);
    pruneBuildCaches(dir, (name) => INDEX.test(name), own);
    expect(left()).toEqual([own, ...Array.from({ length: KEEP_BUILDS - 1 }, (_, i) => `bridge-index-${tagOf(i + 1)}.json`)].sort());
  });

  it('removes the files of other builds not written for a month, and the file of the builds before names (bridge-index.json) alike', () => {
    const own = `bridge-index-${tagOf(0)}.json`;
    file(own, 40 * DAY);
    file(`bridge-index-${tagOf(1)}.json`, 2 * DAY);
    file(`bridge-index-${tagOf(2)}.json`, MAX_AGE_MS + DAY);
    file('bridge-index.json', MAX_AGE_MS + 1000);
    pruneBuildCaches(dir, (name) => INDEX.test(name), own);
    // The writer's own file is never removed, however old.
    expect(left()).toEqual([own, `bridge-index-${tagOf(1)}.json`].sort());
  });

  it('removes temporary files an hour old, which a killed writer left, and not those being written', () => {
    const own = `bridge-index-${tagOf(0)}.json`;
    file(own, 0);
    file(`${own}.123.1764700000000.tmp`, 2 * 60 * 60 * 1000);
    file(`bridge-index-${tagOf(1)}.json.456.1764700000000.tmp`, 60 * 1000);
    pruneBuildCaches(dir, (name) => INDEX.test(name), own);
    expect(left()).toEqual([own, `bridge-index-${tagOf(1)}.json.456.1764700000000.tmp`].sort());
  });

  it('leaves files of other kinds, and a folder it cannot read, alone', () => {
    const own = `bridge-index-${tagOf(0)}.json`;
    file(own, 0);
    file(`discovery-${tagOf(1)}.json`, MAX_AGE_MS + DAY);
    file('trust.json', MAX_AGE_MS + DAY);
    pruneBuildCaches(dir, (name) => INDEX.test(name), own);
    expect(left()).toEqual([own, `discovery-${tagOf(1)}.json`, 'trust.json'].sort());
    expect(() => pruneBuildCaches(join(dir, 'missing'), () => true, own)).not.toThrow();
  });
});
