/**
 * The answer a Gemini CLI 0.61 hook gives on BeforeModel, BeforeToolSelection and AfterModel for an outcome of our
 * stack: what the bridge writes back when Gemini CLI runs it on a model event.
 *
 * @module
 * @internal
 */
import type { HookOutcome, ModelCallRequest, ModelHookContext } from '../core/index.js';
import { geminiLlmMessages, geminiLlmResponse, geminiLlmResponseOver, geminiToolConfig } from './gemini-llm.js';
import { isRecord } from './wire-output.js';

/** What the model events' answers carry besides the common fields. */
interface ModelAnswer {
  /** `decision` and `reason`, when the call is denied. */
  readonly deny?: string | undefined;
  /** `hookSpecificOutput`'s own fields. */
  readonly specific: Record<string, unknown>;
  /** What could not be carried back, for the user. */
  readonly dropped: readonly string[];
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * `hookSpecificOutput.llm_request` for a request rewritten from `before` to `after`: the messages, when their text
 * changed (all of them: Gemini CLI lays them over its request in order), and the settings, when they changed (all
 * four: Gemini CLI clears one a hook's `config` leaves out, so `topK` goes back as it came).
 */
function requestChanges(before: ModelCallRequest, after: ModelCallRequest, sentConfig: unknown, dropped: string[]): Record<string, unknown> | undefined {
  const changes: Record<string, unknown> = {};
  const messages = geminiLlmMessages(after.messages);
  if (!same(messages, geminiLlmMessages(before.messages))) changes.messages = messages;
  if (!same(after.settings ?? {}, before.settings ?? {})) {
    const s = after.settings ?? {};
    const topK = isRecord(sentConfig) && typeof sentConfig.topK === 'number' ? sentConfig.topK : undefined;
    changes.config = { temperature: s.temperature, maxOutputTokens: s.maxTokens, topP: s.topP, topK };
  }
  if (after.system !== before.system) dropped.push('the system prompt (Gemini CLI gives its hooks none to change)');
  if (!same(after.tools.map((t) => t.name), before.tools.map((t) => t.name))) dropped.push('the tools (Gemini CLI gives its BeforeModel hooks none to change; narrow them on BeforeToolSelection)');
  if (!same(after.toolConfig, before.toolConfig)) dropped.push('the tool selection (Gemini CLI reads one on BeforeToolSelection only)');
  return Object.keys(changes).length === 0 ? undefined : changes;
}

function beforeModel(outcome: HookOutcome, ctx: ModelHookContext<'BeforeModel'>): ModelAnswer | undefined {
  const dropped: string[] = [];
  // Gemini CLI answers instead of the model only for a hook that denies the call, showing the reason as a warning.
  if (outcome.type === 'block') {
    const reason = outcome.reason ?? 'A hook refused the model call.';
    return { deny: reason, specific: { llm_response: geminiLlmResponse({ text: reason, toolCalls: [] }) }, dropped };
  }
  const next = outcome.context?.event === 'BeforeModel' ? outcome.context : undefined;
  if (next?.response !== undefined) {
    if (next.response.toolCalls.length > 0) dropped.push(`the tool calls of the answer a hook gave (${next.response.toolCalls.map((c) => c.name).join(', ')}): a Gemini CLI hook's answer is text only`);
    return { deny: 'A hook answered instead of the model.', specific: { llm_response: geminiLlmResponse({ ...next.response, toolCalls: [] }) }, dropped };
  }
  const sent = isRecord(ctx.origin?.payload.llm_request) ? ctx.origin.payload.llm_request : {};
  const changes = next === undefined ? undefined : requestChanges(ctx.request, next.request, sent.config, dropped);
  return { specific: changes === undefined ? {} : { llm_request: changes }, dropped };
}

function beforeToolSelection(outcome: HookOutcome, ctx: ModelHookContext<'BeforeToolSelection'>): ModelAnswer | undefined {
  const next = outcome.context?.event === 'BeforeToolSelection' ? outcome.context : undefined;
  const config = next?.request.toolConfig;
  if (config === undefined || same(config, ctx.request.toolConfig)) return undefined;
  const dropped: string[] = [];
  if (config.mode !== 'none' && config.allowedFunctionNames?.length === 0 && ctx.request.tools.length === 0) {
    dropped.push(
      'every tool, for the selection allows none: Gemini CLI sends no list of the tools it offers, so allowTools() and removeTools() have none to keep — name them with withToolConfig({ mode, allowedFunctionNames })',
    );
  }
  return { specific: { toolConfig: geminiToolConfig(config) }, dropped };
}

function afterModel(outcome: HookOutcome, ctx: ModelHookContext<'AfterModel'>): ModelAnswer | undefined {
  const sent: Record<string, unknown> = isRecord(ctx.origin?.payload.llm_response) ? ctx.origin.payload.llm_response : { ...geminiLlmResponse(ctx.response) };
  const dropped: string[] = [];
  // Gemini CLI cannot ask the model again from an AfterModel hook, and its deny lets the chunk itself through (with its
  // function calls): the rejected chunk is replaced by the reason instead, so that neither goes on.
  if (outcome.type === 'block') {
    const reason = outcome.reason ?? "A hook rejected the model's answer.";
    return { specific: { llm_response: geminiLlmResponseOver(sent, { text: reason, toolCalls: [] }) }, dropped };
  }
  const next = outcome.context?.event === 'AfterModel' ? outcome.context.response : undefined;
  if (next === undefined) return undefined;
  if (next.toolCalls.length > 0) dropped.push(`the tool calls a hook gave the answer (${next.toolCalls.map((c) => c.name).join(', ')}): a Gemini CLI hook's answer is text only`);
  if (next.text === ctx.response.text) return { specific: {}, dropped };
  const candidates = Array.isArray(sent.candidates) ? sent.candidates : [];
  const parts: unknown = isRecord(candidates[0]) && isRecord(candidates[0].content) ? candidates[0].content.parts : undefined;
  if (!Array.isArray(parts) || parts.length === 0) {
    dropped.push("the text a hook gave a chunk that has none: Gemini CLI's chunk without text carries the model's function calls, which replacing it would drop");
    return { specific: {}, dropped };
  }
  return { specific: { llm_response: geminiLlmResponseOver(sent, next) }, dropped };
}

/**
 * The fields of Gemini CLI's answer on its model events for `outcome`, or `undefined` for none:
 *
 * - a stop: `continue: false` + `stopReason`, which Gemini CLI obeys on BeforeModel and AfterModel (not on
 *   BeforeToolSelection, where the user is told so).
 * - BeforeModel: a rewritten request as `hookSpecificOutput.llm_request` (its messages, its settings); an answer given
 *   instead of the model as `decision: "deny"` with `hookSpecificOutput.llm_response`, the one form of it Gemini CLI
 *   honours (it shows the reason as a warning); a block the same, its reason as the answer.
 * - BeforeToolSelection: the tool selection as `hookSpecificOutput.toolConfig`.
 * - AfterModel: a rewritten answer as `hookSpecificOutput.llm_response`; a block replaces the chunk with its reason.
 *
 * What an outcome changed that these answers cannot carry (a system prompt, tools, tool calls) is said in the
 * `systemMessage`.
 *
 * @internal
 */
export function geminiModelAnswer(outcome: HookOutcome, ctx: ModelHookContext, eventName: string): Record<string, unknown> | undefined {
  if (outcome.type === 'stop') {
    // Gemini CLI stops on BeforeModel and AfterModel; of a BeforeToolSelection answer it reads the selection only.
    const unheard = ctx.event === 'BeforeToolSelection' ? 'agent-hooks could not give Gemini CLI the stop (it reads none on BeforeToolSelection); it goes on.' : undefined;
    const messages = [outcome.systemMessage, unheard].filter((m) => m !== undefined);
    return { continue: false, ...(outcome.reason !== undefined ? { stopReason: outcome.reason } : {}), ...(messages.length > 0 ? { systemMessage: messages.join('\n') } : {}) };
  }
  const answer = ctx.isBeforeModel() ? beforeModel(outcome, ctx) : ctx.isAfterModel() ? afterModel(outcome, ctx) : beforeToolSelection(outcome, ctx as ModelHookContext<'BeforeToolSelection'>);
  const messages = [outcome.systemMessage, ...(answer?.dropped ?? []).map((what) => `agent-hooks could not give Gemini CLI ${what}.`)].filter((m) => m !== undefined);
  const specific = answer?.specific ?? {};
  const body: Record<string, unknown> = {
    ...(answer?.deny !== undefined ? { decision: 'deny', reason: answer.deny } : outcome.granted ? { decision: 'allow' } : {}),
    ...(messages.length > 0 ? { systemMessage: messages.join('\n') } : {}),
    ...(Object.keys(specific).length > 0 ? { hookSpecificOutput: { hookEventName: eventName, ...specific } } : {}),
  };
  return Object.keys(body).length === 0 ? undefined : body;
}
