/**
 * The conversation, as hooks see it.
 *
 * @module
 */
import type { ToolCall } from './tool-call.js';

/** Who wrote a message. */
export type MessageRole = 'system' | 'user' | 'assistant' | 'tool';

/** One message of the conversation. */
export interface Message {
  /** Who wrote it. */
  readonly role: MessageRole;
  /** Its text (for a tool message, the result as the model sees it). */
  readonly content: string;
  /** The tool calls an assistant message made. */
  readonly toolCalls?: readonly ToolCall[];
  /** For a tool message, the id of the call it answers. */
  readonly toolCallId?: string;
  /** For a tool message, the tool's name. */
  readonly name?: string;
}
