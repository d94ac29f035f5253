/**
 * A LangChain model answer as the hooks around the model call see it, and the answer they leave back.
 *
 * @module
 * @internal
 */
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { modelCallResponse, type ModelCallResponse, type Usage } from '../../../core/index.js';
import { textOf, toolCallsOf } from './messages.js';

/** The tokens an answer used, when the model reported them. */
export function usageOf(message: BaseMessage): Usage | undefined {
  const usage = (message as { usage_metadata?: { input_tokens?: number; output_tokens?: number; total_tokens?: number } }).usage_metadata;
  if (usage === undefined) return undefined;
  return { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens, totalTokens: usage.total_tokens };
}

/** A model's answer in our terms: its text and its tool calls (with the model's ids). */
export function responseOf(message: BaseMessage): ModelCallResponse {
  const usage = usageOf(message);
  return modelCallResponse({ text: textOf(message), toolCalls: toolCallsOf(message), ...(usage !== undefined ? { usage } : {}) });
}

/**
 * The AI message for an answer the hooks changed or gave: the model's message's id, usage and metadata (when the
 * model gave one), the hooks' text and tool calls.
 */
export function messageFor(response: ModelCallResponse, original: AIMessage | undefined): AIMessage {
  return new AIMessage({
    content: response.text,
    tool_calls: response.toolCalls.map((c) => ({ id: c.id, name: c.name, args: { ...c.args }, type: 'tool_call' as const })),
    ...(original?.id !== undefined ? { id: original.id } : {}),
    ...(original?.usage_metadata !== undefined ? { usage_metadata: original.usage_metadata } : {}),
    ...(original !== undefined ? { response_metadata: original.response_metadata } : {}),
  });
}
