// Internal: not exported from the package.
/*
 * The files one build of agent-hooks keeps in the user's cache folder — the first stage's index, the validated
 * frontmatters, the bridged call's code cache — each named by that build, so that builds used in turn keep theirs. A
 * user may have several: a project's own copy and another's, a global one, the one `npx` keeps. Shared, every call of
 * one found the other's file, took it as empty, learnt everything again and wrote it back over the other's: two copies
 * called in turn on a matching hook took about 117 ms a call instead of 50 (Node 24).
 *
 * Named by build, the files of builds no longer used would stay for ever: when a build writes a file of a kind for the
 * first time, it removes the files of that kind written longest ago by other builds — beyond the newest
 * {@link KEEP_BUILDS}, and any not written for {@link MAX_AGE_MS} — with what killed writers left half-written. A build
 * still in use whose file was removed so learns again once, on its next call. Nothing here decides what a call comes
 * to: each file still says which build wrote it, and a file of another build is read as empty.
 */
import { nodeFs } from '../../core/internal/node-fs.js';
import { join } from 'node:path';

const { readdirSync, rmSync, statSync } = nodeFs;

/** How many builds' files of one kind are kept, the writer's own among them, unless told otherwise. */
export const KEEP_BUILDS = 8;

/** A file of another build not written for this long is removed (30 days). */
export const MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** A temporary file older than this was left by a writer that was killed (an hour). */
const ABANDONED_MS = 60 * 60 * 1000;

/**
 * A short name for a build's stamp (see `buildStamp`): 16 hex digits, two 32-bit FNV-1a hashes of it. Not a digest —
 * two builds that shared a name would only share a file again, which each reads as empty when the other wrote it.
 */
export function buildTag(stamp: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ stamp.length;
  for (let i = 0; i < stamp.length; i++) {
    const c = stamp.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/**
 * Removes from `dir` the files (or folders) of one kind that others wrote longest ago, keeping `own` (the writer's, a
 * name in `dir`): beyond the newest `keep` in all ({@link KEEP_BUILDS} unless told), or not written for
 * {@link MAX_AGE_MS}; and the temporary files of that kind (ending `.tmp` or `.partial`) older than an hour. `ofKind`
 * tells the names of the kind, temporary ones among them. Errors are ignored: a file left costs some disk, nothing more.
 */
export function pruneBuildCaches(dir: string, ofKind: (name: string) => boolean, own: string, now: number = Date.now(), keep: number = KEEP_BUILDS): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const others: { name: string; mtimeMs: number }[] = [];
  for (const name of names) {
    if (name === own || !ofKind(name)) continue;
    let mtimeMs: number | undefined;
    try {
      mtimeMs = statSync(join(dir, name), { throwIfNoEntry: false })?.mtimeMs;
    } catch {
      mtimeMs = undefined;
    }
    if (mtimeMs === undefined) continue;
    if (name.endsWith('.tmp') || name.endsWith('.partial')) {
      if (now - mtimeMs > ABANDONED_MS) remove(join(dir, name));
    } else {
      others.push({ name, mtimeMs });
    }
  }
  others.sort((x, y) => y.mtimeMs - x.mtimeMs);
  others.forEach(({ name, mtimeMs }, i) => {
    if (i >= keep - 1 || now - mtimeMs > MAX_AGE_MS) remove(join(dir, name));
  });
}

function remove(file: string): void {
  try {
    rmSync(file, { force: true, recursive: true });
  } catch {
    // See pruneBuildCaches.
  }
}
