/**
 * Factory Droid's hooks: in each of `~/.factory/` and the project's `.factory/`, `hooks.json` (the events at its top
 * level; the older `hooks/hooks.json` while there is none) and the `hooks` of `settings.json`, in Claude Code's format.
 *
 * @module
 * @internal
 */
import { nodeFs } from '../../core/internal/node-fs.js';
import { join } from 'node:path';
import { configPlaces, explicitFiles, type ConfigLoadOptions, type LoadedConfigHooks } from '../../config/config-source.js';
import { loadClaudeShapedHooks, type ClaudeShapedFormat } from '../claude/config.js';
import { existingFiles, type ConfigLoader } from '../config-loader.js';

const { existsSync } = nodeFs;

/** Factory Droid's default timeout for a command hook: 60 seconds. */
const DROID_COMMAND_TIMEOUT_MS = 60_000;

/** Every event Factory Droid 0.215.0 fires (its hooks schema, read from the binary). */
const DROID_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'Notification', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PreCompact', 'SessionStart', 'SessionEnd']);

/**
 * Factory Droid's files, the user's first. In each folder, as Factory Droid 0.215.0 reads them: its hooks file,
 * `hooks.json`, or the older `hooks/hooks.json` while there is no `hooks.json`; and `settings.json`'s `hooks`, whose
 * list of an event the hooks file's list of that event replaces (its `settings.local.json` holds none).
 */
function droidHookFiles(options: ConfigLoadOptions = {}): ReturnType<ClaudeShapedFormat['files']> {
  const explicit = explicitFiles(options);
  // A file given by name is read as it is named: a settings.json holds its hooks under `hooks`.
  if (explicit !== undefined) return explicit.map((f) => ({ ...f, hooksAt: f.file.endsWith('settings.json') ? 'hooks' : 'top' }));
  const places = configPlaces(options);
  const folders: [string, 'user' | 'project'][] = [];
  if (places.homeDir !== undefined) folders.push([join(places.homeDir, '.factory'), 'user']);
  if (places.project) folders.push([join(places.projectDir, '.factory'), 'project']);
  return folders.flatMap(([dir, level]) => {
    const [current, legacy] = [join(dir, 'hooks.json'), join(dir, 'hooks', 'hooks.json')];
    const hooksFile = existsSync(current) ? current : legacy;
    return [
      { file: join(dir, 'settings.json'), level, hooksAt: 'hooks' as const, folder: dir },
      { file: hooksFile, level, hooksAt: 'top' as const, folder: dir },
      ...(hooksFile === current ? [{ file: legacy, level, unread: `Factory Droid reads this older file only while there is no ${current}: none of its hooks runs, and none is loaded here either. Move them into ${current}.` }] : []),
    ];
  });
}

const DROID_FORMAT: ClaudeShapedFormat = {
  kind: 'droid',
  events: { agent: 'Factory Droid', names: DROID_EVENTS },
  files: droidHookFiles,
  hooksAt: 'top',
  settingKeys: ['hooksDisabled', 'showHookOutput'],
  offSwitch: { key: 'hooksDisabled', at: 'events' },
  // `*`, `""` or none match every tool, else the very name, else an unanchored regex over the name as Factory Droid
  // calls the tool: `Bash` does not match `Execute`.
  matcherRule: 'gemini',
  commandRegex: true,
  // As Factory Droid runs its command hooks: each of the three variables is the project.
  env: (projectDir) => ({ FACTORY_PROJECT_DIR: projectDir, DROID_PROJECT_DIR: projectDir, CLAUDE_PROJECT_DIR: projectDir }),
  commandTimeoutMs: () => DROID_COMMAND_TIMEOUT_MS,
  hooksSwitch: false,
};

/**
 * Loads the hooks of Factory Droid's files (user, then project).
 *
 * @internal
 */
export const loadDroidHooks = (options: ConfigLoadOptions = {}): Promise<LoadedConfigHooks> => loadClaudeShapedHooks(DROID_FORMAT, options);

/**
 * Factory Droid's files, as one of the config formats.
 *
 * @internal
 */
export const droidConfigLoader: ConfigLoader = {
  kind: 'droid',
  describedFiles: '.factory/hooks.json, .factory/hooks/hooks.json, .factory/settings.json',
  owns: ({ parent, base, grandparent }) => (parent === '.factory' && (base === 'hooks.json' || base === 'settings.json')) || (grandparent === '.factory' && parent === 'hooks' && base === 'hooks.json'),
  projectFiles: (projectDir) => existingFiles(projectDir, ['.factory/settings.json', '.factory/hooks/hooks.json', '.factory/hooks.json']),
  load: (_agents, options) => loadDroidHooks(options),
};
