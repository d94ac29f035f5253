/**
 * Contexts for trying hooks out: one event, built from the JSON a HOOK.md script would receive, with realistic
 * defaults for whatever that JSON leaves out.
 *
 * @module
 */
import {
  AgentState,
  AgentStep,
  CompactHookContext,
  ExecutionHookContext,
  FailureHookContext,
  HookEvent,
  ModelHookContext,
  NotificationHookContext,
  PromptHookContext,
  SessionHookContext,
  StepHookContext,
  StopHookContext,
  SubagentHookContext,
  ToolBatchHookContext,
  ToolCall,
  ToolExecution,
  ToolHookContext,
  type AnyHookContext,
  type CompactTrigger,
  type ContextFor,
  type HookEventName,
  type Message,
  type ModelErrorType,
  type RunStatus,
  type SessionSource,
  type StopReason,
} from '../core/index.js';
import { modelRequestOf, modelResponseOf } from '../dialects/internal/model-call-fields.js';

/** What replaces the payload's tool fields: a tool call given on its own, as `--tool` and `--args` give it. */
export interface SampleContextOptions {
  /** The tool's name (tool events only); wins over the payload's `tool_name`. */
  readonly toolName?: string | undefined;
  /** The tool's arguments (tool events only); win over the payload's `tool_input`. */
  readonly toolInput?: Readonly<Record<string, unknown>> | undefined;
  /**
   * Read the payload as an agent's, inventing nothing (what the bridge does): no sample defaults; a field the event
   * cannot do without (a tool event's `tool_name` and `tool_input`, a prompt's `prompt`, a notification's `message`,
   * a failure's `error_message`) missing is an error naming it; any other field left out keeps its type's neutral
   * value (no final message, step count 0, no tool-use id of the agent's). Default `false`.
   */
  readonly strict?: boolean | undefined;
}

/** The defaults of {@link sampleContext}: a small, plausible run of a coding agent. */
export const SAMPLE_DEFAULTS = Object.freeze({
  /** The session every sample belongs to, unless the payload names one. */
  sessionId: 'sample-session',
  /** The agent every sample belongs to. */
  agentId: 'sample-agent',
  /** The tool of a tool event. */
  toolName: 'bash',
  /** Its arguments. */
  toolInput: Object.freeze({ command: 'ls -la' }) as Readonly<Record<string, unknown>>,
  /** What the tool printed (PostToolUse). */
  toolOutput: 'total 8\ndrwxr-xr-x  4 dev dev 4096 .\n-rw-r--r--  1 dev dev  512 README.md',
  /** How the tool failed (PostToolUseFailure). */
  toolError: 'Command failed with exit code 1: ls: cannot access missing: No such file or directory',
  /** The user's prompt (UserPromptSubmit, ExecutionStart, ExecutionEnd). */
  prompt: 'List the files of this project and summarize the README.',
  /** The assistant's last message (the stop events). */
  finalMessage: 'The project has a README and a src folder; the README describes a command-line tool.',
  /** Steps completed when the agent stops. */
  stepCount: 3,
  /** The subagent of the subagent events. */
  subagentName: 'researcher',
  /** Its task (SubagentStart). */
  task: 'Find where the configuration is loaded and report the file names.',
  /** Messages before compaction (PreCompact, PostCompact). */
  messagesBefore: 12,
  /** Messages after compaction (PostCompact). */
  messagesAfter: 4,
  /** The error of AgentFailed. */
  errorMessage: 'The model request failed: 503 Service Unavailable',
  /** The message of Notification. */
  notification: 'The agent is waiting for your input.',
  /** Why the approver refused the call (PermissionDenied). */
  denial: 'The approver refused this call.',
});

/** What strict reading puts where a payload is silent: nothing that reads as if the agent had said it. */
const NEUTRAL = Object.freeze({
  sessionId: undefined,
  agentId: 'agent',
  subagentName: '',
  task: '',
  messagesBefore: 0,
  messagesAfter: 0,
  toolError: '',
  toolOutput: null,
  prompt: undefined,
});

