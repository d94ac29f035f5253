/**
 * `agent-hooks list`: every hook a project would run, in the order its stack runs them, and what is wrong with the
 * definitions that did not load.
 *
 * @module
 */
import { parseEvent, parseFlags, positionalsUpTo, projectDirOf, PROJECT_FLAGS } from '../args.js';
import { ExitCode, type Command } from '../command.js';
import { loadProjectHooks, type HookRow } from '../hook-sources.js';
import { displayPath, hasErrors, printJson, problemCounts, problemJson, problemLines, table } from '../output.js';

/**
 * `--json` prints `{ hooks, problems }`:
 * - `hooks`: in run order, each `{ name, events, priority, kind, source, matcher, async, timeoutMs, file }` (see
 *   {@link HookRow});
 * - `problems`: each `{ severity, code, file, line, hookName, field, found, allowed, message }`.
 *
 * Exit 1 when a problem is an error (that hook did not load).
 */
export const listCommand: Command = {
  name: 'list',
  synopsis: 'list [--project DIR] [--event E] [--hooks-dir DIR]… [--json]',
  summary: 'every hook the project would run, in the order they run, and the problems of those that did not load',
  help: `Options:
  --project DIR     the project (default: the current directory); its hooks are in DIR/.agents/hooks
  --event E         only the hooks that run for event E (any dialect's name)
  --hooks-dir DIR   another folder of HOOK.md hook folders, relative to the project (repeatable)
  --json            print { hooks: [{ name, events, priority, kind, source, matcher, async, timeoutMs, file }],
                    problems: [{ severity, code, file, line, hookName, field, found, allowed, message }] }

User hooks are read from $XDG_CONFIG_HOME/agents/hooks (default ~/.config/agents/hooks).
Exit 1 when a hook definition has an error.`,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { ...PROJECT_FLAGS, event: { type: 'string' }, json: { type: 'boolean' } });
    positionalsUpTo(positionals, 0);
    const event = values.event === undefined ? undefined : parseEvent(values.event);
    const projectDir = projectDirOf(io, values.project);
    const project = await loadProjectHooks({ projectDir, hooksDirs: values['hooks-dir'] ?? [], env: io.env });
    const entries = event === undefined ? project.stack.all() : project.stack.hooksFor(event);
    const rows = entries.map((entry) => project.rows.get(entry.hook)!);
    const code = hasErrors(project.problems) ? ExitCode.problems : ExitCode.ok;

    if (values.json) {
      printJson(io, { hooks: rows, problems: project.problems.map(problemJson) });
      return code;
    }
    const s = io.style;
    if (rows.length === 0) {
      io.out(s.dim(event === undefined ? `No hooks in ${projectDir}.` : `No hooks run for ${event} in ${projectDir}.`));
    } else {
      const cells = rows.map((r: HookRow) => [
        String(r.priority),
        { text: r.name, paint: s.bold },
        r.events.length === 0 ? '*' : r.events.join(','),
        [r.kind, r.source].filter((p) => p !== null).join(' '),
        r.matcher ?? '*',
        r.async ? 'async' : 'sync',
        r.timeoutMs === null ? '-' : `${r.timeoutMs} ms`,
        r.file === null ? '' : { text: displayPath(r.file, io.cwd), paint: s.dim },
      ]);
      io.out(table(s, ['priority', 'name', 'event', 'source', 'matcher', 'mode', 'timeout', 'file'], cells));
    }
    if (project.problems.length > 0) {
      io.out(`\n${s.bold('Problems')} (${problemCounts(project.problems)})`);
      io.out(problemLines(s, project.problems, io.cwd).join('\n'));
    }
    return code;
  },
};
