// Internal: not exported from the package.
import { fileReads } from '../file-reads.js';

/**
 * Sends `signal` to every process of the group `pgid` (a detached child's pid), so grandchildren get it too. Where
 * groups cannot be signalled (Windows), `fallback` signals the child alone. Never throws: the group may be gone.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals, fallback: () => void): void {
  try {
    if (process.platform === 'win32') fallback();
    else process.kill(-pgid, signal);
  } catch {
    // ESRCH: nothing left to signal. EPERM cannot happen for our own children.
  }
}

/**
 * Whether some process of the group `pgid` is still running. `kill(-pgid, 0)` alone is not enough: an orphaned
 * grandchild that died stays a zombie until its new parent reaps it, and some init processes (in containers) never
 * do, so on Linux the group's members are looked up in /proc and zombies do not count.
 */
export async function groupAlive(pgid: number): Promise<boolean> {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  let entries: string[];
  try {
    entries = await fileReads.readdir('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = await fileReads.readFile(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue; // it exited while we looked
    }
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}
