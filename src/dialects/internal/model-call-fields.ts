/**
 * A model call's request and answer in their JSON form (`request`, `response`), as a HOOK.md script is sent them and a
 * sample payload gives them: the writers, and the readers, with errors that name the field. What a writer writes, the
 * reader reads back as the same request and answer.
 *
 * The form: `request` is `{system, messages: [{role, content, toolCalls?, toolCallId?, name?}], tools: [{name,
 * description, inputSchema}], settings, toolConfig}` and `response` `{text, toolCalls: [{id, name, args}], usage}`;
 * a field without a value is written `null`, and read as absent.
 *
 * @module
 * @internal
 */
import {
  ToolCall,
  type Message,
  type MessageRole,
  type ModelCallRequest,
  type ModelCallResponse,
  type ModelResponseInit,
  type ModelSettings,
  type ModelToolSpec,
  type ToolChoiceMode,
  type ToolConfig,
  type Usage,
} from '../../core/index.js';

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);
const given = (value: unknown): boolean => value !== undefined && value !== null;
const ROLES: readonly MessageRole[] = ['user', 'assistant', 'system', 'tool'];
const MODES: readonly ToolChoiceMode[] = ['auto', 'any', 'none'];

/**
 * The sampling settings a request may carry, by name: the fields of {@link ModelSettings}.
 *
 * @internal
 */
export const SETTING_NAMES: readonly (keyof ModelSettings)[] = ['temperature', 'maxTokens', 'topP', 'stopSequences'];

/**
 * A message as JSON: its tool calls as `{id, name, args}`.
 *
 * @internal
 */
export function messageJson(message: Message): Record<string, unknown> {
  return {
    role: message.role,
    content: message.content,
    ...(message.toolCalls !== undefined ? { toolCalls: message.toolCalls.map((call) => call.toJSON()) } : {}),
    ...(message.toolCallId !== undefined ? { toolCallId: message.toolCallId } : {}),
    ...(message.name !== undefined ? { name: message.name } : {}),
  };
}

/**
 * `request` in its JSON form (see the module comment).
 *
 * @internal
 */
export function modelRequestJson(request: ModelCallRequest): Record<string, unknown> {
  return {
    system: request.system ?? null,
    messages: request.messages.map(messageJson),
    tools: request.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
    settings: request.settings ?? null,
    toolConfig: request.toolConfig ?? null,
  };
}

/**
 * `response` in its JSON form (see the module comment).
 *
 * @internal
 */
export function modelResponseJson(response: ModelCallResponse): Record<string, unknown> {
  return { text: response.text, toolCalls: response.toolCalls.map((call) => call.toJSON()), usage: response.usage ?? null };
}

/**
 * `value` as tool calls: `{name, args?, id?}` (or ToolCalls already).
 *
 * @internal
 */
export function toolCallsOf(value: unknown, field: string): ToolCall[] {
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
  if (given(value.toolCalls)) message.toolCalls = toolCallsOf(value.toolCalls, `${field}.toolCalls`);
  for (const key of ['toolCallId', 'name'] as const) {
    const item = value[key];
    if (!given(item)) continue;
    if (typeof item !== 'string') throw new TypeError(`${field}.${key} must be a string, got ${typeOf(item)}.`);
    message[key] = item;
  }
  return message;
}

/**
 * `value` as a conversation: each message `{role, content, toolCalls?, toolCallId?, name?}`.
 *
 * @internal
 */
export function messagesOf(value: unknown, field: string): Message[] {
  if (!Array.isArray(value)) throw new TypeError(`${field} must be a list of messages, got ${typeOf(value)}.`);
  return value.map((m: unknown, i) => messageOf(m, `${field}[${i}]`));
}

function toolSpecOf(value: unknown, field: string): ModelToolSpec {
  if (!isRecord(value) || typeof value.name !== 'string' || value.name === '') throw new TypeError(`${field} must be a tool {name, description, inputSchema} with a name, got ${typeOf(value)}.`);
  if (given(value.description) && typeof value.description !== 'string') throw new TypeError(`${field}.description must be a string, got ${typeOf(value.description)}.`);
  if (given(value.inputSchema) && !isRecord(value.inputSchema)) throw new TypeError(`${field}.inputSchema must be a JSON Schema object, got ${typeOf(value.inputSchema)}.`);
  return { name: value.name, description: (value.description as string | null | undefined) ?? '', inputSchema: (value.inputSchema as Record<string, unknown> | null | undefined) ?? {} };
}

/**
 * `value` as sampling settings; a setting written `null` is cleared (`undefined`). Other fields pass as they are.
 *
 * @internal
 */
