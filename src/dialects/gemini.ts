/**
 * Gemini CLI's command-hook protocol, as Gemini CLI 0.61 speaks it: what its hooks are sent, and what it makes of
 * their answers.
 *
 * @module
 */
import { HookEvent, ToolExecution, type AnyHookContext, type HookEventName, type ModelHookContext, type StopHookContext } from '../core/index.js';
import type { ProcessResult } from './process-result.js';
import { claudeEventFields } from './claude.js';
import { resultText } from '../core/internal/as-text.js';
import type { Decision, PayloadInfo, WireDialect, WireHookInfo } from './dialect.js';
import { failureDecision, processFailure, withStderr } from './failure.js';
import { writeGeminiTranscript } from './gemini-transcript.js';
import { NONE, OutputReader, PROCEED, invalidOutput, isRecord } from './wire-output.js';
import {
  applyGeminiLlmRequest,
  geminiLlmRequest,
  geminiLlmRequestOver,
  geminiLlmResponse,
  geminiLlmResponseOver,
  readGeminiLlmResponse,
  readGeminiModelPayload,
  readGeminiToolConfig,
} from './gemini-llm.js';
import { selectAsGemini } from './gemini-tool-selection.js';


/**
 * The turn a Stop gate closes: its prompt — the user's, not the feedback of a blocked stop, which Gemini CLI never
 * sends as `prompt` — and every answer of the model since, joined by newlines, as Gemini CLI gathers them.
 */
function turnOf(ctx: StopHookContext): { prompt: string; response: string } {
  const messages = ctx.state.messages;
  const users = messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
  // Each kept-working stop added one user message after the prompt. Fewer: compaction took the prompt away.
  const at = users[users.length - 1 - ctx.continuationCount];
  const answers = messages.slice((at ?? -1) + 1).filter((m) => m.role === 'assistant' && m.content !== '');
  return {
    prompt: at === undefined ? '' : messages[at]!.content,
    response: answers.length > 0 ? answers.map((m) => m.content).join('\n') : ctx.finalMessage || '[no response text]',
  };
}

function eventFields(ctx: AnyHookContext): Record<string, unknown> {
  switch (ctx.event) {
    case 'PreToolUse':
    case 'PermissionRequest':
      return { tool_name: ctx.toolCall.name, tool_input: ctx.toolCall.args };
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      // Gemini CLI has no failure event: a tool that failed is an AfterTool whose tool_response holds an `error`.
      const execution = ctx.execution;
      const text = execution.isError ? (execution.errorMessage ?? '') : resultText(execution.result);
      const tool_response = execution.isError
        ? { llmContent: `Error: ${text}`, returnDisplay: text, error: { message: text, type: 'execution_failed' } }
        : { llmContent: text, returnDisplay: text };
      return { tool_name: ctx.toolCall.name, tool_input: ctx.toolCall.args, tool_response };
    }
    case 'UserPromptSubmit':
      return { prompt: ctx.prompt };
    case 'Stop': {
      // Gemini's AfterAgent gate: the turn's prompt and answer, and whether a retry is already under way.
      const turn = turnOf(ctx);
      return { prompt: turn.prompt, prompt_response: turn.response, stop_hook_active: ctx.stopHookActive };
    }
    case 'BeforeModel':
    case 'BeforeToolSelection':
      return { llm_request: geminiLlmRequest(ctx.request, ctx.modelName) };
    case 'AfterModel':
      return { llm_request: geminiLlmRequest(ctx.request, ctx.modelName), llm_response: geminiLlmResponse(ctx.response) };
    case 'SessionStart':
      return { source: ctx.source };
    case 'SessionEnd':
      // Closing a session is what Gemini CLI calls `exit` (its headless run ends with it too).
      // Headless Gemini CLI 0.61 ends with `exit` whether its run failed or not (the non-interactive run's cleanup).
      return { reason: ctx.reason === undefined || ctx.reason === 'close' || ctx.reason === 'error' ? 'exit' : ctx.reason };
    case 'PreCompact':
      return { trigger: ctx.trigger };
    case 'Notification':
      // Gemini CLI notifies only of a tool call waiting for approval, as `ToolPermission`.
      return {
        notification_type: ctx.notificationType === 'permission_prompt' ? 'ToolPermission' : ctx.notificationType,
        message: ctx.message,
        details: {},
      };
    default:
      // Events Gemini CLI does not have (SubagentStart, …), for a HOOK.md hook speaking its dialect.
      return claudeEventFields(ctx);
  }
}

