/**
 * `agent-hooks events`: the canonical events, each dialect's name for them, and what their hooks may decide.
 *
 * @module
 */
import { EVENT_DIALECTS, HookEvent } from '../../core/index.js';
import { parseFlags, positionalsUpTo } from '../args.js';
import { ExitCode, type Command } from '../command.js';
import { printJson, table } from '../output.js';

const ALIAS_DIALECTS = EVENT_DIALECTS.filter((d) => d !== 'canonical');

/**
 * `--json` prints an array, one object per event in lifecycle order:
 * `{ event, family, canBlock, canStop, canAsk, names: { canonical, php, 'php-value', hookmd, 'hookmd-legacy', claude, copilot, gemini, cursor, codex } }`,
 * each name `null` where that dialect lacks the event.
 */
export const eventsCommand: Command = {
  name: 'events',
  synopsis: 'events [--json]',
  summary: 'the lifecycle events, each dialect’s name for them, and what their hooks may decide',
  help: 'Options:\n  --json   print an array of { event, family, canBlock, canStop, canAsk, names }',
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { json: { type: 'boolean' } });
    positionalsUpTo(positionals, 0);
    const rows = HookEvent.all.map((event) => {
      const info = HookEvent.info(event);
      const names = Object.fromEntries(EVENT_DIALECTS.map((d) => [d, HookEvent.toDialect(event, d) ?? null]));
      return { event, family: info.family, canBlock: info.canBlock, canStop: info.canStop, canAsk: info.canAsk, names };
    });
    if (values.json) {
      printJson(io, rows);
      return ExitCode.ok;
    }
    const yes = (flag: boolean) => (flag ? 'yes' : '-');
    io.out(
      table(
        io.style,
        ['event', 'block', 'stop', 'ask', ...ALIAS_DIALECTS],
        rows.map((r) => [r.event, yes(r.canBlock), yes(r.canStop), yes(r.canAsk), ...ALIAS_DIALECTS.map((d) => r.names[d] ?? '-')]),
      ),
    );
    return ExitCode.ok;
  },
};
