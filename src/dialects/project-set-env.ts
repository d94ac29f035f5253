/**
 * Which variables of the environment a project may have put there. Some agents give their hooks variables a
 * repository chose: Gemini CLI loads the project's `.env` (or `.gemini/.env`) into its own environment for variables
 * not already set, and Claude Code applies the `env` block of the project's `.claude/settings.json` and
 * `.claude/settings.local.json` over them. A variable that says where the user's hooks, trust store, serve token or
 * caches are must not be the repository's word: set to a folder of the repository, it would make the repository's
 * hooks run as the user's, with no trust check, and switch the user's own guards off. So such a variable is honoured
 * only when no project file of the running agent sets it to the value it has; otherwise the default location is used
 * (for `HOME`, the account's home from `os.userInfo()`) and the user is told which file set it.
 *
 * Node's own modules only: the bridge's first stage uses this.
 *
 * @module
 * @internal
 */
import { nodeFs } from '../core/internal/node-fs.js';
import { homedir, userInfo } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';

const { readFileSync, statSync } = nodeFs;

/** An environment, as the folders are read from it. */
type Env = Readonly<Record<string, string | undefined>>;

/**
 * The variables that decide where the user's hooks, trust store, serve token and agent-hooks' caches are, or whether
 * a project's hooks need trust: never taken from a project.
 *
 * @internal
 */
export const PROTECTED_HOST_VARIABLES: readonly string[] = [
  'HOME',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'LOCALAPPDATA',
  'AGENT_HOOKS_CACHE_DIR',
  'AGENT_HOOKS_TRUST',
  'AGENT_HOOKS_TRANSCRIPT_DIR',
];

/**
 * A protected variable that a project file of the running agent sets to the value it has.
 *
 * @internal
 */
export interface ProjectSetVariable {
  /** The variable, e.g. `XDG_CONFIG_HOME`. */
  readonly name: string;
  /** The project file that sets it, e.g. `/repo/.env` or `/repo/.claude/settings.json`. */
  readonly file: string;
}

// A .env or settings file is a few lines. One larger than this is not parsed: it is taken to set every protected
// variable present but HOME, since the agent reads it whole (padding a file must not hide what it sets).
const MAX_FILE_BYTES = 1024 * 1024;

/** What a project file sets: its variables, or `'too-large'` (see {@link MAX_FILE_BYTES}). */
type FileVariables = Map<string, string> | 'too-large';

