/**
 * VS Code's payload as the bridge's first stage reads it: Claude Code's shape. Node's own modules only.
 *
 * @module
 * @internal
 */
import { claudeShapedEvent, claudeShapedFields } from '../claude/light.js';
import { learnByDialect } from '../light-events.js';
import type { LightAgentProfile } from '../light-profile.js';
import { copilotClaudeCompatible } from '../copilot/light.js';

/**
 * VS Code, for the first stage.
 *
 * @internal
 */
export const vscodeLight: LightAgentProfile<'vscode'> = {
  id: 'vscode',
  projectVariables: ['CLAUDE_PROJECT_DIR'],
  writtenEvent: (payload, given) => claudeShapedEvent(payload, given, 'claude', 'vscode'),
  // Copilot CLI runs VS Code's file too, sending its Claude-compatible payload, whose values are read in our words.
  fields: (payload) => claudeShapedFields(copilotClaudeCompatible(payload)),
  learnEvent: (_rule, written) => learnByDialect('claude', written),
};
