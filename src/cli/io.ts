/**
 * What a command may touch of the outside world, so that `main` runs the same in the executable and in a test.
 *
 * @module
 */
import { fsPromises } from '../core/internal/node-fs.js';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import pc from 'picocolors';

/** The colour functions commands use (picocolors'); all identity functions when colour is off. */
export type Style = ReturnType<typeof pc.createColors>;

/** The world a command runs in. */
export interface CliIO {
  /** Writes one line (or several) to standard output. */
  readonly out: (text: string) => void;
  /** Writes one line (or several) to standard error. */
  readonly err: (text: string) => void;
  /** Reads the whole of standard input (for `--input -`). */
  readonly readStdin: () => Promise<string>;
  /** The directory relative paths are resolved against. */
  readonly cwd: string;
  /**
   * The environment the command line reads its settings from: where the user's hooks, config files and trust store
   * are, `AGENT_HOOKS_TRUST`, colours. Hook processes inherit this process's own environment, not this one.
   */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Colours for standard output. */
  readonly style: Style;
  /** Whether standard input is a terminal, where a person can answer a question (absent: it is not). */
  readonly interactive?: boolean | undefined;
  /** Asks a question on the terminal and resolves with the answer (used only when `interactive`). */
  readonly ask?: ((question: string) => Promise<string>) | undefined;
  /**
   * Resolves once everything written to standard output and error so far has been handed to the system (absent:
   * nothing is buffered). The bridge calls it after its answer, before it waits for anything else.
   */
  readonly flush?: (() => Promise<void>) | undefined;
  /**
   * Called once by a bridged call, when its hooks are loaded and the first of them may run (absent: nothing to do).
   * The bridged call's own process turns its file reads back to asynchronous here (see `process/file-reads.ts`):
   * from now on a hook process of ours may be running, and a read that blocked would hold the timers and the signal
   * handlers that end that process with the call.
   */
  readonly hooksStarting?: (() => void) | undefined;
}

/**
 * Whether to colour standard output: when it is a terminal, unless `NO_COLOR` is set to anything but the empty
 * string (no-color.org); `FORCE_COLOR` turns colour on even through a pipe, unless it is `0` or `false`.
 * picocolors' own default also colours piped output whenever `CI` is set, which would put escape codes into every
 * log and file a CI job writes, so it is not used.
 */
export function colorEnabled(env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  return isTTY;
}

/** A {@link CliIO} with what is not given taken from this process (colour off unless `color` says otherwise). */
export function cliIO(partial: Partial<Omit<CliIO, 'style'>> & { color?: boolean } = {}): CliIO {
  return {
    out: partial.out ?? ((text) => console.log(text)),
    err: partial.err ?? ((text) => console.error(text)),
    readStdin: partial.readStdin ?? readProcessStdin,
    cwd: partial.cwd ?? process.cwd(),
    env: partial.env ?? process.env,
    style: pc.createColors(partial.color ?? false),
    interactive: partial.interactive ?? process.stdin.isTTY === true,
    ask: partial.ask ?? askOnTerminal,
    flush: partial.flush ?? flushStdio,
  };
}

// A write's callback runs once the writes before it are done, so an empty one marks the end of what was written.
async function flushStdio(): Promise<void> {
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write('', () => resolve()))));
}

async function askOnTerminal(question: string): Promise<string> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await terminal.question(question);
  } finally {
    terminal.close();
  }
}

async function readProcessStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads `--input`: a file (relative to `io.cwd`), or standard input for `-`. */
export function readInput(io: CliIO, path: string): Promise<string> {
  return path === '-' ? io.readStdin() : fsPromises().readFile(resolve(io.cwd, path), 'utf8');
}
