/**
 * Writing the bridge into an agent's project-level hook config: merged into what is there, never over it, with a
 * backup.
 *
 * @module
 */
import { UnknownEventError } from '../core/index.js';
import { parseConfigJson } from '../config/config-file.js';
import { formatProblem } from '../script/problem.js';
import { isRecord } from '../dialects/wire-output.js';
import { bridgeCommandLine } from './bridge-command.js';
import { detachedBridgeLine, findSetsid } from './detached-line.js';
import { InstallBridgeError } from './install-bridge-error.js';
import { installPlugin, otherPluginsOfOurs } from './install-plugin.js';
import { installScripts } from './install-scripts.js';
import { INSTALL_TARGETS, installEventName, type InstallAgent, type InstallTarget } from './install-targets.js';
import { readProjectFile, replaceProjectFile } from './project-file.js';
import { servedBridgeLine, servedLineTools } from './served-bridge-line.js';
import { clearingNodeVariables, userBridgeCommandLine, userHookFile } from './user-bridge-command.js';

export { InstallBridgeError } from './install-bridge-error.js';

/** What {@link installBridge} needs. */
export interface InstallBridgeOptions {
  /** The agent whose config gets the bridge. */
  readonly agent: InstallAgent;
  /**
   * The project whose config file gets the bridge: `.claude/settings.json`, `.codex/hooks.json`,
   * `.gemini/settings.json`, `.github/hooks/agent-hooks.json`, `.github/hooks/agent-hooks-vscode.json` or
   * `.cursor/hooks.json`.
   */
  readonly projectDir: string;
  /**
   * The events to bridge, in any dialect's names (the agent's own names first: Gemini's `AfterAgent` is its stop
   * gate). Those the agent does not have are skipped; at least one must remain.
   */
  readonly events: readonly string[];
  /**
   * The command the agent runs (default: the project's `node_modules/.bin/agent-hooks bridge --from AGENT`, through
   * the agent's project variable where it sets one, else {@link InstallBridgeOptions.executable} by its real path).
   * For Copilot, whose payloads name no event, ` --event NAME` is added for each event unless the command already
   * has an `--event`.
   */
  readonly command?: string | undefined;
  /** The running `agent-hooks` executable, used when the project has none in `node_modules/.bin` (default `process.argv[1]`). */
  readonly executable?: string | undefined;
  /**
   * How long the agent lets the bridge run, in seconds, written in the agent's own unit. A new entry gets 60 when it is
   * not given; an entry already there keeps its own unless it is given.
   */
  readonly timeoutSeconds?: number | undefined;
  /**
   * The tool matcher of each event's entry, by the agent's event name: a string is written as the entry's `matcher`
   * (of its matcher group, for Claude Code, Codex and Gemini CLI; of the entry itself for Copilot), `undefined`
   * removes the one there — the agent then runs the bridge for every tool. When not given, matchers are left as they
   * are. An entry whose group holds other hooks too keeps that group's matcher: it is theirs as well.
   */
  readonly matchers?: ((event: string) => string | undefined) | undefined;
  /**
   * `'user'`: write the agent's user-level config instead (`~/.claude/settings.json`, `$CODEX_HOME/hooks.json` or
   * `~/.codex/hooks.json`, `~/.gemini/settings.json`, `~/.copilot/hooks/agent-hooks.json`, `~/.cursor/hooks.json`;
   * not VS Code, whose user-level file is Claude Code's), which runs the bridge in every repository: its command is
   * this `node` and this installation's `cli.js` by their absolute paths, never anything found in the project. Default
   * `'project'`.
   */
  readonly level?: 'project' | 'user' | undefined;
  /** With `level: 'user'`: where the home (`HOME`) and `CODEX_HOME` are read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * Send the hooks to a running `agent-hooks serve` first: each entry's line posts the payload to
   * `<baseUrl>/bridge/<agent>` (the token from `$AGENT_HOOKS_TOKEN` at run time) — through bash's `/dev/tcp` to a
   * loopback IP where bash opens it, else with curl — and runs the command bridge ({@link InstallBridgeOptions.command}
   * or the default line) when no server answers. cat, bash, env and curl are looked up on
   * {@link InstallBridgeOptions.env}'s `PATH` and written by their absolute paths.
   */
  readonly served?:
    | {
        /** The server's base address, e.g. `http://127.0.0.1:7391`: the line posts to `/bridge/AGENT` under it. */
        readonly baseUrl: string;
      }
    | undefined;
}

