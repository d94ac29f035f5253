/**
 * The validated frontmatters on disk (src/script/internal/discovery-cache.ts): a folder of the build's with a file per
 * root, the folder a hook's folder is in. Real files in a temporary folder.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiscoveryCache, discoveryCacheDir, type FrontmatterPlace } from '../../src/script/internal/discovery-cache.js';
import type { HookManifest } from '../../src/script/manifest.js';

let folder: string;
beforeEach(() => {
  folder = join(mkdtempSync(join(tmpdir(), 'agent-hooks-discovery-cache-')), 'discovery');
});
afterEach(() => {
  rmSync(join(folder, '..'), { recursive: true, force: true });
});

const place = (dir: string): FrontmatterPlace => ({ file: join(dir, 'HOOK.md'), dir, source: 'project', bodyOffset: 40, deferRegexSafety: true });
const manifest = (name: string): HookManifest => ({ name, description: `The ${name} hook.`, trigger: 'pre-tool-call', metadata: {} }) as unknown as HookManifest;
const TEXT = 'name: guard\ndescription: x\ntrigger: pre-tool-call\n';

describe('the discovery cache', () => {
  it('keeps each root in a file of its own, and reads back exactly what was validated at the same place', () => {
    const cache = new DiscoveryCache(folder);
    cache.set(TEXT, place('/repo/a/.agents/hooks/guard'), manifest('guard'));
    cache.set(TEXT, place('/repo/b/.agents/hooks/guard'), manifest('guard'));
    cache.save();
    const files = readdirSync(folder).sort();
    expect(files).toHaveLength(2);
    expect(files.map((name) => (JSON.parse(readFileSync(join(folder, name), 'utf8')) as { root: string }).root).sort()).toEqual(['/repo/a/.agents/hooks', '/repo/b/.agents/hooks']);
    const again = new DiscoveryCache(folder);
    expect(again.get(TEXT, place('/repo/a/.agents/hooks/guard'))?.name).toBe('guard');
    expect(again.get(`${TEXT} `, place('/repo/a/.agents/hooks/guard'))).toBeUndefined();
    expect(again.get(TEXT, { ...place('/repo/a/.agents/hooks/guard'), bodyOffset: 41 })).toBeUndefined();
    expect(again.get(TEXT, place('/repo/c/.agents/hooks/guard'))).toBeUndefined();
  });

  it("reads a root's file written for another root as empty", () => {
    const cache = new DiscoveryCache(folder);
    cache.set(TEXT, place('/repo/a/.agents/hooks/guard'), manifest('guard'));
    cache.save();
    const [name] = readdirSync(folder);
    const file = join(folder, name!);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...stored, root: '/elsewhere' }));
    expect(new DiscoveryCache(folder).get(TEXT, place('/repo/a/.agents/hooks/guard'))).toBeUndefined();
  });

  it("is this build's folder in the cache folder, none with caches off", () => {
    expect(discoveryCacheDir({ AGENT_HOOKS_CACHE_DIR: '/c' })).toMatch(/^\/c\/discovery-[0-9a-f]{16}$/);
    expect(discoveryCacheDir({ AGENT_HOOKS_CACHE_DIR: 'off' })).toBeUndefined();
  });
});
