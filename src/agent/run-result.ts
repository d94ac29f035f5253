/**
 * What one run of an agent resolves with.
 *
 * @module
 */
import type { AgentState, AgentStep, Message, Metadata, RunStatus, StopReason, Usage } from '../core/index.js';

/** Options of one run. */
export interface RunOptions {
  /** Cancels the run: it fails with the signal's reason (AgentFailed, then ExecutionEnd). */
  readonly signal?: AbortSignal | undefined;
  /** Metadata every hook context of the run starts with. */
  readonly metadata?: Metadata | undefined;
  /** Reject when the run fails (default). With `false`, resolve with status `failed` and the error. */
  readonly rejectOnFailure?: boolean | undefined;
}

/** How a run ended. */
export interface RunResult {
  /** `completed`: the model finished (or the step limit was reached); `stopped`: a hook halted it; `failed`. */
  readonly status: RunStatus;
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
}
