/**
 * One ready-made {@link EventHook} class per canonical event.
 *
 * @module
 */
import type { HookEventName } from '../events.js';
import { brand, brandKey } from '../internal/brand.js';
import { EventHook, type EventCallback, type EventHookOptions } from './event-hook.js';

/** The class of the typed hooks of event `E`: `new BeforeToolHook(callback, { matcher, name })`. */
export interface EventHookClass<E extends HookEventName> {
  /** A hook that calls `callback` on `E`, where `options.matcher` matches. */
  new (callback: EventCallback<E>, options?: EventHookOptions): EventHook<E>;
  /** The event its hooks run for. */
  readonly event: E;
}

function eventHookClass<E extends HookEventName>(event: E, className: string): EventHookClass<E> {
  const cls = class extends EventHook<E> {
    static readonly event = event;
    constructor(callback: EventCallback<E>, options?: EventHookOptions) {
      super(event, callback, options);
    }
  };
  Object.defineProperty(cls, 'name', { value: className });
  // Its own brand, so that across copies of the package a StopHook is no BeforeToolHook.
  brand(cls, brandKey(className));
  return cls;
}

/** PreToolUse: runs before a tool call; may rewrite the call (return a `ToolCall`), block it, or ask. */
export const BeforeToolHook = eventHookClass('PreToolUse', 'BeforeToolHook');
/** PermissionRequest: a tool call needs approval; may grant (proceed) or refuse (block). */
export const PermissionRequestHook = eventHookClass('PermissionRequest', 'PermissionRequestHook');
/** PermissionDenied: the approver refused a tool call; may tell the model it may retry (return `ctx.withRetry()`). */
export const PermissionDeniedHook = eventHookClass('PermissionDenied', 'PermissionDeniedHook');
/** PostToolUse: after a successful tool call; may replace the result (return a `ToolExecution`) or reject it. */
export const AfterToolHook = eventHookClass('PostToolUse', 'AfterToolHook');
/** PostToolUseFailure: after a failed tool call. */
export const ToolFailureHook = eventHookClass('PostToolUseFailure', 'ToolFailureHook');
/** PostToolBatch: every tool call of a step has resolved; may add context for the model, or block to end the run. */
export const PostToolBatchHook = eventHookClass('PostToolBatch', 'PostToolBatchHook');
/** BeforeStep: before each step; may return a modified `AgentState`. */
export const BeforeStepHook = eventHookClass('BeforeStep', 'BeforeStepHook');
/** AfterStep: after each step; may return a modified `AgentState`. */
export const AfterStepHook = eventHookClass('AfterStep', 'AfterStepHook');
/** BeforeModel: before each model call; may rewrite the request, or answer instead of the model (return a string). */
export const BeforeModelHook = eventHookClass('BeforeModel', 'BeforeModelHook');
/** BeforeToolSelection: before each model call; may narrow the tools the model may choose (return their names). */
export const BeforeToolSelectionHook = eventHookClass('BeforeToolSelection', 'BeforeToolSelectionHook');
/** AfterModel: the model answered; may rewrite the answer (return a string for its text) or block to retry. */
export const AfterModelHook = eventHookClass('AfterModel', 'AfterModelHook');
/** ExecutionStart: a run begins. */
export const ExecutionStartHook = eventHookClass('ExecutionStart', 'ExecutionStartHook');
/** ExecutionEnd: a run has ended. */
export const ExecutionEndHook = eventHookClass('ExecutionEnd', 'ExecutionEndHook');
/** SessionStart: a session begins. */
export const SessionStartHook = eventHookClass('SessionStart', 'SessionStartHook');
/** SessionEnd: a session is closed. */
export const SessionEndHook = eventHookClass('SessionEnd', 'SessionEndHook');
/** UserPromptSubmit: may rewrite the prompt (return a string) or reject it (block). */
export const UserPromptSubmitHook = eventHookClass('UserPromptSubmit', 'UserPromptSubmitHook');
/** Stop: the quality gate; a block keeps the agent working with the reason as feedback. */
export const StopHook = eventHookClass('Stop', 'StopHook');
/** StopFailure: the turn ended on a model error, in place of Stop; observes only. */
export const StopFailureHook = eventHookClass('StopFailure', 'StopFailureHook');
/** AfterStop: the agent has stopped for this turn. */
export const AfterStopHook = eventHookClass('AfterStop', 'AfterStopHook');
/** AfterAgent: the turn is finished. */
export const AfterAgentHook = eventHookClass('AfterAgent', 'AfterAgentHook');
/** SubagentStart: a subagent is about to start; a block refuses it. */
export const SubagentStartHook = eventHookClass('SubagentStart', 'SubagentStartHook');
/** SubagentStop: a subagent is about to stop; a block keeps it working. */
export const SubagentStopHook = eventHookClass('SubagentStop', 'SubagentStopHook');
/** PreCompact: the conversation is about to be compacted. */
export const PreCompactHook = eventHookClass('PreCompact', 'PreCompactHook');
/** PostCompact: the conversation has been compacted. */
export const PostCompactHook = eventHookClass('PostCompact', 'PostCompactHook');
/** AgentFailed: the run hit an unrecoverable error. */
export const AgentFailedHook = eventHookClass('AgentFailed', 'AgentFailedHook');
/** Notification: the agent notifies the user. */
export const NotificationHook = eventHookClass('Notification', 'NotificationHook');

