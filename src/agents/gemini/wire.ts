/**
 * Gemini CLI's hook protocol as the bridge speaks it: how a payload is read and an answer written.
 *
 * @module
 * @internal
 */
import { geminiDialect } from '../../dialects/gemini.js';
import type { AgentWire } from '../agent-wire.js';
import { eventIn } from '../event-names.js';
import { geminiAnswer } from './answer.js';
import { readGeminiPayload } from './payload.js';

/**
 * Gemini CLI's wire, to spread into its profile.
 *
 * @internal
 */
export const GEMINI_WIRE: AgentWire = {
  dialect: geminiDialect,
  eventOf: (written) => eventIn('gemini', written),
  readPayload: readGeminiPayload,
  answer: geminiAnswer,
  // Gemini CLI prints it as `Hook system message: …`.
  userMessageField: 'systemMessage',
};
