/**
 * Claude Code's `disableAllHooks`: one setting, in any of its settings files, that switches off every hook of every
 * file — the user's own included.
 *
 * @module
 */
import { join, relative } from 'node:path';
import type { ConfigLevel } from '../../script/command-hook.js';
import { isRecord } from '../../dialects/wire-output.js';
import { settingsOf, switchedOnBy } from '../settings-switch.js';

/** Where the hooks were switched off: the file whose `disableAllHooks` decided it. */
export interface ClaudeHooksSwitch {
  /** The settings file that set `"disableAllHooks": true` last, in Claude Code's merge order. */
  readonly file: string;
  /** Whose file it is: `user`, `project`, `local` or `managed`. */
  readonly level: ConfigLevel | 'managed';
}

/**
 * The managed settings file of this platform (an organisation's policy, which no other file overrides), as Claude
 * Code reads it.
 *
 * @internal
 */
export function claudeManagedSettingsFile(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\managed-settings.json';
  return '/etc/claude-code/managed-settings.json';
}

/**
 * Whether Claude Code 2.1.332 runs no hook of its settings files, and which file decided it, from the files' contents
 * in the order Claude Code merges them (user, project, local). As it does: the last file that sets `disableAllHooks`
 * wins (so a project's `false` undoes the user's `true`), and `true` from any file — a repository's
 * `.claude/settings.json` or `settings.local.json` too — switches off the hooks of all of them, the user's own. A
 * managed file's `true` wins over everything. `undefined` when the hooks run.
 *
 * @internal
 */
export function claudeHooksSwitchedOff(
  files: readonly { readonly file: string; readonly level: ConfigLevel; readonly settings: unknown }[],
  managed?: { readonly file: string; readonly settings: unknown },
): ClaudeHooksSwitch | undefined {
  if (isRecord(managed?.settings) && managed.settings.disableAllHooks === true) return { file: managed.file, level: 'managed' };
  const decided = switchedOnBy(files, 'disableAllHooks');
  return decided === undefined ? undefined : { file: decided.file, level: decided.level };
}

/**
 * {@link claudeHooksSwitchedOff} for a project, read from disk: the user's `~/.claude/settings.json` (under `homeDir`),
 * the project's `.claude/settings.json` and `.claude/settings.local.json`, and the managed file.
 *
 * @internal
 */
export async function claudeHooksSwitchedOffIn(projectDir: string, homeDir: string | undefined): Promise<ClaudeHooksSwitch | undefined> {
  const places: { file: string; level: ConfigLevel }[] = [
    ...(homeDir === undefined ? [] : [{ file: join(homeDir, '.claude', 'settings.json'), level: 'user' as const }]),
    { file: join(projectDir, '.claude', 'settings.json'), level: 'project' },
    { file: join(projectDir, '.claude', 'settings.local.json'), level: 'local' },
  ];
  const files = await Promise.all(places.map(async (p) => ({ ...p, settings: await settingsOf(p.file) })));
  const managedFile = claudeManagedSettingsFile();
  return claudeHooksSwitchedOff(files, { file: managedFile, settings: await settingsOf(managedFile) });
}

/**
 * What the user is told when {@link claudeHooksSwitchedOff} says the hooks are off: by whom, and that the user's own
 * hooks (an installed bridge among them) do not run either.
 *
 * @internal
 */
export function claudeHooksSwitchMessage(off: ClaudeHooksSwitch, shown: string = off.file): string {
  const who =
    off.level === 'managed'
      ? 'your organisation\'s managed settings'
      : off.level === 'user'
        ? 'your own user settings'
        : `this repository's ${off.level === 'local' ? 'local settings' : 'settings'}`;
  const fix =
    off.level === 'managed'
      ? 'Only an administrator can change it.'
      : off.level === 'user'
        ? 'Remove it from that file to run them.'
        : 'Claude Code will not run your guards here: remove "disableAllHooks" from that file (or set it to false) before you run Claude Code in this repository.';
  return `${shown} (${who}) sets "disableAllHooks": true, so Claude Code runs none of the hooks of any of its settings files in this project — the project's, the local file's, and your own user hooks, the agent-hooks bridge among them. ${fix}`;
}

/**
 * The warning `list`, `validate` and `bridge --install claude` print when Claude Code runs no hook in `projectDir`:
 * the file that switched them off (a project file shown relative to the project), and that the user's own hooks do
 * not run either; `undefined` when they run.
 *
 * @internal
 */
export async function claudeHooksSwitchedOffWarning(projectDir: string, home: string): Promise<string | undefined> {
  const off = await claudeHooksSwitchedOffIn(projectDir, home);
  if (off === undefined) return undefined;
  const shown = off.level === 'project' || off.level === 'local' ? relative(projectDir, off.file) : off.file;
  return `WARNING: ${claudeHooksSwitchMessage(off, shown)}`;
}
