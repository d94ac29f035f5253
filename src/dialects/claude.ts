/**
 * Claude Code's command-hook protocol (`settings.json` hooks), and the reading of its JSON answers that VS Code and
 * Copilot's PascalCase hooks share.
 *
 * @module
 */
import { HookEvent, type AnyHookContext, type HookEventName, type HookNote, type ToolHookContext } from '../core/index.js';
import { resultText } from '../core/internal/as-text.js';
import { statusOf } from '../core/model-error-type.js';
import type { ProcessResult } from './process-result.js';
import type { Decision, PayloadInfo, WireDialect, WireHookInfo } from './dialect.js';
import { claudeBlockingFeedbackOf, fromClaudeCode, withClaudeBlockingFeedback, type ClaudeBlockingFeedback } from './claude-blocking-feedback.js';
import { claudeStopBlockingError, claudeStopFeedback, wordsStopFeedback } from './claude-stop-feedback.js';
import { newSessionEnvFile } from './claude-env-file.js';
import { claudeOwnOutput } from './claude-tool-output.js';
import { writeTranscript } from './claude-transcript.js';
import { exit2Notes, exitCodeDecision, failureDecision, processFailure, tail } from './failure.js';
import { OutputReader, PROCEED, invalidOutput, isRecord, parseJsonObject } from './wire-output.js';

/** The event's own fields, in Claude Code's snake_case names. */
export function claudeEventFields(ctx: AnyHookContext): Record<string, unknown> {
  switch (ctx.event) {
    case 'PermissionRequest':
      // Claude Code sends a permission request without the call's id.
      return { tool_name: ctx.toolCall.name, tool_input: ctx.toolCall.args };
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return {
        tool_name: ctx.toolCall.name,
        tool_input: ctx.toolCall.args,
        tool_use_id: ctx.toolCall.id,
        ...(ctx.event === 'PostToolUse' ? { tool_response: ctx.execution?.result ?? null } : {}),
        ...(ctx.event === 'PostToolUseFailure' ? { error: ctx.errorMessage ?? null } : {}),
      };
    case 'PermissionDenied':
      return { tool_name: ctx.toolCall.name, tool_input: ctx.toolCall.args, tool_use_id: ctx.toolCall.id, reason: ctx.permissionReason ?? '' };
    case 'PostToolBatch':
      // Each call with what the model was told of it, as Claude Code sends its tool_result's content; a call the run
      // never got to has no tool_response.
      return {
        tool_calls: ctx.toolCalls.map((call) => {
          const execution = ctx.executionOf(call);
          const response = execution === undefined ? undefined : execution.isError ? (execution.errorMessage ?? '') : resultText(execution.result);
          return { tool_name: call.name, tool_input: call.args, tool_use_id: call.id, ...(response !== undefined ? { tool_response: response } : {}) };
        }),
      };
    case 'StopFailure': {
      // As Claude Code 2.1.332 sends it (test/agents/claude-rules.test.ts): a plain HTTP 400 is `unknown`, and the last
      // assistant message is the API error as it shows it; no `error_details`.
      const status = statusOf(ctx.error);
      return {
        error: status === 400 && ctx.errorType === 'invalid_request' ? 'unknown' : ctx.errorType,
        last_assistant_message: `API Error: ${status === undefined ? '' : `${status} `}${ctx.errorMessage}`,
      };
    }
    case 'UserPromptSubmit':
      return { prompt: ctx.prompt };
    case 'Stop':
    case 'SubagentStop':
    case 'AfterStop':
    case 'AfterAgent':
      return {
        stop_hook_active: ctx.stopHookActive,
        ...(ctx.subagentName !== undefined ? { agent_id: ctx.subagentName } : {}),
        ...(ctx.subagentType !== undefined ? { agent_type: ctx.subagentType } : {}),
      };
    case 'SubagentStart':
      return { agent_id: ctx.name, agent_type: ctx.type };
    case 'SessionStart':
      // Claude Code 2.1.332 sends no model on SessionStart (test/agents/claude-rules.test.ts). Its `fork` reads as
      // `resume` here; a hook behind the bridge gets it back as sent.
      return { source: ctx.source === 'resume' && ctx.origin?.payload.source === 'fork' ? 'fork' : ctx.source };
    case 'SessionEnd':
      // One of Claude Code's reasons, or `other`, as a headless Claude Code ends (a `matcher: "other"` hook runs then).
      return { reason: ctx.reason !== undefined && CLAUDE_END_REASONS.has(ctx.reason) ? ctx.reason : 'other' };
    case 'PreCompact':
      // A `/compact` without instructions: null in Claude Code 2.1.332 (test/agents/claude-rules-events.test.ts).
      return { trigger: ctx.trigger, custom_instructions: ctx.customInstructions ?? null };
    case 'PostCompact': {
      // Claude Code sends the summary the compaction made: here the system message the compacted conversation starts with.
      const first = ctx.messagesAfter?.[0];
      return { trigger: ctx.trigger, compact_summary: first?.role === 'system' ? first.content : '' };
    }
    case 'Notification':
      return {
        message: ctx.message,
        notification_type: ctx.notificationType,
        ...(ctx.title !== undefined ? { title: ctx.title } : {}),
      };
    default:
      // Events Claude Code does not have (BeforeStep, ExecutionStart, …) carry the common fields only.
      return {};
  }
}

