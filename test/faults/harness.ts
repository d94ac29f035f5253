/**
 * Puts one fault of the matrix on disk as a real hook (a HOOK.md folder or a Claude Code settings entry), loads it the
 * way an agent does, and checks what every fault must leave behind: no process, no unhandled rejection, a hook that
 * still works once its script is fixed.
 */
import { mkdir, readdir, readFile, rm, chmod, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { discoverHooks, loadClaudeHooks, ProcessHook, type ProcessPool, type ScriptExit } from 'agent-hooks';
import { isRunning, readPid, writeExecutable } from '../support/script-fixture.js';
import { FAULT_TIMEOUT_MS, KILL_GRACE_MS, NO_TIMEOUT_MS, type Carrier, type CarrierFault, type FaultRow } from './matrix.js';

/** Fail open (the default) or closed. */
export type FailMode = 'open' | 'closed';

/** A fault put on disk: where, and how to fix it. */
export interface FaultProject {
  /** The project directory. */
  readonly dir: string;
  /** The carrier's part of the row. */
  readonly fault: CarrierFault;
  /** Where the grandchild writes its pid. */
  readonly grandchildPidFile: string;
  /** Where the flooding script counts the MiB it wrote. */
  readonly floodProgressFile: string;
  /** Replaces the faulty script with one that reads its input and exits 0. */
  heal(): Promise<void>;
}

const HEALTHY = '#!/bin/sh\ncat > /dev/null\nexit 0\n';
const HOOK_NAME = 'fault-hook';

/** The fault's part for a carrier. */
export function carrierFault(row: FaultRow, carrier: Carrier): CarrierFault {
  const fault = carrier === 'hookmd' ? row.hookmd : row.claude;
  if (fault === undefined) throw new Error(`row '${row.id}' has no ${carrier} part`);
  return fault;
}

/**
 * Writes the row's hook into the project `dir`: `.agents/hooks/fault-hook` (HOOK.md, matcher `^Shell$`, fail-closed in
 * its metadata when asked) or `.claude/settings.json` (a PreToolUse entry for `Shell`).
 */
export async function writeFaultProject(dir: string, row: FaultRow, carrier: Carrier, mode: FailMode): Promise<FaultProject> {
  const fault = carrierFault(row, carrier);
  const timeoutMs = row.timesOut ? FAULT_TIMEOUT_MS : NO_TIMEOUT_MS;
  let scriptPath: string;
  if (carrier === 'hookmd') {
    const folder = join(dir, '.agents', 'hooks', HOOK_NAME);
    await mkdir(join(folder, 'scripts'), { recursive: true });
    const metadata = mode === 'closed' ? '\nmetadata:\n  failClosed: true' : '';
    const frontmatter = `---\nname: ${HOOK_NAME}\ndescription: A hook that misbehaves (${row.id}).\ntrigger: pre-tool-call\nmatcher:\n  tool: ^Shell$\ntimeout: ${timeoutMs}${metadata}\n---\n`;
    await writeFile(join(folder, 'HOOK.md'), `${frontmatter}# ${row.fault}\n`);
    scriptPath = join(folder, 'scripts', 'run');
  } else {
    const command = fault.command!;
    const settings = { hooks: { PreToolUse: [{ matcher: 'Shell', hooks: [{ type: 'command', command: command.text, timeout: timeoutMs / 1000 }] }] } };
    await mkdir(join(dir, '.claude'), { recursive: true });
    await writeFile(join(dir, '.claude', 'settings.json'), JSON.stringify(settings, null, 2));
    scriptPath = join(dir, command.path);
  }
  if (fault.script !== undefined) {
    await mkdir(dirname(scriptPath), { recursive: true });
    await writeExecutable(scriptPath, fault.script);
    if (fault.mode !== undefined) await chmod(scriptPath, fault.mode);
  }
  return {
    dir,
    fault,
    grandchildPidFile: join(dir, 'grandchild.pid'),
    floodProgressFile: join(dir, 'flood.progress'),
    async heal() {
      await mkdir(dirname(scriptPath), { recursive: true });
      await writeExecutable(scriptPath, HEALTHY);
    },
  };
}

/** Does to the hook folder what the fault does between discovery and the run. */
export async function afterLoad(project: FaultProject): Promise<void> {
  const script = join(project.dir, '.agents', 'hooks', HOOK_NAME, 'scripts', 'run');
  if (project.fault.afterLoad === 'remove-script') await rm(script);
  if (project.fault.afterLoad === 'chmod-script') await chmod(script, 0o644);
}

/**
 * Loads the project's one hook as an agent would: `discoverHooks` for HOOK.md (fail-closed from the HOOK.md), or
 * `loadClaudeHooks` (fail-closed for all hooks of the loader). The fault's own change after loading is then applied.
 * `processPool` gives the hook a pool of its own (default: the shared one).
 */
export async function loadFaultHook(project: FaultProject, carrier: Carrier, mode: FailMode, processPool?: ProcessPool): Promise<ProcessHook> {
  const loaded =
    carrier === 'hookmd'
      ? await discoverHooks({
          projectDir: project.dir,
          userDir: false,
          // The fault projects are the test's own.
          trust: 'all',
          killGraceMs: KILL_GRACE_MS,
          checkEntries: project.fault.uncheckedEntry !== true,
          processPool,
        })
      : await loadClaudeHooks({ projectDir: project.dir, homeDir: false, trust: 'all', killGraceMs: KILL_GRACE_MS, failClosed: mode === 'closed', processPool });
  expect(loaded.problems).toEqual([]);
  expect(loaded.hooks).toHaveLength(1);
  const hook = loaded.hooks[0]!;
  expect(hook).toBeInstanceOf(ProcessHook);
  expect((hook as ProcessHook).failClosed).toBe(mode === 'closed');
  await afterLoad(project);
  return hook as ProcessHook;
}

/** The processes of group `pgid` that are still running (zombies waiting to be reaped do not count). */
export async function liveMembers(pgid: number): Promise<number[]> {
  const live: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = await readFile(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') live.push(Number(entry));
  }
  return live;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `kill(target, 0)` fails with ESRCH: the process (or group, for a negative target) is gone. */
async function awaitEsrch(target: number, what: string, waitMs = 5000): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      process.kill(target, 0);
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code, what).toBe('ESRCH');
      return;
    }
    if (Date.now() > deadline) throw new Error(`${what}: still there ${waitMs} ms after the run`);
    await sleep(20);
  }
}

