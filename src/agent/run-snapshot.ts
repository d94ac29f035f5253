/**
 * The serializable state of an interrupted run: plain JSON, versioned, enough to go on from exactly where it stopped
 * in another process.
 *
 * @module
 */

/** The `format` every run snapshot carries. */
export const RUN_SNAPSHOT_FORMAT = 'agent-hooks/run-snapshot';

/** The snapshot format version this package writes and reads. A newer one is refused, an older one read. */
export const RUN_SNAPSHOT_VERSION = 1;

/** Plain JSON. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A tool call as JSON. */
export interface ToolCallJson {
  readonly id: string;
  readonly name: string;
  readonly args: { readonly [key: string]: JsonValue };
}

/** A message of the conversation as JSON. */
export interface MessageJson {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content: string;
  readonly toolCalls?: readonly ToolCallJson[];
  readonly toolCallId?: string;
  readonly name?: string;
}

/** Token usage as JSON. */
export interface UsageJson {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly totalTokens?: number;
}

/** An error as JSON: what a hook or the model can read of it again. */
export interface ErrorJson {
  readonly name: string;
  readonly message: string;
  /** For a refused call: who refused it. */
  readonly by?: 'hook' | 'permission' | 'approver';
}

/** A tool execution as JSON. */
export interface ToolExecutionJson {
  readonly toolCall: ToolCallJson;
  readonly isError: boolean;
  readonly result?: JsonValue;
  readonly error?: ErrorJson;
  readonly durationMs?: number;
}

/** A completed step as JSON. */
export interface StepJson {
  readonly index: number;
  readonly text: string;
  readonly toolCalls: readonly ToolCallJson[];
  readonly executions: readonly ToolExecutionJson[];
  readonly usage?: UsageJson;
}

/** The agent state as JSON. */
export interface AgentStateJson {
  readonly agentId: string;
  readonly parentAgentId?: string;
  readonly sessionId?: string;
  readonly stepCount: number;
  readonly messages: readonly MessageJson[];
  readonly steps: readonly StepJson[];
  readonly metadata: { readonly [key: string]: JsonValue };
}

/**
 * Where in the lifecycle a run stopped: inside a step, at one tool call of its batch. The step's model answer, and the
 * calls of the batch already decided, are kept; the calls after `callIndex` have not started.
 */
export interface InterruptPointJson {
  /** The step's index. */
  readonly stepIndex: number;
  /** The step's model answer. */
  readonly response: { readonly text: string; readonly toolCalls: readonly ToolCallJson[]; readonly usage?: UsageJson; readonly synthetic?: boolean };
  /** The executions of the calls before `callIndex`, in order. */
  readonly executions: readonly ToolExecutionJson[];
  /** The index, in the step's calls, of the call that waits. */
  readonly callIndex: number;
  /**
   * `approval`: the call waits for a decision (its PreToolUse, PermissionRequest and Notification hooks have run);
   * `subagent`: the call started a subagent (SubagentStart has run) whose own run was interrupted — see `child`.
   */
  readonly phase: 'approval' | 'subagent';
  /** The call as the hooks left it: what waits for approval, or what started the subagent. */
  readonly call: ToolCallJson;
  /** Why approval is needed (phase `approval`). */
  readonly reason?: string;
  /** The id of the approval request (phase `approval`): the key of its decision. */
  readonly requestId?: string;
  /** The subagent's interrupted run (phase `subagent`). */
  readonly child?: RunFrameJson;
  /** When the subagent started, in ms since the epoch (phase `subagent`). */
  readonly startedAt?: number;
}

/** One run's position and everything its loop carries from step to step. */
export interface RunFrameJson {
  /** The prompt the run started with. */
  readonly prompt: string;
  /** The agent state: ids, conversation, completed steps, state metadata. */
  readonly state: AgentStateJson;
  /** The run's metadata (what hooks set along the way). */
  readonly metadata: { readonly [key: string]: JsonValue };
  /** Additional context hooks returned that the model has not been given yet. */
  readonly pendingContext: readonly string[];
  /** Every `systemMessage` hooks returned so far. */
  readonly systemMessages: readonly string[];
  /** Token usage of the steps completed so far. */
  readonly usage?: UsageJson;
  /** The assistant's last text. */
  readonly text: string;
  /** Stop gate: how many times in a row Stop hooks kept the agent working. */
  readonly stopBlocks: number;
  /** Set when a refusal ends the run at the end of the step. */
  readonly rejectedStop?: string;
  /** How many subagent runs this run has started (their ids count on from it). */
  readonly childRuns: number;
  /** How long the run had been going, in ms, when it stopped. */
  readonly elapsedMs: number;
  /** Set for a subagent's run. */
  readonly subagent?: { readonly name: string; readonly type: string };
  /** Where it stopped. */
  readonly at: InterruptPointJson;
}

/** What an interrupted run's tools, subagents and hooks were: a snapshot resumes only on an agent built the same way. */
export interface AgentShapeJson {
  /** The agent's name, when it has one. */
  readonly name?: string;
  /** Its tools: name and a digest of the input schema the model is given. */
  readonly tools: readonly { readonly name: string; readonly schema: string }[];
  /** Its hooks, in the order they run: name, priority and the events they can run for (`*` for any). */
  readonly hooks: readonly { readonly name: string; readonly priority: number; readonly events: string }[];
  /** Its subagents, each with its own shape. */
  readonly subagents: readonly { readonly name: string; readonly shape: AgentShapeJson }[];
}

/** A tool call that waits for a decision. */
export interface PendingApproval {
  /** The request's id: give the decision under it. */
  readonly id: string;
  /** The call as the hooks left it. */
  readonly toolCall: ToolCallJson;
  /** Why approval is needed: the asking hooks' reasons. */
  readonly reason: string;
  /** The id of the agent (or subagent) whose call it is. */
  readonly agentId: string;
  /** The subagents the call is nested in, outermost first (empty for the agent's own call). */
  readonly subagentPath: readonly string[];
}

/**
 * An interrupted run, as plain JSON: `JSON.stringify` it, store it anywhere, and hand it (parsed) to
 * `agent.resume()` — in this process or another — with a decision for each pending request.
 */
export interface RunSnapshot {
  /** Always {@link RUN_SNAPSHOT_FORMAT}. */
  readonly format: typeof RUN_SNAPSHOT_FORMAT;
  /** The format version ({@link RUN_SNAPSHOT_VERSION} when written by this package). */
  readonly version: number;
  /**
   * The checkpoint id: a checkpointer keeps the snapshot under it. The session's id for a session's turn (so a
   * session is listed and resumed by its id), the `checkpointId` run option when given, a generated id otherwise.
   */
  readonly id: string;
  /** This interruption's own id: a snapshot resumes once. */
  readonly interruptId: string;
  /** When the run was interrupted (ISO 8601). */
  readonly createdAt: string;
  /** The requests that wait for a decision. */
  readonly pending: readonly PendingApproval[];
  /** The agent the run belongs to. */
  readonly agent: AgentShapeJson;
  /** For a session's turn: the session's id and whether its SessionStart has fired. */
  readonly session?: { readonly id: string };
  /** The run. */
  readonly run: RunFrameJson;
}
