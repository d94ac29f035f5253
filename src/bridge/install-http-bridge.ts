/**
 * Writing Claude Code's `type: "http"` entries that send its hooks to `agent-hooks serve`, in place of the command
 * bridge's entries.
 *
 * @module
 */
import { UnknownEventError } from '../core/index.js';
import { isRecord } from '../dialects/wire-output.js';
import { InstallBridgeError } from './install-bridge-error.js';
import { readHookSettings } from './install-bridge.js';
import { INSTALL_TARGETS, installEventName } from './install-targets.js';
import { readProjectFile, replaceProjectFile } from './project-file.js';

/** What {@link installHttpBridge} needs. */
export interface InstallHttpBridgeOptions {
  /** The project whose `.claude/settings.json` gets the entries. */
  readonly projectDir: string;
  /** The events to send, in any dialect's names; those Claude Code does not have are skipped. */
  readonly events: readonly string[];
  /** The server's base address, e.g. `http://127.0.0.1:7391`; `/hooks/claude` is added. */
  readonly baseUrl: string;
  /** How long Claude Code waits for an answer, in seconds (default 60 for a new entry; one already there keeps its own). */
  readonly timeoutSeconds?: number | undefined;
  /** The variable Claude Code reads the token from (default `AGENT_HOOKS_TOKEN`). */
  readonly tokenVariable?: string | undefined;
}

/** What {@link installHttpBridge} did. */
export interface InstallHttpBridgeResult {
  /** `.claude/settings.json`, absolute. */
  readonly file: string;
  /** The copy of the file as it was, when it existed and was changed. */
  readonly backup: string | undefined;
  /** The events an http entry was added to. */
  readonly added: readonly string[];
  /** The events whose http entry was brought up to date, or whose command bridge entry it replaced. */
  readonly updated: readonly string[];
  /** The events whose http entry was already as asked. */
  readonly present: readonly string[];
  /** The events asked for that Claude Code does not have. */
  readonly skipped: readonly string[];
  /** The URL written. */
  readonly url: string;
}

/**
 * The events on which a failed request refuses rather than lets the action go on (`"onFailure": "block"`): those
 * whose hooks guard something — a tool call, a permission, a prompt. Claude Code reads any answer but a 2xx, a
 * refused connection and a timeout as a failed hook, and without it lets the action go on: a guard that cannot be
 * asked would become an allow. On the other events (observers, and the stop gates, where Claude Code never blocks on a
 * failure) a failure is only reported.
 *
 * @internal
 */
export const FAIL_CLOSED_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'PermissionRequest', 'UserPromptSubmit']);

