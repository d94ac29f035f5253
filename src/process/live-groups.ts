/**
 * The hook process groups this process has running, so that a process about to go away — the bridge, killed by the
 * agent at its own hook timeout — can take them with it instead of leaving them behind.
 *
 * @module
 */
import { childProcess } from './internal/node-child-process.js';
import { groupAlive, signalGroup } from './internal/process-group.js';
import { findTaggedNow, killTagged, PROCESS_TAG_VARIABLE } from './internal/process-tag.js';

/**
 * One running group: its id, how to signal it where groups cannot be signalled (Windows), and the tag its processes
 * carry in their environment (see `runProcess`), which finds those that left the group.
 */
interface LiveGroup {
  readonly pgid: number;
  readonly signalChild: (signal: NodeJS.Signals) => void;
  readonly tag: string | undefined;
}

const live = new Map<number, LiveGroup>();

/** How a process whose parent may kill it outright (SIGKILL, which no handler sees) keeps its hooks from outliving it. */
interface OrphanGuard {
  /** The process whose death ends every group: this one. */
  readonly ownerPid: number;
  /** How long a group may run before a watchdog is started for it. */
  readonly afterMs: number;
}

let orphanGuard: OrphanGuard | undefined;

/**
 * The default time before a watchdog is started: most hooks are done long before, and pay nothing for it.
 *
 * @internal
 */
export const DEFAULT_ORPHAN_WATCH_AFTER_MS = 1000;

/**
 * Records a group the runner started; returns the function that forgets it (when the group is gone).
 *
 * @internal
 */
export function trackGroup(pgid: number, signalChild: (signal: NodeJS.Signals) => void, tag?: string): () => void {
  if (!exitCleanupInstalled) {
    exitCleanupInstalled = true;
    process.once('exit', killLiveProcessGroupsNow);
  }
  live.set(pgid, { pgid, signalChild, tag });
  return () => {
    live.delete(pgid);
  };
}

let exitCleanupInstalled = false;

/**
 * Sends SIGKILL, synchronously, to every group still running and (on Linux) every process carrying one of their
 * tags: what this process does as it exits (`process.exit()` with hooks still running), since their processes lead
 * groups of their own and would otherwise outlive it. Nothing waits: an exiting process cannot.
 *
 * @internal
 */
export function killLiveProcessGroupsNow(): void {
  const groups = [...live.values()];
  if (groups.length === 0) return;
  for (const group of groups) signalGroup(group.pgid, 'SIGKILL', () => group.signalChild('SIGKILL'));
  for (const pid of findTaggedNow(groups.flatMap((g) => (g.tag === undefined ? [] : [g.tag])))) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

/**
 * The ids of the process groups still running (each the pid of the hook process that leads it).
 *
 * @internal
 */
export function liveProcessGroups(): readonly number[] {
  return [...live.keys()];
}

/**
 * Ends every process group this process started and has not seen end: SIGTERM to each, then SIGKILL to those still
 * running after `graceMs` (default 200: the caller is going away, and an agent that already gave up on it will not
 * wait long). On Linux, the processes that left a group (`setsid`, a detached child) but still carry its tag in their
 * environment get SIGKILL at once, and whatever carries a tag at the end gets it too. Resolves once every group is
 * gone, or has been sent SIGKILL and had a moment to go.
 *
 * @internal
 */
export async function killLiveProcessGroups(graceMs = 200): Promise<void> {
  const groups = [...live.values()];
  if (groups.length === 0) return;
  const tags = groups.flatMap((g) => (g.tag === undefined ? [] : [g.tag]));
  for (const group of groups) signalGroup(group.pgid, 'SIGTERM', () => group.signalChild('SIGTERM'));
  await killTagged(tags, groups.map((g) => g.pgid));
  const end = Date.now() + graceMs;
  let running = groups;
  while (running.length > 0 && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    running = (await Promise.all(running.map(async (g) => ((await groupAlive(g.pgid)) ? g : undefined)))).filter((g) => g !== undefined);
  }
  for (const group of running) signalGroup(group.pgid, 'SIGKILL', () => group.signalChild('SIGKILL'));
  const reap = Date.now() + 500;
  while (running.length > 0 && Date.now() < reap) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    running = (await Promise.all(running.map(async (g) => ((await groupAlive(g.pgid)) ? g : undefined)))).filter((g) => g !== undefined);
  }
  await killTagged(tags);
}

/**
 * From now on, every hook group that runs longer than `afterMs` gets a watchdog: a small `/bin/sh` loop, in a group
 * of its own, that kills the hook's group with SIGKILL as soon as this process is gone, and exits by itself when the
 * hook's group ends first. It covers what no signal handler can: an agent that kills its hook (here, the bridge)
 * with SIGKILL. POSIX only; a no-op on Windows. Returns the function that turns the guard off again (for groups
 * started after it; watchdogs already running go on until their group ends).
 *
 * @internal
 */
export function guardAgainstOrphans(options: { readonly afterMs?: number | undefined } = {}): () => void {
  if (process.platform === 'win32') return () => {};
  const guard: OrphanGuard = { ownerPid: process.pid, afterMs: options.afterMs ?? DEFAULT_ORPHAN_WATCH_AFTER_MS };
  orphanGuard = guard;
  return () => {
    if (orphanGuard === guard) orphanGuard = undefined;
  };
}

/**
 * The delay after which group `pgid` should get a watchdog, or `undefined` when no guard is on.
 *
 * @internal
 */
export function orphanWatchDelay(): number | undefined {
  return orphanGuard?.afterMs;
}

// Polls once a second: "is the owner alive, and is the group?" — exits when the group is gone; kills it when the
// owner is, and then (where there is a /proc) every process whose environment carries the hook's tag ($3): one grep
// over every /proc/PID/environ names them. `kill -s 0 -- -PGID` is the portable way to ask about a group in dash and
// bash alike. The tag is an argument, never in the watchdog's own environment, so it never finds itself.
const WATCHDOG =
  'while kill -s 0 "$1" 2>/dev/null && kill -s 0 -- "-$2" 2>/dev/null; do sleep 1; done; kill -s 0 "$1" 2>/dev/null && exit 0; ' +
  'kill -s KILL -- "-$2" 2>/dev/null; [ -n "$3" ] && [ -d /proc/self ] || exit 0; ' +
  `for e in $(grep -laF "${PROCESS_TAG_VARIABLE}=$3" /proc/[0-9]*/environ 2>/dev/null); do p=\${e#/proc/}; kill -s KILL "\${p%/environ}" 2>/dev/null; done`;

/**
 * Starts the watchdog of group `pgid` (see {@link guardAgainstOrphans}). Never throws; the watchdog never keeps this
 * process alive.
 *
 * @internal
 */
export function watchForOrphan(pgid: number, tag?: string): void {
  if (orphanGuard === undefined) return;
  try {
    const watchdog = childProcess().spawn('/bin/sh', ['-c', WATCHDOG, 'agent-hooks-watchdog', String(orphanGuard.ownerPid), String(pgid), tag ?? ''], {
      detached: true,
      stdio: 'ignore',
    });
    watchdog.on('error', () => {});
    watchdog.unref();
  } catch {
    // No watchdog: the signal handlers still cover every kill but SIGKILL.
  }
}
