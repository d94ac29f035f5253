/**
 * The shape of a subcommand, and the error that makes one exit with the usage code.
 *
 * @module
 */
import type { CliIO } from './io.js';

/** The exit codes of every command. */
export const ExitCode = Object.freeze({
  /** Everything went well (a hook that blocks has worked; that is not a failure). */
  ok: 0,
  /** Problems found: a hook definition with an error, a hook process that failed, a folder that would be overwritten. */
  problems: 1,
  /** The command line is wrong: an unknown command, flag or event, a missing or malformed argument. */
  usage: 2,
});

/** One subcommand of `agent-hooks`. */
export interface Command {
  /** The word that selects it. */
  readonly name: string;
  /** Its synopsis, after `agent-hooks `: `list [--project DIR] [--event E] [--json]`. */
  readonly synopsis: string;
  /** One line for the command table. */
  readonly summary: string;
  /** The rest of its help: options and output, shown by `agent-hooks <name> --help`. */
  readonly help: string;
  /** Runs it with the arguments after its name; resolves with the exit code. Throws {@link UsageError} for usage. */
  run(args: readonly string[], io: CliIO): Promise<number>;
  /**
   * The exit code of a usage error (default {@link ExitCode.usage}). The bridge's is 1: the agents that run it read
   * exit 2 as a block, so a mistyped flag in their config would refuse every tool call and never let them stop.
   */
  readonly usageExitCode?: number;
}

/** The command line is wrong: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
