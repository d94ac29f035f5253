/**
 * One completed step of an agent run.
 *
 * @module
 */
import type { ToolCall } from './tool-call.js';
import type { ToolExecution } from './tool-execution.js';

/** Token counts reported by a model. */
export interface Usage {
  /** Tokens sent to the model. */
  readonly inputTokens?: number;
  /** Tokens the model produced. */
  readonly outputTokens?: number;
  /** Their sum, when the model reports it. */
  readonly totalTokens?: number;
}

/**
 * One step: a model call, the tool calls it made and what they returned. Immutable.
 */
export class AgentStep {
  /** 0-based position of the step in the run. */
  readonly index: number;
  /** The assistant's text, if any. */
  readonly text: string;
  /** The tool calls the model made. */
  readonly toolCalls: readonly ToolCall[];
  /** What each executed call returned, in order. */
  readonly executions: readonly ToolExecution[];
  /** Token usage of the model call, when reported. */
  readonly usage: Usage | undefined;

  constructor(init: {
    index: number;
    text?: string;
    toolCalls?: readonly ToolCall[];
    executions?: readonly ToolExecution[];
    usage?: Usage;
  }) {
    this.index = init.index;
    this.text = init.text ?? '';
    this.toolCalls = Object.freeze([...(init.toolCalls ?? [])]);
    this.executions = Object.freeze([...(init.executions ?? [])]);
    this.usage = init.usage;
    Object.freeze(this);
  }

  /**
   * The same array as {@link AgentStep.executions}, under the name other agent SDKs use for it (the AI SDK's
   * `step.toolResults`). Each item is a {@link ToolExecution}: the call, and its `result` or `error`.
   */
  get toolResults(): readonly ToolExecution[] {
    return this.executions;
  }

  /** Whether any tool call of this step failed. */
  hasErrors(): boolean {
    return this.executions.some((e) => e.isError);
  }

  /** Whether the model asked for tools in this step. */
  hasToolCalls(): boolean {
    return this.toolCalls.length > 0;
  }
}
