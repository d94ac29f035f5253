/**
 * What a HOOK.md script's answer does on the model events — this runtime's extension of the format, which has no
 * model event: `modified_request` rewrites the request (BeforeModel; on BeforeToolSelection its tool selection only),
 * `response` answers instead of the model (BeforeModel) or rewrites its answer (AfterModel).
 *
 * @module
 * @internal
 */
import { modelCallResponse, type AnyHookContext, type ModelHookContext, type ModelSettings } from '../core/index.js';
import { messageOf } from '../core/internal/message-of.js';
import {
  SETTING_NAMES,
  messagesOf,
  modelRequestJson,
  modelResponseJson,
  settingsOf,
  toolCallsOf,
  toolConfigOf,
  usageOf,
} from './internal/model-call-fields.js';
import { narrowToolConfig } from './internal/narrow-tool-config.js';
import { isRecord } from './wire-output.js';
import { lazyModule } from '../core/internal/lazy-module.js';

// Loaded on first use: importing node:util as an ES module loads some thirty of Node's own modules on every bridged call.
const nodeUtil = lazyModule<typeof import('node:util')>('node:util');

/**
 * Records that `field` of the answer is ignored, and why: the rest of the answer still counts.
 *
 * @internal
 */
export type IgnoredField = (field: string, problem: string) => void;

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);
const given = (value: unknown): boolean => value !== undefined && value !== null;
/** A thrower's message as the rest of a note's sentence. */
const where = (error: unknown): string => `where ${messageOf(error).replace(/\.$/, '')}`;
/** `value` as JSON reads it back: no undefined fields, no prototypes, so that equal JSON compares equal. */
const plain = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

const REQUEST_FIELDS = 'system, messages, tools, settings, toolConfig';
const RESPONSE_FIELDS = ['text', 'toolCalls', 'usage'];

const isModelContext = (ctx: AnyHookContext): ctx is ModelHookContext =>
  ctx.event === 'BeforeModel' || ctx.event === 'BeforeToolSelection' || ctx.event === 'AfterModel';

/** Where a field of `modified_request` means nothing on `event`, why; `undefined` where it is taken. */
function notTakenOn(event: ModelHookContext['event'], key: string): string | undefined {
  if (key === 'tools') return 'that cannot be rewritten: narrow the tools with modified_request.toolConfig (on BeforeModel or BeforeToolSelection)';
  if (event === 'AfterModel') return 'on AfterModel, where the request has already been sent';
  if (event === 'BeforeToolSelection' && key !== 'toolConfig') return 'on BeforeToolSelection, where only modified_request.toolConfig is read';
  return undefined;
}

/** `settings` merged over the request's: the known settings of it, each checked; a setting written null is cleared. */
function settingsPatch(value: unknown, field: string, ignored: IgnoredField): ModelSettings | undefined {
  if (!isRecord(value)) {
    ignored(field, `as ${typeOf(value)}, not an object of settings (${SETTING_NAMES.join(', ')})`);
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (!(SETTING_NAMES as readonly string[]).includes(key)) ignored(`${field}.${key}`, `that is not a setting (${SETTING_NAMES.join(', ')})`);
  }
  const known = Object.fromEntries(SETTING_NAMES.filter((key) => Object.hasOwn(value, key)).map((key) => [key, value[key]]));
  try {
    return settingsOf(known, field);
  } catch (error) {
    ignored(field, where(error));
    return undefined;
  }
}

/**
 * `ctx` with the request `modified_request` gives. A field equal to the one the script was sent is no rewrite, and is
 * passed over wherever it is (a script may print back the whole request it changed a part of); any other field is
 * checked and taken where its event takes it, or ignored with a note naming it.
 */
