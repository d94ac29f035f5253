/**
 * VS Code's agent hooks: everything the project knows of them. VS Code reads Claude Code's payloads and answers, with
 * its own few differences (see `claudeShapedAnswer`).
 *
 * @module
 * @internal
 */
import type { HookEventName } from '../../core/index.js';
import { dialectNames } from '../event-names.js';
import type { AgentProfile } from '../profile.js';
import { vscodeLight } from './light.js';
import { githubConfigLoader } from '../copilot/github-config.js';
import { vocabularyOf } from '../tool-names.js';
import { VSCODE_WIRE } from './wire.js';

// VS Code's eight (code.visualstudio.com/docs/agent-customization/hooks).
const VSCODE_EVENTS: readonly HookEventName[] = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact', 'SubagentStart', 'SubagentStop', 'Stop'];

/**
 * VS Code.
 *
 * @internal
 */
export const vscodeProfile: AgentProfile<'vscode'> = {
  id: 'vscode',
  title: 'VS Code',
  light: vscodeLight,
  ...VSCODE_WIRE,
  // VS Code reads .github/hooks/*.json and .claude/settings.json. Its own file keeps the bridge out of Claude Code;
  // no `version` and PascalCase names make it VS Code's format, which Copilot CLI also reads (as Claude-compatible).
  install: {
    title: 'VS Code',
    file: '.github/hooks/agent-hooks-vscode.json',
    projectVariable: undefined,
    layout: 'flat',
    version: undefined,
    typed: true,
    commandField: 'command',
    timeout: { field: 'timeout', unit: 's', alias: 'timeoutSec' },
    eventArgument: false,
    names: dialectNames('claude', VSCODE_EVENTS),
  },
  projectSetsEnv: false,
  projectReference: 'plain',
  // VS Code does not apply matchers.
  matcherSyntax: undefined,
  // Its user-level file is Claude Code's own.
  userHookFile: () => undefined,
  httpHooks: false,
  tools: vocabularyOf('vscode'),
  config: { loader: githubConfigLoader, order: 3, sideBySide: false },
  checkedAgainst: undefined,
};
