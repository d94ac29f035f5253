/**
 * `agent-hooks read-properties`: one hook's parsed values, defaults filled in, as JSON.
 *
 * @module
 */
import { nodeFs } from '../../core/internal/node-fs.js';
import { resolve } from 'node:path';
import { readHookProperties } from '../../script/hook-properties.js';
import { parseFlags, positionalsUpTo } from '../args.js';
import { ExitCode, UsageError, type Command } from '../command.js';
import { hasErrors, printJson, problemJson, problemLines } from '../output.js';

const { existsSync } = nodeFs;

/**
 * Prints `{ name, description, trigger, event, matcher?, timeout, async, priority, metadata, location }` (see
 * `HookProperties`); with `--json`, `{ properties, problems }`, `properties` being `null` when the hook cannot load.
 *
 * Exit 1 when the definition has an error.
 */
export const readPropertiesCommand: Command = {
  name: 'read-properties',
  synopsis: 'read-properties PATH [--json]',
  summary: "one hook's frontmatter values, defaults filled in, as JSON",
  help: `PATH is a hook folder or its HOOK.md. The values are those the hook runs with: name (NFKC-normalised,
trimmed), description, trigger as written and the canonical event it names, matcher, timeout (default 30000),
async (default false), priority (default 100), metadata (default {}) and location (the HOOK.md).

Options:
  --json            print { properties, problems }: the values (null when the hook cannot load) and every
                    problem, warnings included

Problems go to stderr; exit 1 when the definition has an error.`,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { json: { type: 'boolean' } });
    const [path] = positionalsUpTo(positionals, 1);
    if (path === undefined) throw new UsageError('name the hook: agent-hooks read-properties <hook folder|HOOK.md>');
    const full = resolve(io.cwd, path);
    if (!existsSync(full)) throw new UsageError(`no hook folder at ${path}`);
    const { properties, problems } = await readHookProperties(full);
    const code = hasErrors(problems) ? ExitCode.problems : ExitCode.ok;
    if (values.json) {
      printJson(io, { properties: properties ?? null, problems: problems.map(problemJson) });
      return code;
    }
    if (properties !== undefined) printJson(io, properties);
    const shown = problems.filter((p) => p.severity !== 'info');
    if (shown.length > 0) io.err(problemLines(io.style, shown, io.cwd).join('\n'));
    return code;
  },
};