/** The reasons Claude Code 2.1.332 gives on SessionEnd (its settings schema's list); any other is `other`. */
const CLAUDE_END_REASONS: ReadonlySet<string> = new Set(['clear', 'resume', 'logout', 'prompt_input_exit', 'other']);

/** The events on which Claude Code 2.1.332 sends no `permission_mode` (recorded from the binary). */
const NO_PERMISSION_MODE: ReadonlySet<HookEventName> = new Set(['SessionStart', 'SessionEnd', 'StopFailure', 'PreCompact', 'SubagentStart']);

/** Events where Claude Code adds a hook's plain (non-JSON) stdout to the model's context. */
const PLAIN_STDOUT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set(['UserPromptSubmit', 'SessionStart']);

const PERMISSION = ['allow', 'deny', 'ask'] as const;
const DECISIONS = ['block', 'approve', 'allow', 'deny'] as const;
const BEHAVIOURS = ['allow', 'deny'] as const;

/** How one dialect of the Claude family reads an answer; the family shares the rest. */
export interface ClaudeReading {
  /** The events whose plain (non-JSON) stdout is context for the model (default: UserPromptSubmit, SessionStart). */
  readonly plainStdoutIsContext?: ReadonlySet<HookEventName> | undefined;
  /**
   * Claude Code's own reading (see `readClaudeCodeAnswer`): JSON on every exit code, each field only on its
   * event, `hookSpecificOutput.hookEventName` required. Off for VS Code, which reads the same fields more loosely.
   */
  readonly strict?: boolean | undefined;
}

/**
 * Reads an answer the way the Claude family does: stdout that starts with `{` is JSON, other stdout is context for
 * UserPromptSubmit and SessionStart and ignored elsewhere. With `reading.strict`, as Claude Code itself does
 * (`readClaudeCodeAnswer`); otherwise JSON is read on exit 0 only.
 */
export function interpretClaudeFamily(
  result: ProcessResult,
  ctx: AnyHookContext,
  hook: WireHookInfo,
  reading: ClaudeReading = {},
): Decision {
  if (reading.strict === true) return readClaudeCodeAnswer(result, ctx, hook, reading);
  // Exit 2 where the event cannot block: Claude Code shows stderr to the user.
  const exit = exitCodeDecision(result, ctx, hook, { exit2Elsewhere: 'message' });
  if (exit !== undefined) return exit;
  const text = result.stdout.trim();
  if (text.length === 0) return PROCEED;
  if (!text.startsWith('{')) {
    const plain = reading.plainStdoutIsContext ?? PLAIN_STDOUT_IS_CONTEXT;
    return plain.has(ctx.event) ? { kind: 'proceed', additionalContext: [text], notes: [] } : PROCEED;
  }
  const parsed = parseJsonObject(text, result, ctx, hook);
  if (!parsed.ok) return parsed.decision;
  return readClaudeOutput(parsed.output, ctx, hook, reading);
}

/** A warning that part of an answer, or all of it, did not count, and why. */
function droppedNote(hook: WireHookInfo, ctx: AnyHookContext, code: string, message: string, data?: Record<string, unknown>): HookNote {
  return { level: 'warning', hookName: hook.name, event: ctx.event, code, message, ...(data !== undefined ? { data } : {}) };
}

/** Adds `notes` to a decision. */
const withNotes = (decision: Decision, notes: readonly HookNote[]): Decision =>
  notes.length === 0 ? decision : { ...decision, notes: [...decision.notes, ...notes] };

/**
 * Why Claude Code's schema refuses this answer as a whole, or `undefined` when it takes it: a top-level `decision`
 * other than `approve` or `block`, a `hookSpecificOutput` that is not an object or names no `hookEventName`, a
 * PreToolUse `permissionDecision` it does not know, a PermissionRequest `decision` without an allow or deny
 * `behavior`.
 */
function schemaProblem(output: Record<string, unknown>): string | undefined {
  const decision = output.decision;
  if (decision !== undefined && decision !== 'approve' && decision !== 'block') {
    const hint = decision === 'deny' || decision === 'allow' || decision === 'ask' ? ' (use hookSpecificOutput.permissionDecision on PreToolUse)' : '';
    return `a top-level decision ${JSON.stringify(decision)}, where only "approve" and "block" are valid${hint}`;
  }
  const specific = output.hookSpecificOutput;
  if (specific === undefined) return undefined;
  if (!isRecord(specific)) return 'a hookSpecificOutput that is not an object';
  if (typeof specific.hookEventName !== 'string') return 'a hookSpecificOutput without its required "hookEventName"';
  if (specific.hookEventName === 'PreToolUse' && specific.permissionDecision !== undefined && !['allow', 'deny', 'ask', 'defer'].includes(specific.permissionDecision as string)) {
    return `a permissionDecision ${JSON.stringify(specific.permissionDecision)}, which is none of allow, deny, ask, defer`;
  }
  if (specific.hookEventName === 'PermissionDenied' && specific.retry !== undefined && typeof specific.retry !== 'boolean') {
    return `a PermissionDenied retry ${JSON.stringify(specific.retry)}, which is not true or false`;
  }
  if (specific.hookEventName === 'PermissionRequest' && specific.decision !== undefined) {
    const behavior = isRecord(specific.decision) ? specific.decision.behavior : undefined;
    if (behavior !== 'allow' && behavior !== 'deny') return 'a PermissionRequest decision that is not {"behavior": "allow"} or {"behavior": "deny", "message": "…"}';
  }
  return undefined;
}

