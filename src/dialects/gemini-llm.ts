/**
 * Gemini CLI's hook-neutral model request and answer — the `llm_request` and `llm_response` its BeforeModel,
 * BeforeToolSelection and AfterModel hooks are sent and may answer with, and BeforeToolSelection's `toolConfig` —
 * translated to and from this library's {@link ModelCallRequest}, {@link ModelCallResponse} and {@link ToolConfig},
 * as Gemini CLI 0.61's translator (`HookTranslatorGenAIv1`) writes and reads them.
 *
 * What that translator keeps is text: a message is the text of one content (the model's function calls and the
 * function responses, which have none, are left out), an answer's parts are strings. The system prompt, the tools and
 * the tool selection are not in the request at all.
 *
 * @module
 * @internal
 */
import type { Message, MessageRole, ModelCallRequest, ModelCallResponse, ModelResponseInit, ModelSettings, ToolChoiceMode, ToolConfig } from '../core/index.js';
import { isRecord } from './wire-output.js';

/**
 * A message of Gemini CLI's `llm_request`: `model` for the model's turns.
 *
 * @internal
 */
export interface GeminiLlmMessage {
  /** Who wrote it. */
  readonly role: 'user' | 'model' | 'system';
  /** Its text: the text parts of one content, joined. */
  readonly content: string;
}

/**
 * The sampling settings of Gemini CLI's `llm_request`: the four it passes to hooks (an unset one is left out).
 *
 * @internal
 */
export interface GeminiLlmConfig {
  /** Sampling temperature. */
  readonly temperature?: number;
  /** The most tokens the answer may have. */
  readonly maxOutputTokens?: number;
  /** Nucleus sampling. */
  readonly topP?: number;
  /** Top-k sampling (Gemini's own; the models here take none). */
  readonly topK?: number;
}

/**
 * Gemini CLI's `llm_request`, as its translator writes it: no system prompt, no tools, no tool selection.
 *
 * @internal
 */
export interface GeminiLlmRequest {
  /** The model's name. */
  readonly model: string;
  /** The conversation, text only. */
  readonly messages: readonly GeminiLlmMessage[];
  /** The sampling settings. */
  readonly config: GeminiLlmConfig;
}

/**
 * One candidate of Gemini CLI's `llm_response`: its parts are strings.
 *
 * @internal
 */
export interface GeminiLlmCandidate {
  /** The candidate's content. */
  readonly content: { readonly role: 'model'; readonly parts: readonly string[] };
  /** Why the model stopped (on the last chunk of a stream only). */
  readonly finishReason?: string;
  /** The candidate's index. */
  readonly index?: number;
}

/**
 * Gemini CLI's `llm_response`, as its translator writes it.
 *
 * @internal
 */
export interface GeminiLlmResponse {
  /** The answer's text (its non-thought text parts joined); absent when the answer has no part at all. */
  readonly text?: string;
  /** The candidates; the first is the answer. */
  readonly candidates: readonly GeminiLlmCandidate[];
  /** Token usage, when the model reported it. */
  readonly usageMetadata?: { readonly promptTokenCount?: number; readonly candidatesTokenCount?: number; readonly totalTokenCount?: number };
}

/**
 * Gemini CLI's `toolConfig`, as a BeforeToolSelection hook answers it.
 *
 * @internal
 */
export interface GeminiToolConfig {
  /** How the model may choose. */
  readonly mode: 'AUTO' | 'ANY' | 'NONE';
  /** The tools it may choose from; none named is every tool. */
  readonly allowedFunctionNames: readonly string[];
}

/**
 * The model's name sent for a model without one. Gemini CLI names its default model then; a request of this runtime
 * names none rather than the wrong one.
 */
const NO_MODEL = '';

const ROLE_OUT: Readonly<Record<Exclude<MessageRole, 'tool'>, GeminiLlmMessage['role']>> = { user: 'user', assistant: 'model', system: 'system' };
const ROLE_IN: Readonly<Record<GeminiLlmMessage['role'], MessageRole>> = { user: 'user', model: 'assistant', system: 'system' };