/** A {@link BeforeToolHook} instance. */
export type BeforeToolHook = EventHook<'PreToolUse'>;
/** A {@link PermissionRequestHook} instance. */
export type PermissionRequestHook = EventHook<'PermissionRequest'>;
/** A {@link PermissionDeniedHook} instance. */
export type PermissionDeniedHook = EventHook<'PermissionDenied'>;
/** An {@link AfterToolHook} instance. */
export type AfterToolHook = EventHook<'PostToolUse'>;
/** A {@link ToolFailureHook} instance. */
export type ToolFailureHook = EventHook<'PostToolUseFailure'>;
/** A {@link PostToolBatchHook} instance. */
export type PostToolBatchHook = EventHook<'PostToolBatch'>;
/** A {@link BeforeStepHook} instance. */
export type BeforeStepHook = EventHook<'BeforeStep'>;
/** An {@link AfterStepHook} instance. */
export type AfterStepHook = EventHook<'AfterStep'>;
/** A {@link BeforeModelHook} instance. */
export type BeforeModelHook = EventHook<'BeforeModel'>;
/** A {@link BeforeToolSelectionHook} instance. */
export type BeforeToolSelectionHook = EventHook<'BeforeToolSelection'>;
/** An {@link AfterModelHook} instance. */
export type AfterModelHook = EventHook<'AfterModel'>;
/** An {@link ExecutionStartHook} instance. */
export type ExecutionStartHook = EventHook<'ExecutionStart'>;
/** An {@link ExecutionEndHook} instance. */
export type ExecutionEndHook = EventHook<'ExecutionEnd'>;
/** A {@link SessionStartHook} instance. */
export type SessionStartHook = EventHook<'SessionStart'>;
/** A {@link SessionEndHook} instance. */
export type SessionEndHook = EventHook<'SessionEnd'>;
/** A {@link UserPromptSubmitHook} instance. */
export type UserPromptSubmitHook = EventHook<'UserPromptSubmit'>;
/** A {@link StopHook} instance. */
export type StopHook = EventHook<'Stop'>;
/** A {@link StopFailureHook} instance. */
export type StopFailureHook = EventHook<'StopFailure'>;
/** An {@link AfterStopHook} instance. */
export type AfterStopHook = EventHook<'AfterStop'>;
/** An {@link AfterAgentHook} instance. */
export type AfterAgentHook = EventHook<'AfterAgent'>;
/** A {@link SubagentStartHook} instance. */
export type SubagentStartHook = EventHook<'SubagentStart'>;
/** A {@link SubagentStopHook} instance. */
export type SubagentStopHook = EventHook<'SubagentStop'>;
/** A {@link PreCompactHook} instance. */
export type PreCompactHook = EventHook<'PreCompact'>;
/** A {@link PostCompactHook} instance. */
export type PostCompactHook = EventHook<'PostCompact'>;
/** An {@link AgentFailedHook} instance. */
export type AgentFailedHook = EventHook<'AgentFailed'>;
/** A {@link NotificationHook} instance. */
export type NotificationHook = EventHook<'Notification'>;