/**
 * The fields Claude Code 2.1.330 reads in `hookSpecificOutput`, by event (and `permissionDisplay` on PreToolUse, read
 * from 2.1.332's schema); any other is dropped. An event without an
 * entry (SessionEnd, PreCompact, PostCompact, StopFailure) has no `hookSpecificOutput` in Claude Code's schema.
 *
 * @internal
 */
export const CLAUDE_SPECIFIC_FIELDS: Readonly<Partial<Record<HookEventName, readonly string[]>>> = {
  PreToolUse: ['permissionDecision', 'permissionDecisionReason', 'updatedInput', 'additionalContext', 'permissionDisplay'],
  PermissionRequest: ['decision'],
  PostToolUse: ['additionalContext', 'updatedToolOutput', 'updatedMCPToolOutput', 'classifierContext'],
  PostToolUseFailure: ['additionalContext'],
  PostToolBatch: ['additionalContext'],
  PermissionDenied: ['retry'],
  UserPromptSubmit: ['additionalContext', 'sessionTitle', 'suppressOriginalPrompt'],
  SessionStart: ['additionalContext', 'initialUserMessage', 'sessionTitle', 'watchPaths', 'reloadSkills'],
  SubagentStart: ['additionalContext'],
  Stop: ['additionalContext'],
  SubagentStop: ['additionalContext'],
  Notification: ['additionalContext'],
};

/**
 * The `hookSpecificOutput` fields Claude Code reads that have nothing to act on in an agent built here, and why: they
 * are taken without effect, with an information note.
 *
 * @internal
 */
export const CLAUDE_FIELDS_WITHOUT_EFFECT: Readonly<Record<string, string>> = {
  classifierContext: "it is context for Claude Code's auto-mode classifier, and there is none here",
  permissionDisplay: "it words the permission card of Claude Code's desktop host, beside an ask; an approver here gets the ask's reason",
  sessionTitle: "it names the session in Claude Code's list of sessions",
  suppressOriginalPrompt: "it hides the user's prompt in Claude Code's view of the conversation",
  initialUserMessage: 'it gives an interactive Claude Code session its first prompt, where a run here starts from its own',
  watchPaths: 'it has Claude Code watch files for its FileChanged hooks, an event that is not here',
  reloadSkills: 'it has Claude Code reload its skills, which are not here',
};

/**
 * Reads a hook's answer exactly as Claude Code does:
 * - stdout that starts with `{` is JSON on every exit code: exit 1 with a JSON deny denies. On exit 2 a block the
 *   JSON gives wins (its reason), and stderr blocks only when the JSON does not.
 * - JSON Claude Code's schema refuses (a top-level `decision` other than approve/block, a `hookSpecificOutput` without
 *   `hookEventName`) is ignored as a whole, with a warning (exit 2 still blocks with stderr).
 * - `hookSpecificOutput.hookEventName` must name the event: when it names another, the answer is ignored, except a
 *   top-level `decision: "block"`, which stands while `hookSpecificOutput` is dropped.
 * - each `hookSpecificOutput` field counts on its event only (`permissionDecision`/`updatedInput` on PreToolUse,
 *   PermissionRequest's `decision.behavior`, PostToolUse's `updatedToolOutput`); others are dropped with a warning.
 * - PostToolUse `decision: "block"` keeps the result and puts the reason beside it; Stop and SubagentStop keep the
 *   agent working on `additionalContext`; exit 2 on PermissionRequest decides nothing; `{"async": true}` answers
 *   nothing.
 */