/** Whether `message` becomes one of `llm_request.messages`: Gemini CLI's translator keeps the contents with text. */
const carriesText = (message: Message): boolean => message.role !== 'tool' && message.content !== '';

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);

/**
 * The conversation as `llm_request.messages`: each message with text, the assistant's as `model`; tool results and
 * calls without text are left out, as Gemini CLI leaves out its function responses and calls.
 *
 * @internal
 */
export function geminiLlmMessages(messages: readonly Message[]): GeminiLlmMessage[] {
  return messages.filter(carriesText).map((m) => ({ role: ROLE_OUT[m.role as Exclude<MessageRole, 'tool'>], content: m.content }));
}

/** The request's settings as `llm_request.config` (a setting not set is left out, as Gemini CLI leaves it out). */
function geminiConfig(settings: ModelSettings | undefined): GeminiLlmConfig {
  const config: Record<string, number> = {};
  if (settings?.temperature !== undefined) config.temperature = settings.temperature;
  if (settings?.maxTokens !== undefined) config.maxOutputTokens = settings.maxTokens;
  if (settings?.topP !== undefined) config.topP = settings.topP;
  return config;
}

/**
 * `request` as Gemini CLI's `llm_request` for the model named `modelName`: what its BeforeModel, BeforeToolSelection
 * and AfterModel hooks are sent.
 *
 * @internal
 */
export function geminiLlmRequest(request: ModelCallRequest, modelName: string | undefined): GeminiLlmRequest {
  return { model: modelName ?? NO_MODEL, messages: geminiLlmMessages(request.messages), config: geminiConfig(request.settings) };
}

/**
 * `response` as Gemini CLI's `llm_response`: one candidate whose one part is the text (none when there is none), and
 * the usage in Gemini's names. The answer is whole here, where Gemini CLI sends each streamed chunk, so it is the last
 * chunk's shape: `finishReason` `STOP`. Its tool calls are not in it, as Gemini CLI's translator leaves out function
 * calls; an answer with calls and no text has the text `""`, one with neither no text at all.
 *
 * @internal
 */
export function geminiLlmResponse(response: ModelCallResponse): GeminiLlmResponse {
  const usage = response.usage;
  const total = usage?.totalTokens ?? (usage?.inputTokens !== undefined && usage.outputTokens !== undefined ? usage.inputTokens + usage.outputTokens : undefined);
  return {
    ...(response.text !== '' || response.toolCalls.length > 0 ? { text: response.text } : {}),
    candidates: [{ content: { role: 'model', parts: response.text === '' ? [] : [response.text] }, finishReason: 'STOP', index: 0 }],
    ...(usage !== undefined
      ? {
          usageMetadata: {
            ...(usage.inputTokens !== undefined ? { promptTokenCount: usage.inputTokens } : {}),
            ...(usage.outputTokens !== undefined ? { candidatesTokenCount: usage.outputTokens } : {}),
            ...(total !== undefined ? { totalTokenCount: total } : {}),
          },
        }
      : {}),
  };
}

/**
 * A bridged payload's `llm_request` with `request` (as hooks left it) in place of what it held: the messages and the
 * three settings this library has; the model, `topK` and any field it does not model as Gemini CLI sent them. Written
 * from a request read from that very payload, it gives the payload's own values back.
 *
 * @internal
 */
export function geminiLlmRequestOver(sent: Record<string, unknown>, request: ModelCallRequest): Record<string, unknown> {
  const { temperature: _t, maxOutputTokens: _m, topP: _p, ...kept } = isRecord(sent.config) ? sent.config : {};
  return { ...sent, messages: geminiLlmMessages(request.messages), config: { ...kept, ...geminiConfig(request.settings) } };
}

/**
 * A bridged payload's `llm_response` with `response`'s text in place of its own, the rest (finish reason, usage) as
 * Gemini CLI sent it.
 *
 * @internal
 */
