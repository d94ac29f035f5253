/**
 * Cursor's hook protocol as the bridge speaks it: how a payload is read and an answer written.
 *
 * @module
 * @internal
 */
import type { AnyHookContext, HookOutcome } from '../../core/index.js';
import { CURSOR_EVENTS, cursorDialect } from '../../dialects/cursor.js';
import type { AgentWire } from '../agent-wire.js';
import { cursorAnswer } from './answer.js';
import { readCursorPayload } from './payload.js';

/**
 * Cursor's wire, to spread into its profile.
 *
 * @internal
 */
export const CURSOR_WIRE: AgentWire = {
  dialect: cursorDialect,
  eventOf: (written) => (Object.hasOwn(CURSOR_EVENTS, written) ? CURSOR_EVENTS[written] : undefined),
  readPayload: readCursorPayload,
  answer: (outcome: HookOutcome, ctx: AnyHookContext) => cursorAnswer(outcome, ctx),
  userMessageField: 'user_message',
};
