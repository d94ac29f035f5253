/**
 * The model an agent talks to: one call takes the conversation and the tools, and returns text and tool calls.
 *
 * @module
 */
import type { Message, ModelCallRequest, ModelResponseInit, ModelSettings, ModelToolCallInit, ToolConfig } from '../core/index.js';
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
 * A language model, as the agent needs it. Implement `generate` to plug in any provider; the built-in
 * {@link ScriptedModel} replays a script, and an adapter turns a Vercel AI SDK model into one.
 */
export interface Model {
  /** A name for traces and errors. */
  readonly name?: string | undefined;
  /** One step: the conversation and tools in, text and tool calls out. Throwing fails the run (AgentFailed). */
  generate(request: ModelRequest): ModelResponse | Promise<ModelResponse>;
}