export function readClaudeCodeAnswer(result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo, reading: ClaudeReading = {}): Decision {
  const failure = processFailure(result, hook);
  if (failure !== undefined) return failureDecision(failure, result, ctx, hook);
  const text = result.stdout.trim();
  const exit = result.exitCode ?? 1;
  let output: Record<string, unknown> | undefined;
  let invalid: string | undefined;
  if (text.startsWith('{')) {
    try {
      const value: unknown = JSON.parse(text);
      if (isRecord(value)) output = value;
      else invalid = 'printed JSON that is not an object';
    } catch {
      // Claude Code reads a first line of {"async": true} as a background answer, and other text as plain text.
      if (/^\{\s*"async"\s*:\s*true\s*\}/.test(text)) output = { async: true };
      else if (exit === 0) invalid = 'printed output that starts with { but is not JSON';
    }
  }
  if (output !== undefined && output.async === true) return exit === 2 ? exit2(result, ctx, hook) : PROCEED;
  if (output !== undefined) {
    const problem = schemaProblem(output);
    if (problem !== undefined) {
      if (exit === 2) return exit2(result, ctx, hook);
      return invalidOutput(`printed ${problem}, so Claude Code ignores the whole answer`, result, ctx, hook);
    }
    const read = readClaudeCodeOutput(output, ctx, hook);
    const decision = output.decision === 'block' ? stopBlockWorded(read, ctx, hook) : read;
    if (exit !== 2 || decision.kind === 'block' || decision.kind === 'stop') return decision;
    // The JSON did not block: exit 2 blocks with stderr (nothing on PermissionRequest), the JSON's messages kept.
    const blocked = exit2(result, ctx, hook);
    if (blocked.kind !== 'block' && ctx.event === 'PostToolUse' && decision.kind === 'proceed') {
      // The tool has run: its feedback goes beside the JSON's context, and a replaced output stands.
      return { ...decision, ctx: withFeedbackOf(blocked, decision.ctx) ?? decision.ctx, additionalContext: [...blocked.additionalContext, ...decision.additionalContext], notes: [...decision.notes, ...blocked.notes] };
    }
    if (blocked.kind !== 'block') return decision.granted === true || decision.kind !== 'proceed' ? decision : withNotes(decision, blocked.notes);
    return { ...blocked, additionalContext: [...decision.additionalContext, ...blocked.additionalContext], systemMessage: decision.systemMessage ?? blocked.systemMessage, notes: [...decision.notes, ...blocked.notes] };
  }
  if (exit === 2) return exit2(result, ctx, hook);
  if (exit !== 0) return exitCodeDecision(result, ctx, hook, { exit2Elsewhere: 'message' }) ?? PROCEED;
  const plain = reading.plainStdoutIsContext ?? PLAIN_STDOUT_IS_CONTEXT;
  const asText: Decision = text.length > 0 && plain.has(ctx.event) ? { kind: 'proceed', additionalContext: [text], notes: [] } : PROCEED;
  // Claude Code 2.1.332 reads output that is not JSON as plain text, so the action goes on even under onFailure "block":
  // a hook that must refuse has to say so in valid JSON or with exit 2.
  if (invalid !== undefined) return withNotes(asText, [notJsonNote(invalid, result, ctx, hook)]);
  return asText;
}


/**
 * What Claude Code 2.1.332 tells the model beside a tool's result when a PostToolUse hook answers
 * `{"decision": "block", "reason": …}`: `PostToolUse:<tool> hook blocking error from command: "<command>": <reason>`,
 * the command as its settings wrote it.
 */
function claudeBlockingError(ctx: ToolHookContext, hook: WireHookInfo, reason: string): string {
  return `${ctx.event}:${ctx.toolCall.name} hook blocking error from command: "${hook.command ?? hook.name}": ${reason}`;
}

/**
 * A JSON `decision: "block"` on Stop, worded as Claude Code 2.1.332 gives it to the model: the reason inside its
 * `Stop hook feedback:` reminder, then `Stop hook blocking error from command: "<command>": <reason>` as a system
 * message (the command as the settings wrote it; a HOOK.md hook's name in its place).
 */
function stopBlockWorded(decision: Decision, ctx: AnyHookContext, hook: WireHookInfo): Decision {
  if (decision.kind !== 'block' || !wordsStopFeedback(ctx)) return decision;
  const reason = decision.reason ?? '';
  const error = claudeStopBlockingError(hook.command ?? hook.name, reason);
  return { ...decision, reason: claudeStopFeedback(reason), additionalContext: [...decision.additionalContext, error] };
}

/** The warning for exit-0 output that starts with `{` and is not JSON: read as plain text, whatever `onFailure` says. */
function notJsonNote(cause: string, result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo): HookNote {
  return {
    level: 'warning',
    hookName: hook.name,
    event: ctx.event,
    code: 'invalid-output',
    message: `Hook '${hook.name}' ${cause}; Claude Code reads it as plain text, so the action goes on${hook.failClosed ? ' (onFailure "block" does not count for it)' : ''}.`,
    data: { stdout: tail(result.stdout) },
  };
}

/**
 * The feedback a PostToolUse exit 2 carried for the bridge (see claude-blocking-feedback.ts), moved onto `onto` when the
 * JSON's own context (a replaced output) goes on; `undefined` when it carried none.
 */
function withFeedbackOf(exit: Decision, onto: AnyHookContext | undefined): AnyHookContext | undefined {
  const feedback = exit.ctx === undefined ? [] : claudeBlockingFeedbackOf(exit.ctx);
  if (feedback.length === 0 || onto === undefined) return exit.ctx ?? onto;
  return feedback.reduce((ctx, f) => withClaudeBlockingFeedback(ctx, f), onto);
}

/**
 * Exit 2: a block with stderr where the event blocks; on PermissionRequest, nothing (Claude Code reads only
 * `decision`). On PostToolUse the tool has run: Claude Code 2.1.332 keeps its result and gives the model
 * `PostToolUse:<tool> hook blocking error from command: "<command>": [<command>]: <stderr>` beside it (recorded from
 * the binary, stderr as written, its last newline too).
 */