/**
 * The `llm_request` and `llm_response` of a model event Gemini CLI sent, with what the hooks before this one changed
 * in the request and the answer; what they did not change goes as Gemini CLI sent it.
 */
function bridgedModelFields(ctx: ModelHookContext, payload: Record<string, unknown>): Record<string, unknown> {
  let sent;
  try {
    sent = readGeminiModelPayload(payload, ctx.event);
  } catch {
    // Not a payload the bridge reads (a context given such an origin by hand): it goes on as it is.
    return {};
  }
  const changed: Record<string, unknown> = {};
  if (isRecord(payload.llm_request) && JSON.stringify(geminiLlmRequest(ctx.request, '')) !== JSON.stringify(geminiLlmRequest(sent.request, ''))) {
    changed.llm_request = geminiLlmRequestOver(payload.llm_request, ctx.request);
  }
  if (ctx.event === 'AfterModel' && isRecord(payload.llm_response) && ctx.response.text !== sent.response?.text) {
    changed.llm_response = geminiLlmResponseOver(payload.llm_response, ctx.response);
  }
  return changed;
}

/**
 * For a context Gemini CLI sent through the bridge: its own payload (its transcript_path and fields we do not
 * model), with what the hooks before this one changed — the tool input, the tool response, the prompt, the model
 * request and answer.
 */
function bridgedPayload(ctx: AnyHookContext, eventName: string): object | undefined {
  const origin = ctx.origin;
  if (origin === undefined || origin.agent !== 'gemini') return undefined;
  const changed: Record<string, unknown> = {};
  if ('toolCall' in ctx) changed.tool_input = ctx.toolCall.args;
  // The bridge reads Gemini's whole tool_response as the result: it goes back as it is.
  if (ctx.event === 'PostToolUse') changed.tool_response = ctx.execution.result;
  if (ctx.event === 'UserPromptSubmit') changed.prompt = ctx.prompt;
  if (ctx.event === 'BeforeModel' || ctx.event === 'BeforeToolSelection' || ctx.event === 'AfterModel') Object.assign(changed, bridgedModelFields(ctx, origin.payload));
  const current = Object.fromEntries(Object.entries(changed).filter(([key]) => Object.hasOwn(origin.payload, key)));
  return { ...origin.payload, ...current, hook_event_name: eventName };
}

function payload(ctx: AnyHookContext, info: PayloadInfo): object {
  return (
    bridgedPayload(ctx, info.eventName) ?? {
      session_id: ctx.state.sessionId ?? ctx.state.agentId,
      // The conversation so far, as Gemini's chat file: hooks read the last answer from it ("" when it cannot be written).
      transcript_path: writeGeminiTranscript(ctx.state, info.workDir, 'modelName' in ctx && typeof ctx.modelName === 'string' ? ctx.modelName : '') ?? '',
      cwd: info.workDir,
      hook_event_name: info.eventName,
      timestamp: new Date().toISOString(),
      ...eventFields(ctx),
    }
  );
}

/** What Gemini CLI acts on, event by event; the rest of an answer it ignores. */
interface Honoured {
  /** `continue: false` ends the run. */
  readonly stop?: boolean;
  /** `decision: "deny"` (or `"block"`) refuses the action. */
  readonly block?: boolean;
  /** `decision: "ask"` asks the user. */
  readonly ask?: boolean;
  /** `hookSpecificOutput.additionalContext` reaches the model. */
  readonly context?: boolean;
  /** `hookSpecificOutput.tool_input` replaces the tool's arguments. */
  readonly toolInput?: boolean;
}

