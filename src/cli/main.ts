/**
 * The `agent-hooks` command line: the command table, the usage, and `main`.
 *
 * Exit codes: 0 success, 1 problems found (a hook definition with an error, a hook that failed), 2 usage error —
 * except `bridge`, which never exits 2 of its own accord (agents read 2 as a block): its usage errors exit 1.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HelpRequested } from './args.js';
import { ExitCode, UsageError, type Command } from './command.js';
import { eventsCommand } from './commands/events.js';
import { initCommand } from './commands/init.js';
import { bridgeCommand } from './commands/bridge.js';
import { listCommand } from './commands/list.js';
import { runCommand } from './commands/run.js';
import { testCommand } from './commands/test.js';
import { trustCommand } from './commands/trust.js';
import { validateCommand } from './commands/validate.js';
import { cliIO, type CliIO } from './io.js';

/** Every subcommand, in the order the usage lists them. */
const COMMANDS: readonly Command[] = [listCommand, validateCommand, testCommand, runCommand, bridgeCommand, trustCommand, initCommand, eventsCommand];

const usage = (): string => {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `Usage: agent-hooks <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Options:
  -h, --help     show this help, or a command's (agent-hooks <command> --help)
  -v, --version  show the version
  --trust-all    run the project's hooks without checking the trust store (for CI; also AGENT_HOOKS_TRUST=all)

A project's own hooks run once trusted: review and trust them with 'agent-hooks trust'.
Listing and result commands take --json. Exit codes: 0 success, 1 problems found (a hook definition with an
error, a hook that failed), 2 usage error.`;
};

const commandHelp = (c: Command): string => `Usage: agent-hooks ${c.synopsis}\n\n${c.summary[0]!.toUpperCase()}${c.summary.slice(1)}.\n\n${c.help}`;

/** The package's version, from the nearest package.json named agent-hooks above this file. */
function version(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'agent-hooks' && pkg.version) return pkg.version;
    }
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

/**
 * Runs the command line `argv` (without `node` and the script) and resolves with the exit code. `io` is this
 * process's streams, directory and environment unless given (tests pass their own).
 */
export async function main(argv: readonly string[], io: CliIO = cliIO()): Promise<number> {
  // `--trust-all` before the command applies to whichever command it is, as AGENT_HOOKS_TRUST=all would.
  if (argv[0] === '--trust-all') return main(argv.slice(1), { ...io, env: { ...io.env, AGENT_HOOKS_TRUST: 'all' } });
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    if (name === undefined) {
      io.err(usage());
      return ExitCode.usage;
    }
    const topic = rest[0] === undefined ? undefined : COMMANDS.find((c) => c.name === rest[0]);
    io.out(topic === undefined ? usage() : commandHelp(topic));
    return ExitCode.ok;
  }
  if (name === '-v' || name === '--version') {
    io.out(version());
    return ExitCode.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (command === undefined) {
    io.err(`agent-hooks: unknown command '${name}'\n\n${usage()}`);
    return ExitCode.usage;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof HelpRequested) {
      io.out(commandHelp(command));
      return ExitCode.ok;
    }
    if (error instanceof UsageError) {
      io.err(`agent-hooks ${command.name}: ${error.message}\n\nUsage: agent-hooks ${command.synopsis}\nRun 'agent-hooks ${command.name} --help' for more.`);
      return command.usageExitCode ?? ExitCode.usage;
    }
    throw error;
  }
}
