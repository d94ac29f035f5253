import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadManifest } from '../../src/script/load-manifest.js';
import { readHookBody } from '../../src/script/frontmatter.js';
import { tempDirs } from '../support/hook-folders.js';

// A HOOK.md as the format's reference runtime reads it: PyYAML (YAML 1.1) scalars, a frontmatter of any size, and a
// file that is not UTF-8 text refused. Each case is a real folder on disk, loaded as discovery loads it.

const dirs = tempDirs();
afterEach(dirs.cleanup);

/** Writes `<tmp>/my-hook/HOOK.md` (and an entry script) and loads the folder. */
async function load(hookMd: string | Buffer) {
  const root = await dirs.make();
  const dir = join(root, 'my-hook');
  await mkdir(join(dir, 'scripts'), { recursive: true });
  await writeFile(join(dir, 'HOOK.md'), hookMd);
  await writeFile(join(dir, 'scripts', 'run'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return { dir, file: join(dir, 'HOOK.md'), ...(await loadManifest(dir)) };
}

const head = 'name: my-hook\ndescription: A hook.\ntrigger: pre-tool-call\n';

describe('HOOK.md frontmatter, read as the reference runtime reads it', () => {
  it.each([
    ['async: yes', true],
    ['async: on', true],
    ['async: Yes', true],
    ['async: no', false],
    ['async: off', false],
    ['async: NO', false],
  ])('%s loads as YAML 1.1 reads it, with a warning that names the portable spelling', async (line, value) => {
    const { manifest, problems } = await load(`---\n${head}${line}\n---\n`);
    expect(manifest?.async).toBe(value);
    const warning = problems.find((p) => p.field === 'async');
    expect(warning?.severity).toBe('warning');
    expect(warning?.message).toContain(`write ${value}`);
  });

  it('timeout: 1_000 and priority: 1_0 load as the numbers YAML 1.1 reads, with a warning', async () => {
    const { manifest, problems } = await load(`---\n${head}timeout: 1_000\npriority: 1_0\n---\n`);
    expect(manifest?.timeout).toBe(1000);
    expect(manifest?.priority).toBe(10);
    expect(problems.filter((p) => p.severity === 'warning').map((p) => p.field).sort()).toEqual(['priority', 'timeout']);
  });

  it('a quoted "yes" stays text, and is refused as a boolean as before', async () => {
    const { manifest, problems } = await load(`---\n${head}async: "yes"\n---\n`);
    expect(manifest).toBeUndefined();
    expect(problems.some((p) => p.field === 'async' && p.severity === 'error')).toBe(true);
  });

  it('a 70 KB frontmatter loads', async () => {
    const notes = Array.from({ length: 1400 }, (_, i) => `  note${i}: ${'x'.repeat(40)}`).join('\n');
    const text = `---\n${head}metadata:\n${notes}\n---\n\nBody\n`;
    expect(text.length).toBeGreaterThan(70_000);
    const { manifest, problems } = await load(text);
    expect(problems).toEqual([]);
    expect(Object.keys(manifest?.metadata ?? {})).toHaveLength(1400);
  });

  it('a frontmatter that is not UTF-8 is refused with an error naming the file', async () => {
    const { manifest, problems, file } = await load(Buffer.concat([Buffer.from(`---\n${head}metadata:\n  note: caf`), Buffer.from([0xe9]), Buffer.from('\n---\n')]));
    expect(manifest).toBeUndefined();
    const problem = problems.find((p) => p.code === 'not-utf8');
    expect(problem?.severity).toBe('error');
    expect(problem?.file).toBe(file);
    expect(problem?.line).toBe(6);
    expect(problem?.message).toMatch(/not UTF-8/);
  });

  it('a NUL byte in the frontmatter is refused with an error naming the file', async () => {
    const { manifest, problems, file } = await load(`---\n${head}metadata:\n  note: a\u0000b\n---\n`);
    expect(manifest).toBeUndefined();
    const problem = problems.find((p) => p.code === 'not-utf8');
    expect(problem?.file).toBe(file);
    expect(problem?.message).toMatch(/NUL/);
  });

  it('a body that is not UTF-8, or holds a NUL byte, is refused when it is read, naming the file', async () => {
    for (const bad of [Buffer.from([0x61, 0xff, 0x62]), Buffer.from('a\u0000b')]) {
      const { manifest, file } = await load(Buffer.concat([Buffer.from(`---\n${head}---\n\n# Body\n`), Buffer.alloc(2000, 0x61), bad, Buffer.from('\n')]));
      expect(manifest).toBeDefined();
      await expect(readHookBody(manifest!)).rejects.toThrow(`${file}: the body of this HOOK.md is not text`);
    }
  });
});
