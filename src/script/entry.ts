/**
 * Which file of a hook folder runs: the script entry.
 *
 * @module
 */
import { join } from 'node:path';
import { fileReads } from '../process/file-reads.js';
import type { HookProblem } from './problem.js';

/**
 * The entry names, in the order the spec tries them.
 *
 * @internal
 */
export const SCRIPT_ENTRY_NAMES = Object.freeze(['scripts/run', 'scripts/run.sh', 'scripts/run.py'] as const);

/**
 * The program that runs a hook, and how to start it.
 *
 * @internal
 */
export interface ScriptEntry {
  /** The entry file (absolute when the hook folder was). */
  readonly path: string;
  /**
   * The argv to spawn: `[path]` when the file is executable, so its shebang picks the interpreter; otherwise the
   * interpreter its extension implies (`sh` for `.sh`, `python3` for `.py`), so a script that lost its mode bit in a
   * zip or a git checkout on another OS still runs.
   */
  readonly command: readonly string[];
}

/**
 * An entry was found: the entry itself, tagged so that it narrows against {@link ScriptEntryMissing}.
 *
 * @internal
 */
export interface ScriptEntryFound extends ScriptEntry {
  /** Discriminant: an entry was found. */
  readonly ok: true;
}

/**
 * No runnable entry.
 *
 * @internal
 */
export interface ScriptEntryMissing {
  /** Discriminant: nothing can run. */
  readonly ok: false;
  /** `no-entry` or `not-executable`. */
  readonly problem: HookProblem;
}

/**
 * Whether a file's mode lets this process execute it, from the `stat` already made (the rule of the `isexe`
 * package behind `which` and `cross-spawn`): one system call per entry instead of two, which discovery of many hooks notices. ACLs are not
 * consulted; where they disagree, the spawn fails and the runner reports it.
 */
function executableByMode(mode: number, uid: number, gid: number): boolean {
  const myUid = process.getuid!();
  if (myUid === 0) return (mode & 0o111) !== 0;
  if (uid === myUid) return (mode & 0o100) !== 0;
  if ((mode & 0o010) !== 0 && (gid === process.getgid?.() || (process.getgroups?.() ?? []).includes(gid))) return true;
  return (mode & 0o001) !== 0;
}

// Windows has no execute bit: there, `scripts/run` is taken as runnable, and run.sh and run.py get their interpreter.
const NO_MODE_BITS = process.platform === 'win32' || typeof process.getuid !== 'function';

/** The file at `path` and whether it may be executed, or `undefined` when there is no file there. */
async function probe(path: string, withoutModeBits: boolean): Promise<{ executable: boolean } | undefined> {
  try {
    const s = await fileReads.stat(path);
    if (!s.isFile()) return undefined;
    return { executable: NO_MODE_BITS ? withoutModeBits : executableByMode(s.mode, s.uid, s.gid) };
  } catch {
    return undefined;
  }
}

/**
 * Resolves the entry of the hook folder `dir` in spec order: `scripts/run`, else `scripts/run.sh`, else
 * `scripts/run.py`. Only file metadata is read, never the script: it is the third stage of progressive disclosure.
 *
 * A `scripts/run` that is not executable is a `not-executable` problem rather than a reason to fall through to
 * `run.sh`: having no extension, it has no interpreter to fall back on, and its author plainly meant it to be the
 * entry. No entry at all is a `no-entry` problem reported against the folder's HOOK.md.
 *
 * @internal
 */
export async function resolveScriptEntry(dir: string): Promise<ScriptEntryFound | ScriptEntryMissing> {
  // Each joined when it is looked for: most hooks have a scripts/run, and a bridged call pays for every pass over a
  // long path (see `cli/code-cache.ts`).
  const [run, sh, py] = SCRIPT_ENTRY_NAMES;
  const runPath = join(dir, run);
  const found = await probe(runPath, true);
  if (found !== undefined) {
    if (found.executable) return { ok: true, path: runPath, command: [runPath] };
    return {
      ok: false,
      problem: {
        file: runPath,
        message: `scripts/run is not executable: run chmod +x ${JSON.stringify(runPath)}, or rename it run.sh or run.py.`,
        severity: 'error',
        code: 'not-executable',
      },
    };
  }
  for (const [name, interpreter] of [
    [sh, 'sh'],
    [py, 'python3'],
  ] as const) {
    const path = join(dir, name);
    const file = await probe(path, false);
    if (file !== undefined) return { ok: true, path, command: file.executable ? [path] : [interpreter, path] };
  }
  return {
    ok: false,
    problem: {
      file: join(dir, 'HOOK.md'),
      found: 'no script',
      allowed: SCRIPT_ENTRY_NAMES.join(', '),
      message: `The hook has nothing to run: add an executable scripts/run, or scripts/run.sh, or scripts/run.py next to HOOK.md.`,
      severity: 'error',
      code: 'no-entry',
    },
  };
}
