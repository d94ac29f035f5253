/**
 * Qwen Code's payload as the bridge's first stage reads it: Claude Code's shape, with keys of its own beside it.
 * Node's own modules only.
 *
 * @module
 * @internal
 */
import { claudeShapedEvent, claudeShapedFields } from '../claude/light.js';
import { learnByDialect } from '../light-events.js';
import type { LightAgentProfile } from '../light-profile.js';

/**
 * Qwen Code, for the first stage.
 *
 * @internal
 */
export const qwenLight: LightAgentProfile<'qwen'> = {
  id: 'qwen',
  // Qwen Code sets all three to the project; its own first.
  projectVariables: ['QWEN_PROJECT_DIR', 'CLAUDE_PROJECT_DIR', 'GEMINI_PROJECT_DIR'],
  writtenEvent: (payload, given) => claudeShapedEvent(payload, given, 'claude', 'qwen'),
  fields: (payload) => claudeShapedFields(payload),
  learnEvent: (_rule, written) => learnByDialect('claude', written),
};