// Read from Gemini CLI 0.61's callers of each event (evaluateBeforeToolHook, executeToolWithHooks, the client's
// BeforeAgent and AfterAgent handling, the non-interactive SessionStart): SessionEnd, PreCompress and Notification
// answers change nothing but the system message it prints.
const HONOURED: Partial<Record<HookEventName, Honoured>> = {
  PreToolUse: { stop: true, block: true, ask: true, toolInput: true },
  PermissionRequest: { stop: true, block: true, ask: true, toolInput: true },
  PostToolUse: { stop: true, block: true, context: true },
  PostToolUseFailure: { stop: true, block: true, context: true },
  UserPromptSubmit: { stop: true, block: true, context: true },
  Stop: { stop: true, block: true },
  // Gemini CLI's model events: what each does with a deny is read in readModelAnswer.
  BeforeModel: { stop: true, block: true },
  AfterModel: { stop: true, block: true },
  // It reads nothing of a BeforeToolSelection answer but the tool selection (fireBeforeToolSelectionEvent).
  BeforeToolSelection: {},
  SessionStart: { context: true },
  SessionEnd: {},
  PreCompact: {},
  Notification: {},
};
// Events Gemini CLI does not have: the fields every event shares.
const ELSEWHERE: Honoured = { stop: true, block: true, context: true };

const DECISIONS = ['allow', 'deny', 'block', 'ask'] as const;

/** A Gemini CLI answer object — its JSON, or the one it makes of plain text — read for `ctx`'s event. */
function readGeminiOutput(output: Record<string, unknown>, ctx: AnyHookContext, hook: WireHookInfo): Decision {
  const honoured = HONOURED[ctx.event] ?? ELSEWHERE;
  const r = new OutputReader(hook, ctx);
  const specific = r.record(output, 'hookSpecificOutput') ?? {};
  const systemMessage = r.text(output, 'systemMessage');
  const decision = r.choice(output, 'decision', DECISIONS);
  const carryOn = r.bool(output, 'continue');
  // Gemini CLI's reason for a stop and for a deny alike: stopReason, else reason.
  const reason = r.text(output, 'stopReason') ?? r.text(output, 'reason');
  const context = honoured.context ? r.text(specific, 'additionalContext', 'hookSpecificOutput.additionalContext') : undefined;
  const extras = { additionalContext: context === undefined ? NONE : [context], systemMessage, notes: r.notes };

  if (honoured.stop && carryOn === false) return { kind: 'stop', reason: reason ?? `Hook '${hook.name}' stopped the run.`, ...extras };
  if (ctx.event === 'BeforeModel' || ctx.event === 'BeforeToolSelection' || ctx.event === 'AfterModel') {
    return readModelAnswer(ctx, specific, decision, reason, r, { ...extras, granted: decision === 'allow' });
  }
  if (honoured.block && (decision === 'deny' || decision === 'block')) {
    const why = reason ?? `blocked by hook '${hook.name}'`;
    if (ctx.event === 'PostToolUseFailure') {
      // Gemini CLI replaces a failed tool's response too; our failure event cannot block, so the failure is replaced.
      const rejected = ToolExecution.failure(ctx.toolCall, new Error(`Tool result rejected by a hook: ${why}`));
      return { kind: 'proceed', ctx: ctx.withExecution(rejected), ...extras };
    }
    return { kind: 'block', reason: why, ...extras };
  }
  const modified = honoured.toolInput ? r.toolInput(specific.tool_input, 'hookSpecificOutput.tool_input') : undefined;
  if (honoured.ask && decision === 'ask') {
    // Gemini CLI shows the system message, not the reason, in the confirmation it asks for. Headless (yolo), Gemini CLI
    // 0.61.0 has nobody to ask: the run ends there, the tool not run. So it is an ask left for later: a pause with
    // approval interrupts, else the end of the run — not a refusal the model hears of and works around.
    return { kind: 'ask', deferred: ctx.event === 'PreToolUse', reason: systemMessage ?? reason ?? `Hook '${hook.name}' asks for approval.`, ctx: modified, ...extras };
  }
  return { kind: 'proceed', reason, granted: decision === 'allow', ctx: modified, ...extras };
}