/**
 * Checks that a run left nothing behind: no process of its group is running when the result is back, and the group
 * is gone altogether soon after (`kill(-pid, 0)` fails with ESRCH once the orphans' zombies are reaped by init, which
 * in a container may take a second or two). Likewise for a grandchild pid.
 */
export async function expectNothingLeft(exits: readonly ScriptExit[], grandchildPid?: number): Promise<void> {
  const pids = exits.map((exit) => exit.pid).filter((pid): pid is number => pid !== undefined);
  for (const pid of pids) expect(await liveMembers(pid), `live processes of group ${pid}`).toEqual([]);
  if (grandchildPid !== undefined) expect(await isRunning(grandchildPid), `grandchild ${grandchildPid}`).toBe(false);
  await Promise.all([
    ...pids.map((pid) => awaitEsrch(-pid, `process group ${pid}`)),
    ...(grandchildPid === undefined ? [] : [awaitEsrch(grandchildPid, `grandchild ${grandchildPid}`)]),
  ]);
}

/** The grandchild's pid, as its script wrote it. */
export const grandchildPid = (project: FaultProject): Promise<number> => readPid(project.grandchildPidFile);

/**
 * Runs `body` and fails when a promise is rejected without a handler meanwhile (or just after: a rejection surfaces
 * after the turn of the event loop that dropped it).
 */
export async function withoutUnhandledRejections<T>(body: () => Promise<T>): Promise<T> {
  const rejections: unknown[] = [];
  const listener = (reason: unknown) => rejections.push(reason);
  process.on('unhandledRejection', listener);
  try {
    const result = await body();
    await sleep(20);
    expect(rejections).toEqual([]);
    return result;
  } finally {
    process.off('unhandledRejection', listener);
  }
}

/** One measured case, for the summary printed after the suite. */
export interface Measure {
  /** `stack` or `agent`. */
  readonly driver: string;
  /** The row's id. */
  readonly row: string;
  /** The carrier. */
  readonly carrier: Carrier;
  /** The fail mode. */
  readonly mode: FailMode;
  /** The note code, or `none`. */
  readonly code: string;
  /** What was decided. */
  readonly outcome: string;
  /** Wall time of the faulty dispatch (or run), in ms. */
  readonly ms: number;
}

/** Prints the measures as a table. */
export function printMeasures(measures: readonly Measure[]): void {
  if (measures.length === 0) return;
  const lines = measures.map((m) => `${m.driver.padEnd(5)} ${m.row.padEnd(24)} ${m.carrier.padEnd(6)} ${m.mode.padEnd(6)} ${m.code.padEnd(15)} ${m.outcome.padEnd(8)} ${m.ms.toFixed(0).padStart(5)} ms`);
  console.log(['fault matrix (driver, fault, carrier, mode, note, outcome, duration)', ...lines].join('\n'));
}
