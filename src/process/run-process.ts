/**
 * Runs one hook process: argv in, stdin written, output captured within bounds, killed with its whole process group
 * on timeout, overflow or abort.
 *
 * @module
 */
import { isUtf8 } from 'node:buffer';
import type { ChildProcess } from 'node:child_process';
import { nodeFs } from '../core/internal/node-fs.js';
import { resolve as resolvePath } from 'node:path';
import { messageOf } from '../core/internal/message-of.js';
import type { OutputStream, ProcessResult, SpawnFailure } from '../dialects/process-result.js';
import { childProcess } from './internal/node-child-process.js';
import { groupAlive, signalGroup } from './internal/process-group.js';
import { killTagged, newProcessTag, PROCESS_TAG_VARIABLE } from './internal/process-tag.js';
import { orphanWatchDelay, trackGroup, watchForOrphan } from './live-groups.js';
import { takeRecordedRun } from './recorded-run.js';

const { existsSync } = nodeFs;

export type { OutputStream, ProcessResult, SpawnFailure } from '../dialects/process-result.js';

/** The default cap on each of stdout and stderr: 1 MiB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/** The default time between SIGTERM and SIGKILL: enough for a script to clean up, short enough not to stall a run. */
export const DEFAULT_KILL_GRACE_MS = 2000;

// Once the child has exited, output still in the pipe arrives within milliseconds; a longer wait means some
// grandchild kept the pipe open, and it must not hold the result hostage. The wait ends only after the loop has read
// the pipes once more (see `finishOncePolled`): what the child wrote before it exited is always kept.
const DRAIN_MS = 200;
// After SIGKILL the kernel needs a moment before the processes are gone; beyond this, stop waiting for them.
const REAP_MS = 500;
// How often a killed group is checked for survivors.
const POLL_MS = 20;
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * What to run and within which bounds.
 *
 * @internal
 */
export interface ProcessSpec {
  /** The program and its arguments (argv). Never a shell string: nothing here is parsed by a shell. */
  readonly command: readonly string[];
  /** The working directory; the current one when absent. */
  readonly cwd?: string | undefined;
  /** The whole environment of the process; the parent's when absent. */
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** Written to the process's stdin, which is then closed. */
  readonly stdin?: string | undefined;
  /** Milliseconds before the process group is killed; `Infinity` for never. */
  readonly timeoutMs: number;
  /** The cap on each of stdout and stderr, in bytes (default {@link DEFAULT_MAX_OUTPUT_BYTES}). */
  readonly maxOutputBytes?: number | undefined;
  /** Milliseconds between SIGTERM and SIGKILL (default {@link DEFAULT_KILL_GRACE_MS}). */
  readonly killGraceMs?: number | undefined;
  /** Kills the process group when aborted; a signal aborted beforehand means nothing is spawned. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Runs a command and resolves with how it ended. Never rejects and never throws: every failure (a missing program, a
 * timeout, a flood of output, an abort) is a field of the result.
 *
 * The process leads its own process group, and every kill goes to the whole group, so the grandchildren a script
 * starts die with it: SIGTERM first, SIGKILL after `killGraceMs`. After a kill, the result waits until no process of
 * the group is left (at most the grace period plus half a second); after a normal exit it does not wait for
 * processes the script left in the background, nor for a pipe they keep open.
 *
 * The process also gets `AGENT_HOOKS_PROCESS_TAG`, a random id of this run, in its environment. On Linux a kill then
 * looks in `/proc` for the processes of this user that carry it and sends them SIGKILL: a descendant that left the
 * group (`setsid`, a detached child) dies too, unless it cleared its environment. The look costs one read per process
 * on the machine and happens only on a kill, never after a normal exit.
 *
 * ```ts
 * const result = await runProcess({ command: ['./scripts/run'], stdin: JSON.stringify(payload), timeoutMs: 30_000 });
 * if (result.exitCode === 2) console.log(result.stderr);
 * ```
 *
 * @internal
 */
export function runProcess(spec: ProcessSpec): Promise<ProcessResult> {
  // The run the bridge's first stage made already, of this very argv in this very directory: it is not made twice.
  const recorded = spec.signal?.aborted === true ? undefined : takeRecordedRun(spec.command, spec.cwd ?? process.cwd());
  if (recorded !== undefined) return Promise.resolve(recorded);
  return new Promise((resolve) => new ProcessRun(spec, resolve).start());
}

/** One output stream's bytes, kept up to the cap. */
class Capture {
  private readonly chunks: Buffer[] = [];
  private length = 0;

  constructor(private readonly cap: number) {}

  /** Keeps what fits; false once the cap is passed. */
  push(chunk: Buffer): boolean {
    const room = this.cap - this.length;
    if (chunk.length <= room) {
      this.chunks.push(chunk);
      this.length += chunk.length;
      return true;
    }
    if (room > 0) {
      this.chunks.push(chunk.subarray(0, room));
      this.length = this.cap;
    }
    return false;
  }

