/**
 * What an agent reports while it runs: the lifecycle, each hook's run, and what went wrong without failing.
 *
 * @module
 */
import type { AnyHookContext, HookNote, HookOutcome, HookRunInfo, Metadata, ToolCall } from '../core/index.js';
import type { Interruption } from './run-result.js';

/** A warning the runtime or a hook raised without failing the run. */
export interface AgentWarning {
  /** A stable kind: `ignored-outcome`, `hook-error`, `stop-forced`, `model-retry-forced`, or a hook note's code. */
  readonly code: string;
  /** What happened. */
  readonly message: string;
  /** The event being dispatched, when there was one. */
  readonly event?: string | undefined;
  /** The hook involved, when there was one. */
  readonly hookName?: string | undefined;
}

/** A lifecycle event dispatched, with what the hooks decided. */
export interface DispatchRecord {
  /** The context after the hooks (modified, when they modified it). */
  readonly context: AnyHookContext;
  /** The hooks' combined outcome. */
  readonly outcome: HookOutcome;
  /** How long the hooks took, in milliseconds. */
  readonly durationMs: number;
}

/** A hook returned: its outcome and its own time, without the hooks after it. */
export interface HookEndInfo extends HookRunInfo {
  /** What the hook returned. */
  readonly outcome: HookOutcome;
  /** Milliseconds spent in the hook itself. */
  readonly durationMs: number;
}

/** A hook threw or broke the contract. */
export interface HookErrorInfo extends HookRunInfo {
  /** The error (a `HookError` naming the hook and the event). */
  readonly error: unknown;
  /** Milliseconds spent in the hook before it failed. */
  readonly durationMs: number;
}

/** A tool call that was refused. */
export interface ToolBlockedInfo {
  /** The call, as the hooks left it. */
  readonly toolCall: ToolCall;
  /** What the model was told. */
  readonly reason: string;
  /** Who refused it: a PreToolUse (or SubagentStart) hook, a PermissionRequest hook, or the approver. */
  readonly by: 'hook' | 'permission' | 'approver';
}

/** Stop hooks kept the agent working too many times in a row. */
export interface StopForcedInfo {
  /** Why the run ended anyway. */
  readonly reason: string;
  /** How many blocks in a row, counting the one overridden. */
  readonly blocks: number;
}

/** AfterModel hooks blocked a step's model call more times than the limit: the last answer was used anyway. */
export interface ModelRetryForcedInfo {
  /** What was done, and the last block's reason. */
  readonly reason: string;
  /** 0-based index of the step. */
  readonly stepIndex: number;
  /** How many blocks in this step, counting the one overridden. */
  readonly blocks: number;
}

/** A run was interrupted: it waits for decisions (see `AgentBuilder.withApprovalInterrupts`). */
export interface RunInterruptedInfo {
  /** The id of the agent whose run it is. */
  readonly agentId: string;
  /** What waits, and the snapshot to resume from. */
  readonly interruption: Interruption;
  /** The run's metadata at the interruption. */
  readonly metadata: Metadata;
}

/**
 * The events of an agent's emitter (`agent.events`, an `eventemitter3` emitter). Listeners are called synchronously;
 * hook timings are only measured while someone listens to `hook:start`, `hook:end` or `hook:error`.
 */
export interface AgentEvents {
  /** A lifecycle event is about to be dispatched to the hooks. */
  event: [context: AnyHookContext];
  /** A lifecycle event's hooks have decided. */
  dispatched: [record: DispatchRecord];
  /** A hook is about to run. */
  'hook:start': [info: HookRunInfo];
  /** A hook returned (its own time, without the hooks after it). */
  'hook:end': [info: HookEndInfo];
  /** A hook threw or broke the contract. */
  'hook:error': [info: HookErrorInfo];
  /** A hook reported a note (a script hook's failure, an async hook's exit). */
  'hook:note': [note: HookNote];
  /** A tool call was refused: by a hook, a PermissionRequest hook, or the approver. */
  'tool:blocked': [info: ToolBlockedInfo];
  /** Stop hooks blocked too many times in a row; the run ended anyway. */
  'stop:forced': [info: StopForcedInfo];
  /** AfterModel hooks blocked a step's model call past `modelRetryLimit`; the last answer was used anyway. */
  'model:retry-forced': [info: ModelRetryForcedInfo];
  /**
   * A run was interrupted and resolves with status `interrupted` (after its snapshot was saved, with a checkpointer).
   * No ExecutionEnd fires: the run is not over, and `agent.resume` goes on with it.
   */
  'run:interrupted': [info: RunInterruptedInfo];
  /** Something went wrong without failing the run. */
  warning: [warning: AgentWarning];
}
