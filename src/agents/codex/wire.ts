/**
 * Codex CLI's hook protocol as the bridge speaks it: how a payload is read and an answer written.
 *
 * @module
 * @internal
 */
import type { HookEventName } from '../../core/index.js';
import { codexAnswer, codexDialect, readCodexPayload } from '../../dialects/codex.js';
import type { AgentWire } from '../agent-wire.js';

function codexEventOf(written: string): HookEventName | undefined {
  try {
    return readCodexPayload({ hook_event_name: written }).event;
  } catch {
    return undefined;
  }
}

/**
 * Codex CLI's wire, to spread into its profile.
 *
 * @internal
 */
export const CODEX_WIRE: AgentWire = {
  dialect: codexDialect,
  eventOf: (written) => codexEventOf(written),
  readPayload: (payload, given, fail) => readCodexPayload(payload, given, fail),
  // Codex reads answers by strict per-event schemas: see codexAnswer for what each outcome becomes.
  answer: codexAnswer,
  userMessageField: 'systemMessage',
};