function exit2(result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo): Decision {
  if (wordsStopFeedback(ctx)) {
    // Claude Code 2.1.332: `Stop hook feedback:\n[<command>]: <stderr>` (stderr as written), and no system message.
    const reason = claudeStopFeedback(`[${hook.command ?? hook.name}]: ${result.stderr}`);
    return { kind: 'block', reason, additionalContext: [], notes: exit2Notes(result, ctx, hook) };
  }
  if (ctx.event === 'PostToolUse') {
    const label = hook.command ?? hook.name;
    const why = `[${label}]: ${result.stderr}`;
    const feedback = { reason: why, text: claudeBlockingError(ctx, hook, why) };
    return { kind: 'proceed', additionalContext: [feedback.text], ctx: fromClaudeCode(ctx) ? withClaudeBlockingFeedback(ctx, feedback) : undefined, notes: exit2Notes(result, ctx, hook) };
  }
  if (ctx.event === 'PermissionRequest') {
    const note = droppedNote(
      hook,
      ctx,
      'exit-2-ignored',
      `Hook '${hook.name}' exited 2 on PermissionRequest, which Claude Code does not read as a deny; the request goes on to the usual approval. Print {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "…"}}} to deny.`,
      { exitCode: 2, ...(result.stderr.trim() !== '' ? { stderr: tail(result.stderr) } : {}) },
    );
    return { ...PROCEED, notes: [note] };
  }
  return exitCodeDecision({ ...result, exitCode: 2 }, ctx, hook, { exit2Elsewhere: 'message' }) ?? PROCEED;
}

