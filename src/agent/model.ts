/**
 * The model an agent talks to: one call takes the conversation and the tools, and returns text and tool calls.
 *
 * @module
 */
import type { Message, ModelCallRequest, ModelSettings, ToolCall, ToolConfig, Usage } from '../core/index.js';
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

/** A tool call as a model returns it: the id is generated when the model gives none. */
export interface ModelToolCall {
  /** The provider's id for the call. */
  readonly id?: string | undefined;
  /** The tool's name. */
  readonly name: string;
  /** The arguments. */
  readonly args?: Record<string, unknown> | undefined;
}

/** What a model answers for one step. */
export interface ModelResponse {
  /** The assistant's text (may be empty when it only calls tools). */
  readonly text?: string | undefined;
  /** The tool calls it makes, in order. */
  readonly toolCalls?: readonly (ToolCall | ModelToolCall)[] | undefined;
  /** Token usage, when the provider reports it. */
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
}