const DEFAULT_TIMEOUT_SECONDS = 60;
/** A command that runs `agent-hooks bridge --from claude`, however it is reached. */
const COMMAND_BRIDGE = /(?:agent-hooks|cli\.[cm]?js)["']?\s+bridge\b.*--from[=\s]+["']?claude\b/;
const isHttpBridge = (handler: Record<string, unknown>): boolean => handler.type === 'http' && typeof handler.url === 'string' && /\/hooks\/claude\/?$/.test(handler.url);
const isCommandBridge = (handler: Record<string, unknown>): boolean => (handler.type === undefined || handler.type === 'command') && typeof handler.command === 'string' && COMMAND_BRIDGE.test(handler.command);

/** The entry for `event`: the URL, the token's header and variable, the timeout, and the failure policy. */
function httpHandler(event: string, url: string, variable: string, timeout: number): Record<string, unknown> {
  return {
    type: 'http',
    url,
    headers: { Authorization: `Bearer $${variable}` },
    allowedEnvVars: [variable],
    timeout,
    ...(FAIL_CLOSED_EVENTS.has(event) ? { onFailure: 'block' } : {}),
  };
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Writes, for each event, Claude Code's `type: "http"` entry that POSTs the hook input to `agent-hooks serve`
 * (`<baseUrl>/hooks/claude`), with `Authorization: Bearer $AGENT_HOOKS_TOKEN` interpolated from Claude Code's
 * environment (the variable listed in `allowedEnvVars`) and `"onFailure": "block"` on
 * `FAIL_CLOSED_EVENTS` (PreToolUse, PermissionRequest, UserPromptSubmit). A command entry that runs `agent-hooks bridge --from claude` for the event is replaced
 * by it — both would run the same hooks twice —; an http entry for the same route is brought up to date in place;
 * everything else in the file stays. The file is written as {@link installBridge} writes it: merged, the old one kept
 * as `settings.json.bak`, through a temporary file, never through a link.
 *
 * ```jsonc
 * // .claude/settings.json
 * { "hooks": { "PreToolUse": [{ "hooks": [{ "type": "http", "url": "http://127.0.0.1:7391/hooks/claude",
 *   "headers": { "Authorization": "Bearer $AGENT_HOOKS_TOKEN" }, "allowedEnvVars": ["AGENT_HOOKS_TOKEN"],
 *   "timeout": 60, "onFailure": "block" }] }] } }
 * ```
 *
 * @throws {@link InstallBridgeError} as {@link installBridge} does.
 */
export async function installHttpBridge(options: InstallHttpBridgeOptions): Promise<InstallHttpBridgeResult> {
  const target = INSTALL_TARGETS.claude;
  const seconds = options.timeoutSeconds;
  if (seconds !== undefined && (!Number.isSafeInteger(seconds) || seconds <= 0)) throw new InstallBridgeError(`The timeout must be a whole number of seconds above 0, not ${seconds}.`);
  const variable = options.tokenVariable ?? 'AGENT_HOOKS_TOKEN';
  const url = `${options.baseUrl.replace(/\/+$/, '')}/hooks/claude`;
  const names: string[] = [];
  const skipped: string[] = [];
  for (const given of options.events) {
    let name;
    try {
      name = installEventName('claude', given);
    } catch (error) {
      if (error instanceof UnknownEventError) throw new InstallBridgeError(`${error.message} Nothing was changed.`);
      throw error;
    }
    if (name === undefined) skipped.push(given);
    else if (!names.includes(name)) names.push(name);
  }
  if (names.length === 0) throw new InstallBridgeError(`No event of Claude Code was named, so there is nothing to send to the server; its events are ${Object.keys(target.events).join(', ')}. Nothing was changed.`);

  const previous = await readProjectFile(options.projectDir, target.file);
  const { file } = previous;
  const { settings, hooks } = readHookSettings(previous.text, file);

  const added: string[] = [];
  const updated: string[] = [];
  const present: string[] = [];
  for (const name of names) {
    const list = hooks[name] ?? [];
    if (!Array.isArray(list)) throw new InstallBridgeError(`${file}: hooks.${name} is not a list; nothing was changed.`);
    const groups = list.filter(isRecord);
    const handlers = groups.flatMap((g) => (Array.isArray(g.hooks) ? g.hooks.filter(isRecord) : []));
    const http = handlers.find(isHttpBridge);
    const timeout = seconds ?? (typeof http?.timeout === 'number' ? http.timeout : DEFAULT_TIMEOUT_SECONDS);
    const wanted = httpHandler(name, url, variable, timeout);
    // The command bridge runs the same hooks: it goes, and its place is taken by the http entry unless one exists.
    let replaced = false;
    for (const group of groups) {
      if (!Array.isArray(group.hooks)) continue;
      group.hooks = group.hooks.flatMap((h: unknown) => {
        if (!isRecord(h) || !isCommandBridge(h)) return [h];
        replaced = true;
        if (http !== undefined) return [];
        return [wanted];
      });
    }
    const kept = list.filter((g) => !isRecord(g) || !Array.isArray(g.hooks) || g.hooks.length > 0);
    if (http !== undefined) {
      if (same(http, { ...http, ...wanted }) && !replaced) {
        present.push(name);
      } else {
        Object.assign(http, wanted);
        updated.push(name);
      }
      hooks[name] = kept;
    } else if (replaced) {
      hooks[name] = kept;
      updated.push(name);
    } else {
      hooks[name] = [...list, { hooks: [wanted] }];
      added.push(name);
    }
  }
  if (added.length === 0 && updated.length === 0) return { file, backup: undefined, added, updated, present, skipped, url };
  const backup = await replaceProjectFile(previous, `${JSON.stringify({ ...settings, hooks }, null, 2)}\n`);
  return { file, backup, added, updated, present, skipped, url };
}
