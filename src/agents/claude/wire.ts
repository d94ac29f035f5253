/**
 * Claude Code's hook protocol as the bridge speaks it: how a payload is read and an answer written. Claude Code's room
 * uses it, and so does every agent that sends Claude Code's payloads and reads its answers.
 *
 * @module
 * @internal
 */
import { claudeDialect } from '../../dialects/claude.js';
import { eventIn } from '../event-names.js';
import type { AgentWire } from '../agent-wire.js';
import { claudeAnswer } from './answer.js';
import { readClaudePayload, readClaudeShapedPayload } from './payload.js';

/**
 * The parts of a profile that speak Claude Code's protocol, to spread into it. Claude Code's own profile reads its
 * payloads with the fields only Claude Code sends besides (`readClaudePayload`).
 *
 * @internal
 */
export const CLAUDE_WIRE: AgentWire = {
  dialect: claudeDialect,
  eventOf: (written) => eventIn('claude', written),
  readPayload: (payload, given, fail) => readClaudeShapedPayload(payload, given, 'claude', fail),
  answer: claudeAnswer,
  userMessageField: 'systemMessage',
};

/**
 * Claude Code's own: its payloads read with the fields only Claude Code sends besides.
 *
 * @internal
 */
export const CLAUDE_CODE_WIRE: AgentWire = { ...CLAUDE_WIRE, readPayload: readClaudePayload };
