/**
 * `agent-hooks validate`: checks hook definitions the way the loader does, and prints every problem.
 *
 * @module
 */
import type { Dirent } from 'node:fs';
import { fsPromises } from '../../core/internal/node-fs.js';
import { basename, dirname, join, resolve } from 'node:path';
import { loadManifest, projectHooksDir, triggerNameProblem, type HookProblem } from '../../script/index.js';
import { loadHookConfigFile, projectConfigFiles } from '../../agents/load-all.js';
import { parseFlags, projectDirOf } from '../args.js';
import { ExitCode, type Command } from '../command.js';
import type { CliIO } from '../io.js';
import { isScaffoldDescription } from '../scaffold-description.js';
import { hooksOffLines } from './hooks-off.js';
import { displayPath, hasErrors, isInfo, printJson, problemCounts, problemJson, problemLines } from '../output.js';

/** One definition checked. */
interface Checked {
  /** The hook's name (its folder's). */
  readonly name: string;
  /** The file checked. */
  readonly file: string;
  /** Whether it would load: no error (warnings allowed). */
  readonly ok: boolean;
}

interface Validation {
  readonly checked: Checked[];
  readonly problems: HookProblem[];
}

async function statOf(path: string) {
  try {
    return await fsPromises().stat(path);
  } catch {
    return undefined;
  }
}

async function validateFolder(dir: string, into: Validation): Promise<boolean> {
  const load = await loadManifest(dir);
  if (!load.found) return false;
  into.checked.push({ name: basename(dir), file: load.manifest?.file ?? join(dir, 'HOOK.md'), ok: !hasErrors(load.problems) });
  into.problems.push(...load.problems);
  const manifest = load.manifest;
  const trigger = manifest === undefined ? undefined : triggerNameProblem(manifest);
  if (trigger !== undefined) into.problems.push(trigger);
  // Only here, not in the loader: the placeholder is valid, and agents should run the hook; its author should not ship it.
  if (manifest !== undefined && isScaffoldDescription(manifest.description)) {
    into.problems.push({
      file: manifest.file,
      field: 'description',
      found: JSON.stringify(manifest.description),
      severity: 'warning',
      code: 'placeholder-description',
      hookName: manifest.name,
      message: 'The description is still the placeholder agent-hooks init wrote: say what this hook checks and why, for whoever reviews or trusts it.',
    });
  }
  return true;
}

/** An agent's config file: one checked row for the file, and its problems. */
async function validateConfigFile(file: string, into: Validation): Promise<void> {
  const loaded = await loadHookConfigFile(file);
  const name = `${basename(dirname(file))}/${basename(file)}`;
  into.checked.push({ name, file, ok: !hasErrors(loaded.problems) });
  into.problems.push(...loaded.problems);
}

/** The config files a project holds (Claude Code, Copilot, VS Code, Gemini CLI, Cursor, Codex). */
async function validateProjectConfigs(projectDir: string, into: Validation): Promise<number> {
  const files = await projectConfigFiles(projectDir);
  for (const file of files) await validateConfigFile(file, into);
  return files.length;
}

/** A folder of hook folders: each sub-folder with a HOOK.md, in name order (as discovery reads them). */
async function validateHooksDir(dir: string, into: Validation): Promise<number> {
  let entries: Dirent[];
  try {
    entries = await fsPromises().readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  const names = entries.filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => e.name);
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let found = 0;
  for (const name of names) if (await validateFolder(join(dir, name), into)) found++;
  return found;
}

/**
 * A path, whatever it is: a HOOK.md file, a hook folder, a project (its `.agents/hooks`), or a folder of hook folders.
 * Anything else is a problem of its own, so that a typo in a path fails the check instead of passing it.
 */
