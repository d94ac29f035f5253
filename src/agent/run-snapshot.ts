/**
 * The serializable state of an interrupted run: plain JSON, versioned, enough to go on from exactly where it stopped
 * in another process.
 *
 * @module
 */
import type { ApprovalDecisionKind } from './approval.js';

/** The `format` every run snapshot carries. */
export const RUN_SNAPSHOT_FORMAT = 'agent-hooks/run-snapshot';

/** The snapshot format version this package writes and reads. A newer one is refused, an older one read. */
export const RUN_SNAPSHOT_VERSION = 1;

/** Plain JSON. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A tool call as JSON. */
export interface ToolCallJson {
  /** The call's id. */
  readonly id: string;
  /** The tool's name. */
  readonly name: string;
  /** Its arguments. */
  readonly args: { readonly [key: string]: JsonValue };
}

/** A message of the conversation as JSON. */
export interface MessageJson {
  /** Who wrote it. */
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  /** Its text. */
  readonly content: string;
  /** The tool calls an assistant message made. */
  readonly toolCalls?: readonly ToolCallJson[];
  /** For a tool message, the id of the call it answers. */
  readonly toolCallId?: string;
  /** For a tool message, the tool's name. */
  readonly name?: string;
}

/** Token usage as JSON. */
export interface UsageJson {
  /** Tokens in. */
  readonly inputTokens?: number;
  /** Tokens out. */
  readonly outputTokens?: number;
  /** Both. */
  readonly totalTokens?: number;
}

/** An error as JSON: what a hook or the model can read of it again. */
export interface ErrorJson {
  /** The error's name (`Error`, `ToolInputError`, …). */
  readonly name: string;
  /** Its message. */
  readonly message: string;
  /** For a refused call: who refused it. */
  readonly by?: 'hook' | 'permission' | 'approver';
}

/** A tool execution as JSON. */
export interface ToolExecutionJson {
  /** The call that ran. */
  readonly toolCall: ToolCallJson;
  /** Whether it failed (or was refused). */
  readonly isError: boolean;
  /** What the tool returned, when it succeeded. */
  readonly result?: JsonValue;
  /** Why it failed. */
  readonly error?: ErrorJson;
  /** How long it took, in ms. */
  readonly durationMs?: number;
}

/** A completed step as JSON. */
export interface StepJson {
  /** The step's 0-based index. */
  readonly index: number;
  /** The model's text. */
  readonly text: string;
  /** The calls the model made. */
  readonly toolCalls: readonly ToolCallJson[];
  /** What each call produced, in order. */
  readonly executions: readonly ToolExecutionJson[];
  /** The step's token usage. */
  readonly usage?: UsageJson;
}

/** The agent state as JSON. */
export interface AgentStateJson {
  /** The agent's id. */
  readonly agentId: string;
  /** The parent's id, for a subagent. */
  readonly parentAgentId?: string;
  /** The session's id, for a session's turn. */
  readonly sessionId?: string;
  /** Completed steps so far. */
  readonly stepCount: number;
  /** The conversation. */
  readonly messages: readonly MessageJson[];
  /** The completed steps. */
  readonly steps: readonly StepJson[];
  /** The state's metadata. */
  readonly metadata: { readonly [key: string]: JsonValue };
}

/** A step's model answer as JSON. */
export interface ModelAnswerJson {
  /** Its text. */
  readonly text: string;
  /** The calls it made. */
  readonly toolCalls: readonly ToolCallJson[];
  /** Its token usage. */
  readonly usage?: UsageJson;
  /** Whether a hook answered instead of the model. */
  readonly synthetic?: boolean;
  /**
   * The names of the tools the answer's request offered, when hooks around the model call were there to narrow them
   * (absent: every tool of the agent). The calls of the step that run after the resume are checked against it, as they
   * would have been without the interruption.
   */
  readonly offered?: readonly string[];
}

/** Which subagent a run is, by name and type. */
export interface SubagentJson {
  /** Its name (the tool name the model calls it by). */
  readonly name: string;
  /** Its type. */
  readonly type: string;
}

/** A tool of an agent's shape. */
export interface ToolShapeJson {
  /** Its name. */
  readonly name: string;
  /** A digest of the input schema the model is given. */
  readonly schema: string;
}

/** A hook of an agent's shape. */
export interface HookShapeJson {
  /** Its name. */
  readonly name: string;
  /** Its priority. */
  readonly priority: number;
  /** The events it can run for, comma-separated, or `*` for any. */
  readonly events: string;
}

