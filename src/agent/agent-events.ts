/**
 * What an agent reports while it runs: the lifecycle, each hook's run, and what went wrong without failing.
 *
 * @module
 */
import type { AnyHookContext, HookNote, HookOutcome, HookRunInfo, ToolCall } from '../core/index.js';

/** A warning the runtime or a hook raised without failing the run. */
export interface AgentWarning {
  /** A stable kind: `ignored-outcome`, `hook-error`, `stop-forced`, or a hook note's code. */
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
  'hook:end': [info: HookRunInfo & { readonly outcome: HookOutcome; readonly durationMs: number }];
  /** A hook threw or broke the contract. */
  'hook:error': [info: HookRunInfo & { readonly error: unknown; readonly durationMs: number }];
  /** A hook reported a note (a script hook's failure, an async hook's exit). */
  'hook:note': [note: HookNote];
  /** A tool call was refused: by a hook, a PermissionRequest hook, or the approver. */
  'tool:blocked': [info: { readonly toolCall: ToolCall; readonly reason: string; readonly by: 'hook' | 'permission' | 'approver' }];
  /** Stop hooks blocked too many times in a row; the run ended anyway. */
  'stop:forced': [info: { readonly reason: string; readonly blocks: number }];
  /** Something went wrong without failing the run. */
  warning: [warning: AgentWarning];
}
