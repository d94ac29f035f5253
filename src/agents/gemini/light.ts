/**
 * Gemini CLI's payload as the bridge's first stage reads it: Claude Code's shape, with its own event names and its
 * stop gate's `prompt_response`. Node's own modules only.
 *
 * @module
 * @internal
 */
import { claudeShapedEvent, claudeShapedFields } from '../claude/light.js';
import { learnByDialect } from '../light-events.js';
import type { LightAgentProfile } from '../light-profile.js';

/**
 * Gemini CLI, for the first stage. Its model events (BeforeModel, BeforeToolSelection, AfterModel) are left to the
 * full path.
 *
 * @internal
 */
export const geminiLight: LightAgentProfile<'gemini'> = {
  id: 'gemini',
  // Gemini CLI sets CLAUDE_PROJECT_DIR too, for compatibility.
  projectVariables: ['GEMINI_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
  writtenEvent: (payload, given) => claudeShapedEvent(payload, given, 'gemini', 'gemini'),
  fields: (payload, event) => claudeShapedFields(payload, event === 'Stop' ? { final_message: payload.prompt_response } : {}),
  learnEvent: (_rule, written) => learnByDialect('gemini', written),
};