/** The model events' answers, each as Gemini CLI 0.61 acts on it (`HookSystem.fireBeforeModelEvent` and siblings). */
function readModelAnswer(
  ctx: ModelHookContext,
  specific: Record<string, unknown>,
  decision: (typeof DECISIONS)[number] | undefined,
  reason: string | undefined,
  r: OutputReader,
  extras: Pick<Decision, 'additionalContext' | 'systemMessage' | 'notes' | 'granted'>,
): Decision {
  const denied = decision === 'deny' || decision === 'block';
  // Gemini CLI shows a denied model event's reason to the user as a warning, never to the model.
  const warned = (): string => {
    const warning = `Agent execution blocked: ${reason ?? 'No reason provided'}`;
    return extras.systemMessage === undefined ? warning : `${extras.systemMessage}\n${warning}`;
  };
  switch (ctx.event) {
    case 'BeforeModel': {
      if (denied) {
        // The model is not called; the answer is the hook's llm_response (none: an answer without text), and the deny's
        // reason is a warning for the user, not the answer.
        const given = specific.llm_response;
        const answer =
          given === undefined || given === null
            ? null
            : readGeminiLlmResponse(given, 'hookSpecificOutput.llm_response', (field, problem) =>
                r.ignored(field, `${problem}: Gemini CLI 0.61 fails reading it and drops the whole answer, deny included, so the model is called`),
              );
        if (answer === undefined) return { kind: 'proceed', additionalContext: NONE, systemMessage: extras.systemMessage, notes: r.notes };
        return { ...extras, kind: 'proceed', ctx: ctx.withResponse(answer ?? { text: '' }), systemMessage: warned(), granted: false };
      }
      if (specific.llm_response !== undefined && specific.llm_response !== null) {
        r.ignored('hookSpecificOutput.llm_response', 'without decision "deny": Gemini CLI 0.61 answers instead of the model only when the hook also denies the call');
      }
      const rewrite = r.record(specific, 'llm_request', 'hookSpecificOutput.llm_request');
      const request = rewrite === undefined ? undefined : applyGeminiLlmRequest(rewrite, ctx.request, ctx.modelName ?? '', 'hookSpecificOutput.llm_request', (field, problem) => r.ignored(field, problem));
      return { ...extras, kind: 'proceed', ctx: request === undefined ? undefined : ctx.withRequest(request), reason };
    }
    case 'AfterModel': {
      // The answer stands as the model gave it (Gemini CLI passes the chunk on and ends the stream there).
      if (denied) return { ...extras, kind: 'proceed', systemMessage: warned(), granted: false };
      const given = specific.llm_response;
      const answer = given === undefined || given === null ? null : readGeminiLlmResponse(given, 'hookSpecificOutput.llm_response', (field, problem) => r.ignored(field, problem));
      // Its text only: a Gemini answer has no tool calls to give, and the model's stand.
      return { ...extras, kind: 'proceed', ctx: answer?.text === undefined ? undefined : ctx.withText(answer.text), reason };
    }
    case 'BeforeToolSelection': {
      const given = specific.toolConfig;
      const selection = given === undefined || given === null ? undefined : readGeminiToolConfig(given, 'hookSpecificOutput.toolConfig', (field, problem) => r.ignored(field, problem));
      return { ...extras, kind: 'proceed', ctx: selection === undefined ? undefined : selectAsGemini(ctx, selection), granted: false };
    }
  }
}