export function geminiLlmResponseOver(sent: Record<string, unknown>, response: ModelCallResponse): Record<string, unknown> {
  const candidates = Array.isArray(sent.candidates) ? sent.candidates : [];
  const first = isRecord(candidates[0]) ? candidates[0] : {};
  return {
    ...sent,
    text: response.text,
    candidates: [{ ...first, content: { role: 'model', parts: [response.text] } }, ...candidates.slice(1)],
  };
}

/** A `mode` as Gemini writes it. */
export const GEMINI_MODES: Readonly<Record<ToolChoiceMode, GeminiToolConfig['mode']>> = { auto: 'AUTO', any: 'ANY', none: 'NONE' };

/**
 * What a hook answered that Gemini CLI would not act on: the field, and why (for a note).
 *
 * @internal
 */
export type IgnoredField = (field: string, problem: string) => void;

/** `value` as `llm_request.messages`, or `undefined` (reported) when one of them is not a message Gemini can send. */
function readMessages(value: unknown, field: string, ignore: IgnoredField): GeminiLlmMessage[] | undefined {
  if (!Array.isArray(value)) {
    ignore(field, `as ${typeOf(value)}, not a list of {role, content} messages`);
    return undefined;
  }
  const messages: GeminiLlmMessage[] = [];
  for (const [i, item] of value.entries()) {
    if (!isRecord(item) || typeof item.content !== 'string' || !Object.hasOwn(ROLE_IN, item.role as string)) {
      const found = isRecord(item) ? `{role: ${JSON.stringify(item.role) ?? 'none'}, content: ${typeof item.content === 'string' ? 'a string' : typeOf(item.content)}}` : typeOf(item);
      ignore(field, `with [${i}] ${found}, which is not a message {role: "user" | "model" | "system", content: a string}`);
      return undefined;
    }
    messages.push({ role: item.role as GeminiLlmMessage['role'], content: item.content });
  }
  return messages;
}

/**
 * `base` with `messages` laid over it as Gemini CLI lays a hook's messages over its request: each message with text
 * takes, in order, the next of `messages` (its role and text; an assistant's tool calls stay), the others stay where
 * they are, the messages left over are appended, and the request's messages left over stay as they were — a hook can
 * rewrite, add, but not remove.
 */
function layMessages(base: readonly Message[], messages: readonly GeminiLlmMessage[]): Message[] {
  const out: Message[] = [];
  let next = 0;
  for (const message of base) {
    const replacement = carriesText(message) ? messages[next] : undefined;
    if (replacement === undefined) {
      out.push(message);
      continue;
    }
    next++;
    out.push({ ...message, role: ROLE_IN[replacement.role], content: replacement.content });
  }
  for (const message of messages.slice(next)) out.push({ role: ROLE_IN[message.role], content: message.content });
  return out;
}

const CONFIG_NUMBERS = ['temperature', 'maxOutputTokens', 'topP', 'topK'] as const;

/** `value` as `llm_request.config`, or `undefined` (reported) when a setting is not a number. */
function readConfig(value: unknown, field: string, ignore: IgnoredField): GeminiLlmConfig | undefined {
  if (!isRecord(value)) {
    ignore(field, `as ${typeOf(value)}, not an object of settings`);
    return undefined;
  }
  const wrong = CONFIG_NUMBERS.find((key) => value[key] !== undefined && value[key] !== null && typeof value[key] !== 'number');
  if (wrong !== undefined) {
    ignore(field, `with ${wrong} ${typeOf(value[wrong])}, not a number`);
    return undefined;
  }
  const config: Record<string, number> = {};
  for (const key of CONFIG_NUMBERS) if (typeof value[key] === 'number') config[key] = value[key];
  return config;
}

