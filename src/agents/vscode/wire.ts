/**
 * VS Code's hook protocol as the bridge speaks it: how a payload is read and an answer written.
 *
 * @module
 * @internal
 */
import type { AnyHookContext, HookOutcome } from '../../core/index.js';
import { vscodeDialect } from '../../dialects/vscode.js';
import type { AgentWire } from '../agent-wire.js';
import { claudeShapedAnswer } from '../claude/answer.js';
import { readClaudeShapedPayload } from '../claude/payload.js';
import { copilotClaudeCompatible } from '../copilot/light.js';
import { eventIn } from '../event-names.js';

/**
 * VS Code's wire, to spread into its profile.
 *
 * @internal
 */
export const VSCODE_WIRE: AgentWire = {
  dialect: vscodeDialect,
  eventOf: (written) => eventIn('claude', written),
  // Copilot CLI runs VS Code's file too, sending its Claude-compatible payload, whose values are read in our words.
  readPayload: (payload, given, fail) => readClaudeShapedPayload(copilotClaudeCompatible(payload), given, 'claude', fail),
  answer: (outcome: HookOutcome, ctx: AnyHookContext, eventName: string) => claudeShapedAnswer(outcome, ctx, eventName, true),
  userMessageField: 'systemMessage',
};