/** Plain text, as Gemini CLI turns it into an answer by the exit code: 0 and 1 allow with a message, others deny. */
function readPlainText(text: string, result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo): Decision {
  if (result.exitCode === 0) return readGeminiOutput({ decision: 'allow', systemMessage: text }, ctx, hook);
  if (result.exitCode !== 1) return readGeminiOutput({ decision: 'deny', reason: text }, ctx, hook);
  // Exit 1 is Gemini's non-blocking error: a warning here, which blocks only a hook that fails closed.
  const failure = failureDecision({ code: 'exit-code', cause: withStderr('exited with code 1', result) }, result, ctx, hook);
  if (failure.kind !== 'proceed') return failure;
  const answer = readGeminiOutput({ decision: 'allow', systemMessage: `Warning: ${text}` }, ctx, hook);
  return { ...answer, notes: [...failure.notes, ...answer.notes] };
}

/**
 * Reads a run as Gemini CLI 0.61's hook runner does (`HookRunner.executeCommandHook`, `convertPlainTextToHookOutput`):
 * the answer is stdout, or stderr when stdout is empty; JSON is obeyed whatever the exit code; other text becomes an
 * answer by the exit code; no output at all after a failing exit is a failure. A process that never reached an exit
 * of its own (it could not start, timed out, was killed) is a failure whatever it printed.
 */
function interpret(result: ProcessResult, ctx: AnyHookContext, hook: WireHookInfo): Decision {
  const exited = result.exitCode !== null && result.spawnError === undefined && !result.aborted && !result.timedOut && result.overflow === undefined;
  const text = result.stdout.trim() || result.stderr.trim();
  if (!exited || text === '') {
    if (exited && result.exitCode === 0) return PROCEED;
    // 126 and 127 are named as such (a missing command or interpreter) — when they leave nothing to read.
    const failure = processFailure(result, hook) ?? { code: 'exit-code', cause: withStderr(`exited with code ${result.exitCode}`, result) };
    return failureDecision(failure, result, ctx, hook);
  }
  // Gemini CLI obeys an answer whatever the exit code, so bytes that are not UTF-8 make any answer unreadable.
  if (result.notUtf8?.includes(result.stdout.trim() === '' ? 'stderr' : 'stdout') === true) {
    return invalidOutput('printed output that is not UTF-8 (bytes that are not UTF-8, even inside valid JSON, are not read as an answer)', result, ctx, hook);
  }
  let answer: unknown;
  try {
    answer = JSON.parse(text);
    // A JSON string holding the answer's JSON is read once more.
    if (typeof answer === 'string') answer = JSON.parse(answer);
  } catch {
    return readPlainText(text, result, ctx, hook);
  }
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
    return invalidOutput('printed JSON that is not an object', result, ctx, hook);
  }
  return readGeminiOutput(answer as Record<string, unknown>, ctx, hook);
}

