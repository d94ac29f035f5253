/**
 * The order Copilot CLI runs the hooks of several files of `.github/hooks/` in.
 *
 * @module
 * @internal
 */
import type { ConfigHook } from '../../config/config-source.js';

/**
 * `hooks` (loaded file by file, in name order) with the Copilot files of the project's `.github/hooks/` in the order
 * Copilot CLI 1.0.102 runs them: by file name, last first (`c.json`, `b.json`, `a.json`); each file's own hooks keep
 * their order, and every other hook keeps its place.
 *
 * @internal
 */
export function inCopilotFileOrder(hooks: readonly ConfigHook[]): ConfigHook[] {
  const reordered = (h: ConfigHook): boolean => h.origin.kind === 'copilot' && h.origin.level === 'project';
  const byFile = new Map<string, ConfigHook[]>();
  for (const hook of hooks.filter(reordered)) byFile.set(hook.origin.file, [...(byFile.get(hook.origin.file) ?? []), hook]);
  const files = [...byFile.keys()].sort().reverse();
  const queue = files.flatMap((file) => byFile.get(file)!);
  return hooks.map((hook) => (reordered(hook) ? queue.shift()! : hook));
}
