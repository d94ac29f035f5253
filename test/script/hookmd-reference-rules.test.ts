import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverHooks, loadManifest, readHookProperties, triggerNameProblem } from 'agent-hooks';
import { tempDirs } from '../support/hook-folders.js';
import { writeExecutable } from '../support/script-fixture.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** A hook folder `.agents/hooks/<folder>` holding `file` (default HOOK.md) with `text`, and a script. */
async function hook(project: string, folder: string, text: string, file = 'HOOK.md'): Promise<string> {
  const dir = join(project, '.agents', 'hooks', folder);
  await mkdir(join(dir, 'scripts'), { recursive: true });
  await writeFile(join(dir, file), text);
  await writeExecutable(join(dir, 'scripts', 'run'), '#!/bin/sh\nexit 0\n');
  return dir;
}

const md = (lines: readonly string[], eol = '\n'): string => ['---', ...lines, '---', '# body', ''].join(eol);
const discover = (project: string) => discoverHooks({ projectDir: project, userDir: false, trust: 'all' });

describe('names as the reference validator reads them', () => {
  it('takes letters of any script, NFKC-normalised and trimmed: café-hook is a name', async () => {
    const project = await dirs.make();
    await hook(project, 'café-hook', md(['name: café-hook', 'description: Accented.', 'trigger: pre-tool-call']));
    await hook(project, 'hook-ü', md(['name: "  hook-u\u0308  "', 'description: Decomposed and padded.', 'trigger: pre-tool-call']));
    await hook(project, 'フック', md(['name: フック', 'description: Japanese.', 'trigger: pre-tool-call']));
    const found = await discover(project);
    expect(found.problems).toEqual([]);
    expect(found.hooks.map((h) => h.name).sort()).toEqual(['café-hook', 'hook-ü', 'フック'].sort());
  });

  it('refuses an uppercase letter, saying the lowercase name to write', async () => {
    const project = await dirs.make();
    await hook(project, 'café-hook', md(['name: Café-Hook', 'description: d', 'trigger: pre-tool-call']));
    const found = await discover(project);
    expect(found.hooks).toEqual([]);
    expect(found.problems).toContainEqual(expect.objectContaining({ field: 'name', code: 'invalid-name', message: 'name must be lowercase, e.g. café-hook.' }));
  });

  it('refuses a description that is only white space', async () => {
    const project = await dirs.make();
    await hook(project, 'blank', md(['name: blank', 'description: "   "', 'trigger: pre-tool-call']));
    const found = await discover(project);
    expect(found.hooks).toEqual([]);
    expect(found.problems).toContainEqual(expect.objectContaining({ field: 'description', severity: 'error', message: expect.stringMatching(/only white space/) }));
  });
});

describe('integer fields written as floats', () => {
  it.each([
    ['timeout: 5000.0', 'timeout', 'timeout is written 5000.0, which is not an integer: write it as the whole number 5000 (the reference runtime refuses it too).'],
    ['priority: 1e3', 'priority', 'priority is written 1e3, which is not an integer: write it as the whole number 1000 (the reference runtime refuses it too).'],
    ['timeout: 2500.5', 'timeout', 'timeout is written 2500.5, which is not an integer: write a whole number (the reference runtime refuses it too).'],
  ])('%s is refused with the number to write', async (line, field, message) => {
    const project = await dirs.make();
    await hook(project, 'floaty', md(['name: floaty', 'description: d', 'trigger: pre-tool-call', line]));
    const found = await discover(project);
    expect(found.hooks).toEqual([]);
    expect(found.problems).toContainEqual(expect.objectContaining({ field, line: 5, severity: 'error', code: 'invalid-type', message }));
  });

  it('a whole number still loads', async () => {
    const project = await dirs.make();
    await hook(project, 'whole', md(['name: whole', 'description: d', 'trigger: pre-tool-call', 'timeout: 5000', 'priority: +7']));
    expect((await discover(project)).hooks.map((h) => h.manifest.timeout)).toEqual([5000]);
  });
});

describe('files as the reference runtime finds them', () => {
  it('a lowercase hook.md is found when there is no HOOK.md', async () => {
    const project = await dirs.make();
    const dir = await hook(project, 'lower', md(['name: lower', 'description: d', 'trigger: pre-tool-call']), 'hook.md');
    const found = await discover(project);
    expect(found.problems).toEqual([]);
    expect(found.hooks.map((h) => h.manifest.file)).toEqual([join(dir, 'hook.md')]);
    expect((await readHookProperties(dir)).properties?.location).toBe(join(dir, 'hook.md'));
  });

  it('CR-only line endings are read as line breaks', async () => {
    const project = await dirs.make();
    const dir = await hook(project, 'old-mac', md(['name: old-mac', 'description: Saved with CR line endings.', 'trigger: pre-tool-call', 'matcher:', '  tool: Shell'], '\r'));
    const load = await loadManifest(dir);
    expect(load.problems).toEqual([]);
    expect(load.manifest).toMatchObject({ name: 'old-mac', description: 'Saved with CR line endings.', matcher: { tool: 'Shell' } });
  });

  it('CRLF and a mix of endings still load', async () => {
    const project = await dirs.make();
    const dir = await hook(project, 'mixed', '---\r\nname: mixed\rdescription: d\ntrigger: pre-tool-call\r\n---\r\n');
    expect((await loadManifest(dir)).manifest?.name).toBe('mixed');
  });
});

describe('legacy and foreign trigger names', () => {
  it.each(['before_tool', 'PreToolUse', 'preToolUse', 'BeforeTool'])('%s loads quietly, and validation warns with the portable name', async (trigger) => {
    const project = await dirs.make();
    await hook(project, 'guard', md(['name: guard', 'description: d', `trigger: ${trigger}`]));
    const found = await discover(project);
    expect(found.problems).toEqual([]);
    const problem = triggerNameProblem(found.hooks[0]!.manifest);
    expect(problem).toMatchObject({ severity: 'warning', code: 'non-portable-trigger', field: 'trigger', allowed: '"pre-tool-call"' });
    expect(problem?.message).toContain('trigger: pre-tool-call');
  });

  it('a current name gets no warning; an event the format cannot name says so', async () => {
    const project = await dirs.make();
    await hook(project, 'guard', md(['name: guard', 'description: d', 'trigger: pre-tool-call']));
    await hook(project, 'asker', md(['name: asker', 'description: d', 'trigger: PermissionRequest']));
    const found = await discover(project);
    const byName = new Map(found.hooks.map((h) => [h.name, h.manifest]));
    expect(triggerNameProblem(byName.get('guard')!)).toBeUndefined();
    expect(triggerNameProblem(byName.get('asker')!)?.message).toMatch(/has no name for PermissionRequest/);
  });
});

describe('a __proto__ key in a frontmatter', () => {
  it('is an unknown key with no nonsense suggestion', async () => {
    const project = await dirs.make();
    await hook(project, 'proto', md(['name: proto', 'description: d', 'trigger: pre-tool-call', '__proto__: x', 'matcher:', '  __proto__: y']));
    const found = await discover(project);
    const messages = found.problems.map((p) => p.message);
    expect(messages.join('\n')).not.toMatch(/object Object/);
    expect(found.problems).toContainEqual(expect.objectContaining({ field: '__proto__', code: 'unknown-key', message: 'Unknown key __proto__: custom data belongs under metadata.' }));
    expect(found.problems).toContainEqual(expect.objectContaining({ field: 'matcher.__proto__', code: 'unknown-key', message: 'Unknown key matcher.__proto__: a matcher has only tool and pattern.' }));
  });
});
