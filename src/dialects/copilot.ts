/**
 * GitHub Copilot's command-hook protocol (CLI and coding agent), for hooks configured under its lowerCamelCase event
 * names. PascalCase names switch Copilot to its Claude-compatible payload: see `copilotClaudeDialect`.
 *
 * @module
 */
import { HookEvent, type AnyHookContext, type FailureHookContext, type HookEventName } from '../core/index.js';
import type { ProcessResult } from './process-result.js';
import type { Decision, PayloadInfo, WireDialect, WireHookInfo } from './dialect.js';
import { exitCodeDecision, processFailure } from './failure.js';
import { copilotDenialByExit, interpretCopilotPermission } from './copilot-permission.js';
import { withoutProgressLines } from './copilot-progress.js';
import { writeCopilotTranscript } from './copilot-transcript.js';
import { OutputReader, PROCEED, isRecord, parseJsonObject } from './wire-output.js';

/**
 * The tool arguments as Copilot CLI 1.0 sends them: an object (its hooks reference once said a JSON string, and the
 * bridge still reads either). Arguments that cannot be serialized are sent as `{}`.
 */
function argsOf(args: unknown): unknown {
  return JSON.parse(JSON.stringify(args) ?? '{}') as unknown;
}

/** The error as Copilot CLI sends it: its message, its class's name and its stack. */
function errorOf(ctx: Pick<FailureHookContext, 'error' | 'errorMessage' | 'errorClass'>): { message: string; name: string | undefined; stack: string | undefined } {
  const stack = ctx.error instanceof Error ? ctx.error.stack : undefined;
  return { message: ctx.errorMessage, name: ctx.errorClass, stack };
}

function eventFields(ctx: AnyHookContext): Record<string, unknown> {
  switch (ctx.event) {
    case 'PreToolUse':
      return { toolName: ctx.toolCall.name, toolArgs: argsOf(ctx.toolCall.args) };
    case 'PermissionRequest':
      // Copilot CLI 1.0.102 names this event in its payload, and the arguments `toolInput`; we suggest no rules.
      return { toolName: ctx.toolCall.name, toolInput: argsOf(ctx.toolCall.args), permissionSuggestions: [] };
    case 'PostToolUse': {
      const result = ctx.execution?.result;
      return {
        toolName: ctx.toolCall.name,
        toolArgs: argsOf(ctx.toolCall.args),
        toolResult: { resultType: 'success', textResultForLlm: typeof result === 'string' ? result : (JSON.stringify(result) ?? '') },
      };
    }
    case 'PostToolUseFailure':
      return {
        toolName: ctx.toolCall.name,
        toolArgs: argsOf(ctx.toolCall.args),
        toolResult: { resultType: 'failure', textResultForLlm: ctx.errorMessage ?? '' },
      };
    case 'UserPromptSubmit':
      return { prompt: ctx.prompt };
    case 'SessionStart':
      return { source: ctx.source === 'startup' ? 'new' : ctx.source, ...(ctx.initialPrompt !== undefined ? { initialPrompt: ctx.initialPrompt } : {}) };
    case 'SessionEnd':
      // Copilot CLI ends a session that closed normally with `complete` (one that failed, with `error`).
      return { reason: ctx.reason === undefined || ctx.reason === 'close' ? 'complete' : ctx.reason };
    case 'Stop':
    case 'SubagentStop':
      return {
        // The conversation so far, as Copilot's session events: hooks read the last answer from it.
        ...(ctx.event === 'Stop' ? { transcriptPath: writeCopilotTranscript(ctx.state, process.cwd()) } : {}),
        // Copilot's name for a turn the model ended, which is our no_tool_calls; any other reason as we name it.
        stopReason: ctx.event !== 'Stop' ? undefined : ctx.stopReason === 'no_tool_calls' ? 'end_turn' : ctx.stopReason,
        // Copilot CLI 1.0 sends the snake_case name; the camelCase one is what its earlier hooks read.
        stop_hook_active: ctx.stopHookActive,
        stopHookActive: ctx.stopHookActive,
        ...(ctx.subagentName !== undefined ? { agentName: ctx.subagentName } : {}),
        ...(ctx.subagentType !== undefined ? { agentType: ctx.subagentType } : {}),
      };
    case 'SubagentStart':
      return { agentName: ctx.name, agentType: ctx.type };
    case 'PreCompact':
      return { trigger: ctx.trigger };
    case 'AgentFailed':
      // As Copilot CLI 1.0.102 reports a failed model call; a run of ours that failed anywhere else is over.
      return { errorContext: ctx.duringModelCall ? 'model_call' : 'agent', recoverable: ctx.duringModelCall, error: errorOf(ctx) };
    case 'Notification':
      return { message: ctx.message, notificationType: ctx.notificationType };
    default:
      return {};
  }
}

