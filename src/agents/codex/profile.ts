/**
 * Codex CLI: everything the project knows of it. Its payload reader and answer writer live with its dialect
 * (`readCodexPayload`, `codexAnswer`), which its own config's command hooks share.
 *
 * @module
 * @internal
 */
import { isAbsolute } from 'node:path';
import type { HookEventName } from '../../core/index.js';
import { dialectNames, GROUPED_ENTRIES } from '../event-names.js';
import type { AgentProfile } from '../profile.js';
import { codexLight } from './light.js';
import { codexConfigLoader } from './config.js';
import { CODEX_WIRE } from './wire.js';
import { vocabularyOf } from '../tool-names.js';

// Codex takes Claude Code's names for the events it has (codex-rs/config hook_config.rs; developers.openai.com/codex/hooks).
const CODEX_HOOK_EVENTS: readonly HookEventName[] = ['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'PreCompact', 'PostCompact', 'SubagentStart', 'SubagentStop', 'Stop'];

/** The canonical event Codex's name `written` is, as `readCodexPayload` reads it from a payload. */
/**
 * Codex CLI.
 *
 * @internal
 */
export const codexProfile: AgentProfile<'codex'> = {
  id: 'codex',
  title: 'Codex',
  light: codexLight,
  ...CODEX_WIRE,
  install: {
    ...GROUPED_ENTRIES,
    title: 'Codex',
    file: '.codex/hooks.json',
    // Codex sets no project variable; it runs hooks in the session's working directory.
    projectVariable: undefined,
    timeout: { field: 'timeout', unit: 's', alias: 'timeoutSec' },
    names: dialectNames('claude', CODEX_HOOK_EVENTS),
  },
  projectSetsEnv: false,
  projectReference: 'plain',
  matcherSyntax: 'exact-or-regex',
  userHookFile(home, env) {
    const codexHome = env['CODEX_HOME'];
    return codexHome !== undefined && isAbsolute(codexHome) ? { dir: codexHome, file: 'hooks.json' } : { dir: home, file: '.codex/hooks.json' };
  },
  httpHooks: false,
  tools: vocabularyOf('codex'),
  config: { loader: codexConfigLoader, order: 6, sideBySide: 'always' },
  checkedAgainst: { package: '@openai/codex', version: '0.171.0' },
};
