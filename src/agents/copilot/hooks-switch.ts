/**
 * Copilot CLI's `disableAllHooks`: at the top level of a repository's settings, one setting that switches off every
 * hook Copilot runs in that repository — the user's own included.
 *
 * @module
 */
import { join, relative } from 'node:path';
import { settingsOf, switchedOnBy } from '../settings-switch.js';

/**
 * The repository settings files whose top-level `disableAllHooks` Copilot CLI 1.0.102 reads, in the order it merges
 * them (the last one that sets it wins): the cross-tool `.claude/` files first, then `.github/copilot/`. The user's
 * `~/.copilot/settings.json` is not among them: there, 1.0.102 leaves every hook running.
 *
 * @internal
 */
export function copilotRepositorySettingsFiles(projectDir: string): string[] {
  return [
    join(projectDir, '.claude', 'settings.json'),
    join(projectDir, '.claude', 'settings.local.json'),
    join(projectDir, '.github', 'copilot', 'settings.json'),
    join(projectDir, '.github', 'copilot', 'settings.local.json'),
  ];
}

/**
 * The file whose `"disableAllHooks": true` makes Copilot CLI 1.0.102 run no hook at all in the repository, from the
 * files' contents in its merge order (`files` as {@link copilotRepositorySettingsFiles} lists them); `undefined` when
 * the hooks run. As it does: the last file that sets `disableAllHooks` decides (a `false` in a later file undoes an
 * earlier `true`).
 *
 * @internal
 */
export function copilotHooksSwitchedOff(files: readonly { readonly file: string; readonly settings: unknown }[]): string | undefined {
  return switchedOnBy(files, 'disableAllHooks')?.file;
}

/**
 * {@link copilotHooksSwitchedOff} for a repository, read from disk.
 *
 * @internal
 */
export async function copilotHooksSwitchedOffIn(projectDir: string): Promise<string | undefined> {
  const files = await Promise.all(copilotRepositorySettingsFiles(projectDir).map(async (file) => ({ file, settings: await settingsOf(file) })));
  return copilotHooksSwitchedOff(files);
}

/**
 * What the user is told when a repository's settings switch Copilot CLI's hooks off: which file, and that the user's
 * own hooks (an installed bridge among them) do not run either.
 *
 * @internal
 */
export function copilotHooksSwitchMessage(shown: string): string {
  return `${shown} (this repository's settings) sets "disableAllHooks": true, so GitHub Copilot CLI runs no hook at all in this repository — not the repository's, and not your own user hooks in ~/.copilot, the agent-hooks bridge among them. Copilot CLI will not run your guards here: remove "disableAllHooks" from that file (or set it to false) before you run Copilot CLI in this repository.`;
}

/**
 * The warning `list`, `validate` and `bridge --install copilot` print when Copilot CLI runs no hook in `projectDir`;
 * `undefined` when its hooks run.
 *
 * @internal
 */
export async function copilotHooksSwitchedOffWarning(projectDir: string): Promise<string | undefined> {
  const off = await copilotHooksSwitchedOffIn(projectDir);
  return off === undefined ? undefined : `WARNING: ${copilotHooksSwitchMessage(relative(projectDir, off))}`;
}
