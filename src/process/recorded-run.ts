/**
 * A hook process that has run already, in this process, for the runner to take in place of the one it would start:
 * the bridge's first stage runs the one hook a call can run on, and when that hook's answer is more than "go on" it
 * hands the run to the full path, which reads it as it reads every run — it must not start the hook a second time.
 *
 * @module
 * @internal
 */
import type { ProcessResult } from '../dialects/process-result.js';

/**
 * One run made already: the argv and working directory it was started with, and how it ended.
 *
 * @internal
 */
export interface RecordedRun {
  /** The argv it was started with. */
  readonly command: readonly string[];
  /** The working directory it was started in. */
  readonly cwd: string;
  /** How it ended. */
  readonly result: ProcessResult;
}

let waiting: RecordedRun | undefined;

/**
 * Makes `run` the result of the next {@link takeRecordedRun} with its argv and working directory, once; `undefined`
 * forgets the one waiting.
 *
 * @internal
 */
export function useRecordedRun(run: RecordedRun | undefined): void {
  waiting = run;
}

/**
 * How the run waiting for `command` in `cwd` ended, taken (a second call finds none); `undefined` when no run of that
 * argv in that directory is waiting.
 *
 * @internal
 */
export function takeRecordedRun(command: readonly string[], cwd: string): ProcessResult | undefined {
  const run = waiting;
  if (run === undefined || run.cwd !== cwd || run.command.length !== command.length || run.command.some((arg, i) => arg !== command[i])) return undefined;
  waiting = undefined;
  return run.result;
}

/**
 * The run still waiting, not taken by any runner: a hook the first stage ran and the full path did not run again.
 *
 * @internal
 */
export function recordedRunLeft(): RecordedRun | undefined {
  return waiting;
}
