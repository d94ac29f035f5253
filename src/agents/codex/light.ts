/**
 * Codex CLI's payload as the bridge's first stage reads it. Node's own modules only.
 *
 * @module
 * @internal
 */
import { isJsonObject, type LightAgentProfile } from '../light-profile.js';

/**
 * Codex, for the first stage. Its event names are read by Codex's own table (`readCodexPayload`), which also takes a
 * canonical name given with `--event` (the rule `codex-given`).
 *
 * @internal
 */
export const codexLight: LightAgentProfile<'codex'> = {
  id: 'codex',
  // Codex sets none: it runs every hook in the session's working directory, which is then the project.
  projectVariables: [],
  writtenEvent(payload, given) {
    const written = given ?? payload.hook_event_name;
    if (typeof written !== 'string' || written === '') return undefined;
    return { rule: given !== undefined ? 'codex-given' : 'codex', written, reader: 'codex' };
  },
  fields(payload, event) {
    const input = isJsonObject(payload.tool_input) ? payload.tool_input : undefined;
    return {
      ...payload,
      subagent_name: payload.agent_id,
      ...(payload.source === 'fork' ? { source: 'resume' } : {}),
      ...(event === 'PermissionRequest' && typeof input?.description === 'string' ? { permission_reason: input.description } : {}),
      hook_event_name: undefined,
    };
  },
  async learnEvent(rule, written) {
    const { readCodexPayload } = await import('../../dialects/codex.js');
    try {
      return readCodexPayload({ hook_event_name: written }, rule === 'codex-given' ? written : undefined).event;
    } catch {
      return null;
    }
  },
};