/** What {@link installBridge} did. */
export interface InstallBridgeResult {
  /** The agent. */
  readonly agent: InstallAgent;
  /** The config file. */
  readonly file: string;
  /** The copy of the file as it was, when it existed and was changed. */
  readonly backup: string | undefined;
  /** The events (the agent's names) the bridge was added to. */
  readonly added: readonly string[];
  /** The events whose bridge entry was brought up to date: another command line for the bridge, or the timeout given. */
  readonly updated: readonly string[];
  /** The events that already ran the same command (with the timeout given, if one was), left as they were. */
  readonly present: readonly string[];
  /** The events asked for that the agent does not have, as they were named. */
  readonly skipped: readonly string[];
  /** The command written (for Copilot, each entry adds `--event NAME`); for a plugin, the line that loads it. */
  readonly command: string;
  /** What the user must know and do for the agent to run it (a plugin whose package the project lacks). */
  readonly warnings?: readonly string[] | undefined;
}

/** The default of {@link InstallBridgeOptions.timeoutSeconds}. */
const DEFAULT_TIMEOUT_SECONDS = 60;

/** A command that runs `agent-hooks bridge` however it is reached (a project's `.bin`, a path to `cli.js`, npx). */
const BRIDGE = /(?:agent-hooks|cli\.[cm]?js)["']?\s+bridge\b/;
const argument = (command: string, flag: string): string | undefined => new RegExp(`${flag}[=\\s]+["']?([\\w-]+)`).exec(command)?.[1];

/**
 * An agent's settings file as `--install` reads it before changing it: the whole object, and its `hooks` object.
 * Throws an {@link InstallBridgeError} naming the file when it is not valid JSON, not an object, or its `hooks` is
 * not one, so that nothing is written over what could not be read.
 *
 * @internal
 */
export function readHookSettings(text: string | undefined, file: string, eventsAt: 'hooks' | 'top' = 'hooks'): { settings: Record<string, unknown>; hooks: Record<string, unknown> } {
  let settings: Record<string, unknown> = {};
  if (text !== undefined) {
    const read = parseConfigJson(text, file);
    if (read.status === 'invalid') throw new InstallBridgeError(`${formatProblem(read.problem)} Fix it first; nothing was changed.`);
    if (read.status === 'ok' && !isRecord(read.value)) throw new InstallBridgeError(`${file} does not hold a JSON object; nothing was changed.`);
    settings = read.status === 'ok' ? (read.value as Record<string, unknown>) : {};
  }
  // A file that is the map of events itself has no other settings to keep beside them.
  if (eventsAt === 'top') return { settings: {}, hooks: settings };
  const hooks = settings.hooks ?? {};
  if (!isRecord(hooks)) throw new InstallBridgeError(`${file}: "hooks" is not an object; nothing was changed.`);
  return { settings, hooks };
}

/** Whether `command` is this agent's bridge for the event `name`: the very command, or another line that runs it. */
function isOurs(command: unknown, wanted: string, target: InstallTarget, name: string): boolean {
  if (typeof command !== 'string') return false;
  if (command === wanted) return true;
  if (!BRIDGE.test(command) || argument(command, '--from') !== target.agent) return false;
  const event = argument(command, '--event');
  return !target.eventArgument || event === undefined || event === name;
}

/** The field of `handler` that holds its command: Copilot's `bash`, or `command`. */
function commandFieldOf(handler: Record<string, unknown>, target: InstallTarget): string {
  return target.commandField === 'bash' && handler.bash === undefined && handler.command !== undefined ? 'command' : target.commandField;
}

/** The field of `handler` that holds its timeout: the agent's own, or the other name it reads when only that is there. */
function timeoutFieldOf(handler: Record<string, unknown>, target: InstallTarget): string {
  const { field, alias } = target.timeout;
  return alias !== undefined && handler[field] === undefined && handler[alias] !== undefined ? alias : field;
}

/**
 * Where the matcher of the bridge's entry `ours` is: its matcher group (grouped layouts), when the group holds nothing
 * else; the entry itself (flat layouts); `undefined` when the group is shared with other hooks.
 */
function matcherHolder(list: readonly unknown[], ours: Record<string, unknown>, target: InstallTarget): Record<string, unknown> | undefined {
  if (target.layout === 'flat') return ours;
  const group = list.find((g): g is Record<string, unknown> => isRecord(g) && Array.isArray(g.hooks) && g.hooks.includes(ours));
  return group !== undefined && (group.hooks as unknown[]).length === 1 ? group : undefined;
}

function newHandler(target: InstallTarget, command: string, timeout: number): Record<string, unknown> {
  return { ...(target.typed ? { type: 'command' } : {}), [target.commandField]: command, [target.timeout.field]: timeout };
}

/** The agent's names for `events`, and the ones it does not have. */
function eventNames(target: InstallTarget, events: readonly string[]): { names: string[]; skipped: string[] } {
  const names: string[] = [];
  const skipped: string[] = [];
  for (const given of events) {
    let name;
    try {
      name = installEventName(target.agent, given);
    } catch (error) {
      if (error instanceof UnknownEventError) throw new InstallBridgeError(`${error.message} Nothing was changed.`);
      throw error;
    }
    if (name === undefined) skipped.push(given);
    else if (!names.includes(name)) names.push(name);
  }
  if (names.length === 0) {
    const known = Object.keys(target.events).join(', ');
    const asked = events.length === 0 ? 'No event was named' : `${target.title} has none of ${events.join(', ')}`;
    throw new InstallBridgeError(`${asked}, so there is nothing to bridge; its events are ${known}. Nothing was changed.`);
  }
  return { names, skipped };
}

/**
 * Adds the bridge to `agent`'s project-level hook config for each event, so that the agent runs the project's HOOK.md
 * hooks. Everything already in the file stays: other settings, other hooks, other matcher groups. An event whose
 * entry already runs the bridge is brought up to date in place (a new command line or timeout) or left alone, so
 * installing twice changes nothing. The old file is first copied to `FILE.bak`; the new one is written to a temporary
 * file and renamed over it. The config file, its folders and its backup are never followed when they are links.
 *
 * Each agent's file and entry shape is its profile's install shape (`src/agents/<id>/profile.ts`); docs/bridge.md
 * lists them. An entry is a matcher group `{ hooks: [{ type: "command", command, timeout }] }` (the `grouped` layout),
 * a handler itself (`flat`), or, for an agent that runs one executable per event from a folder (`scripts`), a script
 * named after the event: {@link InstallBridgeResult.file} is then the folder, a script already there that does not run
 * the bridge is the project's own hook (nothing is written then), and there is no per-hook timeout to write. For an
 * agent that loads a plugin into its own process (`plugin`), the file is the plugin, and a file of that name that does
 * not export ours is the project's own: nothing is written then either.
 *
 * @throws {@link InstallBridgeError} when the file is not valid JSON or not of the agent's shape, when it (or a
 *   folder on the way, or its backup's name) is a symbolic link, when no event is left to bridge, or when no command
 *   line can be found — nothing is written then.
 */
export async function installBridge(options: InstallBridgeOptions): Promise<InstallBridgeResult> {
  const target = INSTALL_TARGETS[options.agent];
  if (target === undefined) throw new InstallBridgeError(`Unknown agent ${JSON.stringify(options.agent)}; the bridge installs into ${Object.keys(INSTALL_TARGETS).join(', ')}.`);
  const seconds = options.timeoutSeconds;
  if (seconds !== undefined && (!Number.isSafeInteger(seconds) || seconds <= 0)) throw new InstallBridgeError(`The timeout must be a whole number of seconds above 0, not ${seconds}.`);
  if (target.layout === 'plugin') {
    // The plugin runs every hook of the project, whatever its event, and gives each its own timeout.
    if (options.level === 'user') throw new InstallBridgeError(`${target.title} has no user-level plugin file agent-hooks writes; install it in each project. Nothing was changed.`);
    if (seconds !== undefined) throw new InstallBridgeError(`${target.title} runs the hooks in its own process, each with the timeout its HOOK.md gives: leave the timeout out. Nothing was changed.`);
    if (options.command !== undefined) throw new InstallBridgeError(`${target.title} loads a plugin rather than running a command: leave the command out. Nothing was changed.`);
    const { file, backup, state, packageFound } = await installPlugin(target, options.projectDir);
    const events = Object.keys(target.events);
    const twice = (await otherPluginsOfOurs(target, options.projectDir)).map(
      (other) => `${other} loads the agent-hooks plugin too: ${target.title} loads both files, and would run every hook twice. Remove one of them.`,
    );
    const warnings = packageFound ? twice : [...twice, `${target.title} imports the plugin from the project's node_modules, where agent-hooks is not installed: run 'npm install --save-dev agent-hooks' in ${options.projectDir}; until then the plugin refuses every tool call in ${target.title}.`];
    const command = `import('${target.pluginEntry ?? ''}') in ${target.file}`;
    return { agent: target.agent, file, backup, added: state === 'added' ? events : [], updated: state === 'updated' ? events : [], present: state === 'present' ? events : [], skipped: [], command, warnings };
  }
  const inUnit = (s: number): number => (target.timeout.unit === 'ms' ? s * 1000 : s);
  const timeout = seconds === undefined ? undefined : inUnit(seconds);
  const { names, skipped } = eventNames(target, options.events);
  const user = options.level === 'user' ? userHookFile(target.agent, options.env) : undefined;
  if (options.level === 'user' && user === undefined) throw new InstallBridgeError(`${target.title} has no user-level hook file of its own; nothing was changed.`);
  const command =
    options.command ??
    (user === undefined
      ? clearingNodeVariables(target.agent, await bridgeCommandLine(target.agent, options.projectDir, options.executable ?? process.argv[1]))
      : await userBridgeCommandLine(target.agent, options.projectDir, options.executable ?? process.argv[1]));
  const tools = options.served === undefined ? undefined : await servedLineTools(options.env);
  // Half of the agent's timeout for the server: the other half is the command bridge's, should it have to answer.
  const maxSeconds = (seconds ?? target.fixedTimeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) / 2;
  const lineFor = (fallback: string, event: string | undefined): string => {
    if (options.served === undefined || tools === undefined) return fallback;
    const url = `${options.served.baseUrl.replace(/\/+$/, '')}/bridge/${target.agent}${event === undefined ? '' : `/${encodeURIComponent(event)}`}`;
    return servedBridgeLine({ agent: target.agent, fallback, url, maxSeconds, ...tools });
  };
  if (target.layout === 'scripts') {
    if (seconds !== undefined) throw new InstallBridgeError(`${target.title} has no timeout of a hook's own to write${target.fixedTimeoutSeconds === undefined ? '' : ` (it gives each ${target.fixedTimeoutSeconds} s)`}: leave the timeout out. Nothing was changed.`);
    const scripts = await installScripts(target, options.projectDir, names, lineFor(command, undefined));
    return { agent: target.agent, backup: undefined, skipped, command: lineFor(command, undefined), ...scripts };
  }
  const atExit = names.filter((name) => target.firedAtExit?.includes(name));
  const setsid = atExit.length === 0 ? undefined : await findSetsid((options.env ?? process.env)['PATH']);
  const commandFor = (name: string): string => {
    const perEvent = target.eventArgument && !/--event\b/.test(command);
    const line = lineFor(perEvent ? `${command} --event ${name}` : command, perEvent ? name : undefined);
    return atExit.includes(name) ? detachedBridgeLine(line, setsid) : line;
  };

  const previous = user === undefined ? await readProjectFile(options.projectDir, target.file) : await readProjectFile(user.dir, user.file);
  const { file } = previous;
  const { settings, hooks } = readHookSettings(previous.text, file, target.eventsAt);

  const added: string[] = [];
  const updated: string[] = [];
  const present: string[] = [];
  const warnings: string[] = [];
  const replaced = await replacedLists(target, user === undefined ? options.projectDir : user.dir);
  const standIn = previous.text === undefined ? replaced.find((r) => r.whole) : undefined;
  if (standIn !== undefined) {
    // The agent reads that file while this one does not exist: the new one starts from all it holds.
    Object.assign(hooks, structuredClone(standIn.hooks));
    warnings.push(`${target.title} reads ${standIn.file} only while ${file} does not exist: its hooks were copied into ${file}, which it reads from now on; the old file can be removed.`);
  }
  for (const name of names) {
    const wanted = commandFor(name);
    const list = hooks[name] ?? [];
    if (!Array.isArray(list)) throw new InstallBridgeError(`${file}: hooks.${name} is not a list; nothing was changed.`);
    const handlers = target.layout === 'grouped' ? list.flatMap((g) => (isRecord(g) && Array.isArray(g.hooks) ? g.hooks : [])) : list;
    const ours = handlers.find((h): h is Record<string, unknown> => isRecord(h) && isOurs(h[commandFieldOf(h, target)], wanted, target, name));
    const matcher = options.matchers?.(name);
    const withMatcher = matcher === undefined ? {} : { matcher };
    if (ours === undefined) {
      const handler = newHandler(target, wanted, timeout ?? inUnit(DEFAULT_TIMEOUT_SECONDS));
      // The hooks the agent ran for this event from a file this one now replaces: carried over, so they keep running.
      const carried = list.length === 0 ? replaced.find((r) => !r.whole && r.lists.has(name)) : undefined;
      if (carried !== undefined) {
        const groups = carried.lists.get(name)!;
        warnings.push(`${target.title} runs the ${name} hooks of ${file} alone once it has some, so the ${groups.length} group(s) of ${name} in ${carried.file} were copied there, before the bridge; the copies in ${carried.file} no longer run and can be removed.`);
        list.unshift(...structuredClone(groups));
      }
      hooks[name] = [...list, target.layout === 'grouped' ? { ...withMatcher, hooks: [handler] } : { ...handler, ...withMatcher }];
      added.push(name);
      continue;
    }
    const holder = options.matchers === undefined ? undefined : matcherHolder(list, ours, target);
    const matcherDue = holder !== undefined && holder.matcher !== matcher;
    if (!matcherDue && ours[commandFieldOf(ours, target)] === wanted && (timeout === undefined || ours[timeoutFieldOf(ours, target)] === timeout)) {
      present.push(name);
    } else {
      ours[commandFieldOf(ours, target)] = wanted;
      // Codex refuses a file naming both `timeout` and `timeoutSec`: the entry's own field is updated.
      if (timeout !== undefined) ours[timeoutFieldOf(ours, target)] = timeout;
      if (matcherDue && matcher === undefined) delete holder.matcher;
      else if (matcherDue) holder.matcher = matcher;
      updated.push(name);
    }
  }
  if (added.length === 0 && updated.length === 0) return { agent: target.agent, file, backup: undefined, added, updated, present, skipped, command: lineFor(command, undefined), ...(warnings.length > 0 ? { warnings } : {}) };
  const versioned = target.version !== undefined && settings.version === undefined ? { version: target.version } : {};
  const body = target.eventsAt === 'top' ? hooks : { ...versioned, ...settings, hooks };
  const backup = await replaceProjectFile(previous, `${JSON.stringify(body, null, 2)}\n`);
  return { agent: target.agent, file, backup, added, updated, present, skipped, command: lineFor(command, undefined), ...(warnings.length > 0 ? { warnings } : {}) };
}

/**
 * The files the target's file replaces ({@link InstallTarget.replaces}) that exist, with their events, and each event's
 * non-empty list. A file that cannot be read stops the install, as the target's own does.
 */
async function replacedLists(target: InstallTarget, dir: string): Promise<{ file: string; whole: boolean; hooks: Record<string, unknown>; lists: Map<string, unknown[]> }[]> {
  const read: { file: string; whole: boolean; hooks: Record<string, unknown>; lists: Map<string, unknown[]> }[] = [];
  for (const other of target.replaces ?? []) {
    const previous = await readProjectFile(dir, other.file);
    if (previous.text === undefined) continue;
    const { hooks } = readHookSettings(previous.text, previous.file, other.eventsAt);
    const lists = new Map(Object.entries(hooks).filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]) && entry[1].length > 0));
    read.push({ file: previous.file, whole: other.whole === true, hooks, lists });
  }
  return read;
}
