/**
 * The HOOK.md (Agent Hooks) wire protocol: a snake_case JSON event on stdin; exit 0 with optional JSON, exit 2 to
 * block with stderr as the reason, anything else a failure.
 *
 * @module
 */
import type { AnyHookContext, HookNote } from '../core/index.js';
import { hookMdEventName as eventName } from './hookmd-event-name.js';
import { messageOf } from '../core/internal/message-of.js';
import type { ProcessResult } from './process-result.js';
import { pythonJsonDumps } from './internal/python-json.js';
import type { Decision, PayloadInfo, WireDialect, WireHookInfo } from './dialect.js';
import { exit2Notes, failureDecision, processFailure, tail, withStderr } from './failure.js';
import { hookMdModelAnswer } from './hookmd-model-answer.js';
import { modelRequestJson, modelResponseJson } from './internal/model-call-fields.js';

const NONE: readonly string[] = Object.freeze([]);
const PROCEED: Decision = Object.freeze({ kind: 'proceed', additionalContext: NONE, notes: [] });

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * `value`, unless another agent sent the event (through the bridge) and sent none of `fields`: then `null`, so that
 * a script never takes the context's neutral value (a step count of 0, a generated tool-use id) for the agent's word.
 */
function sent(ctx: AnyHookContext, value: unknown, ...fields: string[]): unknown {
  const origin = ctx.origin;
  if (origin === undefined || fields.some((field) => origin.fields.has(field))) return value;
  return null;
}

