/**
 * Claude Code: everything the project knows of it.
 *
 * @module
 * @internal
 */
import { dialectNames, GROUPED_ENTRIES } from '../event-names.js';
import type { AgentProfile } from '../profile.js';
import { claudeLight } from './light.js';
import { claudeConfigLoader } from './config.js';
import { vocabularyOf } from '../tool-names.js';
import { claudeHooksSwitchedOffWarning } from './hooks-switch.js';
import { CLAUDE_CODE_WIRE } from './wire.js';

/**
 * Claude Code.
 *
 * @internal
 */
export const claudeProfile: AgentProfile<'claude'> = {
  id: 'claude',
  title: 'Claude Code',
  light: claudeLight,
  ...CLAUDE_CODE_WIRE,
  install: {
    ...GROUPED_ENTRIES,
    title: 'Claude Code',
    file: '.claude/settings.json',
    projectVariable: 'CLAUDE_PROJECT_DIR',
    timeout: { field: 'timeout', unit: 's' },
    names: dialectNames('claude'),
    // Checked with 2.1.332: it starts the hook, writes the payload and exits, sending SIGTERM to the hook's processes.
    firedAtExit: ['StopFailure'],
  },
  // The `env` block of the project's .claude/settings.json and .claude/settings.local.json reaches its hooks.
  projectSetsEnv: true,
  projectReference: 'plain',
  matcherSyntax: 'exact-or-regex',
  userHookFile: (home) => ({ dir: home, file: '.claude/settings.json' }),
  httpHooks: true,
  tools: vocabularyOf('claude'),
  config: { loader: claudeConfigLoader, order: 1, sideBySide: true },
  checkedAgainst: { package: '@anthropic-ai/claude-code', version: '2.1.332' },
  hooksSwitchedOff: claudeHooksSwitchedOffWarning,
};
