/**
 * Factory Droid: everything the project knows of its hooks. It reads Claude Code's format (the events at the top
 * level of `.factory/hooks.json`), sends Claude Code's payloads (with keys of its own) and reads Claude Code's
 * answers.
 *
 * @module
 * @internal
 */
import type { HookEventName } from '../../core/index.js';
import { CLAUDE_WIRE } from '../claude/wire.js';
import { dialectNames, GROUPED_ENTRIES } from '../event-names.js';
import type { AgentProfile } from '../profile.js';
import { vocabularyOf } from '../tool-names.js';
import { droidConfigLoader } from './config.js';
import { droidLight } from './light.js';

// The events of Factory Droid 0.215.0, all of which have a counterpart here.
const DROID_EVENTS: readonly HookEventName[] = ['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'SubagentStop', 'PreCompact', 'Stop', 'Notification'];

/**
 * Factory Droid.
 *
 * @internal
 */
export const droidProfile: AgentProfile<'droid'> = {
  id: 'droid',
  title: 'Factory Droid',
  light: droidLight,
  // Its command hooks get Claude Code's payloads and answer in Claude Code's way.
  ...CLAUDE_WIRE,
  install: {
    ...GROUPED_ENTRIES,
    title: 'Factory Droid',
    file: '.factory/hooks.json',
    // Factory Droid reads the events at the top level of hooks.json, and runs none under a `hooks` key.
    eventsAt: 'top',
    // Factory Droid reads the older hooks/hooks.json while there is no hooks.json, and takes an event's hooks from
    // the hooks file alone once it hooks that event, leaving settings.json's list of it.
    replaces: [
      { file: '.factory/hooks/hooks.json', eventsAt: 'top', whole: true },
      { file: '.factory/settings.json', eventsAt: 'hooks' },
    ],
    projectVariable: 'FACTORY_PROJECT_DIR',
    timeout: { field: 'timeout', unit: 's' },
    names: dialectNames('claude', DROID_EVENTS),
  },
  // Factory Droid hands a hook variables it is given beside its own; whether a project's files can set them was not
  // established, so its bridge lines clear NODE_OPTIONS as the others' do.
  projectSetsEnv: true,
  projectReference: 'plain',
  matcherSyntax: 'regex',
  userHookFile: (home) => ({ dir: home, file: '.factory/hooks.json' }),
  httpHooks: false,
  tools: vocabularyOf('droid'),
  config: { loader: droidConfigLoader, order: 8, sideBySide: false },
  checkedAgainst: { package: 'droid', version: '0.215.0' },
};