function payload(ctx: AnyHookContext, info: PayloadInfo): object {
  const named = ctx.event === 'PermissionRequest' ? { hookName: 'permissionRequest' } : {};
  return {
    ...named,
    sessionId: ctx.state.sessionId ?? ctx.state.agentId,
    timestamp: Date.now(),
    cwd: info.workDir,
    ...eventFields(ctx),
  };
}

/**
 * Copilot's payload of `ctx`, for the Claude-compatible dialect, which sends permissionRequest's as the camelCase one.
 *
 * @internal
 */
export const copilotPayload = payload;

/**
 * The error fields of Copilot's payload of a failure, for the Claude-compatible dialect.
 *
 * @internal
 */
export const copilotErrorOf = errorOf;

const PERMISSION = ['allow', 'deny', 'ask'] as const;
const STOP_DECISIONS = ['block', 'allow'] as const;

/** The events where Copilot CLI 1.0.102 only logs a hook's exit 2: it blocks nothing there, the output stays. */
const EXIT_2_LOGGED: ReadonlySet<HookEventName> = new Set(['UserPromptSubmit', 'Stop', 'PostToolUse']);

/** `modifiedArgs` as Copilot reads it: an object, or a JSON string of one. */
function argsValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/**
 * A preToolUse denial by a failing exit, with the reason Copilot CLI 1.0.102 gives the model: `hook exited with code
 * 2`, or `hook errored` — never the hook's stderr, which Copilot only logs. The stderr is kept for the user in a
 * note.
 */
function deniedAsCopilotSays(decision: Decision, result: ProcessResult, hook: WireHookInfo): Decision {
  const exit2 = result.exitCode === 2 && processFailure(result, hook) === undefined;
  // Copilot names the hook's file; here the name is often the command itself, which the model is not told either.
  return copilotDenialByExit(decision, result, hook, 'PreToolUse', exit2 ? 'hook exited with code 2' : 'hook errored');
}

