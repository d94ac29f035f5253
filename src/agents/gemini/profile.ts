/**
 * Gemini CLI: everything the project knows of it.
 *
 * @module
 * @internal
 */
import { dialectNames, GROUPED_ENTRIES } from '../event-names.js';
import type { AgentProfile } from '../profile.js';
import { geminiLight } from './light.js';
import { geminiConfigLoader } from './config.js';
import { GEMINI_WIRE } from './wire.js';
import { vocabularyOf } from '../tool-names.js';

/**
 * Gemini CLI.
 *
 * @internal
 */
export const geminiProfile: AgentProfile<'gemini'> = {
  id: 'gemini',
  title: 'Gemini CLI',
  light: geminiLight,
  ...GEMINI_WIRE,
  install: {
    ...GROUPED_ENTRIES,
    title: 'Gemini CLI',
    file: '.gemini/settings.json',
    projectVariable: 'GEMINI_PROJECT_DIR',
    timeout: { field: 'timeout', unit: 'ms' },
    names: dialectNames('gemini'),
  },
  // Gemini CLI loads the project's .env (or .gemini/.env) for variables not already set.
  projectSetsEnv: true,
  // Gemini CLI replaces `$GEMINI_PROJECT_DIR` in the command's text with the path already shell-quoted, so inside
  // double quotes a path with a space would keep its quotes and name no file; it leaves the braced form to the shell.
  projectReference: 'braced',
  matcherSyntax: 'regex',
  userHookFile: (home) => ({ dir: home, file: '.gemini/settings.json' }),
  httpHooks: false,
  tools: vocabularyOf('gemini'),
  config: { loader: geminiConfigLoader, order: 4, sideBySide: true },
  checkedAgainst: { package: '@google/gemini-cli', version: '0.61.0' },
};
