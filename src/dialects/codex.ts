/**
 * Codex CLI's command-hook protocol (`hooks.json`), as Codex 0.169 speaks it: the payload it writes, the answer it
 * reads, and what the bridge needs to stand in for one of its hooks.
 *
 * Codex's payloads are Claude Code's shape with a few fields of its own (`turn_id`, `model`, `last_assistant_message`),
 * but it reads answers far more strictly than Claude Code: each event has a schema, an answer with a field that schema
 * does not have (or a field of the wrong type) is thrown away whole, and several Claude Code answers are refused
 * outright — `permissionDecision: "ask"`, `continue: false` on PreToolUse, `updatedInput` without
 * `permissionDecision: "allow"`. A refused answer counts as a failed hook, and Codex goes on as if it had not run.
 *
 * @module
 */
import { HookEvent, type AnyHookContext, type HookEventName, type HookOutcome } from '../core/index.js';
import type { ProcessResult } from './process-result.js';
import type { Decision, PayloadInfo, WireDialect, WireHookInfo } from './dialect.js';
import { bridgedClaudePayload, claudeEventFields } from './claude.js';
import { exit2Notes, failureDecision, processFailure, withStderr } from './failure.js';
import { isRecord, NONE, PROCEED } from './wire-output.js';
import { replacedResult, rewrittenArgs, type BridgeAnswer } from './outcome-changes.js';
import { writeCodexTranscript } from './codex-transcript.js';

/**
 * Codex's name for each canonical event it has (`PreModelRequest` is BeforeStep; see the alias table).
 *
 * @internal
 */
export const CODEX_EVENTS: Readonly<Record<string, HookEventName>> = Object.freeze(
  Object.fromEntries(
    HookEvent.all.flatMap((event) => {
      const name = HookEvent.toDialect(event, 'codex');
      return name === undefined ? [] : [[name, event] as const];
    }),
  ),
);

/** The name Codex gives `event`, or the canonical name for an event Codex does not have. */
const codexName = (event: HookEventName): string => HookEvent.toDialect(event, 'codex') ?? event;

// ---------------------------------------------------------------------------------------------------------------
// The payload
// ---------------------------------------------------------------------------------------------------------------

/**
 * The event's own fields, in Codex's names and order.
 *
 * @internal
 */
export function codexEventFields(ctx: AnyHookContext): Record<string, unknown> {
  switch (ctx.event) {
    case 'PreToolUse':
      return { tool_name: ctx.toolCall.name, tool_input: ctx.toolCall.args, tool_use_id: ctx.toolCall.id };
    case 'PermissionRequest':
      // Codex's approval request has no call id of its own.
      return { tool_name: ctx.toolCall.name, tool_input: ctx.toolCall.args };
    case 'PostToolUse':
      return { tool_name: ctx.toolCall.name, tool_input: ctx.toolCall.args, tool_response: ctx.execution?.result ?? null, tool_use_id: ctx.toolCall.id };
    case 'UserPromptSubmit':
      return { prompt: ctx.prompt };
    case 'Stop':
      return { stop_hook_active: ctx.stopHookActive, last_assistant_message: ctx.finalMessage ?? null };
    case 'SubagentStop':
      return {
        agent_id: ctx.subagentName ?? '',
        agent_type: ctx.subagentType ?? '',
        // No transcript file here either, for the subagent or the session.
        agent_transcript_path: null,
        stop_hook_active: ctx.stopHookActive,
        last_assistant_message: ctx.finalMessage ?? null,
      };
    case 'SubagentStart':
      return { agent_id: ctx.name, agent_type: ctx.type };
    case 'SessionStart':
      return { source: ctx.source };
    case 'SessionEnd':
      // Codex 0.169 knows one reason only.
      return { reason: 'other' };
    case 'PreCompact':
    case 'PostCompact':
      return { trigger: ctx.trigger };
    case 'BeforeStep':
      return {};
    default:
      // An event Codex does not have (a HOOK.md hook that chose this dialect): Claude Code's fields, whose shape Codex shares.
      return claudeEventFields(ctx);
  }
}

