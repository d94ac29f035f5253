/**
 * GitHub Copilot's and VS Code's hook files: `.github/hooks/*.json` (and Copilot's `~/.copilot/hooks/*.json`).
 *
 * @module
 */
import { nodeFs } from '../../core/internal/node-fs.js';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { HookEvent, type HookEventName } from '../../core/index.js';
import type { ConfigKind, ConfigLevel } from '../../script/command-hook.js';
import { copilotDialect } from '../../dialects/copilot.js';
import { copilotClaudeDialect } from '../../dialects/copilot-claude.js';
import { inCopilotFileOrder, isCopilotSettingsFile } from './file-order.js';
import { orClaudeToolName } from './claude-name-matcher.js';
import { copilotHooksSwitchMessage, copilotHooksSwitchedOffIn, copilotRepositorySettingsFiles } from './hooks-switch.js';
import { MODEL_CALL_FAILURES } from './model-call-failures.js';
import { fileReads } from '../../process/file-reads.js';
import { permissionOnEveryCall } from './permission-every-call.js';
import { vscodeDialect } from '../../dialects/vscode.js';
import { isRecord } from '../../dialects/wire-output.js';
import { matchesEverything } from '../../config/config-matcher.js';
import { ConfigCollector, commandName, configPlaces, eventNamesIn, explicitFiles, type ConfigLoadOptions, type LoadedConfigHooks } from '../../config/config-source.js';
import type { ConfigLoader } from '../config-loader.js';
import type { HookProblem } from '../../script/problem.js';

const { existsSync } = nodeFs;

/**
 * The default timeout of Copilot and VS Code command hooks, in milliseconds.
 *
 * @internal
 */
export const GITHUB_HOOK_TIMEOUT_MS = 30_000;

const COPILOT_EVENTS = eventNamesIn('copilot');
const PASCAL_EVENTS = eventNamesIn('claude');

/** The `.json` files of a folder, sorted by name; none when it does not exist. */
async function jsonFiles(dir: string): Promise<string[]> {
  try {
    const names = await fileReads.readdir(dir);
    return names.filter((n) => n.endsWith('.json')).sort().map((n) => join(dir, n));
  } catch {
    return [];
  }
}

/**
 * Which agent a hook file is written for: a file with `version` (Copilot's format) or any `bash`/`powershell` entry
 * is Copilot's; otherwise it is VS Code's.
 *
 * @internal
 */
export function githubHookFileKind(config: Record<string, unknown>): 'copilot' | 'vscode' {
  if (config.version !== undefined) return 'copilot';
  const hooks = isRecord(config.hooks) ? config.hooks : {};
  const entries = Object.values(hooks).flatMap((list) => (Array.isArray(list) ? list : []));
  return entries.some((e) => isRecord(e) && (e.bash !== undefined || e.powershell !== undefined)) ? 'copilot' : 'vscode';
}

/* The VS Code entry's command for `platform`: the OS's own (`windows`, `linux`, `osx`) over `command`. */
function vscodeCommandFor(entry: Record<string, unknown>, platform: NodeJS.Platform): { command: unknown; field: string } {
  const key = platform === 'win32' ? 'windows' : platform === 'darwin' ? 'osx' : 'linux';
  if (typeof entry[key] === 'string') return { command: entry[key], field: key };
  return { command: entry.command, field: 'command' };
}

/**
 * Where Copilot CLI keeps the user's files: `COPILOT_HOME` (of `hostEnv`; of this process unless `homeDir` is given,
 * as a sandboxed home reads no variable of this process), else `.copilot` in the home; `undefined` when user files
 * are skipped. Copilot CLI 1.0.102 reads `$COPILOT_HOME/hooks/` and `$COPILOT_HOME/settings.json` then, and nothing
 * of `~/.copilot`.
 *
 * @internal
 */
export function copilotHomeDir(options: ConfigLoadOptions & { readonly hostEnv?: Readonly<Record<string, string | undefined>> | undefined } = {}): string | undefined {
  const places = configPlaces(options);
  if (places.homeDir === undefined) return undefined;
  const env = options.hostEnv ?? (options.homeDir === undefined ? process.env : {});
  const fromEnv = env['COPILOT_HOME'];
  return fromEnv !== undefined && fromEnv !== '' ? resolve(fromEnv) : join(places.homeDir, '.copilot');
}