  text(): string {
    return this.bytes().toString('utf8');
  }

  /** Whether the bytes kept are valid UTF-8 (a character cut at the cap does not count against them). */
  utf8(): boolean {
    const bytes = this.bytes();
    if (isUtf8(bytes)) return true;
    // Up to three bytes of one character may be missing at the cap.
    if (this.length < this.cap) return false;
    for (let cut = 1; cut <= 3 && cut < bytes.length; cut++) if (isUtf8(bytes.subarray(0, bytes.length - cut))) return true;
    return false;
  }

  private bytes(): Buffer {
    return Buffer.concat(this.chunks, this.length);
  }
}

const ignore = (): void => {};

/** The `notUtf8` field of a result: the streams whose bytes are not UTF-8, or nothing when both are. */
function notUtf8(stdout: Capture, stderr: Capture): { notUtf8?: OutputStream[] } {
  const streams: OutputStream[] = [];
  if (!stdout.utf8()) streams.push('stdout');
  if (!stderr.utf8()) streams.push('stderr');
  return streams.length === 0 ? {} : { notUtf8: streams };
}

class ProcessRun {
  // process.hrtime rather than the global performance, whose first use loads ten of Node's own modules: a bridged
  // call pays that on every hook call.
  private readonly started = process.hrtime.bigint();
  private readonly stdout: Capture;
  private readonly stderr: Capture;
  private readonly grace: number;
  private child: ChildProcess | undefined;
  private exitCode: number | null = null;
  private exitSignal: string | null = null;
  private exited = false;
  private closed = false;
  private timedOut = false;
  private aborted = false;
  private overflow: OutputStream | undefined;
  /** Set once the group has been sent SIGTERM: the result then waits for the whole group. */
  private killing = false;
  private groupGone = false;
  private done = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private timeoutTimer: NodeJS.Timeout | undefined;
  private untrack: (() => void) | undefined;
  /** This run's value of `AGENT_HOOKS_PROCESS_TAG`, which every descendant inherits. */
  private readonly tag = newProcessTag();

  constructor(
    private readonly spec: ProcessSpec,
    private readonly resolve: (result: ProcessResult) => void,
  ) {
    const cap = spec.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    this.stdout = new Capture(cap);
    this.stderr = new Capture(cap);
    this.grace = spec.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  }

