/**
 * GitHub Copilot CLI's hook protocol as the bridge speaks it: how a payload is read and an answer written.
 *
 * @module
 * @internal
 */
import type { AnyHookContext, HookOutcome } from '../../core/index.js';
import { copilotDialect } from '../../dialects/copilot.js';
import type { AgentWire } from '../agent-wire.js';
import { eventIn } from '../event-names.js';
import { copilotAnswer } from './answer.js';
import { isVscodeEventName } from './light.js';
import { readCopilotPayload } from './payload.js';

/**
 * GitHub Copilot CLI's wire, to spread into its profile.
 *
 * @internal
 */
export const COPILOT_WIRE: AgentWire = {
  dialect: copilotDialect,
  // A PascalCase event switches Copilot to its Claude-compatible payload, which reads by Claude Code's names.
  eventOf: (written) => eventIn(isVscodeEventName(written) ? 'claude' : 'copilot', written),
  readPayload: readCopilotPayload,
  answer: (outcome: HookOutcome, ctx: AnyHookContext) => copilotAnswer(outcome, ctx),
  // Copilot's answers have no field its user sees.
  userMessageField: undefined,
};
