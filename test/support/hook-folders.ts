/** Real hook folders on disk, for the HOOK.md loader tests. */
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';

/** A fresh temporary folder, and a function that removes every folder made so far (for afterEach). */
export function tempDirs(): { make: () => Promise<string>; cleanup: () => Promise<void> } {
  const made: string[] = [];
  return {
    async make() {
      const dir = await mkdtemp(join(tmpdir(), 'agent-hooks-test-'));
      made.push(dir);
      return dir;
    },
    async cleanup() {
      await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}

/** A frontmatter block from fields, as an author would write it. */
export const frontmatter = (fields: Record<string, unknown>): string => `---\n${stringify(fields)}---\n`;

/** A valid frontmatter for folder `name`, with `extra` fields merged over it (`undefined` removes one). */
export function fields(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = { name, description: `The ${name} hook.`, trigger: 'pre-tool-call', ...extra };
  for (const [key, value] of Object.entries(out)) if (value === undefined) delete out[key];
  return out;
}

/** How to write one hook folder. */
export interface HookSpec {
  /** The whole HOOK.md; default: `frontmatter(fields(folder))` followed by `body`. */
  hookMd?: string | false;
  /** Fields for the default HOOK.md. */
  fields?: Record<string, unknown>;
  /** The body after the frontmatter. */
  body?: string;
  /** Which entry to write (default `scripts/run`), or false for none. */
  script?: 'run' | 'run.sh' | 'run.py' | false;
  /** Whether the entry gets its execute bits (default true). */
  executable?: boolean;
}

/** Writes `<root>/<folder>` as a hook folder and returns its path. */
export async function writeHook(root: string, folder: string, spec: HookSpec = {}): Promise<string> {
  const dir = join(root, folder);
  await mkdir(dir, { recursive: true });
  if (spec.hookMd !== false) {
    const text = spec.hookMd ?? frontmatter(spec.fields ?? fields(folder)) + (spec.body ?? `\n# ${folder}\n`);
    await writeFile(join(dir, 'HOOK.md'), text);
  }
  const script = spec.script ?? 'run';
  if (script !== false) {
    await mkdir(join(dir, 'scripts'), { recursive: true });
    const path = join(dir, 'scripts', script);
    await writeFile(path, script === 'run.py' ? '#!/usr/bin/env python3\n' : '#!/bin/sh\nexit 0\n');
    await chmod(path, spec.executable === false ? 0o644 : 0o755);
  }
  return dir;
}
