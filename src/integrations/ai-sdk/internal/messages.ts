/**
 * Our conversation to the AI SDK's messages and back.
 *
 * @module
 */
import type { ModelMessage, ToolResultPart } from 'ai';
import { ToolCall, type Message } from '../../../core/index.js';

/** Tool-call arguments as our ToolCall takes them: an object, whatever the model sent. */
export const argsOf = (input: unknown): Record<string, unknown> =>
  input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};

/**
 * Our messages as AI SDK model messages. Consecutive tool results become one tool message, as providers that answer
 * several calls at once expect; tool results are text, as the agent wrote them for the model.
 */
export function toModelMessages(messages: readonly Message[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: message.content });
        break;
      case 'user':
        out.push({ role: 'user', content: message.content });
        break;
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) {
          out.push({ role: 'assistant', content: message.content });
          break;
        }
        out.push({
          role: 'assistant',
          content: [
            ...(message.content !== '' ? [{ type: 'text' as const, text: message.content }] : []),
            ...calls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: c.args })),
          ],
        });
        break;
      }
      case 'tool': {
        const part: ToolResultPart = {
          type: 'tool-result',
          toolCallId: message.toolCallId ?? '',
          toolName: message.name ?? '',
          output: { type: 'text', value: message.content },
        };
        const last = out[out.length - 1];
        if (last?.role === 'tool') last.content.push(part);
        else out.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  return out;
}

/** A part of a message as both the AI SDK's model messages and the provider prompt write it. */
interface LoosePart {
  readonly type: string;
  readonly text?: string;
  readonly toolCallId?: string;
  readonly toolName?: string;
  readonly input?: unknown;
  readonly output?: { readonly type: string; readonly value?: unknown; readonly reason?: string };
}

/** A message of the AI SDK: model messages and provider prompts share this shape. */
export interface LooseMessage {
  readonly role: string;
  readonly content: string | readonly LoosePart[];
}

const outputText = (output: LoosePart['output']): string => {
  if (output === undefined) return '';
  switch (output.type) {
    case 'text':
    case 'error-text':
      return String(output.value);
    case 'execution-denied':
      return output.reason ?? 'Execution denied.';
    case 'content':
      return (output.value as LoosePart[]).flatMap((p) => (p.type === 'text' ? [p.text ?? ''] : [])).join('');
    default:
      return JSON.stringify(output.value) ?? '';
  }
};

/** The AI SDK's messages (or a provider prompt) as our conversation, for the state hooks see. Files are left out. */
export function fromModelMessages(messages: readonly LooseMessage[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) convertInto(out, message);
  return out;
}

/** Where a message of ours came from: a message of the last prompt converted, and the part of it for a tool result. */
export interface MessageSource<T extends LooseMessage> {
  /** The AI SDK's message. */
  readonly message: T;
  /** For a tool result, the index of its part in `message.content`; `undefined` when it is the whole message. */
  readonly part: number | undefined;
}

/**
 * {@link fromModelMessages} for a conversation that grows from call to call, as a loop's prompts do: each call gets
 * new message objects (the AI SDK converts its prompt afresh for every model call), so a message is compared with the
 * one at the same place in the last prompt, on the fields the conversion reads — objects by identity — and its
 * conversion reused when they are the same. A call costs comparisons for what it had before, conversions only for
 * what is new. Each message of ours remembers the AI SDK's message it came from ({@link IncrementalMessages.sourceOf}).
 *
 * @internal
 */
export class IncrementalMessages<T extends LooseMessage = LooseMessage> {
  private last: readonly T[] = [];
  private converted: (readonly Message[])[] = [];
  /** Where in the last prompt each message was converted from: a reused conversion keeps its place. */
  private readonly origins: Origins = new WeakMap();

  /** The conversation of `messages`: what `fromModelMessages(messages)` returns. */
  convert(messages: readonly T[]): Message[] {
    const last = this.last;
    const converted: (readonly Message[])[] = new Array(messages.length);
    const out: Message[] = [];
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i]!;
      let mine: readonly Message[];
      if (i < last.length && sameMessage(message, last[i]!)) mine = this.converted[i]!;
      else {
        const fresh: Message[] = [];
        convertInto(fresh, message, this.origins, i);
        mine = fresh;
      }
      converted[i] = mine;
      for (const m of mine) out.push(m);
    }
    this.last = messages;
    this.converted = converted;
    return out;
  }

  /** The AI SDK's message of the last prompt converted that `message` came from, if it came from one. */
  sourceOf(message: Message): MessageSource<T> | undefined {
    const origin = this.origins.get(message);
    if (origin === undefined) return undefined;
    const source = this.last[origin.index];
    // A conversion is only reused in place, so a message found elsewhere belongs to an older prompt.
    if (source === undefined || this.converted[origin.index]?.includes(message) !== true) return undefined;
    return { message: source, part: origin.part };
  }
}

const samePart = (a: LoosePart, b: LoosePart): boolean =>
  a === b ||
  (a.type === b.type &&
    a.text === b.text &&
    a.toolCallId === b.toolCallId &&
    a.toolName === b.toolName &&
    a.input === b.input &&
    (a.output === b.output ||
      (a.output !== undefined &&
        b.output !== undefined &&
        a.output.type === b.output.type &&
        a.output.reason === b.output.reason &&
        (a.output.value === b.output.value || (a.output.type === 'content' && sameContent(a.output.value, b.output.value))))));

function sameContent(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  return a.every((p: LoosePart, i) => p.type === (b[i] as LoosePart).type && p.text === (b[i] as LoosePart).text);
}

/** Whether two AI SDK messages convert alike: the same role, and parts with the same fields (objects by identity). */
export function sameMessage(a: LooseMessage, b: LooseMessage): boolean {
  if (a === b) return true;
  if (a.role !== b.role) return false;
  if (typeof a.content === 'string' || typeof b.content === 'string') return a.content === b.content;
  if (a.content.length !== b.content.length) return false;
  for (let i = 0; i < a.content.length; i++) if (!samePart(a.content[i]!, b.content[i]!)) return false;
  return true;
}

/** Where a converted message came from: the index of its message in a prompt, and of its part for a tool result. */
type Origins = WeakMap<Message, { readonly index: number; readonly part: number | undefined }>;

// Called for every message of every prompt: no closure is made per call.
function convertInto(out: Message[], message: LooseMessage, origins?: Origins, index = 0): void {
  const parts: readonly LoosePart[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  const text = parts.flatMap((p) => (p.type === 'text' ? [p.text ?? ''] : [])).join('');
  if (message.role === 'system' || message.role === 'user') {
    const converted: Message = { role: message.role, content: text };
    out.push(converted);
    origins?.set(converted, { index, part: undefined });
  } else if (message.role === 'assistant') {
    const toolCalls = parts.flatMap((p) => (p.type === 'tool-call' ? [new ToolCall(p.toolName ?? 'unknown', argsOf(p.input), p.toolCallId)] : []));
    const converted: Message = { role: 'assistant', content: text, ...(toolCalls.length > 0 ? { toolCalls } : {}) };
    out.push(converted);
    origins?.set(converted, { index, part: undefined });
  }
  if (message.role === 'tool' || message.role === 'assistant') {
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (p.type !== 'tool-result') continue;
      const converted: Message = { role: 'tool', content: outputText(p.output), toolCallId: p.toolCallId ?? '', name: p.toolName ?? '' };
      out.push(converted);
      origins?.set(converted, { index, part: i });
    }
  }
}
