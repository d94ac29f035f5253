/**
 * Cursor's command-hook protocol (`.cursor/hooks.json`).
 *
 * @module
 */
import { HookEvent, type AnyHookContext, type HookEventName } from '../core/index.js';
import type { ProcessResult } from './process-result.js';
import type { Decision, PayloadInfo, WireDialect, WireHookInfo } from './dialect.js';
import { exitCodeDecision } from './failure.js';
import { NONE, OutputReader, PROCEED, parseJsonObject } from './wire-output.js';

/** Cursor's default number of follow-ups a stop hook may ask for in one turn. */
export const CURSOR_DEFAULT_LOOP_LIMIT = 5;

/** The first string among `fields` of a tool's arguments. */
function firstString(args: Readonly<Record<string, unknown>>, fields: readonly string[]): string | undefined {
  for (const field of fields) {
    const value = args[field];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** The field names a shell tool's command is found under. */
export const COMMAND_FIELDS: readonly string[] = Object.freeze(['command', 'cmd', 'script']);
/** The field names a file tool's path is found under. */
export const PATH_FIELDS: readonly string[] = Object.freeze(['file_path', 'filePath', 'path', 'target_file', 'file']);

function eventFields(ctx: AnyHookContext, eventName: string, workDir: string): Record<string, unknown> {
  if (ctx.event === 'PreToolUse' || ctx.event === 'PostToolUse' || ctx.event === 'PostToolUseFailure' || ctx.event === 'PermissionRequest') {
    const args = ctx.toolCall.args;
    switch (eventName) {
      case 'beforeShellExecution':
        return { command: firstString(args, COMMAND_FIELDS) ?? '', cwd: workDir };
      case 'afterShellExecution':
        return { command: firstString(args, COMMAND_FIELDS) ?? '', output: ctx.execution?.result ?? null };
      case 'beforeMCPExecution':
      case 'afterMCPExecution':
        return {
          tool_name: ctx.toolCall.name,
          tool_input: JSON.stringify(args),
          ...(eventName === 'afterMCPExecution' ? { result_json: JSON.stringify(ctx.execution?.result ?? null) } : {}),
        };
      case 'beforeReadFile':
        return { file_path: firstString(args, PATH_FIELDS) ?? '' };
      case 'afterFileEdit':
        return {
          file_path: firstString(args, PATH_FIELDS) ?? '',
          edits: typeof args.content === 'string' ? [{ old_string: '', new_string: args.content }] : [],
        };
      default:
        return {
          tool_name: ctx.toolCall.name,
          tool_input: args,
          tool_use_id: ctx.toolCall.id,
          ...(ctx.event === 'PostToolUse' ? { tool_output: ctx.execution?.result ?? null } : {}),
          ...(ctx.event === 'PostToolUseFailure' ? { error_message: ctx.errorMessage ?? null } : {}),
        };
    }
  }
  switch (ctx.event) {
    case 'UserPromptSubmit':
      return { prompt: ctx.prompt, attachments: [] };
    case 'Stop':
    case 'SubagentStop':
      return { status: 'completed', loop_count: ctx.continuationCount };
    case 'SubagentStart':
      return { subagent_type: ctx.type, task: ctx.task };
    case 'SessionStart':
      return { source: ctx.source };
    case 'SessionEnd':
      // Cursor's reasons: completed, aborted, error, window_close, user_close; a session closed here is `completed`.
      return { reason: ctx.reason === undefined || ctx.reason === 'close' ? 'completed' : ctx.reason };
    case 'PreCompact':
      return { trigger: ctx.trigger };
    default:
      return {};
  }
}

const PERMISSION = ['allow', 'deny', 'ask'] as const;

/** Options of {@link createCursorDialect}. */
export interface CursorDialectOptions {
  /** How many `followup_message`s a stop hook may send in one turn before they are ignored (default 5). */
  readonly loopLimit?: number | undefined;
}

/**
 * A Cursor dialect with its own stop-loop limit (Cursor's `loop_limit` is per hook entry).
 *
 * - stdin: `conversation_id`, `generation_id`, `hook_event_name`, `workspace_roots`, and the event's fields:
 *   `tool_name`, `tool_input`, `tool_output` (preToolUse, postToolUse); `command`, `cwd` (beforeShellExecution);
 *   `file_path` (beforeReadFile, afterFileEdit); `prompt` (beforeSubmitPrompt); `status`, `loop_count` (stop).
 * - output: `permission` allow | deny | ask, `user_message` (shown to the user), `agent_message` (the reason the model
 *   is told), `updated_input` (new tool arguments), `continue: false` (beforeSubmitPrompt: the prompt is refused;
 *   elsewhere: the run stops), and `followup_message` on stop, which keeps the agent working with it as the next
 *   message — at most `loop_limit` times in a turn.
 * - exit 2: deny, with stderr as the reason; other exits: a warning, unless the entry says `failClosed`.
 */
export function createCursorDialect(options: CursorDialectOptions = {}): WireDialect {
  const loopLimit = options.loopLimit ?? CURSOR_DEFAULT_LOOP_LIMIT;

  function payload(ctx: AnyHookContext, info: PayloadInfo): object {
    return {
      conversation_id: ctx.state.sessionId ?? ctx.state.agentId,
      generation_id: ctx.state.agentId,
      hook_event_name: info.eventName,
      workspace_roots: [info.workDir],
      ...eventFields(ctx, info.eventName, info.workDir),
    };
  }

  function interpret(result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo): Decision {
    const exit = exitCodeDecision(result, ctx, hook);
    if (exit !== undefined) return exit;
    const text = result.stdout.trim();
    if (text.length === 0) return PROCEED;
    const parsed = parseJsonObject(text, result, ctx, hook);
    if (!parsed.ok) return parsed.decision;
    const output = parsed.output;
    const r = new OutputReader(hook, ctx);
    const systemMessage = r.text(output, 'user_message');
    const agentMessage = r.text(output, 'agent_message');
    const extras = { additionalContext: NONE, systemMessage, notes: r.notes };
    if (r.bool(output, 'continue') === false) {
      const why = agentMessage ?? systemMessage ?? `Hook '${hook.name}' refused to continue.`;
      return ctx.event === 'UserPromptSubmit' ? { kind: 'block', reason: why, ...extras } : { kind: 'stop', reason: why, ...extras };
    }
    const followup = r.text(output, 'followup_message');
    if (followup !== undefined) {
      if (ctx.event !== 'Stop' && ctx.event !== 'SubagentStop') {
        r.ignored('followup_message', `on ${ctx.event}; only stop hooks can send one`);
      } else if (ctx.continuationCount >= loopLimit) {
        r.ignored('followup_message', `after ${ctx.continuationCount} follow-ups this turn, at its loop_limit of ${loopLimit}`);
      } else {
        return { kind: 'block', reason: followup, ...extras };
      }
    }
    const modified = r.toolInput(output.updated_input, 'updated_input');
    const permission = r.choice(output, 'permission', PERMISSION);
    if (permission === 'deny') return { kind: 'block', reason: agentMessage ?? systemMessage ?? `denied by hook '${hook.name}'`, ...extras };
    if (permission === 'ask') {
      return { kind: 'ask', reason: agentMessage ?? systemMessage ?? `Hook '${hook.name}' asks for approval.`, ctx: modified, ...extras };
    }
    return { kind: 'proceed', reason: agentMessage, granted: permission === 'allow', ctx: modified, ...extras };
  }

  return Object.freeze({
    name: 'cursor',
    eventName: (event: HookEventName, written?: string) =>
      written !== undefined && CURSOR_EVENTS[written] === event ? written : (HookEvent.toDialect(event, 'cursor') ?? event),
    payload,
    interpret,
  });
}

/**
 * Cursor's event names and the events they run on. The tool-specific ones (`beforeShellExecution`, …) are PreToolUse
 * or PostToolUse restricted to the tools they concern (see the Cursor loader).
 *
 * @internal
 */
export const CURSOR_EVENTS: Readonly<Record<string, HookEventName>> = Object.freeze({
  sessionStart: 'SessionStart',
  sessionEnd: 'SessionEnd',
  beforeSubmitPrompt: 'UserPromptSubmit',
  preToolUse: 'PreToolUse',
  postToolUse: 'PostToolUse',
  postToolUseFailure: 'PostToolUseFailure',
  beforeShellExecution: 'PreToolUse',
  afterShellExecution: 'PostToolUse',
  beforeMCPExecution: 'PreToolUse',
  afterMCPExecution: 'PostToolUse',
  beforeReadFile: 'PreToolUse',
  afterFileEdit: 'PostToolUse',
  subagentStart: 'SubagentStart',
  subagentStop: 'SubagentStop',
  preCompact: 'PreCompact',
  stop: 'Stop',
});

/** Cursor's dialect with the default loop limit. */
export const cursorDialect: WireDialect = createCursorDialect();
