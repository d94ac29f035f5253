/**
 * LangChain messages as our conversation.
 *
 * @module
 * @internal
 */
import type { BaseMessage } from '@langchain/core/messages';
import { ToolCall, type Message, type MessageRole } from '../../../core/index.js';

const ROLES: Readonly<Record<string, MessageRole>> = { human: 'user', ai: 'assistant', system: 'system', tool: 'tool' };

/** A message's text: its string content, or the text parts of its content blocks. */
export function textOf(message: BaseMessage | undefined): string {
  if (message === undefined) return '';
  const content: unknown = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.flatMap((part: unknown) => (typeof part === 'string' ? [part] : isText(part) ? [part.text] : [])).join('');
}

const isText = (part: unknown): part is { type: 'text'; text: string } =>
  part !== null && typeof part === 'object' && (part as { type?: unknown }).type === 'text' && typeof (part as { text?: unknown }).text === 'string';

/** The tool calls of an AI message, as ours (with the model's ids). */
export function toolCallsOf(message: BaseMessage | undefined): ToolCall[] {
  const calls = (message as { tool_calls?: { name: string; args?: unknown; id?: string }[] } | undefined)?.tool_calls ?? [];
  return calls.map((c) => new ToolCall(c.name, argsOf(c.args), c.id));
}

/** Tool-call arguments as our ToolCall takes them: an object, whatever the model sent. */
export const argsOf = (input: unknown): Record<string, unknown> =>
  input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};

/** The role LangChain gives a message (`human`, `ai`, `system`, `tool`). */
export const typeOf = (message: BaseMessage): string => (typeof message.getType === 'function' ? message.getType() : String((message as { type?: unknown }).type));

/** LangChain's messages as ours, for the state hooks see. */
export function fromLangChainMessages(messages: readonly BaseMessage[]): Message[] {
  return messages.map((m): Message => {
    const role = ROLES[typeOf(m)] ?? 'user';
    const calls = role === 'assistant' ? toolCallsOf(m) : [];
    const toolCallId = (m as { tool_call_id?: unknown }).tool_call_id;
    return {
      role,
      content: textOf(m),
      ...(calls.length > 0 ? { toolCalls: calls } : {}),
      ...(role === 'tool' && typeof toolCallId === 'string' ? { toolCallId } : {}),
      ...(typeof m.name === 'string' ? { name: m.name } : {}),
    };
  });
}
