/**
 * Claude Code's command-hook protocol (`settings.json` hooks), and the reading of its JSON answers that VS Code and
 * Copilot's PascalCase hooks share.
 *
 * @module
 */
import { HookEvent, type AnyHookContext, type HookEventName } from '../core/index.js';
import type { ProcessResult } from './process-result.js';
import type { Decision, PayloadInfo, WireDialect, WireHookInfo } from './dialect.js';
import { exitCodeDecision } from './failure.js';
import { OutputReader, PROCEED, parseJsonObject } from './wire-output.js';

/** The event's own fields, in Claude Code's snake_case names. */
export function claudeEventFields(ctx: AnyHookContext): Record<string, unknown> {
  switch (ctx.event) {
    case 'PreToolUse':
    case 'PermissionRequest':
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return {
        tool_name: ctx.toolCall.name,
        tool_input: ctx.toolCall.args,
        tool_use_id: ctx.toolCall.id,
        ...(ctx.event === 'PostToolUse' ? { tool_response: ctx.execution?.result ?? null } : {}),
        ...(ctx.event === 'PostToolUseFailure' ? { error: ctx.errorMessage ?? null } : {}),
      };
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
      return { source: ctx.source };
    case 'SessionEnd':
      return { reason: ctx.reason ?? 'other' };
    case 'PreCompact':
    case 'PostCompact':
      // Claude Code sends an empty string when a compaction has no instructions.
      return { trigger: ctx.trigger, custom_instructions: ctx.customInstructions ?? '' };
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

/** Events where Claude Code adds a hook's plain (non-JSON) stdout to the model's context. */
const PLAIN_STDOUT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set(['UserPromptSubmit', 'SessionStart']);

const PERMISSION = ['allow', 'deny', 'ask'] as const;
const DECISIONS = ['block', 'approve', 'allow', 'deny'] as const;
const BEHAVIOURS = ['allow', 'deny'] as const;

/** How one dialect of the Claude family reads an answer; the family shares the rest. */
export interface ClaudeReading {
  /** The events whose plain (non-JSON) stdout is context for the model (default: UserPromptSubmit, SessionStart). */
  readonly plainStdoutIsContext?: ReadonlySet<HookEventName> | undefined;
}

/**
 * Reads an exit-0 answer the way Claude Code does: stdout that starts with `{` is JSON, other stdout is context for
 * UserPromptSubmit and SessionStart and ignored elsewhere.
 */
export function interpretClaudeFamily(
  result: ProcessResult,
  ctx: AnyHookContext,
  hook: WireHookInfo,
  reading: ClaudeReading = {},
): Decision {
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

function payload(ctx: AnyHookContext, info: PayloadInfo): object {
  const fields = claudeEventFields(ctx);
  return (
    bridgedClaudePayload(ctx, fields, info.eventName) ?? {
      session_id: ctx.state.sessionId ?? ctx.state.agentId,
      // There is no transcript file; scripts that read one find nothing rather than a wrong path.
      transcript_path: null,
      cwd: info.workDir,
      permission_mode: 'default',
      hook_event_name: info.eventName,
      ...fields,
    }
  );
}

/**
 * Claude Code's dialect (`settings.json` command hooks).
 *
 * - stdin: `session_id`, `transcript_path` (null: there is no transcript file), `cwd`, `permission_mode`,
 *   (bridged from Claude Code, VS Code or Codex: the agent's own payload as it sent it, with the event's fields as the
 *   hooks before this one left them),
 *   `hook_event_name`, and the event's fields: `tool_name`, `tool_input`, `tool_use_id`, `tool_response`
 *   (PostToolUse), `error` (PostToolUseFailure), `prompt`, `stop_hook_active`, `agent_id`, `agent_type`, `source`,
 *   `reason`, `trigger`, `custom_instructions`, `message`, `notification_type`.
 * - exit 0: stdout starting with `{` is JSON — `continue: false` + `stopReason`, `systemMessage`,
 *   `decision` + `reason`, `hookSpecificOutput` (`permissionDecision`, `permissionDecisionReason`, `updatedInput`,
 *   `additionalContext`, PermissionRequest's `decision.behavior`, `updatedMCPToolOutput`); other stdout is added as context on
 *   UserPromptSubmit and SessionStart.
 * - exit 2: block with stderr as the reason (where the event can block; elsewhere stderr is shown to the user).
 * - other exits: a non-blocking error (a warning), unless the hook fails closed.
 */
export const claudeDialect: WireDialect = Object.freeze({
  name: 'claude',
  eventName: (event: HookEventName) => HookEvent.toDialect(event, 'claude') ?? event,
  payload,
  interpret: (result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo) => interpretClaudeFamily(result, ctx, hook),
});