/**
 * `base` with a hook's `llm_request` (`hookSpecificOutput.llm_request` of a BeforeModel answer) applied as Gemini CLI
 * 0.61 applies it (`fromHookLLMRequest`): `messages` laid over the conversation (see {@link layMessages}); `config`
 * replacing the temperature, the token limit and topP — one it leaves out is cleared, as Gemini CLI clears it. The
 * model cannot be switched by a hook here, nor `topK` set (the models here take none), and the request has no tool
 * selection on BeforeModel (Gemini CLI ignores one there too): each is reported through `ignore`. `undefined` when
 * nothing changes.
 *
 * @internal
 */
export function applyGeminiLlmRequest(value: Record<string, unknown>, base: ModelCallRequest, sentModel: string, field: string, ignore: IgnoredField): ModelCallRequest | undefined {
  let request: ModelCallRequest | undefined;
  if (value.messages !== undefined && value.messages !== null) {
    const messages = readMessages(value.messages, `${field}.messages`, ignore);
    if (messages !== undefined) request = { ...base, messages: Object.freeze(layMessages(base.messages, messages)) };
  }
  if (value.config !== undefined && value.config !== null) {
    const config = readConfig(value.config, `${field}.config`, ignore);
    if (config !== undefined) {
      if (config.topK !== undefined) ignore(`${field}.config.topK`, 'because the models here take no topK');
      const current = request ?? base;
      const settings = { ...current.settings, temperature: config.temperature, maxTokens: config.maxOutputTokens, topP: config.topP };
      request = { ...current, settings: Object.freeze(settings) };
    }
  }
  if (value.model !== undefined && value.model !== null && value.model !== sentModel) {
    ignore(`${field}.model`, `(${JSON.stringify(value.model)}) because a hook cannot switch the model of this runtime`);
  }
  if (value.toolConfig !== undefined && value.toolConfig !== null) {
    ignore(`${field}.toolConfig`, "on BeforeModel, as Gemini CLI ignores it there: a BeforeToolSelection hook's hookSpecificOutput.toolConfig narrows the tools");
  }
  return request;
}

/**
 * The answer a hook's `llm_response` gives, read as Gemini CLI reads it: the text of the first candidate's parts,
 * joined; no tool calls (its parts are text). `undefined` (reported) when Gemini CLI could not read it — no
 * `candidates` list, a candidate without `content.parts`, a part that is not a string — and `null` when its first
 * candidate has no part at all (Gemini CLI's AfterModel then keeps the model's answer).
 *
 * @internal
 */
export function readGeminiLlmResponse(value: unknown, field: string, ignore: IgnoredField): ModelResponseInit | null | undefined {
  if (!isRecord(value) || !Array.isArray(value.candidates)) {
    ignore(field, `${isRecord(value) ? `with candidates ${typeOf(value.candidates)}` : `as ${typeOf(value)}`}, not an answer {candidates: [{content: {parts: [text, …]}}]}`);
    return undefined;
  }
  const texts: string[][] = [];
  for (const [i, candidate] of value.candidates.entries()) {
    const parts: unknown = isRecord(candidate) && isRecord(candidate.content) ? candidate.content.parts : undefined;
    if (!Array.isArray(parts) || parts.some((part) => typeof part !== 'string')) {
      ignore(field, `with candidates[${i}].content.parts ${Array.isArray(parts) ? 'holding something other than text' : typeOf(parts)}, not a list of strings`);
      return undefined;
    }
    texts.push(parts as string[]);
  }
  const first = texts[0];
  if (first === undefined || first.length === 0) return null;
  return { text: first.join('') };
}

/**
 * A BeforeToolSelection hook's `toolConfig`, read as Gemini CLI merges it: `NONE` and `ANY` as such, any other mode
 * (or none) as `AUTO` (reported, unless absent or `AUTO`); the function names a list of strings, else left out
 * (reported).
 *
 * @internal
 */
