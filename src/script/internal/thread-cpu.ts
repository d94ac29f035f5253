/**
 * The CPU time of the calling thread alone, for a budget on work done in this thread: `process.cpuUsage()` counts
 * every thread of the process, V8's garbage-collector helpers and other workers included, which on a checker's
 * allocation-heavy run add about half again to what it used itself.
 *
 * @module
 */
import { nodeFs } from '../../core/internal/node-fs.js';

const { readFileSync } = nodeFs;

/** The microseconds of CPU this thread has used, as `process.cpuUsage()` gives them; since `previous` when given. */
export type CpuUsageOf = (previous?: NodeJS.CpuUsage) => NodeJS.CpuUsage;

/** Linux counts a thread's times in `/proc` in ticks of 1/100 s (USER_HZ, the same on every architecture). */
const MICROSECONDS_PER_TICK = 10_000;

/** `utime` and `stime` of `/proc/thread-self/stat`, in microseconds; `undefined` where it cannot be read. */
function procThreadUsage(): NodeJS.CpuUsage | undefined {
  let stat: string;
  try {
    stat = readFileSync('/proc/thread-self/stat', 'latin1');
  } catch {
    return undefined;
  }
  // The fields after the command name, which is in parentheses and may hold spaces or parentheses: the state first
  // (field 3), so utime (field 14) and stime (field 15) are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  if (!Number.isFinite(user) || !Number.isFinite(system)) return undefined;
  return { user: user * MICROSECONDS_PER_TICK, system: system * MICROSECONDS_PER_TICK };
}

const SPENT: NodeJS.CpuUsage = Object.freeze({ user: Number.MAX_SAFE_INTEGER, system: 0 });

const since = (now: NodeJS.CpuUsage, previous?: NodeJS.CpuUsage): NodeJS.CpuUsage =>
  previous === undefined ? now : { user: now.user - previous.user, system: now.system - previous.system };

/** Picks once how this thread's CPU time is read. */
function pick(): CpuUsageOf {
  // Node 22.15 and 23.9 on.
  const own = (process as { threadCpuUsage?: CpuUsageOf }).threadCpuUsage;
  if (typeof own === 'function') return (previous) => own.call(process, previous);
  // Node 20 on Linux: the kernel's count for this thread.
  // A read that fails later (no file descriptor left) counts as the whole budget spent: a budget ends early, never late.
  if (procThreadUsage() !== undefined) return (previous) => since(procThreadUsage() ?? SPENT, previous);
  // Elsewhere, the whole process's: more than this thread used, so a budget is reached early rather than late.
  return (previous) => process.cpuUsage(previous);
}

let chosen: CpuUsageOf | undefined;

/** This thread's CPU time, or since `previous`; the process's where the platform cannot tell one thread's. */
export const threadCpuUsage: CpuUsageOf = (previous) => (chosen ??= pick())(previous);