/** Claude Code's reading of one JSON answer its schema took (see {@link readClaudeCodeAnswer}). */
function readClaudeCodeOutput(output: Record<string, unknown>, ctx: AnyHookContext, hook: WireHookInfo): Decision {
  const r = new OutputReader(hook, ctx);
  const notes: HookNote[] = [];
  let specific = r.record(output, 'hookSpecificOutput');
  if (specific !== undefined && specific.hookEventName !== ctx.event) {
    const named = JSON.stringify(specific.hookEventName);
    if (output.decision === 'block' && ctx.event !== 'PermissionRequest') {
      notes.push(droppedNote(hook, ctx, 'invalid-output', `Hook '${hook.name}' printed a hookSpecificOutput for ${named}, not ${ctx.event}; it is ignored and the block stands.`, { field: 'hookSpecificOutput.hookEventName' }));
      specific = undefined;
    } else {
      const note = droppedNote(hook, ctx, 'invalid-output', `Hook '${hook.name}' printed a hookSpecificOutput for ${named}, not ${ctx.event}, so Claude Code ignores the whole answer. Set hookEventName to "${ctx.event}".`, { field: 'hookSpecificOutput.hookEventName' });
      return hook.failClosed ? { kind: 'block', reason: `Hook '${hook.name}' printed an answer for another event (it fails closed).`, additionalContext: [], notes: [note] } : { ...PROCEED, notes: [note] };
    }
  }
  const fields = specific ?? {};
  const allowed = CLAUDE_SPECIFIC_FIELDS[ctx.event] ?? [];
  for (const field of Object.keys(fields)) {
    const without = CLAUDE_FIELDS_WITHOUT_EFFECT[field];
    if (allowed.includes(field) && without !== undefined && fields[field] !== undefined) {
      notes.push({ level: 'info', hookName: hook.name, event: ctx.event, code: 'field-without-effect', message: `Hook '${hook.name}' printed hookSpecificOutput.${field}, which has no effect here: ${without}.`, data: { field: `hookSpecificOutput.${field}` } });
    }
    if (field === 'hookEventName' || allowed.includes(field)) continue;
    notes.push(droppedNote(hook, ctx, 'invalid-output', `Hook '${hook.name}' printed hookSpecificOutput.${field}, which Claude Code does not read on ${ctx.event}; it is ignored.`, { field: `hookSpecificOutput.${field}` }));
  }
  const at = (field: string): string => `hookSpecificOutput.${field}`;
  const take = (field: string): boolean => allowed.includes(field) && fields[field] !== undefined && fields[field] !== null;
  const systemMessage = r.text(output, 'systemMessage');
  const additionalContext = take('additionalContext') ? [...r.texts(fields, 'additionalContext', at('additionalContext'))] : [];
  const reason = r.text(output, 'reason');
  const extras = (): { additionalContext: string[]; systemMessage: string | undefined; notes: HookNote[] } => ({ additionalContext, systemMessage, notes: [...r.notes, ...notes] });

  if (r.bool(output, 'continue') === false) {
    if (ctx.event === 'PermissionDenied') {
      // Claude Code reads only `retry` from a PermissionDenied hook: a stop there halts nothing.
      notes.push(droppedNote(hook, ctx, 'invalid-output', `Hook '${hook.name}' printed "continue": false on PermissionDenied, which Claude Code does not read there; it is ignored.`, { field: 'continue' }));
    } else {
      return { kind: 'stop', reason: r.text(output, 'stopReason') ?? reason ?? `Hook '${hook.name}' stopped the run.`, ...extras() };
    }
  }
  const topLevel = output.decision as 'approve' | 'block' | undefined;
  let feedback: ClaudeBlockingFeedback | undefined;
  if (ctx.event === 'PostToolUse' && topLevel === 'block') {
    // The tool has run: its result stays, and the reason goes beside it for the model, as Claude Code words it.
    const why = reason ?? `Hook '${hook.name}' flagged this result.`;
    feedback = { reason: why, text: claudeBlockingError(ctx, hook, why) };
    additionalContext.unshift(feedback.text);
  }
  let modified: AnyHookContext | undefined;
  if (ctx.event === 'PostToolUse') {
    const isMcp = ctx.toolName.startsWith('mcp__');
    if (take('updatedToolOutput')) {
      const value = fields.updatedToolOutput;
      const own = claudeOwnOutput(ctx.toolName);
      const text = own?.text(value);
      if (own === undefined) modified = r.toolResult(value, at('updatedToolOutput'));
      else if (text !== undefined) modified = r.toolResult(text, at('updatedToolOutput'));
      else {
        // Claude Code 2.1.332 replaces the output of Bash and Read only with the tool's own output object; a string it ignores.
        notes.push(
          droppedNote(hook, ctx, 'invalid-output', `Hook '${hook.name}' printed hookSpecificOutput.updatedToolOutput for ${ctx.toolName} that is not ${ctx.toolName}'s output object (${own.shape}); Claude Code ignores it, and so does this.`, {
            field: at('updatedToolOutput'),
          }),
        );
      }
    }
    else if (take('updatedMCPToolOutput') && isMcp) modified = r.toolResult(fields.updatedMCPToolOutput, at('updatedMCPToolOutput'));
    else if (take('updatedMCPToolOutput')) {
      notes.push(droppedNote(hook, ctx, 'invalid-output', `Hook '${hook.name}' printed hookSpecificOutput.updatedMCPToolOutput for ${ctx.toolName}, which is not an MCP tool; it is ignored. Use updatedToolOutput.`, { field: at('updatedMCPToolOutput') }));
    }
    // From Claude Code, the block goes back to it as a block (see claude-blocking-feedback.ts).
    if (feedback !== undefined && fromClaudeCode(ctx)) modified = withClaudeBlockingFeedback(modified ?? ctx, feedback);
    if (topLevel === 'block') return { kind: 'proceed', ctx: modified, ...extras() };
  }

  if (ctx.event === 'PermissionRequest') {
    const nested = take('decision') ? r.record(fields, 'decision', at('decision')) : undefined;
    const behavior = nested?.behavior as 'allow' | 'deny' | undefined;
    if (behavior === 'deny') {
      const message = r.text(nested!, 'message', at('decision.message')) ?? reason ?? `Permission denied by hook '${hook.name}'.`;
      // `interrupt: true` denies and stops the agent: Claude Code aborts the turn.
      if (r.bool(nested!, 'interrupt', at('decision.interrupt')) === true) return { kind: 'stop', reason: message, ...extras() };
      return { kind: 'block', reason: message, ...extras() };
    }
    if (behavior === 'allow') {
      const args = r.toolInput(nested!.updatedInput, at('decision.updatedInput'));
      const updates = nested!.updatedPermissions;
      let granted: AnyHookContext | undefined = args;
      if (Array.isArray(updates) && updates.every(isRecord)) granted = ((args ?? ctx) as ToolHookContext<'PermissionRequest'>).withUpdatedPermissions(updates);
      else if (updates !== undefined) notes.push(droppedNote(hook, ctx, 'invalid-output', `Hook '${hook.name}' printed decision.updatedPermissions that is not a list of permission updates; it is ignored.`, { field: at('decision.updatedPermissions') }));
      return { kind: 'proceed', granted: true, reason, ctx: granted, ...extras() };
    }
    if (topLevel === 'block') return { kind: 'block', reason: reason ?? `blocked by hook '${hook.name}'`, ...extras() };
    return { kind: 'proceed', granted: topLevel === 'approve', reason, ...extras() };
  }

  if (ctx.event === 'PreToolUse') {
    const permission = take('permissionDecision') ? (fields.permissionDecision as 'allow' | 'deny' | 'ask' | 'defer') : undefined;
    const permissionReason = take('permissionDecisionReason') ? r.text(fields, 'permissionDecisionReason', at('permissionDecisionReason')) : undefined;
    const args = take('updatedInput') ? r.toolInput(fields.updatedInput, at('updatedInput')) : undefined;
    // `defer` leaves the call to later: a headless Claude Code 2.1.332 runs no tool and ends the session
    // (`stop_reason: "tool_deferred"`); here it is an ask deferred — a pause with approval interrupts, else the end.
    const verdict = permission === 'defer' ? 'ask' : (permission ?? (topLevel === 'block' ? 'deny' : topLevel === 'approve' ? 'allow' : undefined));
    const why = permissionReason ?? reason;
    if (verdict === 'deny') return { kind: 'block', reason: why ?? `blocked by hook '${hook.name}'`, ...extras() };
    if (verdict === 'ask' && permission === 'defer') return { kind: 'ask', deferred: true, reason: why ?? `Hook '${hook.name}' deferred the call.`, ctx: args, ...extras() };
    if (verdict === 'ask') return { kind: 'ask', reason: why ?? `Hook '${hook.name}' asks for approval.`, ctx: args, ...extras() };
    return { kind: 'proceed', reason: why, granted: verdict === 'allow', ctx: args, ...extras() };
  }

  if (ctx.event === 'PermissionDenied' && take('retry')) {
    const retry = r.bool(fields, 'retry', at('retry'));
    if (retry === true) modified = ctx.withRetry();
  }
  if (topLevel === 'block') return { kind: 'block', reason: reason ?? `blocked by hook '${hook.name}'`, ctx: modified, ...extras() };
  if ((ctx.event === 'Stop' || ctx.event === 'SubagentStop') && additionalContext.length > 0) {
    // Claude Code keeps the agent working on a Stop hook's additionalContext, with it as the feedback.
    return { kind: 'block', reason: additionalContext.join('\n\n'), additionalContext: [], systemMessage, notes: [...r.notes, ...notes] };
  }
  return { kind: 'proceed', reason, granted: topLevel === 'approve', ctx: modified, ...extras() };
}

