/**
 * The names of the span attributes the OpenTelemetry integration writes.
 *
 * @module
 */

/**
 * The span attributes {@link OtelHooks} writes. Tool spans use the OpenTelemetry GenAI names for the tool
 * (`gen_ai.tool.name`, `gen_ai.tool.call.id`); everything else is under `agent_hooks.`.
 */
export const OtelAttributes = Object.freeze({
  /** The lifecycle event (canonical name): on hook spans and dispatch events. */
  EVENT: 'agent_hooks.event',
  /** What the hooks decided: `proceed`, `block`, `stop` or `ask` (`error` when a hook threw). */
  OUTCOME: 'agent_hooks.outcome',
  /** Why: the reason of a block, stop or ask, a run's end, or an error's message. */
  REASON: 'agent_hooks.reason',
  /** Milliseconds: a hook's own time (without the hooks after it), a dispatch's, or a run's. */
  DURATION_MS: 'agent_hooks.duration_ms',
  /** The hook's name. */
  HOOK_NAME: 'agent_hooks.hook.name',
  /** The hook's priority. */
  HOOK_PRIORITY: 'agent_hooks.hook.priority',
  /** The agent's id (a subagent's is derived from its parent's). */
  AGENT_ID: 'agent_hooks.agent.id',
  /** The parent agent's id, on a subagent's run. */
  PARENT_AGENT_ID: 'agent_hooks.agent.parent_id',
  /** The session's id, when the run belongs to a session. */
  SESSION_ID: 'agent_hooks.session.id',
  /** How a run ended: `completed`, `stopped`, `failed`, or `interrupted` (it waits for a decision). */
  RUN_STATUS: 'agent_hooks.run.status',
  /** The step's 0-based index. */
  STEP_INDEX: 'agent_hooks.step.index',
  /** The tool's name. */
  TOOL_NAME: 'gen_ai.tool.name',
  /** The tool call's id. */
  TOOL_CALL_ID: 'gen_ai.tool.call.id',
  /**
   * How a tool call ended: `ok`, `error` (the tool failed), `refused` (a hook or the approver refused it) or
   * `interrupted` (the run was interrupted while the call waited for a decision).
   */
  TOOL_STATUS: 'agent_hooks.tool.status',
  /** On the span of a run that goes on from an interruption (`agent.resume`): `true`. */
  RUN_RESUMED: 'agent_hooks.run.resumed',
} as const);
