/**
 * Factory Droid's payload as the bridge's first stage reads it: Claude Code's shape, with keys of its own beside it.
 * Node's own modules only.
 *
 * @module
 * @internal
 */
import { claudeShapedEvent, claudeShapedFields } from '../claude/light.js';
import { learnByDialect } from '../light-events.js';
import type { LightAgentProfile } from '../light-profile.js';

/**
 * Factory Droid, for the first stage.
 *
 * @internal
 */
export const droidLight: LightAgentProfile<'droid'> = {
  id: 'droid',
  // Factory Droid sets all three to the project; its own first.
  projectVariables: ['FACTORY_PROJECT_DIR', 'DROID_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
  writtenEvent: (payload, given) => claudeShapedEvent(payload, given, 'claude', 'droid'),
  fields: (payload) => claudeShapedFields(payload),
  learnEvent: (_rule, written) => learnByDialect('claude', written),
};