/** The fields every Codex payload starts with, in its order: which ones depends on the event. */
function commonFields(ctx: AnyHookContext, info: PayloadInfo): Record<string, unknown> {
  const sessionId = ctx.state.sessionId ?? ctx.state.agentId;
  // A run of ours is what Codex calls a turn; the agent's id names it (runs of one agent share it).
  const turnId = ctx.state.agentId;
  // The conversation so far, as Codex's rollout file: hooks read the last answer from it. No model slug to report:
  // '' reads as "none" rather than as a wrong value.
  const transcript = writeCodexTranscript(ctx.state, info.workDir);
  switch (ctx.event) {
    case 'SessionStart':
      return { session_id: sessionId, transcript_path: transcript, cwd: info.workDir, hook_event_name: info.eventName, model: '', permission_mode: 'default' };
    case 'SessionEnd':
      return { session_id: sessionId, transcript_path: transcript, cwd: info.workDir, hook_event_name: info.eventName };
    case 'PreCompact':
    case 'PostCompact':
      return { session_id: sessionId, turn_id: turnId, transcript_path: transcript, cwd: info.workDir, hook_event_name: info.eventName, model: '' };
    case 'BeforeStep':
      // Codex 0.171 names each model request: `kind` "sampling" for the agent's own, a request id, the attempt (a step
      // here is requested once), and the thread, which is the session.
      return {
        kind: 'sampling',
        request_id: `${turnId}:${ctx.event === 'BeforeStep' ? ctx.stepIndex : 0}`,
        attempt_number: 1,
        session_id: sessionId,
        thread_id: sessionId,
        turn_id: turnId,
        cwd: info.workDir,
        transcript_path: transcript,
        model: '',
        hook_event_name: info.eventName,
      };
    default:
      return {
        session_id: sessionId,
        turn_id: turnId,
        transcript_path: transcript,
        cwd: info.workDir,
        hook_event_name: info.eventName,
        model: '',
        permission_mode: 'default',
      };
  }
}

function payload(ctx: AnyHookContext, info: PayloadInfo): object {
  const fields = codexEventFields(ctx);
  // Bridged from Codex (or Claude Code, VS Code): the agent's own payload — its turn_id, model, transcript_path.
  return bridgedClaudePayload(ctx, fields, info.eventName) ?? { ...commonFields(ctx, info), ...fields };
}

// ---------------------------------------------------------------------------------------------------------------
// Reading an answer
// ---------------------------------------------------------------------------------------------------------------

/** A field of one of Codex's answer schemas. `?` types accept null as "absent", as Codex's optional fields do. */
type FieldType =
  | 'bool'
  | 'string?'
  | 'any?'
  | { readonly oneOf: readonly string[] }
  | { readonly object: Schema; readonly required?: boolean };
type Schema = Readonly<Record<string, FieldType>>;

const UNIVERSAL: Schema = { continue: 'bool', stopReason: 'string?', suppressOutput: 'bool', systemMessage: 'string?' };
/**
 * `hookSpecificOutput` of an event's answer. Its `hookEventName` must be there, but Codex 0.171 takes any of its
 * events' names, not only the answered one's: a PreToolUse deny that says `"PostToolUse"` still denies there.
 */
const specific = (_event: string, fields: Schema): FieldType => ({ object: { hookEventName: { oneOf: Object.keys(CODEX_EVENTS) }, ...fields } });
const REQUIRED_IN_SPECIFIC = 'hookEventName';

/** Each event's answer schema, as Codex 0.169 embeds them (`hooks/schema/generated/*.command.output.schema.json`). */
const SCHEMAS: Partial<Record<HookEventName, Schema>> = {
  PreToolUse: {
    ...UNIVERSAL,
    decision: { oneOf: ['approve', 'block'] },
    reason: 'string?',
    hookSpecificOutput: specific('PreToolUse', {
      additionalContext: 'string?',
      permissionDecision: { oneOf: ['allow', 'deny', 'ask'] },
      permissionDecisionReason: 'string?',
      updatedInput: 'any?',
    }),
  },
  PermissionRequest: {
    ...UNIVERSAL,
    hookSpecificOutput: specific('PermissionRequest', {
      decision: {
        object: { behavior: { oneOf: ['allow', 'deny'] }, interrupt: 'bool', message: 'string?', updatedInput: 'any?', updatedPermissions: 'any?' },
        required: true,
      },
    }),
  },
  PostToolUse: {
    ...UNIVERSAL,
    decision: { oneOf: ['block'] },
    reason: 'string?',
    hookSpecificOutput: specific('PostToolUse', { additionalContext: 'string?', updatedMCPToolOutput: 'any?' }),
  },
  UserPromptSubmit: { ...UNIVERSAL, decision: { oneOf: ['block'] }, reason: 'string?', hookSpecificOutput: specific('UserPromptSubmit', { additionalContext: 'string?' }) },
  Stop: { ...UNIVERSAL, decision: { oneOf: ['block'] }, reason: 'string?' },
  SubagentStop: { ...UNIVERSAL, decision: { oneOf: ['block'] }, reason: 'string?' },
  SessionStart: { ...UNIVERSAL, hookSpecificOutput: specific('SessionStart', { additionalContext: 'string?' }) },
  SubagentStart: { ...UNIVERSAL, hookSpecificOutput: specific('SubagentStart', { additionalContext: 'string?' }) },
  PreCompact: UNIVERSAL,
  PostCompact: UNIVERSAL,
};