const STOP_REASONS: readonly StopReason[] = ['no_tool_calls', 'tool_rejected', 'max_steps', 'hook_stop', 'prompt_blocked'];
const SESSION_SOURCES: readonly SessionSource[] = ['startup', 'resume', 'clear', 'compact'];
const COMPACT_TRIGGERS: readonly CompactTrigger[] = ['manual', 'auto'];
const RUN_STATUSES: readonly RunStatus[] = ['completed', 'stopped', 'failed'];
const MODEL_ERROR_TYPES: readonly ModelErrorType[] = [
  'authentication_failed',
  'billing_error',
  'rate_limit',
  'overloaded',
  'invalid_request',
  'model_not_found',
  'server_error',
  'max_output_tokens',
  'unknown',
];
// The fields a script's event name may be in: HOOK.md's, Claude Code's (and VS Code's), and the camelCase one.
const EVENT_FIELDS = ['event_type', 'hook_event_name', 'hookEventName'] as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);

/** Reads the payload's fields, each under any of its names, and says which field is wrong and why when one is. */
class PayloadReader {
  constructor(private readonly payload: Readonly<Record<string, unknown>>) {}

  private raw(names: readonly string[]): [name: string, value: unknown] | undefined {
    for (const name of names) {
      const value = this.payload[name];
      if (Object.hasOwn(this.payload, name) && value !== undefined && value !== null) return [name, value];
    }
    return undefined;
  }

  string(...names: string[]): string | undefined {
    const found = this.raw(names);
    if (found === undefined) return undefined;
    if (typeof found[1] !== 'string') throw new TypeError(`${found[0]} must be a string, got ${typeOf(found[1])}.`);
    return found[1];
  }

  count(...names: string[]): number | undefined {
    const found = this.raw(names);
    if (found === undefined) return undefined;
    if (!Number.isInteger(found[1]) || (found[1] as number) < 0) {
      throw new TypeError(`${found[0]} must be a whole number ≥ 0, got ${JSON.stringify(found[1])}.`);
    }
    return found[1] as number;
  }

  number(...names: string[]): number | undefined {
    const found = this.raw(names);
    if (found === undefined) return undefined;
    if (typeof found[1] !== 'number' || !Number.isFinite(found[1])) throw new TypeError(`${found[0]} must be a number, got ${typeOf(found[1])}.`);
    return found[1];
  }

  boolean(...names: string[]): boolean | undefined {
    const found = this.raw(names);
    if (found === undefined) return undefined;
    if (typeof found[1] !== 'boolean') throw new TypeError(`${found[0]} must be true or false, got ${JSON.stringify(found[1])}.`);
    return found[1];
  }

  object(...names: string[]): Record<string, unknown> | undefined {
    const found = this.raw(names);
    if (found === undefined) return undefined;
    if (!isRecord(found[1])) throw new TypeError(`${found[0]} must be a JSON object, got ${typeOf(found[1])}.`);
    return found[1];
  }

  oneOf<T extends string>(allowed: readonly T[], ...names: string[]): T | undefined {
    const value = this.string(...names);
    if (value === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(value)) {
      throw new TypeError(`${names[0]} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}.`);
    }
    return value as T;
  }

  /** Any JSON value, as given (a tool's output may be anything). */
  value(...names: string[]): unknown {
    return this.raw(names)?.[1];
  }
}

/** `n` alternating user and assistant messages, for the compaction events. */
function conversation(n: number): Message[] {
  return Array.from({ length: n }, (_, i): Message => (i % 2 === 0 ? { role: 'user', content: `Request ${i / 2 + 1}` } : { role: 'assistant', content: `Answer ${(i + 1) / 2}` }));
}

/** An error whose class name is `name`, so that `errorClass` reports what the payload said. */
function errorNamed(name: string | undefined, message: string): Error {
  if (name === undefined || name === 'Error') return new Error(message);
  const Named = { [name]: class extends Error {} }[name]!;
  const error = new Named(message);
  error.name = name;
  return error;
}

/**
 * The event a payload names in `event_type` (HOOK.md), `hook_event_name` (Claude Code, VS Code) or `hookEventName`,
 * as its canonical name; `undefined` when it names none.
 *
 * @throws {@link UnknownEventError} when it names an event that does not exist.
 *
 * @internal
 */
export function sampleEventOf(payload: unknown): HookEventName | undefined {
  if (!isRecord(payload)) return undefined;
  for (const field of EVENT_FIELDS) {
    const name = payload[field];
    if (typeof name === 'string' && name !== '') return HookEvent.parse(name);
  }
  return undefined;
}

