/**
 * The hook process groups this process has running, so that a process about to go away — the bridge, killed by the
 * agent at its own hook timeout — can take them with it instead of leaving them behind.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { groupAlive, signalGroup } from './internal/process-group.js';

/** One running group: its id and how to signal it where groups cannot be signalled (Windows). */
interface LiveGroup {
  readonly pgid: number;
  readonly signalChild: (signal: NodeJS.Signals) => void;
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
export function trackGroup(pgid: number, signalChild: (signal: NodeJS.Signals) => void): () => void {
  live.set(pgid, { pgid, signalChild });
  return () => {
    live.delete(pgid);
  };
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
 * wait long). Resolves once every group is gone, or has been sent SIGKILL and had a moment to go.
 *
 * @internal
 */
export async function killLiveProcessGroups(graceMs = 200): Promise<void> {
  const groups = [...live.values()];
  if (groups.length === 0) return;
  for (const group of groups) signalGroup(group.pgid, 'SIGTERM', () => group.signalChild('SIGTERM'));
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
// owner is. `kill -s 0 -- -PGID` is the portable way to ask about a group in dash and bash alike.
const WATCHDOG = 'while kill -s 0 "$1" 2>/dev/null && kill -s 0 -- "-$2" 2>/dev/null; do sleep 1; done; kill -s 0 "$1" 2>/dev/null || kill -s KILL -- "-$2" 2>/dev/null';

/**
 * Starts the watchdog of group `pgid` (see {@link guardAgainstOrphans}). Never throws; the watchdog never keeps this
 * process alive.
 *
 * @internal
 */
export function watchForOrphan(pgid: number): void {
  if (orphanGuard === undefined) return;
  try {
    const watchdog = spawn('/bin/sh', ['-c', WATCHDOG, 'agent-hooks-watchdog', String(orphanGuard.ownerPid), String(pgid)], {
      detached: true,
      stdio: 'ignore',
    });
    watchdog.on('error', () => {});
    watchdog.unref();
  } catch {
    // No watchdog: the signal handlers still cover every kill but SIGKILL.
  }
}