/**
 * Gemini CLI's dialect, as Gemini CLI 0.61 applies it (its source is the authority where its docs differ).
 *
 * - stdin: `session_id`, `transcript_path` (the conversation so far, written as Gemini CLI's chat file; `""` when it
 *   cannot be written), `cwd`, `hook_event_name` (BeforeTool,
 *   AfterTool, BeforeAgent, AfterAgent, BeforeModel, BeforeToolSelection, AfterModel, PreCompress, SessionStart,
 *   SessionEnd, Notification), `timestamp` (ISO 8601), and the event's fields: `tool_name` and `tool_input` (no
 *   tool-use id); AfterTool's `tool_response` `{llmContent, returnDisplay}` — plus `error: {message, type}` when the
 *   tool failed, for Gemini CLI has no failure event and sends a failed call as an AfterTool; AfterAgent's `prompt`
 *   (the turn's prompt, also on a retry), `prompt_response` (the turn's answers, joined by newlines) and
 *   `stop_hook_active`; the model events' `llm_request` `{model, messages: [{role: "user" | "model" | "system",
 *   content}], config: {temperature, maxOutputTokens, topP}}` — the request as rewritten by the hooks before, its
 *   text only (tool results and calls without text are left out), no system prompt, no tools (`model` is `""` for a
 *   model without a name) — and AfterModel's `llm_response` `{text, candidates: [{content: {role: "model", parts:
 *   [text]}, finishReason: "STOP", index: 0}], usageMetadata}` (the whole answer, where Gemini CLI sends each
 *   streamed chunk; no tool calls); `source`, `reason`, `trigger`; Notification's `notification_type`
 *   (`ToolPermission` for an approval), `message`, `details`. From the bridge, Gemini CLI's own payload, with the
 *   tool input, tool response, prompt, model request and answer as the hooks before this one left them.
 * - the answer: stdout, or stderr when stdout is empty. JSON (an object, or a JSON string of one) is obeyed whatever
 *   the exit code. Other text is, with exit 0, `decision: "allow"` with the text as `systemMessage`; with exit 1 the
 *   same prefixed `Warning: ` (and a warning here; a hook that fails closed blocks); with any other exit — 2, 3, a
 *   shell's 127 — `decision: "deny"` with the text as `reason`. A failing exit with no output is a failure: a
 *   warning, and the action goes on unless the hook fails closed. So is a process that could not start, timed out or
 *   was killed, whatever it printed.
 * - fields: `continue: false` + `stopReason` ends the run (BeforeTool, AfterTool, BeforeAgent, AfterAgent,
 *   BeforeModel, AfterModel); `decision: "deny"` or `"block"` + `reason` (or `stopReason`) refuses a tool call,
 *   replaces a tool result with the reason (a failed one too), rejects a prompt, keeps the agent working past
 *   AfterAgent with the reason as feedback; `decision: "ask"` on BeforeTool leaves the call for later, with the
 *   `systemMessage` as the question: as headless Gemini CLI 0.61.0 does, the run ends there, the tool not run — or,
 *   with approval interrupts, pauses at the call; `hookSpecificOutput.tool_input` on BeforeTool REPLACES the tool's arguments (a
 *   field it leaves out is dropped, though Gemini's docs say merged); `hookSpecificOutput.additionalContext` (a
 *   string) reaches the model from AfterTool, BeforeAgent and SessionStart only; `systemMessage` is shown everywhere.
 * - the model events, as Gemini CLI acts on them rather than as its docs say: on BeforeModel,
 *   `hookSpecificOutput.llm_request` is laid over the request — its `messages` replace the text of the request's
 *   messages in order (an assistant's tool calls stay) and those left over are added, none removed; its `config`
 *   replaces the temperature, `maxOutputTokens` and `topP`, clearing one it leaves out; a `model` or `topK` is
 *   ignored with a warning (the model here is the agent's). `decision: "deny"` means the model is not called: the
 *   answer is `hookSpecificOutput.llm_response` (the text of its first candidate's parts), or none, and the reason is
 *   a warning for the user, `Agent execution blocked: …` — not the answer; `llm_response` without the deny is ignored,
 *   with a warning. On BeforeToolSelection only `hookSpecificOutput.toolConfig` counts: `mode` `NONE`, `ANY`, else
 *   `AUTO`, and `allowedFunctionNames` (none: every tool); the Gemini hooks that run in a row merge as Gemini CLI
 *   merges them (the union of the names, `NONE` over `ANY` over `AUTO`), and their merge narrows the selection made
 *   before them. On AfterModel, `hookSpecificOutput.llm_response` with text replaces the answer's text (its tool calls
 *   stand: Gemini CLI replaces one streamed chunk, whose function calls arrive in chunks of their own), and
 *   `decision: "deny"` leaves the answer as it is with the same warning (Gemini CLI does not ask the model again).
 *   An AfterModel hook of a Gemini settings file does not run on an answer a BeforeModel hook gave.
 * - Everything else — a decision or `continue` on SessionStart, SessionEnd, PreCompress, Notification or
 *   BeforeToolSelection, context on BeforeTool, AfterAgent or a model event — is ignored, as Gemini CLI ignores it.
 */
export const geminiDialect: WireDialect = Object.freeze({
  name: 'gemini',
  // A failed tool call reaches a Gemini hook as AfterTool.
  eventName: (event: HookEventName) => HookEvent.toDialect(event === 'PostToolUseFailure' ? 'PostToolUse' : event, 'gemini') ?? event,
  payload,
  interpret,
});