const valueText = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'string' ? JSON.stringify(value) : typeof value);

/** What is wrong with `value` under `schema`, as "field: problem", or `undefined` when Codex would take it. */
function schemaProblem(value: Record<string, unknown>, schema: Schema, path: string, requiredBehavior = false): string | undefined {
  for (const [key, item] of Object.entries(value)) {
    const at = path === '' ? key : `${path}.${key}`;
    // Own keys only: a `__proto__` or `constructor` in the answer is a field Codex does not take, not a lookup.
    const type = Object.hasOwn(schema, key) ? schema[key] : undefined;
    if (type === undefined) return `${at} is not a field Codex takes here (it takes ${Object.keys(schema).join(', ')})`;
    if (type === 'bool') {
      if (typeof item !== 'boolean') return `${at} must be true or false, not ${valueText(item)}`;
    } else if (type === 'string?') {
      if (item !== null && typeof item !== 'string') return `${at} must be a string, not ${valueText(item)}`;
    } else if (type === 'any?') {
      // Any JSON value.
    } else if ('oneOf' in type) {
      if (item !== null && !type.oneOf.includes(item as string)) return `${at} must be ${type.oneOf.map((v) => `"${v}"`).join(' or ')}, not ${valueText(item)}`;
    } else if (item !== null) {
      if (!isRecord(item)) return `${at} must be an object, not ${valueText(item)}`;
      const inner = schemaProblem(item, type.object, at, type.required === true);
      if (inner !== undefined) return inner;
    }
  }
  if (path.endsWith('hookSpecificOutput') && value[REQUIRED_IN_SPECIFIC] === undefined) return `${path}.${REQUIRED_IN_SPECIFIC} is missing`;
  if (requiredBehavior && (value.behavior === undefined || value.behavior === null)) return `${path}.behavior is missing`;
  return undefined;
}

/** Whether Codex takes stdout it cannot parse for an attempt at JSON (and so for a failed hook). */
const looksLikeJson = (text: string): boolean => text.startsWith('{') || text.startsWith('[');

