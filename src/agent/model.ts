/**
 * The model an agent talks to: one call takes the conversation and the tools, and returns text and tool calls.
 *
 * @module
 */
import type { Message, ModelCallRequest, ModelResponseInit, ModelSettings, ModelToolCallInit, ToolConfig, Usage } from '../core/index.js';
import type { ToolDefinition } from './tool.js';

/**
 * What the agent sends a model for one step, after the BeforeModel and BeforeToolSelection hooks (if any) rewrote it.
 */
export interface ModelRequest extends ModelCallRequest<ToolDefinition> {
  /** The system prompt, when the agent has one (kept apart: providers place it differently). */
  readonly system: string | undefined;
  /** The conversation so far: user, assistant, tool and system messages (hooks' additional context is a system message). */
  readonly messages: readonly Message[];
  /** The tools the model may call: only the allowed ones once a BeforeToolSelection hook narrowed them. */
  readonly tools: readonly ToolDefinition[];
  /** Sampling settings (`withModelSettings`, or a BeforeModel hook), when set; a model honours those it has. */
  readonly settings?: ModelSettings | undefined;
  /**
   * The tool selection a BeforeToolSelection hook made, when one did: `tools` already holds only the allowed tools,
   * so a model needs it only to force a tool call (mode `any`).
   */
  readonly toolConfig?: ToolConfig | undefined;
  /** Aborts when the run is cancelled. */
  readonly signal: AbortSignal | undefined;
}

/** A tool call as a model returns it: the id is generated when the model gives none (the shape hooks write too). */
export interface ModelToolCall extends ModelToolCallInit {}

/** What a model answers for one step: the text, the tool calls and the usage, each optional (as hooks write one). */
export interface ModelResponse extends ModelResponseInit {}

/**
 * A piece of a model's answer as it streams:
 * - `text-delta` — the next piece of the answer's text;
 * - `tool-call` — one whole tool call (its arguments complete);
 * - `finish` — the answer is complete; the token usage, when the provider reports it.
 *
 * The answer a stream stands for is its text deltas joined, its tool calls in order and the usage of its `finish`.
 */
export type ModelStreamPart = TextDeltaPart | ToolCallPart | FinishPart;

/** The next piece of the answer's text. */
export interface TextDeltaPart {
  /** Always `'text-delta'`. */
  readonly type: 'text-delta';
  /** The piece of text. */
  readonly text: string;
}

/** One whole tool call, its arguments complete. */
export interface ToolCallPart {
  /** Always `'tool-call'`. */
  readonly type: 'tool-call';
  /** The call. */
  readonly toolCall: ModelToolCall;
}

/** The answer is complete. */
export interface FinishPart {
  /** Always `'finish'`. */
  readonly type: 'finish';
  /** The token usage, when the provider reports it. */
  readonly usage?: Usage | undefined;
}

/**
 * A language model, as the agent needs it. Implement `generate` to plug in any provider; the built-in
 * {@link ScriptedModel} replays a script, and an adapter turns a Vercel AI SDK model into one.
 */
export interface Model {
  /** A name for traces and errors. */
  readonly name?: string | undefined;
  /** One step: the conversation and tools in, text and tool calls out. Throwing fails the run (AgentFailed). */
  generate(request: ModelRequest): ModelResponse | Promise<ModelResponse>;
  /**
   * The same step as {@link Model.generate}, streamed: `agent.stream()` uses it when the model has it (and calls
   * `generate` otherwise, giving the whole text as one delta). Throwing, or a stream that fails, fails the run as a
   * failing `generate` does. The agent stops reading (and calls the iterator's `return`) when the run is cancelled;
   * the request's `signal` aborts too.
   */
  stream?(request: ModelRequest): AsyncIterable<ModelStreamPart>;
}
