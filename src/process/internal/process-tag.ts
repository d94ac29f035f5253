// Internal: not exported from the package.
import { nodeFs } from '../../core/internal/node-fs.js';
import { nodeCrypto } from '../../core/internal/node-crypto.js';

const { closeSync, openSync, readdirSync, readFileSync, readSync } = nodeFs;

/**
 * The environment variable every hook process gets, holding a random id of its own run. Children inherit it, so a
 * grandchild that left the hook's process group (`setsid`, a `detached` child) still carries it, and a kill can find
 * it in `/proc/PID/environ`.
 */
export const PROCESS_TAG_VARIABLE = 'AGENT_HOOKS_PROCESS_TAG';

/**
 * A fresh tag: 96 random bits, so no other process carries it by chance. Read from the kernel's `/dev/urandom` where
 * there is one, as `node:crypto` would: loading that module costs a bridged call more than the read.
 */
export function newProcessTag(): string {
  const bytes = Buffer.alloc(12);
  try {
    const fd = openSync('/dev/urandom', 'r');
    try {
      if (readSync(fd, bytes, 0, 12, null) === 12) return bytes.toString('hex');
    } finally {
      closeSync(fd);
    }
  } catch {
    // No /dev/urandom here (Windows): node:crypto's.
  }
  return nodeCrypto().randomBytes(12).toString('hex');
}

/** Whether the environment block `environ` (`NAME=value` entries, each ended by a NUL) holds one of `needles`. */
function carries(environ: Buffer, needles: readonly Buffer[]): boolean {
  for (const needle of needles) {
    let at = environ.indexOf(needle);
    while (at !== -1) {
      const end = at + needle.length;
      if ((at === 0 || environ[at - 1] === 0) && (end === environ.length || environ[end] === 0)) return true;
      at = environ.indexOf(needle, at + 1);
    }
  }
  return false;
}

/** The process group of `pid` (from `/proc/PID/stat`), or `undefined` when it is gone or a zombie. */
function groupOf(pid: string): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so split after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[0] === 'Z' || fields[0] === 'X' ? undefined : Number(fields[2]);
}

/**
 * The pids of the running processes whose environment carries one of `tags`, found in `/proc/PID/environ` — which
 * the kernel lets this process read for its own user's processes only, so no other user's process is ever named.
 * Empty where there is no `/proc` (macOS, Windows). Never throws. Costs one read per process on the machine, so it
 * runs only when a hook is being killed, never after a hook that exited by itself. The reads are synchronous: files
 * of `/proc` are made by the kernel on the spot, never wait on a disk, and a few hundred of them take milliseconds
 * this way, where going through the thread pool one by one takes as many round trips as a loaded machine makes slow.
 */
export async function findTagged(tags: readonly string[]): Promise<number[]> {
  return findTaggedNow(tags);
}

/** {@link findTagged}, synchronously: for a process that is exiting, where nothing asynchronous runs any more. */
export function findTaggedNow(tags: readonly string[]): number[] {
  if (tags.length === 0 || process.platform !== 'linux') return [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const needles = tags.map((tag) => Buffer.from(`${PROCESS_TAG_VARIABLE}=${tag}`));
  const found: number[] = [];
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57 || Number(entry) === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${entry}/environ`);
    } catch {
      continue; // another user's process, or one that exited while we looked
    }
    if (carries(environ, needles)) found.push(Number(entry));
  }
  return found;
}

/**
 * Sends SIGKILL to every running process carrying one of `tags` (see {@link findTagged}), except those still in a
 * group of `spareGroups` — the groups being ended with SIGTERM and a grace period of their own. Resolves with the
 * pids signalled. Never throws.
 */
export async function killTagged(tags: readonly string[], spareGroups: readonly number[] = []): Promise<number[]> {
  const killed: number[] = [];
  for (const pid of await findTagged(tags)) {
    if (spareGroups.length > 0) {
      const group = groupOf(String(pid));
      if (group === undefined || spareGroups.includes(group)) continue;
    }
    try {
      process.kill(pid, 'SIGKILL');
      killed.push(pid);
    } catch {
      // ESRCH: it ended meanwhile.
    }
  }
  return killed;
}