/**
 * The JSON fields of the Claude family: `continue: false` + `stopReason` (wins over everything), `systemMessage`,
 * `decision` (block | approve | allow | deny) + `reason`, and `hookSpecificOutput` with `permissionDecision`,
 * `permissionDecisionReason`, `updatedInput`, `additionalContext`, PermissionRequest's `decision: { behavior,
 * updatedInput, message }`, and `updatedMCPToolOutput` (a new PostToolUse result). VS Code's Stop answer puts
 * `decision` and `reason` inside `hookSpecificOutput`; both places are read.
 */
export function readClaudeOutput(
  output: Record<string, unknown>,
  ctx: AnyHookContext,
  hook: WireHookInfo,
  reading: ClaudeReading = {},
): Decision {
  const r = new OutputReader(hook, ctx);
  const specific = r.record(output, 'hookSpecificOutput') ?? {};
  const at = (field: string): string => `hookSpecificOutput.${field}`;
  const systemMessage = r.text(output, 'systemMessage');
  const additionalContext = [...r.texts(specific, 'additionalContext', at('additionalContext'))];
  const extras = { additionalContext, systemMessage, notes: r.notes };
  const reason = r.text(output, 'reason') ?? r.text(specific, 'reason', at('reason'));

  if (r.bool(output, 'continue') === false) {
    const why = r.text(output, 'stopReason') ?? reason ?? `Hook '${hook.name}' stopped the run.`;
    return { kind: 'stop', reason: why, ...extras };
  }

  const permission = r.choice(specific, 'permissionDecision', PERMISSION, at('permissionDecision'));
  const permissionReason = r.text(specific, 'permissionDecisionReason', at('permissionDecisionReason'));
  const nested = typeof specific.decision === 'object' ? r.record(specific, 'decision', at('decision')) : undefined;
  const behaviour = nested && r.choice(nested, 'behavior', BEHAVIOURS, at('decision.behavior'));
  const decision =
    r.choice(output, 'decision', DECISIONS) ??
    (typeof specific.decision === 'string' ? r.choice(specific, 'decision', DECISIONS, at('decision')) : undefined);

  let modified = r.toolInput(specific.updatedInput, at('updatedInput')) ?? r.toolInput(nested?.updatedInput, at('decision.updatedInput'));
  if ('updatedMCPToolOutput' in specific) modified = r.toolResult(specific.updatedMCPToolOutput, at('updatedMCPToolOutput'));

  const verdict = permission ?? behaviour ?? decision;
  const message = nested === undefined ? undefined : r.text(nested, 'message', at('decision.message'));
  const why = permission !== undefined ? (permissionReason ?? reason) : behaviour !== undefined ? (message ?? reason) : reason;
  if (verdict === 'deny' || verdict === 'block') return { kind: 'block', reason: why ?? `blocked by hook '${hook.name}'`, ...extras };
  if (verdict === 'ask') return { kind: 'ask', reason: why ?? `Hook '${hook.name}' asks for approval.`, ctx: modified, ...extras };
  const granted = verdict === 'allow' || verdict === 'approve';
  return { kind: 'proceed', reason: why, granted, ctx: modified, ...extras };
}

/** The agents whose payloads are Claude Code's shape: a bridged event of theirs reaches a Claude-style hook as sent. */
export const CLAUDE_SHAPED: ReadonlySet<string> = new Set(['claude', 'vscode', 'codex']);

/**
 * For a context another agent of Claude Code's shape sent through the bridge: that agent's own payload (its
 * transcript_path, cwd, permission_mode, and fields we do not model), with the event's `fields` as the hooks before
 * this one left them (a rewritten tool_input) — but none the agent did not send. `undefined` for any other context.
 */
export function bridgedClaudePayload(ctx: AnyHookContext, fields: Record<string, unknown>, eventName: string): object | undefined {
  const origin = ctx.origin;
  if (origin === undefined || !CLAUDE_SHAPED.has(origin.agent)) return undefined;
  const current = Object.fromEntries(Object.entries(fields).filter(([key]) => Object.hasOwn(origin.payload, key)));
  return { ...origin.payload, ...current, hook_event_name: eventName };
}

/** The fields Claude Code adds to one event's payload beside those the Claude family shares. */
function claudeOnlyFields(ctx: AnyHookContext): Record<string, unknown> {
  switch (ctx.event) {
    case 'PostToolUse':
      return ctx.execution?.durationMs === undefined ? {} : { duration_ms: Math.round(ctx.execution.durationMs) };
    case 'PostToolUseFailure':
      // As Claude Code 2.1.332 sends them (test/agents/claude-rules-fields.test.ts). A failure here is never an
      // interrupt: a cancelled run ends without PostToolUseFailure.
      return { is_interrupt: false, ...(ctx.execution?.durationMs === undefined ? {} : { duration_ms: Math.round(ctx.execution.durationMs) }) };
    case 'Stop':
    case 'SubagentStop':
      return ctx.finalMessage === undefined ? {} : { last_assistant_message: ctx.finalMessage };
    default:
      return {};
  }
}