/**
 * Loads `.github/hooks/*.json` (project) and `~/.copilot/hooks/*.json` (user; `$COPILOT_HOME/hooks/` when it is set) for the agents in `kinds`, and for
 * Copilot the hooks written under `hooks` in `~/.copilot/settings.json` and `.github/copilot/settings.json`, as hook
 * file entries.
 *
 * Copilot files (`version: 1`, or `bash`/`powershell` entries): flat entries under lowerCamelCase events, spoken to
 * in Copilot's camelCase dialect — or under PascalCase events, which switch Copilot to its Claude-compatible payload; a Claude
 * Code-style group (`{ matcher, hooks: [...] }`) is read as its hooks, each under the group's matcher; `bash` (or
 * `powershell` on Windows, or `command`; or `exec` with `args`, started with no shell), `cwd` relative to the project, `env`, `timeoutSec` (or `timeout`; default
 * 30), and `matcher`, a regex anchored at both ends, on tool events only. A file of a version other than 1 is not
 * read, nor one whose top-level `disableAllHooks` is true; and when the repository's settings (`.claude/settings.json`,
 * `.claude/settings.local.json`, `.github/copilot/settings.json`, `settings.local.json` beside it; the last that sets
 * it wins) say `"disableAllHooks": true`, no Copilot hook is loaded at all, the user's included — each with a
 * `hooks-disabled` warning that names the file. A preToolUse or permissionRequest hook that crashes denies the call, as in Copilot. The user's files run before
 * the project's, each folder's last name first; a permissionRequest hook on every call its preToolUse hooks let
 * through; an errorOccurred hook when the run failed on its model call only — as Copilot CLI 1.0.102 runs them.
 *
 * VS Code files: flat entries under PascalCase events with `command` and the OS-specific `windows`/`linux`/`osx`
 * (the OS's own wins), `cwd` relative to the project, `env`, `timeout` in seconds (default 30). VS Code parses
 * matchers but does not apply them, so a matcher here is reported and every tool reaches the hook, as in VS Code.
 */
