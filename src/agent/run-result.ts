/**
 * What one run of an agent resolves with.
 *
 * @module
 */
import type { AgentState, AgentStep, Message, Metadata, RunStatus, StopReason, Usage } from '../core/index.js';
import type { PendingApproval, RunSnapshot } from './run-snapshot.js';

/** Options of one run. */
export interface RunOptions {
  /** Cancels the run: it fails with the signal's reason (AgentFailed, then ExecutionEnd). */
  readonly signal?: AbortSignal | undefined;
  /** Metadata every hook context of the run starts with. */
  readonly metadata?: Metadata | undefined;
  /** Reject when the run fails (default). With `false`, resolve with status `failed` and the error. */
  readonly rejectOnFailure?: boolean | undefined;
  /**
   * The id an interruption of this run is saved under (its snapshot's `id`, the checkpointer's key). Default: the
   * session's id for a session's turn, a generated id otherwise.
   */
  readonly checkpointId?: string | undefined;
}

/** Options of `agent.resume()`: a run's options but its metadata (the snapshot has it) and its checkpoint id (kept). */
export type ResumeOptions = Pick<RunOptions, 'signal' | 'rejectOnFailure'>;

/** A run that waits for decisions: what `run()` resolves with, under `interruption`, when its status is `interrupted`. */
export interface Interruption {
  /** The checkpoint id: the snapshot's `id`, the key a checkpointer keeps it under. */
  readonly id: string;
  /** The tool calls that wait for a decision, each with the request id to decide it under. */
  readonly pending: readonly PendingApproval[];
  /** The run as plain JSON: `JSON.stringify` it, keep it anywhere, give it to `agent.resume()`. */
  readonly snapshot: RunSnapshot;
}

/** How a run ended. */
export interface RunResult {
  /**
   * `completed`: the model finished (or the step limit was reached); `stopped`: a hook halted it; `failed`;
   * `interrupted`: a tool call waits for a decision (see `interruption`).
   */
  readonly status: RunStatus | 'interrupted';
  /** The assistant's last text. */
  readonly text: string;
  /** Why the run ended: what the Stop gate saw, or `hook_stop` / `prompt_blocked`; undefined when it failed. */
  readonly stopReason: StopReason | undefined;
  /** The reason a hook gave for stopping (or the failure's message). */
  readonly reason: string | undefined;
  /** Every step of the run. */
  readonly steps: readonly AgentStep[];
  /** The whole conversation after the run. */
  readonly messages: readonly Message[];
  /** Token usage summed over the steps, when the model reports it. */
  readonly usage: Usage | undefined;
  /** Every `systemMessage` hooks returned, in order: messages for the user. */
  readonly systemMessages: readonly string[];
  /** The final agent state. */
  readonly state: AgentState;
  /** The run's metadata at the end (what hooks set along the way). */
  readonly metadata: Metadata;
  /** The error, when the run failed and `rejectOnFailure` was false. */
  readonly error?: unknown;
  /** Set when the status is `interrupted`: what waits, and the snapshot to resume from. */
  readonly interruption?: Interruption | undefined;
}