/**
 * What Claude Code 2.1.330 tells the model when an `asyncRewake` hook exits 2: `Stop hook blocking error from command
 * "<Event>:<Tool>": <stderr, else stdout>` (its words for every event), where the label is the event and, on a tool
 * event, the tool. Any other exit wakes nothing.
 */
function claudeWakeMessage(result: ProcessResult, ctx: AnyHookContext, info: PayloadInfo): string | undefined {
  if (result.exitCode !== 2) return undefined;
  const label = 'toolCall' in ctx ? `${info.eventName}:${ctx.toolCall.name}` : info.eventName;
  return `Stop hook blocking error from command "${label}": ${result.stderr.trim() || result.stdout.trim()}`;
}

/**
 * `CLAUDE_ENV_FILE` for a SessionStart hook of a session here: a new file of its own, whose lines the session's shell
 * tools run ahead of each command (see claude-env-file.ts). None for an event Claude Code sent through the bridge:
 * there the variable Claude Code gave the bridge reaches the hooks behind it as it is.
 */
function claudeRunEnv(ctx: AnyHookContext): Readonly<Record<string, string>> | undefined {
  if (ctx.event !== 'SessionStart' || ctx.origin !== undefined) return undefined;
  const file = newSessionEnvFile(ctx.state.sessionId ?? ctx.state.agentId);
  return file === undefined ? undefined : { CLAUDE_ENV_FILE: file };
}

function payload(ctx: AnyHookContext, info: PayloadInfo): object {
  const fields = claudeEventFields(ctx);
  return (
    bridgedClaudePayload(ctx, fields, info.eventName) ?? {
      session_id: ctx.state.sessionId ?? ctx.state.agentId,
      // The conversation so far, as Claude Code's JSONL transcript: Stop gates and loop hooks read it.
      transcript_path: writeTranscript(ctx.state, process.cwd()),
      cwd: process.cwd(),
      ...(NO_PERMISSION_MODE.has(ctx.event) ? {} : { permission_mode: 'default' }),
      // Inside a subagent Claude Code 2.1.332 names it on every event (its tool calls, PostToolBatch, SubagentStop), and
      // SubagentStart names the one it starts, here in its payload.
      ...(ctx.event === 'SubagentStart' ? { agent_id: ctx.name, agent_type: ctx.type } : ctx.subagent !== undefined ? { agent_id: ctx.subagent.name, agent_type: ctx.subagent.type } : {}),
      hook_event_name: info.eventName,
      ...fields,
      ...claudeOnlyFields(ctx),
    }
  );
}

/**
 * Claude Code's dialect (`settings.json` command hooks).
 *
 * - stdin, newline-terminated: `session_id`, `transcript_path` (the conversation so far, written as Claude Code's
 *   JSONL transcript), `cwd` (the agent's working directory), `permission_mode`,
 *   (bridged from Claude Code, VS Code or Codex: the agent's own payload as it sent it, with the event's fields as the
 *   hooks before this one left them),
 *   `hook_event_name`, and the event's fields: `tool_name`, `tool_input`, `tool_use_id`, `tool_response`
 *   (PostToolUse), `error` (PostToolUseFailure), `prompt`, `stop_hook_active`, `agent_id`, `agent_type`, `source`
 *   (SessionStart), `reason` (SessionEnd: one of Claude Code's, else `other`), `trigger`, `custom_instructions`, `message`, `notification_type`, `duration_ms` (PostToolUse),
 *   `last_assistant_message` (Stop, SubagentStop, StopFailure), `reason` (PermissionDenied), `tool_calls` (PostToolBatch:
 *   each call's `tool_name`, `tool_input`, `tool_use_id` and `tool_response`, what the model was told), `error` (the
 *   kind of error, `unknown` for a plain HTTP 400) and `last_assistant_message` (`API Error: <status> <message>`)
 *   on StopFailure.
 * - any exit code: stdout starting with `{` is JSON, read as Claude Code reads it: `continue: false` +
 *   `stopReason`, `systemMessage`, `decision` (approve | block) + `reason`, `hookSpecificOutput` with its
 *   `hookEventName` (`permissionDecision`, `permissionDecisionReason`, `updatedInput` on PreToolUse, `decision.behavior`
 *   on PermissionRequest, `updatedToolOutput` on PostToolUse, `retry` on PermissionDenied, `additionalContext`); other
 *   stdout is added as context
 *   on UserPromptSubmit and SessionStart.
 * - exit 2 without a JSON block: block with stderr as the reason (where the event can block; on PermissionRequest
 *   nothing; elsewhere stderr is shown to the user).
 * - other exits without JSON: a non-blocking error (a warning), unless the hook fails closed.
 */
export const claudeDialect: WireDialect = Object.freeze({
  name: 'claude',
  eventName: (event: HookEventName) => HookEvent.toDialect(event, 'claude') ?? event,
  payload,
  interpret: (result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo) => interpretClaudeFamily(result, ctx, hook, { strict: true }),
  // Claude Code ends the payload with a newline: a `read -r` under `set -e` fails on a last line without one.
  stringify: (payload: object) => `${JSON.stringify(payload)}\n`,
  wakeMessage: claudeWakeMessage,
  runEnv: claudeRunEnv,
});
