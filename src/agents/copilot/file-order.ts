/**
 * The order Copilot CLI runs the hooks of several hook files in.
 *
 * @module
 * @internal
 */
import { basename } from 'node:path';
import type { ConfigHook } from '../../config/config-source.js';

/**
 * Whether `file` is one of the settings files Copilot CLI reads inline hooks from (`settings.json`,
 * `settings.local.json`), not a file of a hooks folder.
 *
 * @internal
 */
export const isCopilotSettingsFile = (file: string): boolean => basename(file) === 'settings.json' || basename(file) === 'settings.local.json';

/**
 * `hooks` (loaded file by file: the user's `~/.copilot/hooks/`, then the project's `.github/hooks/`, each in name
 * order, each folder's followed by its level's settings files) in the order Copilot CLI 1.0.102 runs them: the user's
 * files first, then the project's, and within each folder by file name, last first (`c.json`, `b.json`, `a.json`);
 * each file's own hooks keep their order, and every other hook (a settings file's too) keeps its place.
 *
 * @internal
 */
export function inCopilotFileOrder(hooks: readonly ConfigHook[]): ConfigHook[] {
  let out = [...hooks];
  for (const level of ['user', 'project'] as const) {
    // A settings file's inline hooks run after its level's folder of files, where they were loaded.
    const reordered = (h: ConfigHook): boolean => h.origin.kind === 'copilot' && h.origin.level === level && !isCopilotSettingsFile(h.origin.file);
    const byFile = new Map<string, ConfigHook[]>();
    for (const hook of out.filter(reordered)) byFile.set(hook.origin.file, [...(byFile.get(hook.origin.file) ?? []), hook]);
    const queue = [...byFile.keys()].sort().reverse().flatMap((file) => byFile.get(file)!);
    out = out.map((hook) => (reordered(hook) ? queue.shift()! : hook));
  }
  return out;
}
