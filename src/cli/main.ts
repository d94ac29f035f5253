/**
 * The `agent-hooks` command line: the command table, the usage, and `main`.
 *
 * Exit codes: 0 success, 1 problems found (a hook definition with an error, a hook that failed), 2 usage error —
 * except `bridge`, which never exits 2 of its own accord (agents read 2 as a block): its usage errors exit 1.
 *
 * @module
 */
import { nodeFs } from '../core/internal/node-fs.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ExitCode, UsageError, type Command } from './command.js';
import { cliIO, type CliIO } from './io.js';
import { humanIO } from './terminal-text.js';

const { existsSync, readFileSync } = nodeFs;

/**
 * Every subcommand, in the order the usage lists them, each loaded only when it is run: an agent starts the bridge
 * once per hook call, and it must not pay for the modules of the other commands (the agent runtime, validation's
 * schemas, the YAML parser).
 */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  list: async () => (await import('./commands/list.js')).listCommand,
  validate: async () => (await import('./commands/validate.js')).validateCommand,
  test: async () => (await import('./commands/test.js')).testCommand,
  run: async () => (await import('./commands/run.js')).runCommand,
  bridge: async () => (await import('./commands/bridge.js')).bridgeCommand,
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  trust: async () => (await import('./commands/trust.js')).trustCommand,
  init: async () => (await import('./commands/init.js')).initCommand,
  events: async () => (await import('./commands/events.js')).eventsCommand,
  'to-prompt': async () => (await import('./commands/to-prompt.js')).toPromptCommand,
  'read-properties': async () => (await import('./commands/read-properties.js')).readPropertiesCommand,
};

const allCommands = (): Promise<Command[]> => Promise.all(Object.values(COMMANDS).map((load) => load()));

const usage = async (): Promise<string> => {
  const commands = await allCommands();
  const width = Math.max(...commands.map((c) => c.name.length));
  return `Usage: agent-hooks <command> [options]

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Options:
  -h, --help     show this help, or a command's (agent-hooks <command> --help)
  -v, --version  show the version
  --trust-all    run the project's hooks without checking the trust store (for CI; also AGENT_HOOKS_TRUST=all)

A project's own hooks run once trusted: review and trust them with 'agent-hooks trust'.
Listing and result commands take --json. Exit codes: 0 success, 1 problems found (a hook definition with an
error, a hook that failed), 2 usage error.`;
};

/** What an unknown command gets: the nearest commands when some are near, as git and npm say it; else the usage. */
const unknownCommand = async (name: string): Promise<string> => {
  const { nearestCommands } = await import('./nearest-commands.js');
  const near = nearestCommands(name, await allCommands());
  if (near.length === 0) return `agent-hooks: unknown command '${name}'\n\n${await usage()}`;
  const width = Math.max(...near.map((c) => c.name.length));
  const lines = near.map((c) => `  agent-hooks ${c.name.padEnd(width)}  ${c.summary}`);
  return `agent-hooks: unknown command '${name}'. Did you mean ${near.length === 1 ? 'this' : 'one of these'}?\n${lines.join('\n')}\n\nRun 'agent-hooks --help' for every command.`;
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
      io.err(await usage());
      return ExitCode.usage;
    }
    const topic = rest[0] === undefined || !Object.hasOwn(COMMANDS, rest[0]) ? undefined : await COMMANDS[rest[0]]!();
    io.out(topic === undefined ? await usage() : commandHelp(topic));
    return ExitCode.ok;
  }
  if (name === '-v' || name === '--version') {
    io.out(version());
    return ExitCode.ok;
  }
  if (!Object.hasOwn(COMMANDS, name)) {
    io.err(await unknownCommand(name));
    return ExitCode.usage;
  }
  const command = await COMMANDS[name]!();
  const { HelpRequested } = await import('./args.js');
  try {
    // Every command but the bridge prints for a person: control characters from hook files are shown, not obeyed.
    // The bridge's stdout and stderr are its answer to the agent, and stay as they are.
    return await command.run(rest, command.name === 'bridge' ? io : humanIO(io));
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
