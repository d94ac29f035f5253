/**
 * Qwen Code's hooks: `~/.qwen/settings.json` and the project's `.qwen/settings.json`, in Claude Code's format.
 *
 * @module
 * @internal
 */
import { join } from 'node:path';
import { configPlaces, explicitFiles, type ConfigFileLocation, type ConfigLoadOptions, type LoadedConfigHooks } from '../../config/config-source.js';
import { loadClaudeShapedHooks, type ClaudeShapedFormat } from '../claude/config.js';
import { existingFiles, type ConfigLoader } from '../config-loader.js';
import { qwenToolAliases } from './tool-aliases.js';

/** Qwen Code's default timeout for a command hook: 60 seconds (`DEFAULT_COMMAND_HOOK_TIMEOUT_SECONDS`, 0.24). */
const QWEN_COMMAND_TIMEOUT_MS = 60_000;

/** Every event Qwen Code 0.24.4 fires (its `HookEventName`, read from the binary). */
const QWEN_EVENTS = new Set([
  'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Notification', 'UserPromptSubmit', 'UserPromptExpansion',
  'SessionStart', 'SessionEnd', 'SessionDelete', 'Stop', 'StopFailure', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact',
  'PermissionRequest', 'PermissionDenied', 'InstructionsLoaded', 'MessageDisplay', 'TodoCreated', 'TodoCompleted',
]);

/** Qwen Code's settings files, in the order they merge: the user's, then the project's. */
function qwenSettingsFiles(options: ConfigLoadOptions = {}): ConfigFileLocation[] {
  const explicit = explicitFiles(options);
  if (explicit !== undefined) return explicit;
  const places = configPlaces(options);
  const files: ConfigFileLocation[] = [];
  if (places.homeDir !== undefined) files.push({ file: join(places.homeDir, '.qwen', 'settings.json'), level: 'user' });
  if (places.project) files.push({ file: join(places.projectDir, '.qwen', 'settings.json'), level: 'project' });
  return files;
}

const QWEN_FORMAT: ClaudeShapedFormat = {
  kind: 'qwen',
  events: { agent: 'Qwen Code', names: QWEN_EVENTS },
  files: qwenSettingsFiles,
  hooksAt: 'hooks',
  // As Qwen Code runs its command hooks: each of the three variables is the project.
  env: (projectDir) => ({ QWEN_PROJECT_DIR: projectDir, CLAUDE_PROJECT_DIR: projectDir, GEMINI_PROJECT_DIR: projectDir }),
  commandTimeoutMs: () => QWEN_COMMAND_TIMEOUT_MS,
  // A name matches the tool's own or one of Qwen Code's other names for it (`Bash` is `run_shell_command`); anything
  // else is an unanchored regex over the name as Qwen Code calls the tool.
  matcherRule: { aliases: qwenToolAliases },
  // Qwen Code runs no hook while its merged settings say `disableAllHooks: true` (the project's over the user's).
  offSwitch: { key: 'disableAllHooks', at: 'file' },
  hooksSwitch: false,
};

/**
 * Loads the hooks of Qwen Code's settings files (user, then project): Claude Code's format, where a matcher names a
 * tool by Qwen Code's name or by another of its names (`Bash`, `Shell` for `run_shell_command`), as Qwen Code reads
 * it.
 *
 * @internal
 */
export const loadQwenHooks = (options: ConfigLoadOptions = {}): Promise<LoadedConfigHooks> => loadClaudeShapedHooks(QWEN_FORMAT, options);

/**
 * Qwen Code's settings files, as one of the config formats.
 *
 * @internal
 */
export const qwenConfigLoader: ConfigLoader = {
  kind: 'qwen',
  describedFiles: '.qwen/settings.json',
  owns: ({ parent, base }) => parent === '.qwen' && base === 'settings.json',
  projectFiles: (projectDir) => existingFiles(projectDir, ['.qwen/settings.json']),
  load: (_agents, options) => loadQwenHooks(options),
};
