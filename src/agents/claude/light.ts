/**
 * Claude Code's payload as the bridge's first stage reads it — and the payload shape VS Code and Gemini CLI share
 * with it (`hook_event_name`, snake_case fields). Node's own modules only.
 *
 * @module
 * @internal
 */
import { learnByDialect } from '../light-events.js';
import type { AgentId } from '../agent-id.js';
import type { Json, LightAgentProfile, WrittenEvent } from '../light-profile.js';

/**
 * The event a Claude-shaped payload names (`hook_event_name`, or VS Code's `hookEventName`), read under `rule`.
 *
 * @internal
 */
export function claudeShapedEvent(payload: Json, given: string | undefined, rule: string, reader: AgentId): WrittenEvent | undefined {
  const written = given ?? payload.hook_event_name ?? payload.hookEventName;
  if (typeof written !== 'string' || written === '') return undefined;
  return { rule, written, reader };
}

/**
 * The fields of a Claude-shaped payload, as the full reading builds them: the payload itself, with the session id
 * under one name and the subagent's id as its name; `extra` adds an agent's own.
 *
 * @internal
 */
export function claudeShapedFields(payload: Json, extra: Json = {}): Json {
  return {
    ...payload,
    session_id: payload.session_id ?? payload.sessionId,
    subagent_name: payload.agent_id,
    ...extra,
    hook_event_name: undefined,
    hookEventName: undefined,
  };
}

/**
 * Claude Code, for the first stage.
 *
 * @internal
 */
export const claudeLight: LightAgentProfile<'claude'> = {
  id: 'claude',
  projectVariables: ['CLAUDE_PROJECT_DIR'],
  writtenEvent: (payload, given) => claudeShapedEvent(payload, given, 'claude', 'claude'),
  fields: (payload) => claudeShapedFields(payload, claudeOwnFields(payload)),
  learnEvent: (_rule, written) => learnByDialect('claude', written),
};

/**
 * What Claude Code sends that our contexts name otherwise: its SessionStart `source: "fork"` (a session forked from an
 * earlier one, with `--fork-session`; seen from 2.1.332) reads as `resume`, since it goes on with an earlier
 * conversation. A Claude-dialect hook behind the bridge still gets `fork`, as sent.
 *
 * @internal
 */
export const claudeOwnFields = (payload: Json): Json => (payload.source === 'fork' ? { source: 'resume' } : {});
