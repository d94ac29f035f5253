import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HookEvent } from 'agent-hooks';
import type { HookManifest } from '../../src/script/manifest.js';
import type { ProcessResult } from '../../src/process/run-process.js';

/** A temporary directory, removed by the returned `cleanup`. */
export async function tempDir(prefix = 'agent-hooks-script-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Writes an executable file. */
export async function writeExecutable(path: string, text: string): Promise<string> {
  await writeFile(path, text);
  await chmod(path, 0o755);
  return path;
}

/** What a test hook may override in its manifest; `triggerName` fixes `trigger`. */
export type ManifestOverrides = Partial<Omit<HookManifest, 'trigger' | 'dir' | 'file' | 'bodyOffset'>>;

/**
 * A hook folder `root/name` with a HOOK.md and an executable `scripts/run` holding `script` (a `#!/bin/sh` script
 * unless it starts with its own `#!`), and its manifest, built directly rather than discovered.
 */
export async function writeHook(root: string, name: string, script: string | undefined, overrides: ManifestOverrides = {}): Promise<HookManifest> {
  const dir = join(root, name);
  await mkdir(join(dir, 'scripts'), { recursive: true });
  const triggerName = overrides.triggerName ?? 'pre-tool-call';
  const frontmatter = `---\nname: ${name}\ndescription: test hook\ntrigger: ${triggerName}\n---\n`;
  const body = `# ${name}\n\nThe body of ${name}.\n`;
  await writeFile(join(dir, 'HOOK.md'), frontmatter + body);
  if (script !== undefined) {
    await writeExecutable(join(dir, 'scripts', 'run'), script.startsWith('#!') ? script : `#!/bin/sh\n${script}\n`);
  }
  return {
    name,
    description: 'test hook',
    matcher: undefined,
    timeout: 10_000,
    async: false,
    priority: 100,
    metadata: {},
    source: 'project',
    ...overrides,
    triggerName,
    trigger: HookEvent.parse(triggerName),
    dir,
    file: join(dir, 'HOOK.md'),
    bodyOffset: Buffer.byteLength(frontmatter),
  };
}

/** Whether process `pid` is running: neither gone nor a zombie waiting to be reaped. */
export async function isRunning(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Reads a pid a script wrote to `path`, waiting for it to appear. */
export async function readPid(path: string, waitMs = 2000): Promise<number> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const text = (await readFile(path, 'utf8')).trim();
      if (text !== '') return Number(text);
    } catch {
      // not written yet
    }
    if (Date.now() > deadline) throw new Error(`no pid in ${path}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** What a hook process that ran for 12 ms and ended with `exitCode` gives a dialect to read. */
export const exited = (exitCode: number | null, stdout = '', stderr = '', extra: Partial<ProcessResult> = {}): ProcessResult => ({
  exitCode,
  signal: null,
  stdout,
  stderr,
  timedOut: false,
  aborted: false,
  overflow: undefined,
  durationMs: 12,
  pid: 4242,
  ...extra,
});
