/**
 * `agent-hooks to-prompt`: the `<available_hooks>` block that tells a model which hooks surround it.
 *
 * @module
 */
import { resolve } from 'node:path';
import { availableHooks } from '../../script/hooks-prompt.js';
import { userHooksDir } from '../../script/hook-dirs.js';
import { parseFlags, projectDirOf } from '../args.js';
import { ExitCode, type Command } from '../command.js';
import { hasErrors, printJson, problemJson, problemLines } from '../output.js';

/**
 * `--json` prints `{ hooks, xml, problems }`: `hooks` each `{ name, description, trigger, event, matcher, timeout,
 * async, priority, metadata, location }` (see `HookProperties`), `xml` the block, `problems` as `list` prints them.
 *
 * Exit 1 when a hook definition has an error (it is left out of the block).
 */
export const toPromptCommand: Command = {
  name: 'to-prompt',
  synopsis: 'to-prompt [DIR…] [--project DIR] [--json]',
  summary: 'the <available_hooks> XML block that discloses the hooks to a model',
  help: `Each DIR is a hook folder (or its HOOK.md), or a folder of hook folders, read in the order given. Without one,
the hooks discovery finds: the user's ($XDG_CONFIG_HOME/agents/hooks) and the project's (DIR/.agents/hooks, a
project hook replacing the user's of the same name), highest priority first.

Only the frontmatters are read and nothing runs, so no trust is needed. Each hook gives its name, description,
trigger (as written), location (its HOOK.md) and matcher, every value XML-escaped.

Options:
  --project DIR     the project (default: the current directory), for discovery without DIR
  --json            print { hooks: [{ name, description, trigger, event, matcher, timeout, async, priority,
                    metadata, location }], xml, problems }

Exit 1 when a hook definition has an error; the block then holds the others.`,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { project: { type: 'string' }, json: { type: 'boolean' } });
    const projectDir = projectDirOf(io, values.project);
    const found = await availableHooks({
      dirs: positionals.map((dir) => resolve(io.cwd, dir)),
      discovery: { projectDir, userDir: userHooksDir(io.env), hostEnv: io.env },
    });
    const code = hasErrors(found.problems) ? ExitCode.problems : ExitCode.ok;
    if (values.json) {
      printJson(io, { hooks: found.hooks, xml: found.xml, problems: found.problems.map(problemJson) });
      return code;
    }
    io.out(found.xml);
    const shown = found.problems.filter((p) => p.severity !== 'info');
    if (shown.length > 0) io.err(problemLines(io.style, shown, io.cwd).join('\n'));
    return code;
  },
};
