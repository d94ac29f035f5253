/**
 * Taking the bridge out of an agent's hook config: `agent-hooks bridge --uninstall AGENT`.
 *
 * @module
 */
import { fsPromises } from '../core/internal/node-fs.js';
import { isRecord } from '../dialects/wire-output.js';
import { InstallBridgeError } from './install-bridge-error.js';
import { readHookSettings } from './install-bridge.js';
import { INSTALL_TARGETS, type InstallAgent } from './install-targets.js';
import { readProjectFile, replaceProjectFile } from './project-file.js';
import { userHookFile } from './user-bridge-command.js';

/** What {@link uninstallBridge} needs. */
export interface UninstallBridgeOptions {
  readonly agent: InstallAgent;
  readonly projectDir: string;
  /** `'user'`: the agent's user-level config, as `installBridge` writes it with `level: 'user'`. Default `'project'`. */
  readonly level?: 'project' | 'user' | undefined;
  /** With `level: 'user'`: where `HOME` and `CODEX_HOME` are read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

/** What {@link uninstallBridge} did. */
export interface UninstallBridgeResult {
  readonly agent: InstallAgent;
  /** The config file (for a `scripts` agent, the folder). */
  readonly file: string;
  /** The copy of the file as it was, when it was changed. */
  readonly backup: string | undefined;
  /** The events whose bridge entry was removed. */
  readonly removed: readonly string[];
}

/** A command that runs `agent-hooks bridge --from AGENT` however it reaches it: the command bridge, or a served line's fallback. */
const runsBridge = (command: unknown, agent: string): boolean =>
  typeof command === 'string' && /(?:agent-hooks|cli\.[cm]?js)["']?\s+bridge\b/.test(command) && new RegExp(`--from[=\\s]+["']?${agent}\\b`).test(command);

/** Whether `handler` is ours: a command (`command`, or Copilot's `bash`) that runs the bridge, or Claude Code's http entry to serve. */
const isOurs = (handler: unknown, agent: string): boolean =>
  isRecord(handler) &&
  (runsBridge(handler.command, agent) || runsBridge(handler.bash, agent) || (handler.type === 'http' && typeof handler.url === 'string' && new RegExp(`/hooks/${agent}/?$`).test(handler.url)));

/**
 * Removes every entry of `agent`'s config that runs the bridge for it — the command bridge, the served line
 * (`--install AGENT --http`), Claude Code's http entries — and nothing else: a matcher group left empty goes, an event
 * left with no entry goes, and everything else in the file stays. The old file is kept as `FILE.bak`, as `--install`
 * keeps it. For an agent that runs one script per event, the scripts that run the bridge are deleted.
 *
 * @throws {@link InstallBridgeError} when the file cannot be read safely (not JSON, not of the agent's shape, a link),
 *   or for an agent that loads a plugin (its file is to be deleted by hand) — nothing is changed then.
 */
export async function uninstallBridge(options: UninstallBridgeOptions): Promise<UninstallBridgeResult> {
  const target = INSTALL_TARGETS[options.agent];
  if (target.layout === 'plugin') throw new InstallBridgeError(`${target.title} loads the agent-hooks plugin from ${target.file}: delete that file to take the hooks out. Nothing was changed.`);
  const user = options.level === 'user' ? userHookFile(target.agent, options.env) : undefined;
  if (options.level === 'user' && user === undefined) throw new InstallBridgeError(`${target.title} has no user-level hook file of its own; nothing was changed.`);
  if (target.layout === 'scripts') {
    const folder = `${options.projectDir.replace(/\/$/, '')}/${target.file}`;
    const removed: string[] = [];
    for (const name of await fsPromises().readdir(folder).catch(() => [] as string[])) {
      const script = await readProjectFile(options.projectDir, `${target.file}/${name}`);
      if (script.text === undefined || !runsBridge(script.text, target.agent)) continue;
      await fsPromises().unlink(script.file);
      removed.push(name);
    }
    return { agent: target.agent, file: folder, backup: undefined, removed };
  }
  const previous = user === undefined ? await readProjectFile(options.projectDir, target.file) : await readProjectFile(user.dir, user.file);
  const { settings, hooks } = readHookSettings(previous.text, previous.file, target.eventsAt);
  const removed: string[] = [];
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    const kept = list.flatMap((entry: unknown) => {
      if (target.layout === 'flat') return isOurs(entry, target.agent) ? [] : [entry];
      if (!isRecord(entry) || !Array.isArray(entry.hooks) || !entry.hooks.some((h) => isOurs(h, target.agent))) return [entry];
      const rest = entry.hooks.filter((h) => !isOurs(h, target.agent));
      return rest.length === 0 ? [] : [{ ...entry, hooks: rest }];
    });
    if (kept.length === list.length && kept.every((entry, i) => entry === list[i])) continue;
    removed.push(event);
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  if (removed.length === 0) return { agent: target.agent, file: previous.file, backup: undefined, removed };
  const body = target.eventsAt === 'top' ? hooks : { ...settings, hooks };
  const backup = await replaceProjectFile(previous, `${JSON.stringify(body, null, 2)}\n`);
  return { agent: target.agent, file: previous.file, backup, removed };
}