/**
 * A context for `event` (any dialect's name) built from `payload`: the JSON a HOOK.md script receives on stdin (its
 * snake_case fields, which Claude Code's payloads share: `tool_name`, `tool_input`, `tool_response`, `prompt`,
 * `stop_reason`, `final_message`, `stop_hook_active`, `source`, `trigger`, `custom_instructions`, `session_id`, …;
 * for the model events `model_name`, `retry_count`, and the call's `request` `{system, messages, tools, settings,
 * toolConfig}` and, on AfterModel, `response` `{text, toolCalls, usage}` and `synthetic`). Whatever the payload leaves out gets a realistic default ({@link SAMPLE_DEFAULTS}): a PreToolUse is a `bash` call
 * of `ls -la`, a Stop follows three steps with a final message, and so on. Fields of other events are ignored.
 *
 * This is how a hook is tried out without an agent (`agent-hooks test` and `run` use it), and a quick way to make
 * contexts in tests.
 *
 * ```ts
 * const ctx = sampleContext('pre-tool-call', { tool_input: { command: 'rm -rf /' } });
 * ctx.toolCall.name;   // 'bash'
 * const outcome = await stack.process(ctx);
 * ```
 *
 * @param event - the event; when `undefined`, the one the payload names (its `event_type`, `hook_event_name` or `hookEventName`).
 * @throws {@link UnknownEventError} for an unknown event name; `TypeError` naming the field when the payload is not an
 *   object, a field has the wrong type, or there is no event at all.
 */