/** A subagent of an agent's shape. */
export interface SubagentShapeJson {
  /** Its name. */
  readonly name: string;
  /** Its own shape. */
  readonly shape: AgentShapeJson;
}

/**
 * Where in the lifecycle a run stopped: inside a step, at one tool call of its batch. The step's model answer, and the
 * calls of the batch already decided, are kept; the calls after `callIndex` have not started.
 */
export interface InterruptPointJson {
  /** The step's index. */
  readonly stepIndex: number;
  /** The step's model answer. */
  readonly response: ModelAnswerJson;
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
  /**
   * With whole batches (`{ batch: true }`): the review of the calls from `callIndex` on, in order, made before any of
   * them ran. Every `ask` with a `requestId` is a pending request of the snapshot.
   */
  readonly review?: readonly ReviewedCallJson[];
}

/** A decision made inline before the run was interrupted, as JSON: a decision, or a response (`respond`). */
export type ApprovalDecisionJson =
  | ApprovalVerdictJson
  | {
      /** The result the reviewer gave in place of the tool's: the tool does not run. */
      readonly respond: JsonValue;
    };

/** An approval or a refusal, as JSON. */
export interface ApprovalVerdictJson {
  /** Whether the call may run. */
  readonly approved: boolean;
  /** Why. */
  readonly reason?: string;
  /** Refuse and end the run. */
  readonly stopRun?: boolean;
  /** The input the call runs with instead. */
  readonly updatedInput?: { readonly [key: string]: JsonValue };
}

/** One call of a batch reviewed before any of its calls ran: what carrying it out does. */
export interface ReviewedCallJson {
  /**
   * `run`: it runs; `fail`: its tool or input is not one it can run with (checked again when it is carried out);
   * `refuse`: a hook refused it (`message`, `by`); `ask`: it waits for the decision of `requestId`, or was decided
   * inline (`decision`).
   */
  readonly kind: 'run' | 'fail' | 'refuse' | 'ask';
  /** The call as the hooks left it. */
  readonly call: ToolCallJson;
  /** What the model is told of a refusal (kind `refuse`). */
  readonly message?: string;
  /** Who refused it (kind `refuse`). */
  readonly by?: 'hook' | 'permission';
  /** Why approval is needed (kind `ask`). */
  readonly reason?: string;
  /** The id of its pending request (kind `ask`, not decided yet). */
  readonly requestId?: string;
  /** The decision an approver gave inline (kind `ask`, decided). */
  readonly decision?: ApprovalDecisionJson;
  /** Whether someone decided it (PermissionDenied fires for a refusal), rather than refused for want of an approver. */
  readonly reviewed?: boolean;
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
  readonly subagent?: SubagentJson;
  /** Where it stopped; absent in a checkpoint kept between two steps (see `nextStep`). */
  readonly at?: InterruptPointJson;
  /**
   * In a checkpoint kept between two steps of a resumed run (its `pending` is empty): the index of the step the run
   * goes on with. `agent.resume(id, {})` goes on from there, without running again what ran before it.
   */
  readonly nextStep?: number;
}

/** What an interrupted run's tools, subagents and hooks were: a snapshot resumes only on an agent built the same way. */
export interface AgentShapeJson {
  /** The agent's name, when it has one. */
  readonly name?: string;
  /** Its tools: name and a digest of the input schema the model is given. */
  readonly tools: readonly ToolShapeJson[];
  /** Its hooks, in the order they run: name, priority and the events they can run for (`*` for any). */
  readonly hooks: readonly HookShapeJson[];
  /** Its subagents, each with its own shape. */
  readonly subagents: readonly SubagentShapeJson[];
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
  /**
   * The decisions the call's tool allows (`defineTool({ approval: { allowed } })`), for a reviewer's UI to offer:
   * `approve`, `edit` (`updatedInput`), `reject`, `respond`. Absent in snapshots of earlier versions.
   */
  readonly allowed?: readonly ApprovalDecisionKind[];
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
  /** For a session's turn: the session (its SessionStart has fired). */
  readonly session?: SessionRefJson;
  /** The run. */
  readonly run: RunFrameJson;
  /**
   * With a snapshot key (`AgentBuilder.withSnapshotKey`): HMAC-SHA256 of the rest of the snapshot (its JSON with keys
   * sorted), hex. A resume checks it, so that a snapshot changed where it was kept does not run.
   */
  readonly signature?: string;
}

/** The session an interrupted turn belongs to. */
export interface SessionRefJson {
  /** The session's id. */
  readonly id: string;
}