export async function loadGithubHooks(
  kinds: readonly ('copilot' | 'vscode')[],
  options: ConfigLoadOptions = {},
): Promise<LoadedConfigHooks> {
  const out = new ConfigCollector(options);
  const places = configPlaces(options);
  const platform = options.platform ?? process.platform;
  // Copilot CLI 1.0.102 runs a folder's files, then the hooks written inline in the settings files of the same level:
  // the user's ~/.copilot/settings.json; the repository's .claude/settings.json, .claude/settings.local.json,
  // .github/copilot/settings.json and settings.local.json, in that order.
  const dirs: { dir: string; level: ConfigLevel; settings: readonly string[] }[] = [];
  const copilot = kinds.includes('copilot');
  if (options.files === undefined) {
    const home = copilotHomeDir(options);
    if (home !== undefined && copilot) dirs.push({ dir: join(home, 'hooks'), level: 'user', settings: [join(home, 'settings.json')] });
    // The .claude/ files are Claude Code's loader's when it loads beside this one: their hooks run once, in its dialect.
    const claudeBeside = options.loadedBeside?.includes('claude') === true;
    const repository = copilot ? copilotRepositorySettingsFiles(places.projectDir).filter((file) => !claudeBeside || basename(dirname(file)) !== '.claude') : [];
    if (places.project) dirs.push({ dir: join(places.projectDir, '.github', 'hooks'), level: 'project', settings: repository });
  }
  const located = [
    ...(explicitFiles(options) ?? []),
    ...(await Promise.all(dirs.map(async ({ dir, level, settings }) => [...(await jsonFiles(dir)).map((file) => ({ file, level })), ...settings.filter(existsSync).map((file) => ({ file, level }))]))).flat(),
  ];
  // A repository's settings can switch off every hook Copilot CLI runs there, the user's own included.
  const switchedOff = copilot && options.files === undefined && places.project ? await copilotHooksSwitchedOffIn(places.projectDir) : undefined;
  if (switchedOff !== undefined) out.problem({ file: switchedOff, field: 'disableAllHooks', found: 'true', severity: 'warning', code: 'hooks-disabled', message: `${copilotHooksSwitchMessage(switchedOff)} None of its hooks is loaded here either.` });
  for (const { file, level } of located) {
    const config = await out.readObject(file);
    if (config === undefined) continue;
    const settings = isCopilotSettings(file);
    const kind = level === 'user' || settings ? 'copilot' : githubHookFileKind(config);
    if (!kinds.includes(kind) || (settings && config.hooks === undefined) || (kind === 'copilot' && switchedOff !== undefined)) {
      // The other agent's file, Copilot settings without hooks, or Copilot's hooks switched off: none to load here.
      out.files.pop();
      continue;
    }
    const empty = settings ? emptyMatcherIn(config.hooks) : undefined;
    if (empty !== undefined) {
      // Copilot CLI 1.0.102 reads a settings file's hooks strictly: one empty matcher and none of them runs.
      out.problem({ file, field: empty, found: '""', severity: 'error', code: 'invalid-matcher', message: 'Copilot CLI rejects this settings file\'s hooks, every one of them, for an empty matcher ("matcher cannot be empty"); none is loaded either. Leave "matcher" out to run a hook on every tool.' });
      continue;
    }
    if (kind === 'copilot' && !settings && config.disableAllHooks === true) {
      // Copilot CLI 1.0.102 runs none of the hooks of a hook file that switches its own off.
      out.problem({ file, field: 'disableAllHooks', found: 'true', severity: 'warning', code: 'hooks-disabled', message: 'Copilot CLI runs none of this file\'s hooks while "disableAllHooks" is true here; none is loaded either.' });
      continue;
    }
    if (kind === 'copilot' && !settings && config.version !== undefined && config.version !== 1) {
      // Copilot CLI 1.0.102 runs none of the hooks of a file of another version.
      out.problem({ file, field: 'version', found: JSON.stringify(config.version), allowed: '1', severity: 'warning', code: 'unknown-version', message: 'Copilot CLI reads hook files of version 1 only, and runs none of this one\'s hooks; neither does agent-hooks. Set "version": 1 to run them.' });
      continue;
    }
    const known = kind === 'vscode' ? PASCAL_EVENTS : { ...COPILOT_EVENTS, ...PASCAL_EVENTS };
    for (const { event, eventName, list: entries, field } of out.events(file, config.hooks ?? {}, known, 'hook entries')) {
      const pascal = /^[A-Z]/.test(eventName);
      entries.forEach((entry: unknown, i) => {
        const at = `${field}[${i}]`;
        if (!isRecord(entry)) {
          out.problem({ file, field: at, severity: 'error', code: 'invalid-config', message: 'A hook entry must be an object.' });
          return;
        }
        const place = { kind, level, file, event, eventName, pascal, platform, projectDir: places.projectDir };
        if (kind === 'copilot' && Array.isArray(entry.hooks)) {
          addGroup(out, { ...place, at, entry }, entry.hooks as unknown[]);
          return;
        }
        if (!isCommandType(out, file, at, entry)) return;
        addEntry(out, { ...place, at, entry });
      });
    }
  }
  const loaded = await out.result();
  const twice = bridgeRunTwice(loaded.problems);
  const problems = twice === undefined ? loaded.problems : [...loaded.problems, twice];
  const hooks = inCopilotFileOrder(loaded.hooks);
  // Copilot CLI fires permissionRequest on every call its preToolUse hooks let through, not only when one asked.
  const permission = hooks.filter((h) => h.origin.kind === 'copilot' && h.events.includes('PermissionRequest'));
  return { ...loaded, problems, hooks: [...hooks, ...permission.map(permissionOnEveryCall)] };
}

/**
 * Whether `file` is a settings file Copilot CLI reads hooks from (`~/.copilot/settings.json`,
 * `.github/copilot/settings.json` and `settings.local.json`, the cross-tool `.claude/settings.json` and
 * `settings.local.json`), whose `hooks` hold entries as a hook file's do.
 */
const isCopilotSettings = (file: string): boolean => isCopilotSettingsFile(file);

