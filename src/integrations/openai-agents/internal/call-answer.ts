/**
 * An OpenAI Agents SDK model response as the hooks around the model call see it, and the answer they leave back.
 *
 * @module
 * @internal
 */
import { Usage, type AgentOutputItem, type ModelResponse, type StreamEvent } from '@openai/agents';
import { ToolCall, modelCallResponse, type ModelCallResponse, type Usage as OurUsage } from '../../../core/index.js';
import { argsOf } from './call-request.js';

type FunctionCall = Extract<AgentOutputItem, { type: 'function_call' }>;
type ResponseDone = Extract<StreamEvent, { type: 'response_done' }>;

/** The item each tool call of an answer was read from: kept as it was when a hook leaves the call. */
const sources = new WeakMap<ToolCall, FunctionCall>();

/** The id of a response no model gave (a hook's answer, or the empty answer after a stop). */
const HOOK_RESPONSE_ID = 'agent-hooks';

const isCall = (item: AgentOutputItem): item is FunctionCall => item.type === 'function_call';
const isMessage = (item: AgentOutputItem): item is Extract<AgentOutputItem, { role: 'assistant' }> =>
  (item.type === undefined || item.type === 'message') && (item as { role?: string }).role === 'assistant';

/** The SDK's usage in our terms. */
export const usageOf = (usage: Usage): OurUsage => ({ inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, totalTokens: usage.totalTokens });

/** The answer of a response's output: the assistant's text, and its function calls. */
export function responseOf(output: readonly AgentOutputItem[], usage: Usage | undefined): ModelCallResponse {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const item of output) {
    if (isMessage(item)) for (const part of item.content) if (part.type === 'output_text') text += part.text;
    if (isCall(item)) {
      const call = new ToolCall(item.name, argsOf(item.arguments), item.callId);
      sources.set(call, item);
      toolCalls.push(call);
    }
  }
  return modelCallResponse({ text, toolCalls, ...(usage !== undefined ? { usage: usageOf(usage) } : {}) });
}

/** The output items of `response`: the model's other items (reasoning, hosted tool calls), then its text and calls. */
function outputFor(response: ModelCallResponse, original: readonly AgentOutputItem[]): AgentOutputItem[] {
  const kept = original.filter((item) => !isMessage(item) && !isCall(item));
  const message = original.find(isMessage);
  const text: AgentOutputItem[] =
    response.text === '' && response.toolCalls.length > 0
      ? []
      : [{ ...(message ?? { type: 'message' as const, role: 'assistant' as const, status: 'completed' as const }), content: [{ type: 'output_text', text: response.text }] }];
  const calls = response.toolCalls.map(
    (c): FunctionCall => sources.get(c) ?? { type: 'function_call', callId: c.id, name: c.name, arguments: JSON.stringify(c.args), status: 'completed' },
  );
  return [...kept, ...text, ...calls];
}

/**
 * What `getResponse` answers for `response`: the model's own response when the hooks left its answer, else one with
 * the model's other items and the hooks' text and calls (for an answer a hook gave, those alone).
 *
 * @param original - the model's response the answer came from; `undefined` for an answer a hook gave instead.
 * @param unchanged - whether `response` is the answer read from `original`.
 * @param usage - the tokens of every call made for this answer.
 */
export function modelResponseFor(response: ModelCallResponse, original: ModelResponse | undefined, unchanged: boolean, usage: Usage): ModelResponse {
  if (original !== undefined && unchanged) return original.usage === usage ? original : { ...original, usage };
  return { ...(original ?? {}), usage: original === undefined ? new Usage() : usage, output: outputFor(response, original?.output ?? []) };
}

/** A response with no answer, after a hook's stop: an empty assistant message, which ends the run. */
export const stoppedResponse = (): ModelResponse => modelResponseFor(modelCallResponse({}), undefined, false, new Usage());

/** The `response_done` event of a stream, when it has one. */
export const responseDone = (events: readonly StreamEvent[]): ResponseDone | undefined =>
  events.findLast((e): e is ResponseDone => e.type === 'response_done');

/** The usage of a stream's response as the SDK counts it. */
export const streamUsage = (done: ResponseDone): Usage => new Usage(done.response.usage);

/**
 * The events `getStreamedResponse` streams for `response`, as {@link modelResponseFor} answers: the model's own
 * events when the hooks left its answer; else its events but for the text deltas, then the hooks' text as one delta,
 * then the response with their text and calls.
 */
export function streamEventsFor(response: ModelCallResponse, original: readonly StreamEvent[] | undefined, unchanged: boolean, usage: Usage): StreamEvent[] {
  const done = original === undefined ? undefined : responseDone(original);
  const usageData = { requests: usage.requests, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, totalTokens: usage.totalTokens };
  if (original !== undefined && unchanged) {
    return done === undefined || usage.requests <= 1 ? [...original] : original.map((e) => (e === done ? { ...done, response: { ...done.response, usage: usageData } } : e));
  }
  const kept = (original ?? [{ type: 'response_started' as const }]).filter((e) => e.type !== 'output_text_delta' && e.type !== 'response_done');
  const delta: StreamEvent[] = response.text === '' ? [] : [{ type: 'output_text_delta', delta: response.text }];
  const end: StreamEvent = {
    ...(done ?? {}),
    type: 'response_done',
    response: {
      ...(done?.response ?? { id: HOOK_RESPONSE_ID }),
      usage: original === undefined ? { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 } : usageData,
      output: outputFor(response, done?.response.output ?? []) as ResponseDone['response']['output'],
    },
  };
  return [...kept, ...delta, end];
}
