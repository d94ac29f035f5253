/**
 * The union of all contexts, and the map from event to context type.
 *
 * @module
 */
import type { HookEventName } from '../events.js';
import type { CompactHookContext } from './compact-hook-context.js';
import type { ExecutionHookContext } from './execution-hook-context.js';
import type { FailureHookContext } from './failure-hook-context.js';
import type { NotificationHookContext } from './notification-hook-context.js';
import type { PromptHookContext } from './prompt-hook-context.js';
import type { SessionHookContext } from './session-hook-context.js';
import type { StepHookContext } from './step-hook-context.js';
import type { StopHookContext } from './stop-hook-context.js';
import type { SubagentHookContext } from './subagent-hook-context.js';
import type { ToolHookContext } from './tool-hook-context.js';

/** The context type each event's hooks receive. */
export interface HookContextMap {
  SessionStart: SessionHookContext<'SessionStart'>;
  SessionEnd: SessionHookContext<'SessionEnd'>;
  ExecutionStart: ExecutionHookContext<'ExecutionStart'>;
  UserPromptSubmit: PromptHookContext;
  BeforeStep: StepHookContext<'BeforeStep'>;
  PreToolUse: ToolHookContext<'PreToolUse'>;
  PermissionRequest: ToolHookContext<'PermissionRequest'>;
  PostToolUse: ToolHookContext<'PostToolUse'>;
  PostToolUseFailure: ToolHookContext<'PostToolUseFailure'>;
  AfterStep: StepHookContext<'AfterStep'>;
  SubagentStart: SubagentHookContext;
  SubagentStop: StopHookContext<'SubagentStop'>;
  PreCompact: CompactHookContext<'PreCompact'>;
  PostCompact: CompactHookContext<'PostCompact'>;
  Stop: StopHookContext<'Stop'>;
  AfterStop: StopHookContext<'AfterStop'>;
  AfterAgent: StopHookContext<'AfterAgent'>;
  ExecutionEnd: ExecutionHookContext<'ExecutionEnd'>;
  AgentFailed: FailureHookContext;
  Notification: NotificationHookContext;
}

/** The context a hook of event `E` receives: `ContextFor<'PreToolUse'>` is `ToolHookContext<'PreToolUse'>`. */
export type ContextFor<E extends HookEventName> = HookContextMap[E];

/**
 * Any lifecycle context. `ctx.event` is the discriminant: `if (ctx.event === 'PreToolUse') ctx.toolCall` type-checks.
 */
export type AnyHookContext =
  | ToolHookContext
  | StepHookContext
  | StopHookContext
  | ExecutionHookContext
  | FailureHookContext
  | SessionHookContext
  | PromptHookContext
  | SubagentHookContext
  | CompactHookContext
  | NotificationHookContext;