/**
 * A note when Copilot CLI runs the agent-hooks bridge twice on an event: Claude Code's bridge line in the repository's
 * `.claude/settings.json` (or `settings.local.json`), which Copilot reads, besides Copilot's own. Both run every
 * HOOK.md hook of the project; `bridge --install copilot` says it loudly. Found among the `bridge-skipped` notes.
 */
function bridgeRunTwice(problems: readonly HookProblem[]): HookProblem | undefined {
  const bridges = problems.filter((p) => p.code === 'bridge-skipped');
  const claude = bridges.find((p) => basename(dirname(p.file)) === '.claude');
  const own = bridges.find((p) => basename(dirname(p.file)) !== '.claude');
  if (claude === undefined || own === undefined) return undefined;
  return {
    file: claude.file,
    field: claude.field,
    severity: 'info',
    code: 'bridge-twice',
    message: `GitHub Copilot CLI runs the hooks of this Claude Code settings file too, so the Claude Code bridge line here runs beside Copilot's own (${own.file}): every HOOK.md hook of the project runs twice on each Copilot event both name (their side effects too). Install the Claude Code bridge for your user instead (\`agent-hooks bridge --install claude --user\`, in ~/.claude/settings.json, which Copilot does not read), or keep only one of them.`,
  };
}

/** The field of the first empty `matcher` among a settings file's `hooks` (an entry's or a group's hook's), if any. */
function emptyMatcherIn(hooks: unknown): string | undefined {
  if (!isRecord(hooks)) return undefined;
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    for (const [i, entry] of list.entries()) {
      if (!isRecord(entry)) continue;
      if (entry.matcher === '') return `hooks.${event}[${i}].matcher`;
      const inner = Array.isArray(entry.hooks) ? entry.hooks.findIndex((h: unknown) => isRecord(h) && h.matcher === '') : -1;
      if (inner >= 0) return `hooks.${event}[${i}].hooks[${inner}].matcher`;
    }
  }
  return undefined;
}

/** Whether `entry` is a command hook; reported when it is of another type (not loaded). */
function isCommandType(out: ConfigCollector, file: string, at: string, entry: Record<string, unknown>): boolean {
  if (entry.type === undefined || entry.type === 'command') return true;
  out.problem({ file, field: `${at}.type`, found: JSON.stringify(entry.type), allowed: 'command', severity: 'warning', code: 'unsupported-hook-type', message: 'Only command hooks are supported; this one is not loaded.' });
  return false;
}

/**
 * A Claude Code-style matcher group in a Copilot file, `{ "matcher": "bash", "hooks": [{ "type": "command", "command":
 * "…" }] }`: Copilot CLI 1.0.102 runs each of its hooks as an entry of its own under the group's matcher (its exit 2
 * denies), so a guard written this way guards there and must guard here. An inner `matcher` is kept.
 */
function addGroup(out: ConfigCollector, p: EntryPlace, hooks: readonly unknown[]): void {
  hooks.forEach((inner: unknown, j) => {
    const at = `${p.at}.hooks[${j}]`;
    if (!isRecord(inner)) {
      out.problem({ file: p.file, field: at, severity: 'error', code: 'invalid-config', message: 'A hook in a matcher group must be an object.' });
      return;
    }
    if (!isCommandType(out, p.file, at, inner)) return;
    const entry = inner.matcher === undefined && p.entry.matcher !== undefined ? { ...inner, matcher: p.entry.matcher } : inner;
    addEntry(out, { ...p, at, entry });
  });
}

interface EntryPlace {
  readonly kind: Extract<ConfigKind, 'copilot' | 'vscode'>;
  readonly level: ConfigLevel;
  readonly file: string;
  readonly at: string;
  readonly entry: Record<string, unknown>;
  readonly event: HookEventName;
  readonly eventName: string;
  readonly pascal: boolean;
  readonly platform: NodeJS.Platform;
  readonly projectDir: string;
}