  start(): void {
    const [file, ...args] = this.spec.command;
    if (file === undefined || file === '') {
      this.finish({ code: 'EINVAL', message: 'there is no command to run (the command list is empty)' });
      return;
    }
    if (this.spec.signal?.aborted) {
      this.aborted = true;
      this.finish();
      return;
    }
    let child: ChildProcess;
    try {
      child = childProcess().spawn(file, args, {
        cwd: this.spec.cwd,
        env: { ...(this.spec.env ?? process.env), [PROCESS_TAG_VARIABLE]: this.tag },
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (error) {
      this.finish(spawnFailure(error, this.spec));
      return;
    }
    this.child = child;
    const pid = child.pid;
    if (pid !== undefined) {
      this.untrack = trackGroup(pid, (signal) => child.kill(signal), this.tag);
      const watchAfter = orphanWatchDelay();
      if (watchAfter !== undefined) {
        this.after(watchAfter, () => {
          if (!this.exited) watchForOrphan(pid, this.tag);
        });
      }
    }
    // A child that started can also emit 'error' (a failed kill); only a failed start ends the run here.
    child.on('error', (error) => {
      if (child.pid === undefined) this.finish(spawnFailure(error, this.spec));
    });
    child.on('exit', (code, signal) => this.onExit(code, signal));
    child.on('close', () => {
      this.closed = true;
      if (this.exited && (!this.killing || this.groupGone)) this.finish();
    });
    child.stdout!.on('data', (chunk: Buffer) => this.collect(this.stdout, 'stdout', chunk));
    child.stderr!.on('data', (chunk: Buffer) => this.collect(this.stderr, 'stderr', chunk));
    child.stdout!.on('error', ignore);
    child.stderr!.on('error', ignore);
    // A script that never reads its stdin makes this write fail with EPIPE once it exits: that is its right.
    child.stdin!.on('error', ignore);
    child.stdin!.end(this.spec.stdin ?? '');

    // setTimeout fires at once for delays past 2^31-1 ms: an "infinite" timeout must mean no timer, not no time.
    if (this.spec.timeoutMs <= MAX_TIMER_MS) {
      this.timeoutTimer = this.after(Math.max(0, this.spec.timeoutMs), () => {
        this.timedOut = true;
        this.kill();
      });
    }
    this.spec.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  private readonly onAbort = (): void => {
    if (this.exited || this.done) return;
    this.aborted = true;
    this.kill();
  };

  private after(ms: number, fn: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
    return timer;
  }

  private collect(capture: Capture, stream: OutputStream, chunk: Buffer): void {
    if (this.done || capture.push(chunk)) return;
    this.overflow ??= stream;
    // Closing our end makes a writer that ignores SIGTERM fail on its next write.
    this.child?.[stream]?.destroy();
    this.kill();
  }

  private kill(): void {
    const child = this.child;
    // Once the child has exited and nothing was killed, its pid may be reused: never signal it then.
    if (this.killing || this.exited || this.done || child?.pid === undefined) return;
    this.killing = true;
    // One cause per kill: a timeout must not be reported for a process already killed for its output.
    if (this.timeoutTimer !== undefined) {
      clearTimeout(this.timeoutTimer);
      this.timers.delete(this.timeoutTimer);
    }
    const pid = child.pid;
    signalGroup(pid, 'SIGTERM', () => child.kill('SIGTERM'));
    // Those that left the group get no grace: they are out of reach of the group's SIGKILL too.
    void killTagged([this.tag], [pid]);
    this.after(this.grace, () => {
      signalGroup(pid, 'SIGKILL', () => child.kill('SIGKILL'));
      this.after(REAP_MS, () => this.finish());
    });
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.exited = true;
    this.exitCode = code;
    this.exitSignal = signal;
    if (!this.killing) {
      this.clearTimers();
      this.after(DRAIN_MS, () => this.finishOncePolled());
      return;
    }
    void this.awaitGroup(this.child!.pid!);
  }

  /** After a kill: wait until no process of the group is left (the SIGKILL timer keeps running meanwhile). */
  private async awaitGroup(pid: number): Promise<void> {
    try {
      while (!this.done && (await groupAlive(pid))) await new Promise((r) => setTimeout(r, POLL_MS));
    } catch {
      // Looking for survivors is best effort; the SIGKILL timer still bounds the wait.
    }
    if (this.done) return;
    this.groupGone = true;
    this.clearTimers();
    if (this.closed) this.finish();
    else this.after(DRAIN_MS, () => this.finishOncePolled());
  }

  /**
   * Finishes once the event loop has read the pipes again (`setImmediate` runs after its next poll). Node learns of
   * exits by reaping every child that has exited, so a child that wrote and exited while the loop was busy can be
   * reaped before its output is read; on a loaded machine the loop can then stay busy past DRAIN_MS, and a drain timer
   * runs before the loop's next read: the output the child wrote before it exited — a guard's decision — was dropped,
   * and the hook read as one that said nothing.
   */
  private finishOncePolled(): void {
    setImmediate(() => this.finish());
  }

  private clearTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private finish(spawnError?: SpawnFailure): void {
    if (this.done) return;
    this.done = true;
    this.clearTimers();
    this.untrack?.();
    this.spec.signal?.removeEventListener('abort', this.onAbort);
    const child = this.child;
    if (child !== undefined) {
      // A grandchild may hold the pipes open; our ends must not keep this process busy.
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.stdin?.destroy();
    }
    const result: ProcessResult = {
      exitCode: this.exitCode,
      signal: this.exitSignal,
      stdout: this.stdout.text(),
      stderr: this.stderr.text(),
      ...notUtf8(this.stdout, this.stderr),
      timedOut: this.timedOut,
      aborted: this.aborted,
      overflow: this.overflow,
      ...(spawnError !== undefined ? { spawnError } : {}),
      durationMs: Number(process.hrtime.bigint() - this.started) / 1e6,
      pid: child?.pid,
    };
    // After a kill, whatever still carries the tag left the group (before or during the grace period): it goes too,
    // before the result says the hook is done.
    if (this.killing) void killTagged([this.tag]).finally(() => this.resolve(result));
    else this.resolve(result);
  }
}

/** Says why a spawn failed in terms of what to fix: the file, its interpreter, its mode, or the directory. */
function spawnFailure(error: unknown, spec: ProcessSpec): SpawnFailure {
  const code = typeof (error as NodeJS.ErrnoException)?.code === 'string' ? (error as NodeJS.ErrnoException).code! : 'UNKNOWN';
  const file = spec.command[0] ?? '';
  const path = resolvePath(spec.cwd ?? process.cwd(), file);
  const hasSlash = file.includes('/') || file.includes('\\');
  let message: string;
  if (code === 'ENOENT') {
    if (spec.cwd !== undefined && !existsSync(spec.cwd)) message = `the working directory ${spec.cwd} does not exist`;
    else if (hasSlash && existsSync(path)) message = `${file} exists, but the interpreter on its #! line was not found`;
    else message = hasSlash ? `${file} was not found` : `${file} was not found on the PATH`;
  } else if (code === 'EACCES') {
    message = `${file} is not executable (run chmod +x on it), or a directory on its path cannot be searched`;
  } else {
    message = `${file} could not be started: ${messageOf(error)}`;
  }
  return { code, message };
}
