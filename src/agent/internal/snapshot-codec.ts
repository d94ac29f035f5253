// Internal: not exported from the package.
/**
 * The run's live objects (states, steps, tool calls and executions) to the JSON of a run snapshot and back.
 *
 * @module
 */
import { AgentState, AgentStep, ToolCall, ToolExecution, type Message, type Usage } from '../../core/index.js';
import type {
  AgentStateJson,
  ErrorJson,
  JsonValue,
  MessageJson,
  StepJson,
  ToolCallJson,
  ToolExecutionJson,
  UsageJson,
} from '../run-snapshot.js';
import { ToolRefusedError } from '../tool-refused-error.js';

/**
 * Turns values into JSON and remembers where JSON could not hold a value as it was (a function, a `Map`, a `Date`,
 * a class instance, a cycle, `NaN`): the snapshot keeps what `JSON.stringify` would, and the run says where.
 */
export class JsonWriter {
  /** Paths of values JSON could not hold as they were. */
  readonly lossy: string[] = [];

  value(value: unknown, path: string, seen: Set<object> = new Set()): JsonValue | undefined {
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return value;
      case 'number':
        if (Number.isFinite(value)) return value;
        this.lossy.push(`${path} (${value} becomes null)`);
        return null;
      case 'undefined':
        return undefined;
      case 'bigint':
        this.lossy.push(`${path} (a bigint becomes a string)`);
        return value.toString();
      case 'function':
      case 'symbol':
        this.lossy.push(`${path} (a ${typeof value} is dropped)`);
        return undefined;
    }
    if (value === null) return null;
    const object = value as object;
    if (seen.has(object)) {
      this.lossy.push(`${path} (a cycle is cut)`);
      return null;
    }
    if (typeof (object as { toJSON?: unknown }).toJSON === 'function') {
      if (object instanceof Date) this.lossy.push(`${path} (a Date becomes its ISO string)`);
      return this.value((object as { toJSON: () => unknown }).toJSON(), path, seen);
    }
    seen.add(object);
    try {
      if (Array.isArray(object)) return object.map((item, i) => this.value(item, `${path}[${i}]`, seen) ?? null);
      const proto = Object.getPrototypeOf(object) as unknown;
      if (proto !== Object.prototype && proto !== null) {
        this.lossy.push(`${path} (a ${(object as { constructor?: { name?: string } }).constructor?.name || 'class instance'} keeps only its own enumerable fields)`);
      }
      const out: Record<string, JsonValue> = {};
      for (const [key, item] of Object.entries(object)) {
        const json = this.value(item, `${path}.${key}`, seen);
        if (json !== undefined) out[key] = json;
      }
      return out;
    } finally {
      seen.delete(object);
    }
  }

  record(value: unknown, path: string): { readonly [key: string]: JsonValue } {
    const json = this.value(value ?? {}, path);
    return json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as { [key: string]: JsonValue }) : {};
  }

  call(call: ToolCall, path: string): ToolCallJson {
    return { id: call.id, name: call.name, args: this.record(call.args, `${path}.args`) };
  }

  usage(usage: Usage | undefined): UsageJson | undefined {
    if (usage === undefined) return undefined;
    const out: { inputTokens?: number; outputTokens?: number; totalTokens?: number } = {};
    if (typeof usage.inputTokens === 'number') out.inputTokens = usage.inputTokens;
    if (typeof usage.outputTokens === 'number') out.outputTokens = usage.outputTokens;
    if (typeof usage.totalTokens === 'number') out.totalTokens = usage.totalTokens;
    return out;
  }

  error(error: unknown): ErrorJson {
    if (error instanceof ToolRefusedError) return { name: error.name, message: error.message, by: error.by };
    if (error instanceof Error) return { name: error.name, message: error.message };
    return { name: 'Error', message: String(error) };
  }

  execution(execution: ToolExecution, path: string): ToolExecutionJson {
    const result = execution.isError ? undefined : this.value(execution.result, `${path}.result`);
    return {
      toolCall: this.call(execution.toolCall, `${path}.toolCall`),
      isError: execution.isError,
      ...(result !== undefined ? { result } : {}),
      ...(execution.error !== undefined ? { error: this.error(execution.error) } : {}),
      ...(execution.durationMs !== undefined ? { durationMs: execution.durationMs } : {}),
    };
  }

  step(step: AgentStep, path: string): StepJson {
    const usage = this.usage(step.usage);
    return {
      index: step.index,
      text: step.text,
      toolCalls: step.toolCalls.map((c, i) => this.call(c, `${path}.toolCalls[${i}]`)),
      executions: step.executions.map((e, i) => this.execution(e, `${path}.executions[${i}]`)),
      ...(usage !== undefined ? { usage } : {}),
    };
  }

  message(message: Message, path: string): MessageJson {
    return {
      role: message.role,
      content: message.content,
      ...(message.toolCalls !== undefined ? { toolCalls: message.toolCalls.map((c, i) => this.call(c, `${path}.toolCalls[${i}]`)) } : {}),
      ...(message.toolCallId !== undefined ? { toolCallId: message.toolCallId } : {}),
      ...(message.name !== undefined ? { name: message.name } : {}),
    };
  }

  state(state: AgentState, path: string): AgentStateJson {
    return {
      agentId: state.agentId,
      ...(state.parentAgentId !== undefined ? { parentAgentId: state.parentAgentId } : {}),
      ...(state.sessionId !== undefined ? { sessionId: state.sessionId } : {}),
      stepCount: state.stepCount,
      messages: state.messages.map((m, i) => this.message(m, `${path}.messages[${i}]`)),
      steps: state.steps.map((s, i) => this.step(s, `${path}.steps[${i}]`)),
      metadata: this.record(state.metadata, `${path}.metadata`),
    };
  }
}