function addEntry(out: ConfigCollector, p: EntryPlace): void {
  const { entry, file, at, kind } = p;
  let command: unknown;
  let commandField: string;
  let shell: 'sh' | 'bash' | 'powershell' = 'sh';
  if (kind === 'copilot') {
    const windows = p.platform === 'win32';
    if (windows && typeof entry.powershell === 'string') [command, commandField, shell] = [entry.powershell, 'powershell', 'powershell'];
    else if (!windows && typeof entry.bash === 'string') [command, commandField, shell] = [entry.bash, 'bash', 'bash'];
    else if (typeof entry.command === 'string') [command, commandField] = [entry.command, 'command'];
    else if (!windows && typeof entry.powershell === 'string') {
      // Copilot CLI runs a powershell-only entry with `pwsh` on Linux and macOS too; where there is none it cannot
      // start, and on preToolUse the call is denied. Skipping the entry would let every call through instead.
      [command, commandField, shell] = [entry.powershell, 'powershell', 'powershell'];
      out.problem({ file, field: `${at}.powershell`, severity: 'warning', code: 'other-platform-command', message: 'The entry has only a "powershell" command: it runs with pwsh here, as in Copilot CLI; without pwsh it cannot start, and a preToolUse call it guards is denied. Give "bash" for this platform.' });
    } else if (windows && typeof entry.bash === 'string') {
      [command, commandField, shell] = [entry.bash, 'bash', 'bash'];
      out.problem({ file, field: `${at}.bash`, severity: 'warning', code: 'other-platform-command', message: 'The entry has only a "bash" command: it runs with bash here, as in Copilot CLI; without bash it cannot start, and a preToolUse call it guards is denied. Give "powershell" for this platform.' });
    } else [command, commandField] = [entry.command, 'command'];
  } else {
    ({ command, field: commandField } = vscodeCommandFor(entry, p.platform));
  }
  let args: string[] | undefined;
  if (kind === 'copilot' && entry.exec !== undefined && (entry.bash !== undefined || entry.powershell !== undefined || entry.command !== undefined)) {
    // Copilot CLI drops such an entry (a hook file's others still load).
    out.problem({ file, field: `${at}.exec`, severity: 'error', code: 'invalid-config', message: 'An entry gives "exec" (an executable) or "bash"/"powershell"/"command" (a shell command), not both: Copilot CLI runs neither, and it is not loaded here. Keep one.' });
    return;
  }
  if (kind === 'copilot' && entry.exec !== undefined) {
    // Copilot CLI starts `exec` directly with `args`, no shell between (a name is found on PATH).
    if (typeof entry.exec !== 'string' || entry.exec.trim() === '' || (entry.args !== undefined && (!Array.isArray(entry.args) || !entry.args.every((a) => typeof a === 'string')))) {
      out.problem({ file, field: `${at}.exec`, severity: 'error', code: 'invalid-config', message: 'An "exec" entry needs "exec", the executable, as a string, and "args", if given, as an array of strings.' });
      return;
    }
    [command, commandField, args] = [entry.exec, 'exec', (entry.args as string[] | undefined) ?? []];
  }
  if (typeof command !== 'string' || command.trim() === '') {
    const wanted = kind === 'copilot' ? (p.platform === 'win32' ? '"powershell" or "command"' : '"bash" or "command"') : '"command" or the OS-specific "windows", "linux", "osx"';
    out.problem({ file, field: at, severity: 'error', code: 'missing-field', message: `The entry has no command for this platform: give ${wanted}.` });
    return;
  }
  let matcher;
  if (kind === 'vscode') {
    if (entry.matcher !== undefined && entry.matcher !== '' && entry.matcher !== '*') {
      out.problem({
        file,
        field: `${at}.matcher`,
        found: JSON.stringify(entry.matcher),
        severity: 'warning',
        code: 'ignored-matcher',
        message: 'VS Code parses matchers but does not apply them, so this hook sees every tool, as it would in VS Code.',
      });
    }
  } else if (!HookEvent.isToolEvent(p.event) && entry.matcher !== undefined) {
    // Copilot CLI applies a matcher to tool events only: elsewhere the hook runs every time (errorOccurred's on a
    // failed model call, below).
    if (typeof entry.matcher !== 'string' || !matchesEverything(entry.matcher)) out.problem({ file, field: `${at}.matcher`, found: JSON.stringify(entry.matcher), severity: 'warning', code: 'ignored-matcher', message: `Copilot CLI does not apply a matcher on ${p.eventName}, so this hook runs on every ${p.eventName}, in Copilot and here.` });
  } else {
    matcher = out.matcher(entry.matcher, p.event, 'anchored', file, `${at}.matcher`);
    if (matcher === null) return;
    if (kind === 'copilot' && p.pascal && matcher !== undefined && typeof entry.matcher === 'string' && !matchesEverything(entry.matcher)) matcher = orClaudeToolName(matcher);
  }
  if (kind === 'copilot' && p.event === 'AgentFailed') matcher = MODEL_CALL_FAILURES;
  // Copilot CLI reads `timeout` as another name of `timeoutSec`; VS Code reads `timeout` first.
  const seconds = kind === 'copilot' ? (entry.timeoutSec ?? entry.timeout) : (entry.timeout ?? entry.timeoutSec);
  const timeoutField = (kind === 'copilot' ? entry.timeoutSec !== undefined : entry.timeout === undefined) || entry.timeout === undefined ? 'timeoutSec' : 'timeout';
  const cwd = typeof entry.cwd === 'string' && entry.cwd !== '' ? (isAbsolute(entry.cwd) ? entry.cwd : resolve(p.projectDir, entry.cwd)) : undefined;
  out.add(
    out.commandHook({
      name: typeof entry.name === 'string' && entry.name.trim() !== '' ? entry.name : commandName(command),
      command,
      args,
      shell,
      event: p.event,
      eventName: p.eventName,
      matcher,
      // Copilot CLI sends a PascalCase event its own Claude-compatible payload, not VS Code's.
      dialect: kind === 'copilot' ? (p.pascal ? copilotClaudeDialect : copilotDialect) : vscodeDialect,
      timeoutMs: out.timeout(seconds, 's', GITHUB_HOOK_TIMEOUT_MS, file, `${at}.${timeoutField}`),
      projectDir: p.projectDir,
      cwd,
      env: out.env(entry.env, file, `${at}.env`),
      origin: {
        kind,
        level: p.level,
        file,
        field: `${at}.${commandField}`,
        matcher: typeof entry.matcher === 'string' ? entry.matcher : undefined,
        definition: { event: p.eventName, entry },
      },
    }),
  );
}