function interpret(raw: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo): Decision {
  const result = withoutProgressLines(raw);
  if (ctx.event === 'PermissionRequest') return interpretCopilotPermission(result, ctx, hook);
  if (result.exitCode === 2 && EXIT_2_LOGGED.has(ctx.event) && processFailure(result, hook) === undefined) {
    const stderr = result.stderr.trim();
    const note = {
      level: 'warning' as const,
      hookName: hook.name,
      event: ctx.event,
      code: 'exit-2-ignored',
      message: `Hook '${hook.name}' exited with code 2 on ${HookEvent.toDialect(ctx.event, 'copilot') ?? ctx.event}, where Copilot CLI only logs it; nothing is blocked${stderr === '' ? '' : ` (stderr: ${stderr.slice(0, 200)})`}.`,
      data: { exitCode: 2 },
    };
    return { kind: 'proceed', additionalContext: [], notes: [note] };
  }
  // Copilot denies a tool call whose preToolUse hook errored: it fails closed there, and open elsewhere.
  const exit = exitCodeDecision(result, ctx, hook, { failsClosed: (c) => c.event === 'PreToolUse' });
  if (exit !== undefined) return exit.kind === 'block' && ctx.event === 'PreToolUse' ? deniedAsCopilotSays(exit, result, hook) : exit;
  const text = result.stdout.trim();
  if (text.length === 0) return PROCEED;
  const parsed = parseJsonObject(text, result, ctx, hook);
  if (!parsed.ok) return parsed.decision;
  const output = parsed.output;
  const r = new OutputReader(hook, ctx);
  const extras = { additionalContext: r.texts(output, 'additionalContext'), notes: r.notes };
  const reason = r.text(output, 'permissionDecisionReason') ?? r.text(output, 'reason');
  let modified: AnyHookContext | undefined;
  if (output.modifiedArgs !== undefined) modified = r.toolInput(argsValue(output.modifiedArgs), 'modifiedArgs');
  if (output.modifiedResult !== undefined) {
    // Copilot CLI applies a ToolResultObject's `textResultForLlm`; a bare string leaves the output as it was.
    const result = output.modifiedResult;
    if (isRecord(result) && typeof result.textResultForLlm === 'string') modified = r.toolResult(result.textResultForLlm, 'modifiedResult');
    else r.ignored('modifiedResult', `as ${typeof result === 'string' ? 'a bare string' : 'an object without a string textResultForLlm'}, which Copilot CLI does not apply (the output stays as it was)`);
  }
  if (output.modifiedPrompt !== undefined && ctx.event === 'UserPromptSubmit') {
    const prompt = r.text(output, 'modifiedPrompt');
    if (prompt !== undefined) modified = ctx.withPrompt(prompt);
  }
  // Copilot reads `decision` on agentStop and subagentStop only, and a block there only with a reason.
  const stopGate = ctx.event === 'Stop' || ctx.event === 'SubagentStop';
  if (!stopGate && output.decision !== undefined) r.ignored('decision', `on ${HookEvent.toDialect(ctx.event, 'copilot') ?? ctx.event}, where Copilot CLI reads permissionDecision, not decision`);
  let verdict = r.choice(output, 'permissionDecision', PERMISSION) ?? (stopGate ? r.choice(output, 'decision', STOP_DECISIONS) : undefined);
  if (stopGate && verdict === 'block' && reason === undefined) {
    r.ignored('decision', '"block" without a reason, which Copilot CLI does not act on');
    verdict = undefined;
  }
  if (verdict === 'deny' || verdict === 'block') return { kind: 'block', reason: reason ?? `denied by hook '${hook.name}'`, ...extras };
  if (verdict === 'ask') return { kind: 'ask', reason: reason ?? `Hook '${hook.name}' asks for approval.`, ctx: modified, ...extras };
  return { kind: 'proceed', reason, granted: verdict === 'allow', ctx: modified, ...extras };
}

/**
 * GitHub Copilot's dialect for lowerCamelCase events (`preToolUse`, `agentStop`, …).
 *
 * - stdin: `sessionId`, `timestamp` (epoch milliseconds), `cwd`, and the event's fields in camelCase: `toolName`,
 *   `toolArgs` (the arguments as an object, as Copilot CLI 1.0 sends them), `toolResult` (`resultType`,
 *   `textResultForLlm`), `prompt`, `source` and `initialPrompt`, `reason`, `transcriptPath` (the conversation so far, as Copilot's session
 *   events), `stopReason` and `stop_hook_active`
 *   (with the older `stopHookActive` beside it), `error`, …; permissionRequest's payload starts with `hookName` and
 *   holds `toolInput` (not `toolArgs`) and `permissionSuggestions`, as Copilot CLI 1.0.102 sends it.
 * - output, as Copilot CLI 1.0.102 reads it: `permissionDecision` allow | deny | ask + `permissionDecisionReason` and
 *   `modifiedArgs` (an object, or a JSON string of one) on preToolUse; on permissionRequest only `behavior` allow |
 *   deny, `message` and `interrupt` (a deny that ends the run), and any failing exit denies there; `decision` block | allow + `reason` on agentStop
 *   and subagentStop only (a block without a reason is not acted on); `modifiedResult` as a result object (its
 *   `textResultForLlm`; a bare string is ignored) and `additionalContext` on postToolUse; `modifiedPrompt` on
 *   userPromptSubmitted.
 * - stdout lines that are each one JSON object with `"type": "progress"` are status messages, taken out before the
 *   rest is read as the answer, as Copilot CLI 1.0.102 does.
 * - exit 2: block — except on postToolUse, agentStop and userPromptSubmitted, where Copilot only logs it (a warning
 *   here). Any other failing exit of a preToolUse hook, or one that cannot start, DENIES the call (Copilot fails closed
 *   there); elsewhere it is a warning. Timeouts fail open. The model is told of a preToolUse denial by exit as Copilot
 *   CLI 1.0.102 tells it: "hook exited with code 2", or "hook errored" — not the hook's stderr (an `info` note
 *   keeps it for the user).
 */
export const copilotDialect: WireDialect = Object.freeze({
  name: 'copilot',
  eventName: (event: HookEventName) => HookEvent.toDialect(event, 'copilot') ?? event,
  payload,
  interpret,
});