/** A tool call from its JSON. */
export const callFromJson = (json: ToolCallJson): ToolCall => new ToolCall(json.name, { ...json.args }, json.id);

/** An error from its JSON: a refusal is a {@link ToolRefusedError} again, another error an `Error` of that name. */
export function errorFromJson(json: ErrorJson): Error {
  if (json.by !== undefined) return new ToolRefusedError(json.message, json.by);
  const error = new Error(json.message);
  if (json.name !== 'Error') Object.defineProperty(error, 'name', { value: json.name, enumerable: false, configurable: true, writable: true });
  return error;
}

/** An execution from its JSON. */
export function executionFromJson(json: ToolExecutionJson): ToolExecution {
  const call = callFromJson(json.toolCall);
  return json.isError
    ? ToolExecution.failure(call, json.error === undefined ? new Error('The tool failed.') : errorFromJson(json.error), json.durationMs)
    : ToolExecution.success(call, json.result, json.durationMs);
}

/** Usage from its JSON. */
export const usageFromJson = (json: UsageJson | undefined): Usage | undefined => (json === undefined ? undefined : { ...json });

/** A step from its JSON. */
export function stepFromJson(json: StepJson): AgentStep {
  const usage = usageFromJson(json.usage);
  return new AgentStep({
    index: json.index,
    text: json.text,
    toolCalls: json.toolCalls.map(callFromJson),
    executions: json.executions.map(executionFromJson),
    ...(usage !== undefined ? { usage } : {}),
  });
}

/** A message from its JSON. */
export function messageFromJson(json: MessageJson): Message {
  return {
    role: json.role,
    content: json.content,
    ...(json.toolCalls !== undefined ? { toolCalls: json.toolCalls.map(callFromJson) } : {}),
    ...(json.toolCallId !== undefined ? { toolCallId: json.toolCallId } : {}),
    ...(json.name !== undefined ? { name: json.name } : {}),
  };
}

/** An agent state from its JSON. */
export function stateFromJson(json: AgentStateJson): AgentState {
  return new AgentState({
    agentId: json.agentId,
    parentAgentId: json.parentAgentId,
    sessionId: json.sessionId,
    stepCount: json.stepCount,
    messages: json.messages.map(messageFromJson),
    steps: json.steps.map(stepFromJson),
    metadata: { ...json.metadata },
  });
}