/** The text of `file`; `'too-large'`; or `undefined` when it is missing, unreadable or not a file (no agent loads it). */
function readSmall(file: string): string | 'too-large' | undefined {
  try {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (stat === undefined || !stat.isFile()) return undefined;
    if (stat.size > MAX_FILE_BYTES) return 'too-large';
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** dotenv's line, as Gemini CLI's bundled copy of dotenv parses a `.env` file. */
const DOTENV_LINE = /(?:^|^)\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?(?:$|$)/gm;

/** The variables a `.env` file sets, read as dotenv reads them (the last of a name wins). */
function parseDotenv(text: string): Map<string, string> {
  const values = new Map<string, string>();
  const lines = text.replace(/\r\n?/gm, '\n');
  for (const match of lines.matchAll(DOTENV_LINE)) {
    let value = (match[2] ?? '').trim();
    const quote = value[0];
    value = value.replace(/^(['"`])([\s\S]*)\1$/gm, '$2');
    if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
    values.set(match[1]!, value);
  }
  return values;
}

/**
 * The account's home folder, which no environment variable decides: where a `HOME` set by a project is replaced by.
 *
 * @internal
 */
export function accountHome(): string {
  try {
    const home = userInfo().homedir;
    if (home !== '') return home;
  } catch {
    // No passwd entry (a container's random uid): the best left is what Node makes of the environment.
  }
  return homedir();
}

/**
 * The `.env` files Gemini CLI may load for a project: `.gemini/.env` and `.env` in the project and each folder above
 * it, up to (not including) the first of `homes` — the user's home, whose files are the user's own. Gemini CLI loads
 * the first it finds (skipping `.gemini/.env` in a folder it does not trust, and every `.env` but the home's with
 * `ignoreLocalEnv`), so any of them may be the one: each is looked at.
 */
function geminiEnvFiles(projectDir: string, homes: ReadonlySet<string>): string[] {
  const files: string[] = [];
  let dir = resolve(projectDir);
  for (;;) {
    if (homes.has(dir)) return files;
    files.push(join(dir, '.gemini', '.env'), join(dir, '.env'));
    const parent = dirname(dir);
    if (parent === dir) return files;
    dir = parent;
  }
}

/** The variables set by one project file: a `.env` file, or the `env` block of a Claude Code settings file. */
function variablesOf(file: string): FileVariables | undefined {
  const text = readSmall(file);
  if (text === undefined || text === 'too-large') return text;
  if (!file.endsWith('.json')) return parseDotenv(text);
  try {
    const settings = JSON.parse(text) as { env?: unknown } | null;
    const env = settings?.env;
    if (env === null || typeof env !== 'object' || Array.isArray(env)) return undefined;
    return new Map(Object.entries(env as Record<string, unknown>).map(([name, value]) => [name, String(value)] as const));
  } catch {
    return undefined;
  }
}

/**
 * The project files of the agents running this process whose variables may have reached it, for the variable `name`.
 * Gemini CLI's home is the one it started with: `HOME` if it was set (Gemini CLI never replaces a variable already
 * set), else the account's. So the walk up stops at either — unless `HOME` is itself in doubt (`trustHome` false:
 * only a project could have set it, when Gemini CLI started without one), then only at the account's home.
 */
function projectFilesOf(env: Env, trustHome: boolean): string[] {
  const files: string[] = [];
  const gemini = env['GEMINI_PROJECT_DIR'];
  if (gemini !== undefined && gemini !== '') {
    const homes = new Set([resolve(accountHome())]);
    const home = env['HOME'];
    if (trustHome && home !== undefined && home !== '') homes.add(resolve(home));
    files.push(...geminiEnvFiles(gemini, homes));
  }
  // Claude Code's project settings; Gemini CLI sets CLAUDE_PROJECT_DIR too, for compatibility.
  const claude = env['CLAUDE_PROJECT_DIR'];
  if (claude !== undefined && claude !== '') {
    const settings = join(resolve(claude), '.claude');
    files.push(`${settings}${sep}settings.json`, `${settings}${sep}settings.local.json`);
  }
  return [...new Set(files)];
}

/** Written into every file of a build, the same in all (see `build-stamp.ts`); absent when the sources run as they are. */
declare const BUILT_AGENT_HOOKS_BUILD: string | undefined;

/**
 * The answers of {@link projectSetVariables}, by environment: one map for every file of a build in the process (the
 * executable's files each bundle this module, and a bridged call asks in three of them — finding its code cache, its
 * first stage, the first stage's run of a hook), else this module's own.
 */
const found: Map<string, readonly ProjectSetVariable[]> =
  typeof BUILT_AGENT_HOOKS_BUILD === 'string'
    ? (((globalThis as Record<symbol, unknown>)[Symbol.for(`agent-hooks:project-set-variables:${BUILT_AGENT_HOOKS_BUILD}`)] ??= new Map()) as Map<string, readonly ProjectSetVariable[]>)
    : new Map();

/**
 * The protected variables of `env` that a project file of the running agent sets, each with that file. A variable
 * whose value differs from what every such file says is the user's own (Gemini CLI does not override a variable
 * already set, and a value Claude Code applied is the file's): only an equal value counts. Outside an agent that
 * passes project variables (no `GEMINI_PROJECT_DIR` nor `CLAUDE_PROJECT_DIR`), none. The answer for one environment
 * is kept for the life of the process: the files were read when the agent started it, and it does not change.
 *
 * @internal
 */
export function projectSetVariables(env: Env): readonly ProjectSetVariable[] {
  const gemini = env['GEMINI_PROJECT_DIR'];
  const claude = env['CLAUDE_PROJECT_DIR'];
  if ((gemini === undefined || gemini === '') && (claude === undefined || claude === '')) return [];
  const present = PROTECTED_HOST_VARIABLES.filter((name) => env[name] !== undefined);
  if (present.length === 0) return [];
  const key = JSON.stringify([gemini, claude, ...present.map((name) => [name, env[name]])]);
  const known = found.get(key);
  if (known !== undefined) return known;
  const result: ProjectSetVariable[] = [];
  const read = new Map<string, FileVariables | undefined>();
  // The files depend on the variable only through `trustHome`: listed once for each (a path resolved and joined is a
  // pass over it, and V8 compiling Node's path normaliser mid-call cost a bridged call more than its work).
  const lists = new Map<boolean, string[]>();
  // HOME first (it leads the list): whether it is the user's decides where the user's own files begin.
  for (const name of present) {
    const trustHome = name !== 'HOME' && !result.some((v) => v.name === 'HOME');
    let files = lists.get(trustHome);
    if (files === undefined) lists.set(trustHome, (files = projectFilesOf(env, trustHome)));
    for (const file of files) {
      if (!read.has(file)) read.set(file, variablesOf(file));
      const variables = read.get(file);
      // A file too large to parse counts as setting the variable — but not HOME, which neither agent replaces once
      // set: a padded file must not send the user's hooks to another home either.
      const value = variables === 'too-large' ? (name === 'HOME' ? undefined : env[name]) : variables?.get(name);
      if (value !== undefined && (value === env[name] || value.trim() === env[name]!.trim())) {
        result.push({ name, file });
        break;
      }
    }
  }
  Object.freeze(result);
  found.set(key, result);
  return result;
}

/**
 * `env` without the protected variables a project set (see {@link projectSetVariables}): what the user's folders are
 * resolved from. A `HOME` set by a project becomes the account's home; every other such variable is left out, so its
 * default applies. `env` itself when a project set none.
 *
 * @internal
 */
export function userEnvOf<E extends Env>(env: E): E {
  const set = projectSetVariables(env);
  if (set.length === 0) return env;
  const copy: Record<string, string | undefined> = { ...env };
  for (const { name } of set) {
    if (name === 'HOME') copy[name] = accountHome();
    else delete copy[name];
  }
  return copy as E;
}

/**
 * What the user is told of the variables a project set: which, in which file, and what was used instead.
 *
 * @internal
 */
export function projectSetVariablesMessage(set: readonly ProjectSetVariable[]): string | undefined {
  if (set.length === 0) return undefined;
  const list = set.map(({ name, file }) => `${name} (set by ${file})`).join(', ');
  const one = set.length === 1;
  return (
    `agent-hooks ignored ${list}: the agent gives its hooks the variables a project file sets, so the repository could be the one choosing where your hooks, trust store and caches are, or whether its hooks need trust. ` +
    `The default was used instead. To choose another, set ${one ? 'it' : 'them'} in your own environment or user-level agent settings, to a value no project file repeats.`
  );
}

/**
 * The project file of the running agent that set `PATH` to the value it has (as {@link projectSetVariables} finds a
 * protected one), or `undefined`. `PATH` is not a folder of the user's: it is kept — the user's hooks run with it, as
 * the agent's own hooks do — but the user is told (see {@link projectSetPathMessage}), since a guard that calls `jq`
 * or `grep` by name may then run the repository's.
 *
 * @internal
 */
export function projectSetPath(env: Env): string | undefined {
  const value = env['PATH'];
  if (value === undefined) return undefined;
  for (const file of projectFilesOf(env, true)) {
    const variables = variablesOf(file);
    const given: string | undefined = variables === 'too-large' ? value : variables?.get('PATH');
    if (given !== undefined && (given === value || given.trim() === value.trim())) return file;
  }
  return undefined;
}

/**
 * What the user is told when a project file set `PATH` (see {@link projectSetPath}).
 *
 * @internal
 */
export function projectSetPathMessage(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  return (
    `agent-hooks: PATH was set by ${file}, and your own hooks run with it: a hook that calls a tool by name (jq, grep) may run the repository's. ` +
    `Name the tools your guards rely on by absolute path (/usr/bin/jq).`
  );
}