/** Copilot's hooks: {@link loadGithubHooks} for Copilot files only. */
export function loadCopilotHooks(options: ConfigLoadOptions = {}): Promise<LoadedConfigHooks> {
  return loadGithubHooks(['copilot'], options);
}

/** VS Code's hooks in `.github/hooks`: {@link loadGithubHooks} for VS Code files only. */
export function loadVsCodeHooks(options: ConfigLoadOptions = {}): Promise<LoadedConfigHooks> {
  return loadGithubHooks(['vscode'], options);
}

/**
 * The hook files of `.github/hooks/` (and the user's `~/.copilot/hooks/`), which Copilot and VS Code share: one
 * loader for both, which tells each file's format from its contents.
 *
 * @internal
 */
export const githubConfigLoader: ConfigLoader = {
  kind: 'github',
  describedFiles: '.github/hooks/*.json, .github/copilot/settings.json, .github/copilot/settings.local.json, ~/.copilot/hooks/*.json, ~/.copilot/settings.json',
  owns: ({ parent, grandparent, base }) =>
    (parent === 'hooks' && (grandparent === '.github' || grandparent === '.copilot') && base.endsWith('.json')) ||
    (base === 'settings.json' && parent === '.copilot') ||
    ((base === 'settings.json' || base === 'settings.local.json') && parent === 'copilot' && grandparent === '.github'),
  async projectFiles(projectDir) {
    const github = join(resolve(projectDir), '.github', 'hooks');
    const names = await fileReads.readdir(github).catch(() => [] as string[]);
    const copilotDir = join(resolve(projectDir), '.github', 'copilot');
    const present = await fileReads.readdir(copilotDir).catch(() => [] as string[]);
    // The cross-tool .claude/ files are Claude Code's loader's to validate.
    const settings = ['settings.json', 'settings.local.json'].filter((n) => present.includes(n)).map((n) => join(copilotDir, n));
    return [...names.filter((n) => n.endsWith('.json')).sort().map((n) => join(github, n)), ...settings];
  },
  load: (agents, options) => loadGithubHooks(agents as readonly ('copilot' | 'vscode')[], options),
};