export function sampleContext<E extends HookEventName>(event: E, payload?: unknown, options?: SampleContextOptions): ContextFor<E>;
export function sampleContext(event?: string, payload?: unknown, options?: SampleContextOptions): AnyHookContext;
export function sampleContext(event?: string, payload: unknown = {}, options: SampleContextOptions = {}): AnyHookContext {
  if (!isRecord(payload)) throw new TypeError(`The event payload must be a JSON object, got ${typeOf(payload)}.`);
  const name = event === undefined ? sampleEventOf(payload) : HookEvent.parse(event);
  if (name === undefined) {
    throw new TypeError(`No event given: name one, or put its name in the payload's ${EVENT_FIELDS.join(' or ')} field.`);
  }
  const read = new PayloadReader(payload);
  const strict = options.strict === true;
  const d = strict ? NEUTRAL : SAMPLE_DEFAULTS;
  /** A field the event cannot do without: its sample default, or in strict mode an error naming it. */
  const needed = <T>(value: T | undefined, field: string, fallback: T): T => {
    if (value !== undefined) return value;
    if (strict) throw new TypeError(`The payload has no ${field}, which ${name} needs.`);
    return fallback;
  };
  const stepCount = read.count('step_count', 'total_steps') ?? (strict || name === 'SessionStart' || name === 'ExecutionStart' || name === 'UserPromptSubmit' ? 0 : SAMPLE_DEFAULTS.stepCount);
  const state = AgentState.create({
    agentId: d.agentId,
    sessionId: read.string('session_id', 'sessionId') ?? d.sessionId,
    stepCount,
  });
  // An event of a subagent's run names it (Claude Code's `agent_id` and `agent_type`); SubagentStart names the subagent
  // it starts, from the parent's run.
  const inName = read.string('subagent_name', 'agent_name');
  const inType = read.string('subagent_type', 'agent_type');
  const inside = inName !== undefined && inType !== undefined && name !== 'SubagentStart' ? { name: inName, type: inType } : undefined;
  const init = { state, metadata: read.object('context') ?? {}, subagent: inside };

  const toolCall = (): ToolCall =>
    ToolCall.create(
      options.toolName ?? needed(read.string('tool_name', 'toolName'), 'tool_name', SAMPLE_DEFAULTS.toolName),
      { ...(options.toolInput ?? needed(read.object('tool_input', 'toolArgs'), 'tool_input', SAMPLE_DEFAULTS.toolInput)) },
      read.string('tool_use_id', 'toolUseId'),
    );
  const stop = {
    stopReason: read.oneOf(STOP_REASONS, 'stop_reason') ?? 'no_tool_calls',
    stepCount,
    finalMessage: finalMessage(read) ?? (strict ? undefined : SAMPLE_DEFAULTS.finalMessage),
    stopHookActive: read.boolean('stop_hook_active') ?? false,
  };
  const subagent = {
    subagentName: read.string('subagent_name', 'agent_name') ?? d.subagentName,
    subagentType: read.string('subagent_type', 'agent_type'),
  };

  switch (name) {
    case 'PreToolUse':
      return ToolHookContext.beforeToolUse(toolCall(), init);
    case 'PermissionRequest':
      return ToolHookContext.permissionRequest(toolCall(), { ...init, reason: read.string('permission_reason') ?? 'A hook asked for approval of this call.' });
    case 'PostToolUse': {
      const output = read.value('tool_output', 'tool_response', 'toolResult');
      return ToolHookContext.afterToolUse(ToolExecution.success(toolCall(), output ?? (strict ? null : SAMPLE_DEFAULTS.toolOutput)), init);
    }
    case 'PostToolUseFailure':
      return ToolHookContext.toolFailure(toolCall(), new Error(read.string('tool_error', 'error') ?? d.toolError), init);
    case 'PermissionDenied':
      return ToolHookContext.permissionDenied(toolCall(), { ...init, reason: read.string('reason', 'permission_reason') ?? (strict ? undefined : SAMPLE_DEFAULTS.denial) });
    case 'PostToolBatch':
      return toolBatch(read, init, strict, stepCount);
    case 'StopFailure': {
      // Claude Code sends the kind of error as `error`, and its text as `error_details` when it has one.
      const claudeKind = (MODEL_ERROR_TYPES as readonly unknown[]).includes(payload.error) ? (payload.error as ModelErrorType) : undefined;
      const errorType = read.oneOf(MODEL_ERROR_TYPES, 'error_type') ?? claudeKind;
      const finalText = finalMessage(read);
      const message = read.string('error_message', 'error_details') ?? finalText ?? (errorType !== undefined ? `The model call failed (${errorType}).` : strict ? 'The model call failed.' : SAMPLE_DEFAULTS.errorMessage);
      return FailureHookContext.onStopFailure(errorNamed(read.string('error_class'), message), { ...init, errorType: errorType ?? (strict ? 'unknown' : 'server_error'), finalMessage: finalText });
    }
    case 'Stop':
      return StopHookContext.stop({ ...init, ...stop });
    case 'SubagentStop':
      return StopHookContext.subagentStop({ ...init, ...stop, ...subagent });
    case 'AfterStop':
    case 'AfterAgent':
      return new StopHookContext(name, { ...init, ...stop });
    case 'SubagentStart':
      return SubagentHookContext.onStart({
        ...init,
        name: subagent.subagentName,
        type: subagent.subagentType,
        task: read.string('task_description', 'task') ?? d.task,
      });
    case 'SessionStart':
      return SessionHookContext.onStart({ ...init, source: read.oneOf(SESSION_SOURCES, 'source') ?? 'startup', initialPrompt: read.string('initial_prompt') });
    case 'SessionEnd':
      return SessionHookContext.onEnd({ ...init, reason: read.string('reason', 'exit_reason') ?? (strict ? undefined : 'close') });
    case 'UserPromptSubmit':
      return PromptHookContext.onSubmit(needed(read.string('prompt'), 'prompt', SAMPLE_DEFAULTS.prompt), init);
    case 'PreCompact':
    case 'PostCompact': {
      const before = conversation(read.count('message_count') ?? d.messagesBefore);
      const common = {
        ...init,
        trigger: read.oneOf(COMPACT_TRIGGERS, 'trigger') ?? 'auto',
        messagesBefore: before,
        customInstructions: read.string('custom_instructions'),
      };
      if (name === 'PreCompact') return CompactHookContext.before(common);
      return CompactHookContext.after({ ...common, messagesAfter: conversation(read.count('message_count_after') ?? d.messagesAfter) });
    }
    case 'BeforeStep':
      return StepHookContext.beforeStep(read.count('step_index') ?? stepCount, init);
    // The model call's `request` and `response` in their JSON form; without them, an empty request (and answer).
    case 'BeforeModel':
    case 'BeforeToolSelection':
    case 'AfterModel': {
      const request = read.object('request');
      const response = name === 'AfterModel' ? read.object('response') : undefined;
      return new ModelHookContext(name, {
        ...init,
        stepIndex: read.count('step_index') ?? stepCount,
        modelName: read.string('model_name'),
        retryCount: read.count('retry_count'),
        request: request === undefined ? { system: undefined, messages: [], tools: [] } : modelRequestOf(request),
        response: name === 'AfterModel' ? (response === undefined ? { text: '' } : modelResponseOf(response)) : undefined,
        synthetic: name === 'AfterModel' ? read.boolean('synthetic') : undefined,
      }) as ModelHookContext;
    }
    case 'AfterStep': {
      const index = read.count('step_index') ?? Math.max(0, stepCount - 1);
      const call = toolCall();
      const step = new AgentStep({ index, toolCalls: [call], executions: [ToolExecution.success(call, d.toolOutput)] });
      return StepHookContext.afterStep(step, init);
    }
    case 'ExecutionStart':
      return ExecutionHookContext.onStart({ ...init, prompt: read.string('prompt') ?? d.prompt });
    case 'ExecutionEnd':
      return ExecutionHookContext.onEnd({
        ...init,
        prompt: read.string('prompt') ?? d.prompt,
        status: read.oneOf(RUN_STATUSES, 'status') ?? 'completed',
        reason: read.string('reason'),
        durationMs: read.number('duration_ms') ?? 4200,
      });
    case 'AgentFailed':
      return FailureHookContext.onFailure(errorNamed(read.string('error_class'), needed(read.string('error_message'), 'error_message', SAMPLE_DEFAULTS.errorMessage)), init);
    case 'Notification':
      return NotificationHookContext.notify(needed(read.string('message'), 'message', SAMPLE_DEFAULTS.notification), {
        ...init,
        notificationType: read.string('notification_type') ?? (strict ? '' : 'idle_prompt'),
        title: read.string('title'),
      });
  }
}

