/**
 * Qwen Code: everything the project knows of its hooks. It reads Claude Code's format from its own settings files,
 * sends Claude Code's payloads (with keys of its own) and reads Claude Code's answers.
 *
 * @module
 * @internal
 */
import type { HookEventName } from '../../core/index.js';
import { CLAUDE_WIRE } from '../claude/wire.js';
import { dialectNames, GROUPED_ENTRIES } from '../event-names.js';
import type { AgentProfile } from '../profile.js';
import { vocabularyOf } from '../tool-names.js';
import { qwenConfigLoader } from './config.js';
import { qwenLight } from './light.js';

// The events of Qwen Code 0.24.4 that have a counterpart here (its others: see config.ts).
const QWEN_EVENTS: readonly HookEventName[] = [
  'SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PermissionDenied', 'PostToolUse', 'PostToolUseFailure',
  'PostToolBatch', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact', 'Stop', 'StopFailure', 'Notification',
];

/**
 * Qwen Code.
 *
 * @internal
 */
export const qwenProfile: AgentProfile<'qwen'> = {
  id: 'qwen',
  title: 'Qwen Code',
  light: qwenLight,
  // Its command hooks get Claude Code's payloads and answer in Claude Code's way.
  // Qwen Code applies a PreToolUse answer's `updatedInput` not at all (only a PermissionRequest's): the answer is
  // Claude Code's all the same, and the docs say that a rewrite does not reach the call there.
  ...CLAUDE_WIRE,
  install: {
    ...GROUPED_ENTRIES,
    title: 'Qwen Code',
    file: '.qwen/settings.json',
    projectVariable: 'QWEN_PROJECT_DIR',
    // Seconds (a value of 1000 and more it still reads as the milliseconds of old, with a warning).
    timeout: { field: 'timeout', unit: 's' },
    names: dialectNames('claude', QWEN_EVENTS),
  },
  // A hook entry's own `env` in a project's .qwen/settings.json reaches the hook's process, and Qwen Code loads the
  // project's .env files: a bridge line clears NODE_OPTIONS first.
  projectSetsEnv: true,
  // Under bash, Qwen Code leaves `$QWEN_PROJECT_DIR` to the shell, which it gives the variable.
  projectReference: 'plain',
  // A name or a `|` list of names (each the tool's or one of Qwen Code's other names for it), else an unanchored regex.
  matcherSyntax: 'exact-or-regex',
  userHookFile: (home) => ({ dir: home, file: '.qwen/settings.json' }),
  httpHooks: false,
  tools: vocabularyOf('qwen'),
  // It runs the hooks of an event side by side, unless one of them says `sequential: true`.
  config: { loader: qwenConfigLoader, order: 7, sideBySide: true },
  checkedAgainst: { package: '@qwen-code/qwen-code', version: '0.24.4' },
};
