/**
 * Cursor: everything the project knows of it.
 *
 * @module
 * @internal
 */
import { CURSOR_EVENTS } from '../../dialects/cursor.js';
import { dialectNames } from '../event-names.js';
import type { AgentProfile } from '../profile.js';
import { cursorLight } from './light.js';
import { cursorConfigLoader } from './config.js';
import { CURSOR_WIRE } from './wire.js';
import { vocabularyOf } from '../tool-names.js';

/**
 * Cursor.
 *
 * @internal
 */
export const cursorProfile: AgentProfile<'cursor'> = {
  id: 'cursor',
  title: 'Cursor',
  light: cursorLight,
  ...CURSOR_WIRE,
  install: {
    title: 'Cursor',
    file: '.cursor/hooks.json',
    projectVariable: 'CURSOR_PROJECT_DIR',
    layout: 'flat',
    version: 1,
    typed: false,
    commandField: 'command',
    timeout: { field: 'timeout', unit: 's' },
    eventArgument: false,
    names: dialectNames('cursor'),
    // beforeShellExecution and the like: PreToolUse or PostToolUse for some tools, written when named.
    extraEvents: CURSOR_EVENTS,
  },
  projectSetsEnv: false,
  projectReference: 'plain',
  // Cursor's entries have no matcher.
  matcherSyntax: undefined,
  userHookFile: (home) => ({ dir: home, file: '.cursor/hooks.json' }),
  httpHooks: false,
  tools: vocabularyOf('cursor'),
  config: { loader: cursorConfigLoader, order: 5, sideBySide: false },
  checkedAgainst: undefined,
};
