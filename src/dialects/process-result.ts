/**
 * How a hook process ended and what it wrote: what every dialect reads an answer from. The runner that produces it
 * lives in `script/`; the shape lives here, below it, so that dialects need nothing above the kernel.
 *
 * @module
 */

/** Why a process could not be started at all (as opposed to starting and failing). */
export interface SpawnFailure {
  /** The system error code: `ENOENT` (no such file, or no such interpreter), `EACCES` (not executable), … */
  readonly code: string;
  /** What went wrong and what to check, naming the command. */
  readonly message: string;
}

/** One of the captured output streams. */
export type OutputStream = 'stdout' | 'stderr';

/** How a process ended and what it wrote. */
export interface ProcessResult {
  /** The exit code; `null` when the process was killed by a signal or never started. */
  readonly exitCode: number | null;
  /** The signal that ended the process (`SIGTERM`, `SIGKILL`, …), or `null`. */
  readonly signal: string | null;
  /** Standard output, decoded as UTF-8 (invalid bytes become U+FFFD), cut at the cap. */
  readonly stdout: string;
  /** Standard error, decoded and capped like stdout. */
  readonly stderr: string;
  /**
   * The streams whose bytes were not valid UTF-8 (their text holds U+FFFD where the bad bytes were), when any were.
   * Absent when both were valid, or the runner did not check.
   */
  readonly notUtf8?: readonly OutputStream[] | undefined;
  /** Whether the process group was killed because the timeout passed. */
  readonly timedOut: boolean;
  /** Whether the process group was killed (or never spawned) because the abort signal fired. */
  readonly aborted: boolean;
  /** The stream that passed the cap, when one did: the process group was killed for it. */
  readonly overflow: OutputStream | undefined;
  /**
   * Set when the process could not be started. Distinct from exit code 127, which is a shell (or `env`) that did
   * start and then found no command or interpreter to run.
   */
  readonly spawnError?: SpawnFailure | undefined;
  /** From the spawn to the result, in milliseconds. */
  readonly durationMs: number;
  /** The process id (also its process group id), when it started. */
  readonly pid: number | undefined;
}
