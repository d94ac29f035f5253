/**
 * The union of all contexts, and the map from event to context type.
 *
 * @module
 */
import type { HookEventName } from '../events.js';
import type { CompactHookContext } from './compact-hook-context.js';
import type { ExecutionHookContext } from './execution-hook-context.js';
import type { FailureEventName, FailureHookContext } from './failure-hook-context.js';
import type { ModelHookContext } from './model-hook-context.js';
import type { NotificationHookContext } from './notification-hook-context.js';
import type { PromptHookContext } from './prompt-hook-context.js';
import type { SessionHookContext } from './session-hook-context.js';
import type { StepHookContext } from './step-hook-context.js';
import type { StopHookContext } from './stop-hook-context.js';
import type { SubagentHookContext } from './subagent-hook-context.js';
import type { ToolBatchHookContext } from './tool-batch-hook-context.js';
import type { ToolHookContext } from './tool-hook-context.js';

/** The context type each event's hooks receive. */
export interface HookContextMap {
  /** The context of SessionStart hooks. */
  SessionStart: SessionHookContext<'SessionStart'>;
  /** The context of SessionEnd hooks. */
  SessionEnd: SessionHookContext<'SessionEnd'>;
  /** The context of ExecutionStart hooks. */
  ExecutionStart: ExecutionHookContext<'ExecutionStart'>;
  /** The context of UserPromptSubmit hooks. */
  UserPromptSubmit: PromptHookContext;
  /** The context of BeforeStep hooks. */
  BeforeStep: StepHookContext<'BeforeStep'>;
  /** The context of BeforeModel hooks. */
  BeforeModel: ModelHookContext<'BeforeModel'>;
  /** The context of BeforeToolSelection hooks. */
  BeforeToolSelection: ModelHookContext<'BeforeToolSelection'>;
  /** The context of AfterModel hooks. */
  AfterModel: ModelHookContext<'AfterModel'>;
  /** The context of PreToolUse hooks. */
  PreToolUse: ToolHookContext<'PreToolUse'>;
  /** The context of PermissionRequest hooks. */
  PermissionRequest: ToolHookContext<'PermissionRequest'>;
  /** The context of PermissionDenied hooks. */
  PermissionDenied: ToolHookContext<'PermissionDenied'>;
  /** The context of PostToolUse hooks. */
  PostToolUse: ToolHookContext<'PostToolUse'>;
  /** The context of PostToolUseFailure hooks. */
  PostToolUseFailure: ToolHookContext<'PostToolUseFailure'>;
  /** The context of PostToolBatch hooks. */
  PostToolBatch: ToolBatchHookContext;
  /** The context of AfterStep hooks. */
  AfterStep: StepHookContext<'AfterStep'>;
  /** The context of SubagentStart hooks. */
  SubagentStart: SubagentHookContext;
  /** The context of SubagentStop hooks. */
  SubagentStop: StopHookContext<'SubagentStop'>;
  /** The context of PreCompact hooks. */
  PreCompact: CompactHookContext<'PreCompact'>;
  /** The context of PostCompact hooks. */
  PostCompact: CompactHookContext<'PostCompact'>;
  /** The context of Stop hooks. */
  Stop: StopHookContext<'Stop'>;
  /** The context of StopFailure hooks. */
  StopFailure: FailureHookContext<'StopFailure'>;
  /** The context of AfterStop hooks. */
  AfterStop: StopHookContext<'AfterStop'>;
  /** The context of AfterAgent hooks. */
  AfterAgent: StopHookContext<'AfterAgent'>;
  /** The context of ExecutionEnd hooks. */
  ExecutionEnd: ExecutionHookContext<'ExecutionEnd'>;
  /** The context of AgentFailed hooks. */
  AgentFailed: FailureHookContext;
  /** The context of Notification hooks. */
  Notification: NotificationHookContext;
}

/** The context a hook of event `E` receives: `ContextFor<'PreToolUse'>` is `ToolHookContext<'PreToolUse'>`. */
export type ContextFor<E extends HookEventName> = HookContextMap[E];

/**
 * Any lifecycle context. `ctx.event` is the discriminant, and it narrows the event's own fields too:
 * `if (ctx.event === 'PostToolUse') ctx.execution.result` type-checks, because a PostToolUse context always carries
 * its execution.
 */
// One member per event, so that narrowing by event reaches the fields that depend on it. The stop, execution,
// session and failure families are also listed whole: their fields do not depend on the event, and a context typed by its family
// alone (`StopHookContext`) stays assignable, as it was before the members were split.
export type AnyHookContext =
  | HookContextMap[HookEventName]
  | StopHookContext
  | ExecutionHookContext
  | SessionHookContext
  | FailureHookContext<FailureEventName>;
