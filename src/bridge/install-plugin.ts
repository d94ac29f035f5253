/**
 * Writing the plugin into an agent that runs a project's hooks in its own process rather than as commands: one file in
 * the agent's plugin folder that loads the plugin's package entry (the profile's `pluginEntry`).
 *
 * @module
 * @internal
 */
import { nodeFs, fsPromises } from '../core/internal/node-fs.js';
import { dirname, join } from 'node:path';
import { InstallBridgeError } from './install-bridge-error.js';
import type { InstallTarget } from './install-targets.js';
import { readProjectFile, replaceProjectFile } from './project-file.js';

const { existsSync } = nodeFs;

/** A plugin file of ours, as written now or before: one that exports `AgentHooks`, loaded from our package's `entry`. */
const loadsEntry = (text: string, entry: string): boolean => text.includes(`'${entry}'`) || text.includes(`"${entry}"`);
const EXPORTS = /export\s*(?:const\s+AgentHooks\b|\{\s*AgentHooks\s*\})/;

/** What {@link installPlugin} did. */
export interface InstalledPlugin {
  /** The plugin file. */
  readonly file: string;
  /** The file's previous contents, kept when it was changed. */
  readonly backup: string | undefined;
  /** Whether it was written new, brought up to date, or was already ours. */
  readonly state: 'added' | 'updated' | 'present';
  /** Whether the project (or a folder above it) has the `agent-hooks` package the plugin imports. */
  readonly packageFound: boolean;
}

/**
 * Writes `target.plugin` to `target.file` under `projectDir`. A file of that name that does not export our plugin is
 * the project's own: nothing is written then.
 *
 * @throws {@link InstallBridgeError} naming such a file, or a link on the way (see `readProjectFile`).
 */
export async function installPlugin(target: InstallTarget, projectDir: string): Promise<InstalledPlugin> {
  const text = target.plugin;
  const entry = target.pluginEntry;
  if (text === undefined || entry === undefined) throw new InstallBridgeError(`${target.title} has no plugin to write; nothing was changed.`);
  const previous = await readProjectFile(projectDir, target.file);
  const packageFound = hasPackage(projectDir);
  if (previous.text === text) return { file: previous.file, backup: undefined, state: 'present', packageFound };
  if (previous.text !== undefined && !(loadsEntry(previous.text, entry) && EXPORTS.test(previous.text))) {
    throw new InstallBridgeError(
      `${previous.file} is a plugin of the project's own, which ${target.title} loads; nothing was changed. Add this line to it yourself: export { AgentHooks } from '${entry}'; — or move it away and install again.`,
    );
  }
  const backup = await replaceProjectFile(previous, text);
  return { file: previous.file, backup, state: previous.text === undefined ? 'added' : 'updated', packageFound };
}

/**
 * The other plugin files of `target`'s folders under `projectDir` that load our plugin too: with the one `--install`
 * writes, the agent would run every hook twice.
 *
 * @internal
 */
export async function otherPluginsOfOurs(target: InstallTarget, projectDir: string): Promise<string[]> {
  const own = join(projectDir, ...target.file.split('/'));
  const found: string[] = [];
  for (const folder of target.pluginFolders ?? []) {
    const dir = join(projectDir, ...folder.split('/'));
    let names: string[];
    try {
      names = await fsPromises().readdir(dir);
    } catch {
      continue;
    }
    for (const name of names.filter((n) => /\.(?:js|ts)$/.test(n)).sort()) {
      const file = join(dir, name);
      if (file === own) continue;
      const text = await fsPromises().readFile(file, 'utf8').catch(() => '');
      if (target.pluginEntry !== undefined && loadsEntry(text, target.pluginEntry)) found.push(file);
    }
  }
  return found;
}

/** Whether `agent-hooks` is installed where the agent's module loader looks from the project: its `node_modules` and those above. */
function hasPackage(projectDir: string): boolean {
  for (let dir = projectDir; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', 'agent-hooks', 'package.json'))) return true;
    if (dirname(dir) === dir) return false;
  }
}