function rewritten(ctx: ModelHookContext, value: unknown, ignored: IgnoredField): ModelHookContext {
  if (!isRecord(value)) {
    ignored('modified_request', `as ${typeOf(value)}, not an object {system, messages, settings, toolConfig}`);
    return ctx;
  }
  const sent = modelRequestJson(ctx.request);
  let next = ctx;
  for (const [key, item] of Object.entries(value)) {
    const field = `modified_request.${key}`;
    if (!Object.hasOwn(sent, key)) {
      ignored(field, `that is not a field of a request (${REQUEST_FIELDS})`);
      continue;
    }
    if (!given(item) || nodeUtil().isDeepStrictEqual(item, plain(sent[key]))) continue;
    const refused = notTakenOn(ctx.event, key);
    if (refused !== undefined) {
      ignored(field, refused);
      continue;
    }
    try {
      switch (key) {
        case 'system':
          if (typeof item !== 'string') throw new TypeError(`${field} must be a string, got ${typeOf(item)}.`);
          next = next.withSystem(item);
          break;
        case 'messages':
          next = next.withMessages(messagesOf(item, field));
          break;
        case 'settings': {
          const settings = settingsPatch(item, field, ignored);
          if (settings !== undefined) next = next.withSettings(settings);
          break;
        }
        case 'toolConfig':
          // A selection only narrows the one before it, as every other hook's does.
          next = next.withToolConfig(narrowToolConfig(next.request.toolConfig, toolConfigOf(item, field)));
          break;
      }
    } catch (error) {
      ignored(field, where(error));
    }
  }
  return next;
}

/**
 * `ctx` with the answer `response` gives: text, tool calls and usage, each checked on its own. On BeforeModel it is
 * the answer, and the model is not called; on AfterModel each field given replaces the model's, the others stay. A
 * string is a text answer (on AfterModel, the answer's new text).
 */
function answered(ctx: ModelHookContext, value: unknown, ignored: IgnoredField): ModelHookContext {
  if (ctx.event === 'BeforeToolSelection') {
    ignored('response', 'on BeforeToolSelection, where only BeforeModel and AfterModel take an answer');
    return ctx;
  }
  if (typeof value === 'string') return ctx.event === 'AfterModel' ? (ctx.response.text === value ? ctx : ctx.withText(value)) : ctx.withResponse(value);
  if (!isRecord(value)) {
    ignored('response', `as ${typeOf(value)}, not an answer {text, toolCalls}`);
    return ctx;
  }
  for (const key of Object.keys(value)) {
    if (!RESPONSE_FIELDS.includes(key)) ignored(`response.${key}`, `that is not a field of an answer (${RESPONSE_FIELDS.join(', ')})`);
  }
  if (!given(value.text) && !given(value.toolCalls)) {
    ignored('response', 'with neither text nor toolCalls');
    return ctx;
  }
  const read = <T>(field: 'text' | 'toolCalls' | 'usage', of: (item: unknown, path: string) => T): T | undefined => {
    if (!given(value[field])) return undefined;
    try {
      return of(value[field], `response.${field}`);
    } catch (error) {
      ignored(`response.${field}`, where(error));
      return undefined;
    }
  };
  const text = read('text', (item, path) => {
    if (typeof item !== 'string') throw new TypeError(`${path} must be a string, got ${typeOf(item)}.`);
    return item;
  });
  const toolCalls = read('toolCalls', toolCallsOf);
  const usage = read('usage', usageOf);
  if (text === undefined && toolCalls === undefined) return ctx;
  if (ctx.event === 'BeforeModel') return ctx.withResponse({ text, toolCalls, usage });
  const current = ctx.response;
  const answer = modelCallResponse({ text: text ?? current.text, toolCalls: toolCalls ?? current.toolCalls, usage: usage ?? current.usage });
  return nodeUtil().isDeepStrictEqual(plain(modelResponseJson(answer)), plain(modelResponseJson(current))) ? ctx : ctx.withResponse(answer);
}

/**
 * The context a HOOK.md answer's `modified_request` and `response` make of `ctx` on the model events, or `undefined`
 * when they change nothing. On any other event each is ignored with a note, as is every field that is wrong or that
 * its event does not take.
 *
 * @internal
 */
export function hookMdModelAnswer(output: Record<string, unknown>, ctx: AnyHookContext, ignored: IgnoredField): AnyHookContext | undefined {
  const request = output.modified_request;
  const response = output.response;
  if (!isModelContext(ctx)) {
    if (given(request)) ignored('modified_request', `on ${ctx.event}, where only BeforeModel and BeforeToolSelection take a new request`);
    if (given(response)) ignored('response', `on ${ctx.event}, where only BeforeModel and AfterModel take an answer`);
    return undefined;
  }
  let next = ctx;
  if (given(request)) next = rewritten(next, request, ignored);
  if (given(response)) next = answered(next, response, ignored);
  return next === ctx ? undefined : next;
}
