/**
 * The `agent-hooks` command line. For now it answers `--version`, `--help` and `events`: the canonical events with every
 * dialect's name for each.
 *
 * Exit codes: 0 success, 2 usage error.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVENT_DIALECTS, HookEvent } from '../core/index.js';

const USAGE = `Usage: agent-hooks <command> [options]

Commands:
  events [--json]   list the lifecycle events, each dialect's name for them, and what their hooks may decide

Options:
  -h, --help        show this help
  -v, --version     show the version

Exit codes: 0 success, 2 usage error.`;

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

const ALIAS_DIALECTS = EVENT_DIALECTS.filter((d) => d !== 'canonical');

function events(json: boolean): string {
  const rows = HookEvent.all.map((event) => {
    const info = HookEvent.info(event);
    const names = Object.fromEntries(EVENT_DIALECTS.map((d) => [d, HookEvent.toDialect(event, d) ?? null]));
    return { event, family: info.family, canBlock: info.canBlock, canStop: info.canStop, canAsk: info.canAsk, names };
  });
  if (json) return JSON.stringify(rows, null, 2);
  const header = ['event', 'block', 'stop', 'ask', ...ALIAS_DIALECTS];
  const table = rows.map((r) => [
    r.event,
    r.canBlock ? 'yes' : '-',
    r.canStop ? 'yes' : '-',
    r.canAsk ? 'yes' : '-',
    ...ALIAS_DIALECTS.map((d) => r.names[d] ?? '-'),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(header), ...table.map(line)].join('\n');
}

/** Runs the command line `argv` (without `node` and the script) and returns the exit code. */
export function main(argv: readonly string[], out: (text: string) => void = console.log, err: (text: string) => void = console.error): number {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    out(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === '-v' || command === '--version') {
    out(version());
    return 0;
  }
  if (command === 'events') {
    const unknown = rest.filter((a) => a !== '--json');
    if (unknown.length > 0) {
      err(`agent-hooks events: unknown option ${unknown[0]}\n\n${USAGE}`);
      return 2;
    }
    out(events(rest.includes('--json')));
    return 0;
  }
  err(`agent-hooks: unknown command '${command}'\n\n${USAGE}`);
  return 2;
}