/**
 * A PostToolBatch context from the payload's `tool_calls`: each `{tool_name, tool_input, tool_use_id}` with what it
 * produced, `tool_output` or `tool_response` (a success) or `tool_error` (a failure); a call with neither has no
 * execution. Without `tool_calls`, a sample batch of one `bash` call.
 */
function toolBatch(read: PayloadReader, init: { state: AgentState; metadata: Record<string, unknown> }, strict: boolean, stepCount: number): ToolBatchHookContext {
  const list = read.value('tool_calls');
  const stepIndex = read.count('step_index') ?? Math.max(0, stepCount - 1);
  if (list === undefined) {
    if (strict) throw new TypeError('The payload has no tool_calls, which PostToolBatch needs.');
    const call = ToolCall.create(SAMPLE_DEFAULTS.toolName, { ...SAMPLE_DEFAULTS.toolInput });
    return new ToolBatchHookContext({ ...init, stepIndex, toolCalls: [call], executions: [ToolExecution.success(call, SAMPLE_DEFAULTS.toolOutput)] });
  }
  if (!Array.isArray(list)) throw new TypeError(`tool_calls must be a list, got ${typeOf(list)}.`);
  const toolCalls: ToolCall[] = [];
  const executions: ToolExecution[] = [];
  list.forEach((item: unknown, i) => {
    if (!isRecord(item)) throw new TypeError(`tool_calls[${i}] must be a JSON object, got ${typeOf(item)}.`);
    const each = new PayloadReader(item);
    const name = each.string('tool_name');
    const input = each.object('tool_input');
    if (name === undefined || name === '') throw new TypeError(`tool_calls[${i}] has no tool_name.`);
    if (input === undefined) throw new TypeError(`tool_calls[${i}] has no tool_input object.`);
    const call = ToolCall.create(name, { ...input }, each.string('tool_use_id'));
    toolCalls.push(call);
    const error = each.string('tool_error');
    const output = each.value('tool_output', 'tool_response');
    if (error !== undefined) executions.push(ToolExecution.failure(call, new Error(error)));
    else if (output !== undefined) executions.push(ToolExecution.success(call, output));
  });
  return new ToolBatchHookContext({ ...init, stepIndex, toolCalls, executions });
}

/** `final_message` as HOOK.md sends it (a message object, or text), or Claude Code's `last_assistant_message`. */
function finalMessage(read: PayloadReader): string | undefined {
  const value = read.value('final_message', 'last_assistant_message');
  if (value === undefined || typeof value === 'string') return value;
  if (isRecord(value) && typeof value.content === 'string') return value.content;
  throw new TypeError(`final_message must be a string or a message object with a string content, got ${typeOf(value)}.`);
}