/** Events whose plain (non-JSON) stdout Codex adds to the model's context. */
const PLAIN_STDOUT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set(['UserPromptSubmit', 'SessionStart', 'SubagentStart']);
/** Events where Codex reads exit 2 with stderr as a block (PostToolUse: stderr replaces what the model sees). */
const EXIT_2_BLOCKS: ReadonlySet<HookEventName> = new Set(['PreToolUse', 'PermissionRequest', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStop']);

/** The tools whose hook input is `{ command }` in Codex: its shell (`Bash`) and its patch tool. */
const COMMAND_TOOLS: ReadonlySet<string> = new Set(['Bash', 'apply_patch']);

const nonBlank = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** A failed hook in Codex's terms: it goes on as if the hook had not run (unless the hook fails closed here). */
function failed(cause: string, result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo, systemMessage?: string): Decision {
  const decision = failureDecision({ code: 'invalid-output', cause }, result, ctx, hook);
  return systemMessage === undefined ? decision : { ...decision, systemMessage };
}

/** The answer of one exit-0 run with a parsed JSON object, event by event, as Codex reads it. */
function readOutput(output: Record<string, unknown>, result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo): Decision {
  const systemMessage = nonBlank(output.systemMessage);
  const spec = isRecord(output.hookSpecificOutput) ? output.hookSpecificOutput : {};
  const context = typeof spec.additionalContext === 'string' && spec.additionalContext.trim() !== '' ? [spec.additionalContext] : NONE;
  const go = output.continue !== false;
  const stopped = (fallback: string): Decision => ({ kind: 'stop', reason: nonBlank(output.stopReason) ?? fallback, additionalContext: NONE, systemMessage, notes: [] });
  const invalid = (why: string): Decision => failed(`answered ${why}, which Codex refuses`, result, ctx, hook, systemMessage);
  const block = output.decision === 'block';
  const reason = nonBlank(output.reason);
  const name = codexName(ctx.event);

  switch (ctx.event) {
    case 'PreToolUse': {
      if (!go) return invalid('continue: false on PreToolUse');
      if (output.stopReason !== undefined && output.stopReason !== null) return invalid('stopReason on PreToolUse');
      if (output.suppressOutput === true) return invalid('suppressOutput on PreToolUse');
      const permission = spec.permissionDecision ?? undefined;
      const updated = spec.updatedInput ?? undefined;
      const permissionReason = spec.permissionDecisionReason ?? undefined;
      if (permission !== undefined || permissionReason !== undefined || updated !== undefined) {
        // The hook-specific form: a rewrite needs allow, allow needs a rewrite, ask is not taken, deny needs a reason.
        if (updated !== undefined && permission !== 'allow') return invalid('updatedInput without permissionDecision: "allow"');
        if (permission === 'allow' && updated === undefined) return invalid('permissionDecision: "allow" without updatedInput');
        if (permission === 'ask') return invalid('permissionDecision: "ask"');
        if (permission === 'deny' && nonBlank(permissionReason) === undefined) return invalid('permissionDecision: "deny" without a permissionDecisionReason');
        if (permission === undefined) return invalid('permissionDecisionReason without permissionDecision');
        if (permission === 'deny') return { kind: 'block', reason: nonBlank(permissionReason)!, additionalContext: context, systemMessage, notes: [] };
        // Codex maps a shell or patch rewrite's `command` back onto the tool's own argument and takes nothing else from
        // it; without a string `command` it refuses the call (the model is told), as it refuses arguments no tool takes.
        const commandOnly = COMMAND_TOOLS.has(ctx.toolCall.name);
        if (!isRecord(updated) || (commandOnly && typeof updated.command !== 'string')) {
          const why = commandOnly ? 'hook returned updatedInput without string field `command`' : `hook returned updatedInput as ${valueText(updated)}, not tool arguments`;
          return { kind: 'block', reason: why, additionalContext: context, systemMessage, notes: [] };
        }
        const args = commandOnly ? { ...ctx.toolCall.args, command: updated.command } : updated;
        // Not a grant: Codex still puts the rewritten call through its sandbox and its own approval.
        return { kind: 'proceed', granted: false, ctx: ctx.withArgs(args), additionalContext: context, systemMessage, notes: [] };
      }
      if (output.decision === 'approve') return invalid('decision: "approve"');
      if (block && reason === undefined) return invalid('decision: "block" without a reason');
      if (!block && output.reason !== undefined && output.reason !== null) return invalid('a reason without a decision');
      if (block) return { kind: 'block', reason: reason!, additionalContext: context, systemMessage, notes: [] };
      return { kind: 'proceed', additionalContext: context, systemMessage, notes: [] };
    }
    case 'PermissionRequest': {
      if (!go) return invalid('continue: false on PermissionRequest');
      if (output.stopReason !== undefined && output.stopReason !== null) return invalid('stopReason on PermissionRequest');
      if (output.suppressOutput === true) return invalid('suppressOutput on PermissionRequest');
      const decision = isRecord(spec.decision) ? spec.decision : undefined;
      if (decision === undefined) return { kind: 'proceed', additionalContext: NONE, systemMessage, notes: [] };
      if (decision.updatedInput !== undefined && decision.updatedInput !== null) return invalid('decision.updatedInput on PermissionRequest');
      if (decision.updatedPermissions !== undefined && decision.updatedPermissions !== null) return invalid('decision.updatedPermissions');
      if (decision.interrupt === true) return invalid('decision.interrupt: true');
      if (decision.behavior === 'deny') {
        return { kind: 'block', reason: nonBlank(decision.message) ?? `${name} hook denied approval`, additionalContext: NONE, systemMessage, notes: [] };
      }
      // On PermissionRequest an allow is an approval: Codex does not ask its approver.
      return { kind: 'proceed', granted: true, additionalContext: NONE, systemMessage, notes: [] };
    }
    case 'PostToolUse': {
      // Codex checks continue: false before anything else, and keeps the context only from an answer it takes whole.
      const refusal =
        output.suppressOutput === true
          ? 'suppressOutput on PostToolUse'
          : spec.updatedMCPToolOutput !== undefined && spec.updatedMCPToolOutput !== null
            ? 'updatedMCPToolOutput, which Codex 0.169 does not take'
            : block && reason === undefined
              ? 'decision: "block" without a reason'
              : !block && go && output.reason !== undefined && output.reason !== null
                ? 'a reason without a decision'
                : undefined;
      const kept = refusal === undefined ? context : NONE;
      // Codex 0.169 does not halt the run here: the model sees the reason (else the stopReason) instead of the output.
      if (!go) return { kind: 'block', reason: reason ?? nonBlank(output.stopReason) ?? `${name} hook stopped execution`, additionalContext: kept, systemMessage, notes: [] };
      if (refusal !== undefined) return invalid(refusal);
      // The reason replaces the tool's output in what the model sees.
      if (block) return { kind: 'block', reason: reason!, additionalContext: context, systemMessage, notes: [] };
      return { kind: 'proceed', additionalContext: context, systemMessage, notes: [] };
    }
    case 'UserPromptSubmit': {
      const refusal = block && reason === undefined ? 'decision: "block" without a reason' : undefined;
      // Codex keeps the context even when the prompt is stopped or refused (it serves later turns), unless the answer is.
      const kept = refusal === undefined ? context : NONE;
      if (!go) return { ...stopped(`Hook '${hook.name}' stopped the run.`), additionalContext: kept };
      if (refusal !== undefined) return invalid(refusal);
      if (block) return { kind: 'block', reason: reason!, additionalContext: context, systemMessage, notes: [] };
      return { kind: 'proceed', additionalContext: context, systemMessage, notes: [] };
    }
    case 'Stop':
    case 'SubagentStop': {
      if (!go) return stopped(`Hook '${hook.name}' stopped the run.`);
      if (block && reason === undefined) return invalid('decision: "block" without a reason');
      // The reason is the prompt Codex goes on with.
      if (block) return { kind: 'block', reason: reason!, additionalContext: NONE, systemMessage, notes: [] };
      return { kind: 'proceed', additionalContext: NONE, systemMessage, notes: [] };
    }
    case 'SessionStart':
      if (!go) return { ...stopped(`Hook '${hook.name}' stopped the run.`), additionalContext: context };
      return { kind: 'proceed', additionalContext: context, systemMessage, notes: [] };
    case 'SubagentStart':
      // Codex reads context here, and nothing that would refuse the subagent: continue: false is ignored.
      return { kind: 'proceed', additionalContext: context, systemMessage, notes: [] };
    case 'PreCompact':
    case 'PostCompact':
      if (!go) return stopped(`${name} hook stopped execution`);
      return { kind: 'proceed', additionalContext: NONE, systemMessage, notes: [] };
    default:
      return PROCEED;
  }
}

/**
 * Reads a run the way Codex 0.171 reads its command hooks (`test/agents/codex-rules.test.ts`):
 *
 * - a hook that could not start, timed out, was killed, or exited with anything but 0 or 2 has failed: Codex goes on
 *   as if it had not run (a fail-closed hook blocks here instead);
 * - exit 2 blocks with stderr as the reason on PreToolUse, PermissionRequest, UserPromptSubmit, Stop and SubagentStop,
 *   and on PostToolUse replaces the tool's output in what the model sees; exit 2 without stderr, or on any other
 *   event, is a failure;
 * - PostToolUse's `continue: false` does not halt the run: like a block, its text replaces the tool's output;
 * - exit 0: stdout that parses as a JSON object is checked against the event's schema — a field the schema does not
 *   have, or of the wrong type, makes the whole answer a failure; stdout that is not JSON is context for the model on
 *   UserPromptSubmit, SessionStart and SubagentStart, a failure on Stop and SubagentStop (and anywhere it starts like
 *   JSON), and ignored elsewhere.
 *
 * @internal
 */
export function interpretCodex(result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo): Decision {
  const failure = processFailure(result, hook);
  if (failure !== undefined) return failureDecision(failure, result, ctx, hook);
  const event = ctx.event;
  if (result.exitCode === 2) {
    const stderr = result.stderr.trim();
    if (EXIT_2_BLOCKS.has(event) && stderr !== '') return { kind: 'block', reason: stderr, additionalContext: NONE, notes: exit2Notes(result, ctx, hook) };
    const why = EXIT_2_BLOCKS.has(event) ? 'exited with code 2 but wrote no reason to stderr' : withStderr(`exited with code 2, which does not block ${codexName(event)} in Codex`, result);
    return failureDecision({ code: 'exit-code', cause: why }, result, ctx, hook);
  }
  if (result.exitCode !== 0) return failureDecision({ code: 'exit-code', cause: withStderr(`exited with code ${result.exitCode}`, result) }, result, ctx, hook);
  const schema = SCHEMAS[event];
  const text = result.stdout.trim();
  // SessionEnd and PreModelRequest answers are not read at all.
  if (text === '' || schema === undefined) return PROCEED;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!isRecord(value)) {
    if (event === 'Stop' || event === 'SubagentStop' || looksLikeJson(text)) {
      return failed(`printed output that is not a JSON object Codex can read on ${codexName(event)}`, result, ctx, hook);
    }
    return PLAIN_STDOUT_IS_CONTEXT.has(event) ? { kind: 'proceed', additionalContext: [text], notes: [] } : PROCEED;
  }
  const problem = schemaProblem(value, schema, '');
  if (problem !== undefined) return failed(`printed an answer Codex throws away whole: ${problem}`, result, ctx, hook);
  return readOutput(value, result, ctx, hook);
}

/**
 * Codex CLI's dialect (`.codex/hooks.json`, `$CODEX_HOME/hooks.json`), as Codex 0.169 speaks it.
 *
 * - stdin: `session_id`, `turn_id` (the run's agent id), `transcript_path` (the conversation so far, written as Codex's
 *   rollout file; null when it cannot be written), `cwd`,
 *   `hook_event_name`, `model` (''), `permission_mode` (`default`), and the event's fields: `tool_name`, `tool_input`,
 *   `tool_use_id` (not on PermissionRequest), `tool_response` (PostToolUse), `prompt`, `stop_hook_active`,
 *   `last_assistant_message` (Stop, SubagentStop), `agent_id`, `agent_type`, `agent_transcript_path`, `source`,
 *   `trigger`, `reason` (SessionEnd, always `other`). SessionStart and SessionEnd have no `turn_id`; SessionEnd,
 *   PreCompact and PostCompact no `permission_mode`. Bridged from Codex: its own payload as it sent it.
 * - answer: read as Codex reads it, strictly against each event's schema (see the Codex CLI section of the guide to
 *   hooks from other agents). A rewrite (`updatedInput`) counts only with `permissionDecision: "allow"`, and does
 *   not grant the call: Codex still sends the rewritten call through its sandbox and approval.
 */
export const codexDialect: WireDialect = Object.freeze({
  name: 'codex',
  eventName: (event: HookEventName) => codexName(event),
  payload,
  interpret: interpretCodex,
});

// ---------------------------------------------------------------------------------------------------------------
// The bridge: a Codex payload in, our outcome back as a Codex answer
// ---------------------------------------------------------------------------------------------------------------

/**
 * Thrown by {@link readCodexPayload} for a payload that is not a Codex hook's, unless the caller names its own error.
 *
 * @internal
 */
export class CodexPayloadError extends Error {
  /** Always `CodexPayloadError`. */
  override readonly name = 'CodexPayloadError';
}

/**
 * A Codex payload read for the bridge: the event, Codex's name for it, and the fields in the bridge's snake_case.
 *
 * @internal
 */
export interface CodexPayloadReading {
  /** The canonical event. */
  readonly event: HookEventName;
  /** Codex's name for it (what its answer must carry as `hookEventName`). */
  readonly eventName: string;
  /** The payload's fields under the names the bridge reads contexts from (`tool_name`, `subagent_name`, …). */
  readonly fields: Record<string, unknown>;
}

/**
 * Reads what Codex writes to a hook's stdin into the fields the bridge builds a context from. The event is `given`
 * (`--event`) or the payload's `hook_event_name`, in Codex's names (any dialect's name is accepted for `given`).
 * Codex's `agent_id` names the subagent; its SessionStart `source: "fork"` (a session forked from another) reads as
 * `resume`, since it goes on with an earlier conversation; a PermissionRequest's `tool_input.description` (the
 * approval question) is its reason. Everything else is kept as sent.
 *
 * @param invalid - makes the error thrown for a payload that cannot be read (default: a {@link CodexPayloadError}).
 * @throws what `invalid` makes, naming the event or field that is wrong.
 *
 * @internal
 */
export function readCodexPayload(
  payload: Record<string, unknown>,
  given?: string,
  invalid: (message: string) => Error = (message) => new CodexPayloadError(message),
): CodexPayloadReading {
  const written = given ?? payload.hook_event_name;
  if (typeof written !== 'string' || written === '') throw invalid('The Codex payload has no hook_event_name; pass --event (e.g. --event PreToolUse).');
  const event = CODEX_EVENTS[written] ?? (given !== undefined ? HookEvent.tryParse(given) : undefined);
  if (event === undefined || HookEvent.toDialect(event, 'codex') === undefined) {
    const known = Object.keys(CODEX_EVENTS).join(', ');
    throw invalid(`'${written}' is not a Codex event the bridge answers (it answers ${known}); remove it from the bridge's events in .codex/hooks.json.`);
  }
  const input = isRecord(payload.tool_input) ? payload.tool_input : undefined;
  return {
    event,
    eventName: codexName(event),
    fields: {
      ...payload,
      subagent_name: payload.agent_id,
      ...(payload.source === 'fork' ? { source: 'resume' } : {}),
      ...(event === 'PermissionRequest' && typeof input?.description === 'string' ? { permission_reason: input.description } : {}),
      hook_event_name: undefined,
    },
  };
}

const NOTHING: BridgeAnswer = Object.freeze({ exitCode: 0, stdout: '', stderr: '' });

/** The answer, without empty parts; nothing at all when nothing is left. */
function answer(body: Record<string, unknown>): BridgeAnswer {
  const kept = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  return Object.keys(kept).length === 0 ? NOTHING : { exitCode: 0, stdout: `${JSON.stringify(kept)}\n`, stderr: '' };
}

/** `hookSpecificOutput` for `event`, or `undefined` when it would say nothing but the event's name. */
function specificOutput(eventName: string, fields: Record<string, unknown>): Record<string, unknown> | undefined {
  const kept = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  return Object.keys(kept).length === 0 ? undefined : { hookEventName: eventName, ...kept };
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/**
 * The answer a Codex hook gives for `outcome`, the merged outcome of our stack on `ctx`: always exit 0 with JSON
 * exactly of the event's schema (Codex throws away an answer with one field too many, so nothing else is written).
 *
 * - PreToolUse: a block, a stop and an ask are all `permissionDecision: "deny"` with the reason — Codex refuses
 *   `continue: false` and `ask` here, and a refused answer would let the call run. A rewritten input is
 *   `permissionDecision: "allow"` with `updatedInput`, the only form in which Codex takes one (without the allow it
 *   drops the rewrite and runs the call as the model wrote it). That allow waives none of Codex's own checks: the
 *   rewritten call still goes through Codex's sandbox, its approval policy, PermissionRequest hooks and automatic
 *   review (tried against Codex 0.169: a PermissionRequest hook saw the rewritten command and the reviewer refused
 *   it). So a rewrite no hook granted grants nothing; and a grant without a rewrite is not written at all, since Codex
 *   refuses a bare allow.
 * - PermissionRequest: a block or stop is `decision.behavior: "deny"` with the reason; a grant is `"allow"` (Codex then
 *   asks no one); an ask says nothing, so Codex asks its approver as usual. A grant of a rewritten call is a deny,
 *   since Codex cannot take a new input here and approving the call as written would approve what the hooks changed.
 * - PostToolUse: a block is `decision: "block"` with the reason; a replaced result is the same, with the new result as
 *   the reason — Codex shows the reason to the model in place of the tool's output. A stop is `continue: false` with
 *   `stopReason`, which Codex 0.169 treats the same way: the run goes on, the model sees the reason instead of the
 *   output (Codex cannot halt a run from PostToolUse).
 * - UserPromptSubmit, Stop, SubagentStop: a block is `decision: "block"` with the reason (on Stop the agent goes on
 *   with it as its next prompt); a stop is `continue: false` with `stopReason`.
 * - SessionStart, PreCompact, PostCompact: a stop is `continue: false`. SubagentStart cannot refuse the subagent: a
 *   block or stop there is shown to the user as the hook's message.
 * - Additional context goes in `hookSpecificOutput.additionalContext` on the events that have it (PreToolUse,
 *   PostToolUse, UserPromptSubmit, SessionStart, SubagentStart), joined by blank lines; system messages in
 *   `systemMessage`. SessionEnd and PreModelRequest answers are not read by Codex: nothing is written.
 *
 * @internal
 */
export function codexAnswer(outcome: HookOutcome, ctx: AnyHookContext, eventName: string): BridgeAnswer {
  // The answer must name the event as Codex does, whatever name the payload was read under.
  const name = HookEvent.toDialect(ctx.event, 'codex') ?? eventName;
  const systemMessage = outcome.systemMessage;
  const context = outcome.additionalContext.length === 0 ? undefined : outcome.additionalContext.join('\n\n');
  // Codex refuses a block or deny without a non-empty reason, which would let the action go on.
  const why = (fallback: string): string => nonBlank(outcome.reason) ?? fallback;
  const refused = outcome.type === 'block' || outcome.type === 'stop';

  switch (ctx.event) {
    case 'PreToolUse': {
      const args = rewrittenArgs(outcome, ctx);
      if (refused || outcome.type === 'ask') {
        const reason = why(`Refused by a hook on ${name}.`);
        return answer({ systemMessage, hookSpecificOutput: { hookEventName: name, permissionDecision: 'deny', permissionDecisionReason: reason, additionalContext: context } });
      }
      if (args !== undefined) {
        return answer({ systemMessage, hookSpecificOutput: { hookEventName: name, permissionDecision: 'allow', updatedInput: args, additionalContext: context } });
      }
      return answer({ systemMessage, hookSpecificOutput: specificOutput(name, { additionalContext: context }) });
    }
    case 'PermissionRequest': {
      const rewritten = rewrittenArgs(outcome, ctx) !== undefined;
      if (refused || (outcome.granted && rewritten)) {
        const message = refused ? why(`Denied by a hook on ${name}.`) : `A hook rewrote this call's input, which Codex cannot take on ${name}; the call is not approved as written.`;
        return answer({ systemMessage, hookSpecificOutput: { hookEventName: name, decision: { behavior: 'deny', message } } });
      }
      if (outcome.granted) return answer({ systemMessage, hookSpecificOutput: { hookEventName: name, decision: { behavior: 'allow' } } });
      return answer({ systemMessage });
    }
    case 'PostToolUse': {
      const specific = specificOutput(name, { additionalContext: context });
      if (outcome.type === 'stop') return answer({ continue: false, stopReason: why(`Stopped by a hook on ${name}.`), systemMessage, hookSpecificOutput: specific });
      const result = replacedResult(outcome, ctx);
      if (outcome.type === 'block' || result !== undefined) {
        const reason = outcome.type === 'block' ? why(`The result was rejected by a hook on ${name}.`) : (nonBlank(asText(result!.value)) ?? 'The result was withheld by a hook.');
        return answer({ decision: 'block', reason, systemMessage, hookSpecificOutput: specific });
      }
      return answer({ systemMessage, hookSpecificOutput: specific });
    }
    case 'UserPromptSubmit':
    case 'Stop':
    case 'SubagentStop': {
      const specific = ctx.event === 'UserPromptSubmit' ? specificOutput(name, { additionalContext: context }) : undefined;
      if (outcome.type === 'stop') return answer({ continue: false, stopReason: why(`Stopped by a hook on ${name}.`), systemMessage, hookSpecificOutput: specific });
      if (outcome.type === 'block') return answer({ decision: 'block', reason: why(`Blocked by a hook on ${name}.`), systemMessage, hookSpecificOutput: specific });
      return answer({ systemMessage, hookSpecificOutput: specific });
    }
    case 'SessionStart': {
      const specific = specificOutput(name, { additionalContext: context });
      if (outcome.type === 'stop') return answer({ continue: false, stopReason: why(`Stopped by a hook on ${name}.`), systemMessage, hookSpecificOutput: specific });
      return answer({ systemMessage, hookSpecificOutput: specific });
    }
    case 'SubagentStart': {
      const shown = refused ? [systemMessage, nonBlank(outcome.reason)].filter((m) => m !== undefined).join('\n') : systemMessage;
      return answer({ systemMessage: nonBlank(shown), hookSpecificOutput: specificOutput(name, { additionalContext: context }) });
    }
    case 'PreCompact':
    case 'PostCompact':
      if (outcome.type === 'stop') return answer({ continue: false, stopReason: why(`Stopped by a hook on ${name}.`), systemMessage });
      return answer({ systemMessage });
    default:
      return NOTHING;
  }
}
