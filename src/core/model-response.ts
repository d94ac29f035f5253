/**
 * A model call's answer, as hooks around the model call see and rewrite it.
 *
 * @module
 */
import type { Usage } from './agent-step.js';
import { ToolCall } from './tool-call.js';

/** A tool call as a model (or a hook answering for it) writes it: the id is generated when none is given. */
export interface ModelToolCallInit {
  /** The provider's id for the call. */
  readonly id?: string | undefined;
  /** The tool's name. */
  readonly name: string;
  /** The arguments. */
  readonly args?: Record<string, unknown> | undefined;
}

/** An answer as a model returns it, or a hook writes one: every field may be left out. */
export interface ModelResponseInit {
  /** The assistant's text. */
  readonly text?: string | undefined;
  /** The tool calls, in order. */
  readonly toolCalls?: readonly (ToolCall | ModelToolCallInit)[] | undefined;
  /** Token usage, when known. */
  readonly usage?: Usage | undefined;
}

/** A model's answer to one call, normalised: the text (empty when there is none) and the calls as {@link ToolCall}s. */
export interface ModelCallResponse {
  /** The assistant's text (empty when it only calls tools). */
  readonly text: string;
  /** The tool calls it makes, in order. */
  readonly toolCalls: readonly ToolCall[];
  /** Token usage, when the provider reported it. */
  readonly usage?: Usage | undefined;
}

/**
 * `init` as a frozen {@link ModelCallResponse}: a missing text is empty, each tool call is a {@link ToolCall} (one of
 * another copy of the package is kept as it is).
 *
 * @throws a TypeError naming the field when `init` is no answer.
 */
export function modelCallResponse(init: ModelResponseInit): ModelCallResponse {
  if (init === null || typeof init !== 'object') throw new TypeError(`A model response must be an object, got ${init === null ? 'null' : typeof init}.`);
  // A model may write null for "none", as JSON does.
  if (init.text != null && typeof init.text !== 'string') throw new TypeError(`A model response's text must be a string, got ${typeof init.text}.`);
  if (init.toolCalls != null && !Array.isArray(init.toolCalls)) throw new TypeError("A model response's toolCalls must be an array.");
  // Already normalised (this function's own result): kept as it is, so that it stays recognisable.
  if (Object.isFrozen(init) && typeof init.text === 'string' && Object.isFrozen(init.toolCalls) && init.toolCalls!.every((c) => ToolCall.isToolCall(c))) {
    return init as ModelCallResponse;
  }
  const toolCalls = Object.freeze((init.toolCalls ?? []).map((c) => (ToolCall.isToolCall(c) ? c : new ToolCall(c.name, c.args ?? {}, c.id))));
  return Object.freeze({ text: init.text ?? '', toolCalls, ...(init.usage !== undefined ? { usage: init.usage } : {}) });
}