export function readGeminiToolConfig(value: unknown, field: string, ignore: IgnoredField): { mode: ToolChoiceMode; names: readonly string[] } | undefined {
  if (!isRecord(value)) {
    ignore(field, `as ${typeOf(value)}, not {mode, allowedFunctionNames}`);
    return undefined;
  }
  const mode = value.mode === 'NONE' ? 'none' : value.mode === 'ANY' ? 'any' : 'auto';
  if (value.mode !== undefined && value.mode !== null && value.mode !== 'AUTO' && mode === 'auto') {
    ignore(`${field}.mode`, `${JSON.stringify(value.mode)}, which is none of AUTO, ANY, NONE (Gemini CLI reads it as AUTO, and so it is read here)`);
  }
  let names: readonly string[] = [];
  const listed = value.allowedFunctionNames;
  if (listed !== undefined && listed !== null) {
    if (Array.isArray(listed) && listed.every((name) => typeof name === 'string')) names = listed as string[];
    else ignore(`${field}.allowedFunctionNames`, `as ${typeOf(listed)}, not a list of tool names`);
  }
  return { mode, names };
}

/**
 * `config` as Gemini's `toolConfig`: its mode in capitals and its names, none for every tool. An empty list of names
 * means no tool here but every tool to Gemini (an empty list is an unset one on the wire), so it goes as `NONE`.
 *
 * @internal
 */
export function geminiToolConfig(config: ToolConfig): GeminiToolConfig {
  const names = config.allowedFunctionNames;
  if (config.mode === 'none' || (names !== undefined && names.length === 0)) return { mode: 'NONE', allowedFunctionNames: [] };
  return { mode: GEMINI_MODES[config.mode], allowedFunctionNames: names === undefined ? [] : [...names] };
}

/**
 * Reads the `llm_request` (and, on AfterModel, the `llm_response`) of a payload Gemini CLI sent into the fields a
 * context is built from: the model's name, the request (no system prompt and no tools: Gemini CLI sends neither),
 * and the answer.
 *
 * @throws TypeError naming the field that is missing or of the wrong shape.
 *
 * @internal
 */
export function readGeminiModelPayload(payload: Record<string, unknown>, event: 'BeforeModel' | 'BeforeToolSelection' | 'AfterModel'): { model_name: string; request: ModelCallRequest; response?: ModelResponseInit } {
  const llm = payload.llm_request;
  if (!isRecord(llm)) throw new TypeError(`llm_request must be a JSON object {model, messages, config}, got ${llm === undefined ? 'nothing' : typeOf(llm)}.`);
  if (typeof llm.model !== 'string') throw new TypeError(`llm_request.model must be a string, got ${typeOf(llm.model)}.`);
  const problems: string[] = [];
  const collect: IgnoredField = (field, problem) => problems.push(`${field} ${problem}`);
  const messages = readMessages(llm.messages, 'llm_request.messages', collect);
  const config = llm.config === undefined ? {} : readConfig(llm.config, 'llm_request.config', collect);
  if (messages === undefined || config === undefined) throw new TypeError(`The payload has ${problems[0]}.`);
  const settings: ModelSettings = {
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.maxOutputTokens !== undefined ? { maxTokens: config.maxOutputTokens } : {}),
    ...(config.topP !== undefined ? { topP: config.topP } : {}),
  };
  const request: ModelCallRequest = {
    system: undefined,
    messages: messages.map((m) => ({ role: ROLE_IN[m.role], content: m.content })),
    tools: [],
    ...(Object.keys(settings).length > 0 ? { settings } : {}),
  };
  if (event !== 'AfterModel') return { model_name: llm.model, request };
  const sent = payload.llm_response;
  if (!isRecord(sent)) throw new TypeError(`llm_response must be a JSON object {text, candidates}, got ${sent === undefined ? 'nothing' : typeOf(sent)}.`);
  const answer = readGeminiLlmResponse(sent, 'llm_response', collect);
  if (answer === undefined) throw new TypeError(`The payload has ${problems[0]}.`);
  // The text Gemini CLI shows of a chunk leaves out its thoughts, which its parts keep.
  const text = typeof sent.text === 'string' ? sent.text : (answer?.text ?? '');
  return { model_name: llm.model, request, response: { text } };
}