async function validatePath(path: string, into: Validation): Promise<void> {
  const info = await statOf(path);
  const problem = (code: string, message: string) => into.problems.push({ file: path, severity: 'error', code, message });
  if (info === undefined) return void problem('missing-file', 'There is no such file or folder.');
  if (info.isFile()) {
    if (basename(path).toLowerCase() === 'hook.md') return void (await validateFolder(dirname(path), into));
    if (path.endsWith('.json')) return void (await validateConfigFile(path, into));
    return void problem('unsupported-file', 'This is neither a HOOK.md nor an agent config file: pass a HOOK.md, a hook folder, a folder of hook folders, a project, or a config file such as .claude/settings.json.');
  }
  if (await validateFolder(path, into)) return;
  const projectHooks = projectHooksDir(path);
  const isProject = (await statOf(projectHooks))?.isDirectory() === true;
  let found = isProject ? await validateHooksDir(projectHooks, into) : await validateHooksDir(path, into);
  found += await validateProjectConfigs(path, into);
  if (found === 0) problem('no-hooks', 'No HOOK.md here, nor in any sub-folder or in .agents/hooks, and no agent config file: is this the right folder?');
}

/**
 * `--json` prints `{ checked, problems }`: `checked` lists each definition as `{ name, file, ok }` (`ok`: it would
 * load; warnings allowed); `problems` each `{ severity, code, file, line, hookName, field, found, allowed, message }`.
 *
 * Exit 1 when any problem is an error.
 */
export const validateCommand: Command = {
  name: 'validate',
  synopsis: 'validate [PATH…] [--project DIR] [--json]',
  summary: 'check HOOK.md definitions and agent config files: names, ranges, unknown keys, regexes, scripts',
  help: `Each PATH is a HOOK.md, a hook folder, a project (its .agents/hooks and its agent config files are
checked), a folder of hook folders, or an agent config file (.claude/settings.json, .github/hooks/*.json,
.gemini/settings.json, .cursor/hooks.json, .codex/hooks.json). Without PATH, the current project is checked.
A HOOK.md whose description is still the placeholder agent-hooks init wrote gets a warning.

Options:
  --project DIR   the project to check when no PATH is given (default: the current directory)
  --json          print { checked: [{ name, file, ok }],
                  problems: [{ severity, code, file, line, hookName, field, found, allowed, message }] }

Exit 1 when any problem is an error; warnings and information (severity info, such as the agent-hooks bridge
found in an agent's config and skipped) are printed and do not fail.`,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { project: { type: 'string' }, json: { type: 'boolean' } });
    const result: Validation = { checked: [], problems: [] };
    const defaulted = positionals.length === 0;
    const paths = defaulted ? [projectHooksDir(projectDirOf(io, values.project))] : positionals.map((p) => resolve(io.cwd, p));
    // The project's own hooks folder may well be empty or missing: that is nothing to check, not a mistaken path.
    if (defaulted) {
      await validateHooksDir(paths[0]!, result);
      await validateProjectConfigs(projectDirOf(io, values.project), result);
      // A repository's settings can switch off every hook Claude Code runs, the user's own guards among them.
      for (const line of await hooksOffLines(projectDirOf(io, values.project), io.env)) io.err(io.style.red(io.style.bold(line)));
    }
    else for (const path of paths) await validatePath(path, result);
    const code = hasErrors(result.problems) ? ExitCode.problems : ExitCode.ok;
    if (values.json) {
      printJson(io, { checked: result.checked, problems: result.problems.map(problemJson) });
      return code;
    }
    report(io, result, defaulted ? paths[0]! : undefined);
    return code;
  },
};

function report(io: CliIO, { checked, problems }: Validation, defaultDir: string | undefined): void {
  const s = io.style;
  if (checked.length === 0 && problems.length === 0) {
    io.out(s.dim(`No HOOK.md hooks or agent config files in ${defaultDir ?? 'the paths given'}.`));
    return;
  }
  const width = Math.max(...checked.map((hook) => hook.name.length));
  for (const hook of checked) {
    const own = problems.filter((p) => !isInfo(p) && (p.file === hook.file || p.file.startsWith(`${dirname(hook.file)}/`)));
    const mark = !hook.ok ? s.red('✗') : own.length > 0 ? s.yellow('!') : s.green('✓');
    io.out(`${mark} ${s.bold(hook.name.padEnd(width))}  ${s.dim(displayPath(hook.file, io.cwd))}`);
  }
  if (problems.length > 0) {
    io.out(`\n${problemLines(s, problems, io.cwd).join('\n')}`);
  }
  const summary = `${checked.length} hook${checked.length === 1 ? '' : 's'} checked: ${problemCounts(problems)}`;
  io.out(`\n${hasErrors(problems) ? s.red(summary) : s.green(summary)}`);
}
