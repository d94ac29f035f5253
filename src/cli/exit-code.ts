/**
 * How the `agent-hooks` executables end.
 *
 * @module
 * @internal
 */

/**
 * Sets the process's exit code to what `run` resolves with; an error that escaped it is printed, and exits 1.
 *
 * @internal
 */
export function endWith(run: Promise<number>): void {
  run.then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`agent-hooks: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exitCode = 1;
    },
  );
}
