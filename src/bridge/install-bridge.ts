/**
 * Writing the bridge into Claude Code's project settings: merged into what is there, never over it, with a backup.
 *
 * @module
 */
import { copyFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { HookEvent, type HookEventName } from '../core/index.js';
import { parseConfigJson } from '../config/config-file.js';
import { formatProblem } from '../script/problem.js';
import { isRecord } from '../dialects/wire-output.js';

/** What {@link installClaudeBridge} needs. */
export interface InstallBridgeOptions {
  /** The project whose `.claude/settings.json` gets the bridge. */
  readonly projectDir: string;
  /** The events to bridge (any dialect's names); each must exist in Claude Code. */
  readonly events: readonly string[];
  /** The command Claude Code runs (default: `npx --no-install agent-hooks bridge --from claude`). */
  readonly command?: string | undefined;
  /** The timeout Claude Code gives the bridge, in seconds (default 60). */
  readonly timeoutSeconds?: number | undefined;
}

/** What {@link installClaudeBridge} did. */
export interface InstallBridgeResult {
  /** The settings file. */
  readonly file: string;
  /** The copy of the file as it was, when it existed and was changed. */
  readonly backup: string | undefined;
  /** The Claude Code events the bridge was added to. */
  readonly added: readonly string[];
  /** The events that already ran the same command, left as they were. */
  readonly present: readonly string[];
}

/** The command the bridge installs by default. */
export const DEFAULT_CLAUDE_BRIDGE_COMMAND = 'npx --no-install agent-hooks bridge --from claude';

/** Thrown when the settings cannot be merged safely (not JSON, or `hooks` of the wrong shape); nothing is written. */
export class InstallBridgeError extends Error {
  /** Always `InstallBridgeError`. */
  override readonly name = 'InstallBridgeError';
}

/**
 * Adds `{ "type": "command", "command": "… bridge --from claude" }` to `.claude/settings.json` for each event, so that
 * Claude Code runs the project's HOOK.md hooks. Everything already in the file stays: other settings, other hooks,
 * other matcher groups. An event that already runs the command is left alone, so installing twice changes nothing.
 * The old file is first copied to `settings.json.bak`; the new one is written to a temporary file and renamed over it.
 *
 * @throws {@link InstallBridgeError} when the file is not valid JSON or its `hooks` is not an object of lists — the
 *   file is then left untouched.
 */
export async function installClaudeBridge(options: InstallBridgeOptions): Promise<InstallBridgeResult> {
  const file = join(options.projectDir, '.claude', 'settings.json');
  const command = options.command ?? DEFAULT_CLAUDE_BRIDGE_COMMAND;
  const names = options.events.map((e) => {
    const event: HookEventName = HookEvent.parse(e);
    const name = HookEvent.toDialect(event, 'claude');
    if (name === undefined) throw new InstallBridgeError(`Claude Code has no ${event} event to run the bridge on.`);
    return name;
  });
  let text: string | undefined;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  let settings: Record<string, unknown> = {};
  if (text !== undefined) {
    const read = parseConfigJson(text, file);
    if (read.status === 'invalid') throw new InstallBridgeError(`${formatProblem(read.problem)} Fix it first; nothing was changed.`);
    if (read.status === 'ok' && !isRecord(read.value)) throw new InstallBridgeError(`${file} does not hold a JSON object; nothing was changed.`);
    settings = read.status === 'ok' ? (read.value as Record<string, unknown>) : {};
  }
  const hooks = settings.hooks ?? {};
  if (!isRecord(hooks)) throw new InstallBridgeError(`${file}: "hooks" is not an object; nothing was changed.`);
  const added: string[] = [];
  const present: string[] = [];
  for (const name of [...new Set(names)]) {
    const groups = hooks[name] ?? [];
    if (!Array.isArray(groups)) throw new InstallBridgeError(`${file}: hooks.${name} is not a list; nothing was changed.`);
    const has = groups.some((g) => isRecord(g) && Array.isArray(g.hooks) && g.hooks.some((h) => isRecord(h) && h.command === command));
    if (has) {
      present.push(name);
      continue;
    }
    hooks[name] = [...groups, { hooks: [{ type: 'command', command, timeout: options.timeoutSeconds ?? 60 }] }];
    added.push(name);
  }
  if (added.length === 0) return { file, backup: undefined, added, present };
  await mkdir(dirname(file), { recursive: true });
  let backup: string | undefined;
  if (text !== undefined) {
    backup = `${file}.bak`;
    await copyFile(file, backup);
  }
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ ...settings, hooks }, null, 2)}\n`);
  await rename(temporary, file);
  return { file, backup, added, present };
}
