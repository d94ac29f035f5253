/**
 * A model call's request, as hooks around the model call see and rewrite it.
 *
 * @module
 */
import type { Message } from './message.js';

/** A tool as the model is told about it: a name, a description and the JSON Schema of its input. */
export interface ModelToolSpec {
  /** The name the model calls it by. */
  readonly name: string;
  /** What it does, for the model. */
  readonly description: string;
  /** The JSON Schema of the input it accepts. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/**
 * Sampling settings of a model call. Each is a request: a model honours those its provider has and ignores the rest.
 */
export interface ModelSettings {
  /** Sampling temperature. */
  readonly temperature?: number | undefined;
  /** The most tokens the answer may have. */
  readonly maxTokens?: number | undefined;
  /** Nucleus sampling. */
  readonly topP?: number | undefined;
  /** Sequences that end the answer. */
  readonly stopSequences?: readonly string[] | undefined;
}

/**
 * How the model may choose tools, in Gemini's terms (its `toolConfig.functionCallingConfig`):
 * - `auto` — the model decides whether to call a tool;
 * - `any` — the model must call one of the allowed tools;
 * - `none` — the model may call no tool.
 */
export type ToolChoiceMode = 'auto' | 'any' | 'none';

/**
 * Which tools the model may choose for one call: the BeforeToolSelection hooks' answer. The runtime offers the model
 * only the allowed tools (all offered tools when `allowedFunctionNames` is absent, none in mode `none`), and passes the
 * config on in the request for a model that can force a tool call (`any`).
 */
export interface ToolConfig {
  /** How the model may choose. */
  readonly mode: ToolChoiceMode;
  /** The names of the tools it may choose from; every offered tool when absent. */
  readonly allowedFunctionNames?: readonly string[] | undefined;
}

/**
 * What the agent sends its model for one call, without the run's abort signal: the system prompt, the conversation,
 * the tools offered, and, when set, the sampling settings and the tool selection.
 */
export interface ModelCallRequest<T extends ModelToolSpec = ModelToolSpec> {
  /** The system prompt, when there is one (kept apart: providers place it differently). */
  readonly system: string | undefined;
  /** The conversation: user, assistant, tool and system messages. */
  readonly messages: readonly Message[];
  /** The tools the model may call. */
  readonly tools: readonly T[];
  /** Sampling settings, when the agent or a hook set some. */
  readonly settings?: ModelSettings | undefined;
  /** Which tools the model may choose, when a BeforeToolSelection hook said so. */
  readonly toolConfig?: ToolConfig | undefined;
}