export function settingsOf(value: unknown, field: string): ModelSettings {
  if (!isRecord(value)) throw new TypeError(`${field} must be an object of settings, got ${typeOf(value)}.`);
  for (const key of ['temperature', 'maxTokens', 'topP'] as const) {
    const item = value[key];
    if (given(item) && (typeof item !== 'number' || !Number.isFinite(item))) throw new TypeError(`${field}.${key} must be a number, got ${typeOf(item)}.`);
  }
  const stops = value.stopSequences;
  if (given(stops) && (!Array.isArray(stops) || stops.some((s) => typeof s !== 'string'))) throw new TypeError(`${field}.stopSequences must be a list of strings.`);
  const cleared = Object.fromEntries(SETTING_NAMES.filter((key) => value[key] === null).map((key) => [key, undefined]));
  return { ...value, ...cleared } as ModelSettings;
}

/**
 * `value` as a tool selection `{mode, allowedFunctionNames?}`.
 *
 * @internal
 */
export function toolConfigOf(value: unknown, field: string): ToolConfig {
  if (!isRecord(value)) throw new TypeError(`${field} must be a tool selection {mode, allowedFunctionNames}, got ${typeOf(value)}.`);
  if (!(MODES as readonly unknown[]).includes(value.mode)) throw new TypeError(`${field}.mode must be one of ${MODES.join(', ')}, got ${JSON.stringify(value.mode) ?? 'nothing'}.`);
  const names = value.allowedFunctionNames;
  if (!given(names)) return { mode: value.mode as ToolChoiceMode };
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) throw new TypeError(`${field}.allowedFunctionNames must be a list of tool names, got ${typeOf(names)}.`);
  return { mode: value.mode as ToolChoiceMode, allowedFunctionNames: names as string[] };
}

/**
 * `value` as token usage: `inputTokens`, `outputTokens` and `totalTokens`, each a number ≥ 0 when given.
 *
 * @internal
 */
export function usageOf(value: unknown, field: string): Usage {
  if (!isRecord(value)) throw new TypeError(`${field} must be an object {inputTokens, outputTokens, totalTokens}, got ${typeOf(value)}.`);
  const usage: { -readonly [K in keyof Usage]: Usage[K] } = {};
  for (const key of ['inputTokens', 'outputTokens', 'totalTokens'] as const) {
    const item = value[key];
    if (!given(item)) continue;
    if (typeof item !== 'number' || !Number.isFinite(item) || item < 0) throw new TypeError(`${field}.${key} must be a number ≥ 0, got ${JSON.stringify(item)}.`);
    usage[key] = item;
  }
  return usage;
}

/**
 * `value` as a request: `messages` (each `{role, content, toolCalls?, toolCallId?, name?}`), and when given `system`,
 * `tools` (`{name, description?, inputSchema?}`), `settings` and `toolConfig`.
 *
 * @throws TypeError naming the field that is wrong.
 *
 * @internal
 */
export function modelRequestOf(value: Record<string, unknown>, field = 'request'): ModelCallRequest {
  const messages = messagesOf(value.messages, `${field}.messages`);
  if (given(value.tools) && !Array.isArray(value.tools)) throw new TypeError(`${field}.tools must be a list of tools, got ${typeOf(value.tools)}.`);
  const tools = ((value.tools as unknown[] | null | undefined) ?? []).map((t, i) => toolSpecOf(t, `${field}.tools[${i}]`));
  if (given(value.system) && typeof value.system !== 'string') throw new TypeError(`${field}.system must be a string, got ${typeOf(value.system)}.`);
  return {
    system: (value.system as string | null | undefined) ?? undefined,
    messages,
    tools,
    ...(given(value.settings) ? { settings: settingsOf(value.settings, `${field}.settings`) } : {}),
    ...(given(value.toolConfig) ? { toolConfig: toolConfigOf(value.toolConfig, `${field}.toolConfig`) } : {}),
  };
}

/**
 * `value` as an answer: `text`, `toolCalls` and `usage`, each optional.
 *
 * @throws TypeError naming the field that is wrong.
 *
 * @internal
 */
export function modelResponseOf(value: Record<string, unknown>, field = 'response'): ModelResponseInit {
  if (given(value.text) && typeof value.text !== 'string') throw new TypeError(`${field}.text must be a string, got ${typeOf(value.text)}.`);
  return {
    text: (value.text as string | null | undefined) ?? undefined,
    ...(given(value.toolCalls) ? { toolCalls: toolCallsOf(value.toolCalls, `${field}.toolCalls`) } : {}),
    ...(given(value.usage) ? { usage: usageOf(value.usage, `${field}.usage`) } : {}),
  };
}