/** What the agent that sent the event (through the bridge) sent as `field`, when it is of the kind `isKind` wants. */
function forwarded<T>(ctx: AnyHookContext, field: string, isKind: (value: unknown) => value is T): T | null {
  const value = ctx.origin?.payload[field];
  return isKind(value) ? value : null;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/**
 * The fields of the event's own family, named as the spec's hook input section names them (and snake_case where it
 * names none). A field the spec lists is always sent, `null` when its value is not known here (the model of a
 * session, the length of one that did not start in this process) rather than made up.
 */
function eventFields(ctx: AnyHookContext): Record<string, unknown> {
  switch (ctx.event) {
    case 'PreToolUse':
    case 'PermissionRequest':
    case 'PermissionDenied':
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return {
        tool_name: ctx.toolCall.name,
        tool_input: ctx.toolCall.args,
        tool_use_id: sent(ctx, ctx.toolCall.id, 'tool_use_id'),
        ...(ctx.event === 'PermissionRequest' && ctx.permissionReason !== undefined
          ? { permission_reason: ctx.permissionReason }
          : {}),
        // The spec has no PermissionDenied: its fields are named as Claude Code names them.
        ...(ctx.event === 'PermissionDenied' ? { reason: ctx.permissionReason ?? null } : {}),
        ...(ctx.event === 'PostToolUse' ? { tool_output: ctx.execution?.result ?? null } : {}),
        ...(ctx.event === 'PostToolUseFailure' ? { tool_error: ctx.errorMessage ?? null } : {}),
      };
    case 'Stop':
    case 'SubagentStop':
    case 'AfterStop':
    case 'AfterAgent':
      return {
        stop_reason: sent(ctx, ctx.stopReason, 'stop_reason'),
        step_count: sent(ctx, ctx.stepCount, 'step_count', 'total_steps'),
        // The spec sends the assistant's final message as a message object, or null.
        final_message: ctx.finalMessage === undefined ? null : { role: 'assistant', content: ctx.finalMessage },
        // Lets a quality gate see that the agent is already working again because of a block (loop guard).
        stop_hook_active: sent(ctx, ctx.stopHookActive, 'stop_hook_active'),
        ...(ctx.event === 'SubagentStop'
          ? {
              subagent_name: ctx.subagentName ?? forwarded(ctx, 'agent_name', isString),
              subagent_type: ctx.subagentType ?? forwarded(ctx, 'agent_type', isString),
              task_description: forwarded(ctx, 'task_description', isString),
            }
          : {
              ...(ctx.subagentName !== undefined ? { subagent_name: ctx.subagentName } : {}),
              ...(ctx.subagentType !== undefined ? { subagent_type: ctx.subagentType } : {}),
            }),
      };
    case 'SubagentStart':
      return {
        subagent_name: sent(ctx, ctx.name, 'subagent_name', 'agent_name'),
        subagent_type: ctx.type,
        task_description: sent(ctx, ctx.task, 'task_description', 'task'),
      };
    case 'SessionStart':
      // `model` and `args` as the spec lists them; the reference runtime sends `{}` for args.
      return { model: ctx.model ?? forwarded(ctx, 'model', isString), args: {}, source: sent(ctx, ctx.source, 'source') };
    case 'SessionEnd':
      // `exit_reason`, `total_steps` and `duration_seconds` (an integer) are the spec's names; `reason` is the name
      // every other agent uses.
      return {
        duration_seconds: ctx.durationMs !== undefined ? Math.round(ctx.durationMs / 1000) : forwarded(ctx, 'duration_seconds', isCount),
        total_steps: sent(ctx, ctx.state.stepCount, 'step_count', 'total_steps'),
        exit_reason: ctx.reason ?? null,
        reason: ctx.reason ?? null,
      };
    case 'UserPromptSubmit':
      return { prompt: ctx.prompt };
    case 'PreCompact':
    case 'PostCompact':
      return {
        trigger: sent(ctx, ctx.trigger, 'trigger'),
        message_count: sent(ctx, ctx.messagesBefore.length, 'message_count'),
        ...(ctx.messagesAfter !== undefined ? { message_count_after: ctx.messagesAfter.length } : {}),
        ...(ctx.customInstructions !== undefined ? { custom_instructions: ctx.customInstructions } : {}),
      };
    case 'BeforeStep':
    case 'AfterStep':
      return { step_index: ctx.stepIndex, step_count: ctx.state.stepCount };
    // The spec has no model event: a hook registered under one's canonical name gets the step's fields and the call,
    // its request and answer in the JSON form `agent-hooks test` reads (this runtime's extension of the format).
    case 'BeforeModel':
    case 'BeforeToolSelection':
    case 'AfterModel':
      return {
        step_index: sent(ctx, ctx.stepIndex, 'step_index'),
        step_count: sent(ctx, ctx.state.stepCount, 'step_count', 'total_steps'),
        model_name: ctx.modelName ?? null,
        // Never null: no agent that sends these events through the bridge makes a call again on a hook's word.
        retry_count: ctx.retryCount,
        request: modelRequestJson(ctx.request),
        ...(ctx.event === 'AfterModel' ? { response: modelResponseJson(ctx.response), synthetic: ctx.synthetic } : {}),
      };
    case 'ExecutionStart':
    case 'ExecutionEnd':
      return {
        ...(ctx.prompt !== undefined ? { prompt: ctx.prompt } : {}),
        ...(ctx.status !== undefined ? { status: ctx.status } : {}),
        ...(ctx.reason !== undefined ? { reason: ctx.reason } : {}),
        ...(ctx.durationMs !== undefined ? { duration_ms: ctx.durationMs } : {}),
      };
    // The spec has no PostToolBatch: each call is written as the tool events write theirs.
    case 'PostToolBatch':
      return {
        step_index: ctx.stepIndex,
        tool_calls: ctx.toolCalls.map((call) => {
          const execution = ctx.executionOf(call);
          return {
            tool_name: call.name,
            tool_input: call.args,
            tool_use_id: call.id,
            ...(execution === undefined ? {} : execution.isError ? { tool_error: execution.errorMessage ?? null } : { tool_output: execution.result ?? null }),
          };
        }),
      };
    case 'AgentFailed':
      return { error_message: ctx.errorMessage, error_class: ctx.errorClass };
    // Nor StopFailure: AgentFailed's fields, with the kind of model error and the assistant's last words.
    case 'StopFailure':
      return {
        error_message: ctx.errorMessage,
        error_class: ctx.errorClass,
        error_type: ctx.errorType,
        final_message: ctx.finalMessage === undefined ? null : { role: 'assistant', content: ctx.finalMessage },
      };
    case 'Notification':
      return {
        message: ctx.message,
        notification_type: sent(ctx, ctx.notificationType, 'notification_type'),
        ...(ctx.title !== undefined ? { title: ctx.title } : {}),
      };
  }
}

function payload(ctx: AnyHookContext, info: PayloadInfo): object {
  return {
    event_type: info.eventName,
    timestamp: new Date().toISOString(),
    // A string, as the spec says: outside a session, the id of the agent whose run this is.
    session_id: ctx.state.sessionId ?? ctx.state.agentId,
    work_dir: info.workDir,
    // The metadata a hook would read with ctx.get(): the context's own over the state's.
    context: { ...ctx.state.metadata, ...ctx.metadata },
    ...eventFields(ctx),
  };
}

const DECISIONS = ['allow', 'deny', 'block', 'ask'] as const;

function interpret(result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo): Decision {
  const failure = processFailure(result, hook);
  if (failure !== undefined) return failureDecision(failure, result, ctx, hook);
  if (result.exitCode === 2) {
    const reason = result.stderr.trim();
    const why = reason.length > 0 ? reason : `blocked by hook '${hook.name}' (exit 2)`;
    return { kind: 'block', reason: why, additionalContext: NONE, notes: exit2Notes(result, ctx, hook) };
  }
  if (result.exitCode !== 0) {
    const cause = withStderr(`exited with code ${result.exitCode}`, result);
    return failureDecision({ code: 'exit-code', cause }, result, ctx, hook);
  }
  const text = result.stdout.trim();
  if (text.length === 0) return PROCEED;
  let output: unknown;
  try {
    output = JSON.parse(text);
  } catch (error) {
    return invalidOutput(`printed output that is not JSON (${messageOf(error)})`, result, ctx, hook);
  }
  if (!isRecord(output)) return invalidOutput(`printed JSON that is not an object`, result, ctx, hook);
  return readOutput(output, result, ctx, hook);
}

function invalidOutput(cause: string, result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo): Decision {
  return failureDecision({ code: 'invalid-output', cause, data: { stdout: tail(result.stdout) } }, result, ctx, hook);
}

/** Reads the spec's fields from exit-0 JSON. A field of the wrong type is ignored with a note; the rest still counts. */
function readOutput(output: Record<string, unknown>, result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo): Decision {
  const notes: HookNote[] = [];
  const ignored = (field: string, problem: string): void => {
    notes.push({
      level: 'warning',
      hookName: hook.name,
      event: ctx.event,
      code: 'invalid-output',
      message: `Hook '${hook.name}' printed ${field} ${problem}; it is ignored.`,
      data: { field },
    });
  };
  const text = (field: string): string | undefined => {
    const value = output[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value.trim().length > 0 ? value : undefined;
    ignored(field, `as ${typeof value}, not a string`);
    return undefined;
  };
  const texts = (field: string): readonly string[] => {
    const value = output[field];
    if (value === undefined || value === null) return NONE;
    const items = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
    if (items === undefined || items.some((item) => typeof item !== 'string')) {
      ignored(field, 'that is neither a string nor a list of strings');
      return NONE;
    }
    return (items as string[]).filter((s) => s.trim().length > 0);
  };

  const reason = text('reason');
  const additionalContext = texts('additional_context');
  const systemMessages = texts('system_message');
  const systemMessage = systemMessages.length > 0 ? systemMessages.join('\n') : undefined;
  const extras = { additionalContext, systemMessage, notes };

  if (output.continue !== undefined && typeof output.continue !== 'boolean') ignored('continue', 'that is not a boolean');
  if (output.continue === false) {
    return { kind: 'stop', reason: text('stop_reason') ?? reason ?? `Hook '${hook.name}' stopped the run.`, ...extras };
  }

  const decision = output.decision;
  if (decision !== undefined && decision !== null && !(DECISIONS as readonly unknown[]).includes(decision)) {
    const found = typeof decision === 'string' ? `"${decision}"` : JSON.stringify(decision);
    return invalidOutput(`printed decision ${found}, which is none of ${DECISIONS.join(', ')}`, result, ctx, hook);
  }
  if (decision === 'deny' || decision === 'block') {
    return { kind: 'block', reason: reason ?? `blocked by hook '${hook.name}'`, ...extras };
  }
  // Each is read, so that each is noted where its event does not take it; at most one applies to an event.
  const modified = [modifiedContext(output.modified_input, ctx, ignored), retried(output.retry, ctx, ignored), hookMdModelAnswer(output, ctx, ignored)].find(
    (changed) => changed !== undefined,
  );
  if (decision === 'ask') {
    return { kind: 'ask', reason: reason ?? `Hook '${hook.name}' asks for approval.`, ctx: modified, ...extras };
  }
  return { kind: 'proceed', reason, granted: decision === 'allow', ctx: modified, ...extras };
}

/** `retry: true` on PermissionDenied tells the model it may retry the refused call (Claude Code's field). */
function retried(value: unknown, ctx: AnyHookContext, ignored: (field: string, problem: string) => void): AnyHookContext | undefined {
  if (value === undefined || value === null || value === false) return undefined;
  if (ctx.event !== 'PermissionDenied') {
    ignored('retry', `on ${ctx.event}, where only PermissionDenied reads it`);
    return undefined;
  }
  if (value !== true) {
    ignored('retry', 'that is not a boolean');
    return undefined;
  }
  return ctx.withRetry();
}

/** `modified_input` replaces a tool call's arguments (PreToolUse, PermissionRequest); elsewhere it means nothing. */
function modifiedContext(
  value: unknown,
  ctx: AnyHookContext,
  ignored: (field: string, problem: string) => void,
): AnyHookContext | undefined {
  if (value === undefined || value === null) return undefined;
  if (ctx.event !== 'PreToolUse' && ctx.event !== 'PermissionRequest') {
    ignored('modified_input', `on ${ctx.event}, where only PreToolUse and PermissionRequest take a new tool input`);
    return undefined;
  }
  if (!isRecord(value)) {
    ignored('modified_input', `as ${Array.isArray(value) ? 'an array' : typeof value}, not an object of tool arguments`);
    return undefined;
  }
  return ctx.withArgs(value);
}

/**
 * The HOOK.md dialect.
 *
 * - stdin: written as Python's `json.dumps` writes it (`", "` and `": "`, non-ASCII as `\uXXXX`), as the reference
 *   runtime sends it, so a script that greps for `"command": "` finds it. `event_type` (in the family the trigger was written
 *   in), `timestamp`, `session_id`, `work_dir`, `context` (metadata), and the event's own fields: `tool_name`, `tool_input`, `tool_use_id` (+ `tool_output` on
 *   PostToolUse, `tool_error` on PostToolUseFailure); `stop_reason`, `step_count`, `final_message`; `subagent_name`,
 *   `subagent_type`, `task_description`; `prompt`; `model`, `args`, `source`; `duration_seconds`, `total_steps`,
 *   `exit_reason`; `trigger`; `reason` (PermissionDenied); `tool_calls` (PostToolBatch: each call's `tool_name`,
 *   `tool_input`, `tool_use_id` and `tool_output` or `tool_error`); `error_message`, `error_class`, `error_type`
 *   (StopFailure, with `final_message`); on the model events, which the spec lacks (this runtime's extension of the
 *   format), `step_index`, `step_count`, `model_name`, `retry_count` and the call's `request` `{system, messages,
 *   tools, settings, toolConfig}` — plus, on AfterModel, its `response` `{text, toolCalls, usage}` and `synthetic` —
 *   in the JSON form `sampleContext` reads, a field without a value `null`; …
 * - exit 0: proceed, or the stdout JSON's `decision` (allow | deny | block | ask), `reason`, `modified_input` (new
 *   tool arguments), `additional_context`, `system_message`, `continue: false` with `stop_reason` (stop the run),
 *   `retry: true` (PermissionDenied: the model may retry the refused call). On the model events: `modified_request`
 *   — any of `system`, `messages`, `settings` (merged) and `toolConfig` (which narrows the selection before it) —
 *   rewrites the request on BeforeModel (on BeforeToolSelection its `toolConfig` only); `response` `{text,
 *   toolCalls}` (or a string) answers instead of the model on BeforeModel, and on AfterModel replaces the fields of
 *   the answer it gives; a deny or block refuses the call (BeforeModel) or has it made again with the reason as
 *   feedback (AfterModel). A field printed back as it was sent changes nothing; a wrong field, or one its event does
 *   not take, is ignored with a note naming it, and the rest of the answer still counts.
 * - exit 2: block, with stderr as the reason.
 * - anything else (another exit code, a signal, no start, a timeout, too much output, JSON that is not an object or
 *   an unknown decision): a failure, which lets the action go on with a warning note — or blocks it when the hook
 *   fails closed.
 */
export const hookMdDialect: WireDialect = Object.freeze({
  name: 'hookmd',
  eventName,
  payload,
  stringify: pythonJsonDumps,
  interpret,
});
