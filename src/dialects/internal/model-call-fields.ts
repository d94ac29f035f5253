/**
 * A model call's request and answer as a payload gives them (`request`, `response`): the JSON form of
 * {@link ModelCallRequest} and {@link ModelResponseInit}, read with errors that name the field.
 *
 * @module
 * @internal
 */
import { ToolCall, type Message, type MessageRole, type ModelCallRequest, type ModelResponseInit, type ModelSettings, type ModelToolSpec, type ToolConfig } from '../../core/index.js';

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);
const ROLES: readonly MessageRole[] = ['user', 'assistant', 'system', 'tool'];

/** `value` as tool calls: `{name, args?, id?}` (or ToolCalls already). */
function toolCallsOf(value: unknown, field: string): ToolCall[] {
  if (!Array.isArray(value)) throw new TypeError(`${field} must be a list of tool calls {name, args, id}, got ${typeOf(value)}.`);
  return value.map((call: unknown, i) => {
    if (ToolCall.isToolCall(call)) return call;
    try {
      return ToolCall.fromArray(call);
    } catch (error) {
      throw new TypeError(`${field}[${i}]: ${(error as Error).message.replace(/^ToolCall\.fromArray\(\):? ?/, '')}`);
    }
  });
}

function messageOf(value: unknown, field: string): Message {
  if (!isRecord(value)) throw new TypeError(`${field} must be a message {role, content}, got ${typeOf(value)}.`);
  const { role, content } = value;
  if (!(ROLES as readonly unknown[]).includes(role)) throw new TypeError(`${field}.role must be one of ${ROLES.join(', ')}, got ${JSON.stringify(role)}.`);
  if (typeof content !== 'string') throw new TypeError(`${field}.content must be a string, got ${typeOf(content)}.`);
  const message: { -readonly [K in keyof Message]: Message[K] } = { role: role as MessageRole, content };
  if (value.toolCalls !== undefined && value.toolCalls !== null) message.toolCalls = toolCallsOf(value.toolCalls, `${field}.toolCalls`);
  for (const key of ['toolCallId', 'name'] as const) {
    const item = value[key];
    if (item === undefined || item === null) continue;
    if (typeof item !== 'string') throw new TypeError(`${field}.${key} must be a string, got ${typeOf(item)}.`);
    message[key] = item;
  }
  return message;
}

function toolSpecOf(value: unknown, field: string): ModelToolSpec {
  if (!isRecord(value) || typeof value.name !== 'string' || value.name === '') throw new TypeError(`${field} must be a tool {name, description, inputSchema} with a name, got ${typeOf(value)}.`);
  if (value.description !== undefined && typeof value.description !== 'string') throw new TypeError(`${field}.description must be a string, got ${typeOf(value.description)}.`);
  if (value.inputSchema !== undefined && !isRecord(value.inputSchema)) throw new TypeError(`${field}.inputSchema must be a JSON Schema object, got ${typeOf(value.inputSchema)}.`);
  return { name: value.name, description: (value.description as string | undefined) ?? '', inputSchema: (value.inputSchema as Record<string, unknown> | undefined) ?? {} };
}

function settingsOf(value: unknown, field: string): ModelSettings {
  if (!isRecord(value)) throw new TypeError(`${field} must be an object of settings, got ${typeOf(value)}.`);
  for (const key of ['temperature', 'maxTokens', 'topP'] as const) {
    if (value[key] !== undefined && typeof value[key] !== 'number') throw new TypeError(`${field}.${key} must be a number, got ${typeOf(value[key])}.`);
  }
  const stops = value.stopSequences;
  if (stops !== undefined && (!Array.isArray(stops) || stops.some((s) => typeof s !== 'string'))) throw new TypeError(`${field}.stopSequences must be a list of strings.`);
  return value as ModelSettings;
}

/**
 * `value` as a request: `messages` (each `{role, content, toolCalls?, toolCallId?, name?}`), and when given `system`,
 * `tools` (`{name, description?, inputSchema?}`), `settings` and `toolConfig` (which the context checks).
 *
 * @throws TypeError naming the field that is wrong.
 *
 * @internal
 */
export function modelRequestOf(value: Record<string, unknown>, field = 'request'): ModelCallRequest {
  if (!Array.isArray(value.messages)) throw new TypeError(`${field}.messages must be a list of messages, got ${typeOf(value.messages)}.`);
  const messages = value.messages.map((m: unknown, i) => messageOf(m, `${field}.messages[${i}]`));
  if (value.tools !== undefined && !Array.isArray(value.tools)) throw new TypeError(`${field}.tools must be a list of tools, got ${typeOf(value.tools)}.`);
  const tools = ((value.tools as unknown[] | undefined) ?? []).map((t, i) => toolSpecOf(t, `${field}.tools[${i}]`));
  if (value.system !== undefined && typeof value.system !== 'string') throw new TypeError(`${field}.system must be a string, got ${typeOf(value.system)}.`);
  return {
    system: value.system as string | undefined,
    messages,
    tools,
    ...(value.settings !== undefined ? { settings: settingsOf(value.settings, `${field}.settings`) } : {}),
    ...(value.toolConfig !== undefined ? { toolConfig: value.toolConfig as ToolConfig } : {}),
  };
}

/**
 * `value` as an answer: `text` and `toolCalls`, each optional.
 *
 * @throws TypeError naming the field that is wrong.
 *
 * @internal
 */
export function modelResponseOf(value: Record<string, unknown>, field = 'response'): ModelResponseInit {
  if (value.text !== undefined && value.text !== null && typeof value.text !== 'string') throw new TypeError(`${field}.text must be a string, got ${typeOf(value.text)}.`);
  return {
    text: (value.text as string | null | undefined) ?? undefined,
    ...(value.toolCalls !== undefined && value.toolCalls !== null ? { toolCalls: toolCallsOf(value.toolCalls, `${field}.toolCalls`) } : {}),
  };
}
