/**
 * A provider's answer as the hooks around the model call see it, and the answer they leave back as the provider's.
 *
 * @module
 * @internal
 */
import { ToolCall, modelCallResponse, type ModelCallResponse, type Usage } from '../../../core/index.js';
import { argsOf } from './messages.js';
import type { GenerateResult, ProviderContent, ProviderFinishReason, ProviderUsage, StreamPart } from './provider-types.js';

type ToolCallPart = Extract<ProviderContent, { type: 'tool-call' }>;

/** The provider's part each tool call of an answer was read from: kept as it was when a hook leaves the call. */
const sources = new WeakMap<ToolCall, ToolCallPart>();

/** The id of the text part an answer rewritten by a hook streams. */
const HOOK_TEXT_ID = 'agent-hooks-text';

/** Usage with no token counted, for an answer no provider gave. */
export const NO_USAGE: ProviderUsage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

/** A provider's usage in our terms; `undefined` when it counted nothing. */
export function usageOf(usage: ProviderUsage | undefined): Usage | undefined {
  const input = usage?.inputTokens.total;
  const output = usage?.outputTokens.total;
  if (input === undefined && output === undefined) return undefined;
  return {
    ...(input !== undefined ? { inputTokens: input } : {}),
    ...(output !== undefined ? { outputTokens: output } : {}),
    ...(input !== undefined && output !== undefined ? { totalTokens: input + output } : {}),
  };
}

/** Our usage as a provider's (a hook's answer may carry one). */
const providerUsageOf = (usage: Usage | undefined): ProviderUsage =>
  usage === undefined
    ? NO_USAGE
    : {
        inputTokens: { ...NO_USAGE.inputTokens, total: usage.inputTokens },
        outputTokens: { ...NO_USAGE.outputTokens, total: usage.outputTokens },
      };

/** The tokens of two provider calls together. */
export function addProviderUsage(a: ProviderUsage | undefined, b: ProviderUsage): ProviderUsage {
  if (a === undefined) return b;
  const sum = (x: number | undefined, y: number | undefined) => (x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0));
  return {
    inputTokens: {
      total: sum(a.inputTokens.total, b.inputTokens.total),
      noCache: sum(a.inputTokens.noCache, b.inputTokens.noCache),
      cacheRead: sum(a.inputTokens.cacheRead, b.inputTokens.cacheRead),
      cacheWrite: sum(a.inputTokens.cacheWrite, b.inputTokens.cacheWrite),
    },
    outputTokens: {
      total: sum(a.outputTokens.total, b.outputTokens.total),
      text: sum(a.outputTokens.text, b.outputTokens.text),
      reasoning: sum(a.outputTokens.reasoning, b.outputTokens.reasoning),
    },
  };
}

/** A tool call the model made for the agent to run (not one the provider ran itself). */
const isClientCall = (part: { type: string; providerExecuted?: boolean | undefined }): part is ToolCallPart => part.type === 'tool-call' && part.providerExecuted !== true;

/** A provider's tool call as ours; its input is JSON text (an object when the model sent anything else). */
export function toolCallOf(part: ToolCallPart): ToolCall {
  let input: unknown;
  try {
    input = JSON.parse(part.input || '{}');
  } catch {
    input = {};
  }
  return new ToolCall(part.toolName, argsOf(input), part.toolCallId);
}

/** The text and the tool calls (those the agent runs) of a provider's content, or of its streamed parts. */
export function stepOf(parts: readonly (ProviderContent | StreamPart)[]): { text: string; toolCalls: ToolCall[] } {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const part of parts) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'text-delta') text += part.delta;
    else if (isClientCall(part)) toolCalls.push(toolCallOf(part));
  }
  return { text, toolCalls };
}

/**
 * The answer of a provider's content (or streamed parts) for the hooks around the model call: each tool call
 * remembers its part, which is given back as it was when the hooks leave the call.
 */
export function responseOf(parts: readonly (ProviderContent | StreamPart)[], usage: ProviderUsage | undefined): ModelCallResponse {
  const { text, toolCalls } = stepOf(parts);
  let i = 0;
  for (const part of parts) if (isClientCall(part)) sources.set(toolCalls[i++]!, part);
  return modelCallResponse({ text, toolCalls, usage: usageOf(usage) });
}

/** The provider's tool-call part of `call`: the one it was read from, or one written for a call a hook made. */
const callPart = (call: ToolCall): ToolCallPart =>
  sources.get(call) ?? { type: 'tool-call', toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.args) };

/**
 * The finish reason of an answer a hook wrote or changed: `tool-calls` when it calls tools, else the provider's (or
 * `stop`), with `raw` as the provider's own reason when the unified one did not change.
 */
function finishFor(response: ModelCallResponse, original: ProviderFinishReason | undefined, raw: string | undefined): ProviderFinishReason {
  const unified = response.toolCalls.length > 0 ? 'tool-calls' : original !== undefined && original.unified !== 'tool-calls' ? original.unified : 'stop';
  return original?.unified === unified ? original : { unified, raw };
}

/**
 * What `doGenerate` answers for `response`: the provider's own result when the hooks left its answer, else a result
 * with the provider's other parts (reasoning, sources, files, the calls it ran) and the hooks' text and tool calls.
 *
 * @param original - the provider's result the answer came from; `undefined` for an answer a hook gave instead.
 * @param unchanged - whether `response` is the answer read from `original`.
 * @param usage - the tokens of every call made for this answer.
 * @param raw - the raw finish reason of an answer a hook gave.
 */
export function generateResultFor(
  response: ModelCallResponse,
  original: GenerateResult | undefined,
  unchanged: boolean,
  usage: ProviderUsage,
  raw: string,
): GenerateResult {
  if (original !== undefined && unchanged) return original.usage === usage ? original : { ...original, usage };
  const kept = (original?.content ?? []).filter((p) => p.type !== 'text' && !isClientCall(p));
  return {
    ...(original ?? { warnings: [] }),
    content: [...kept, ...(response.text !== '' ? [{ type: 'text' as const, text: response.text }] : []), ...response.toolCalls.map(callPart)],
    finishReason: finishFor(response, original?.finishReason, original === undefined ? raw : undefined),
    usage: original === undefined ? providerUsageOf(response.usage) : usage,
  };
}

/**
 * Reads a provider's stream to the end. An `error` part fails the call with its error, as a provider that throws
 * does: the stream was the answer, and it has none.
 */
export async function readStream(stream: ReadableStream<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return parts;
      if (value.type === 'error') throw value.error;
      parts.push(value);
    }
  } finally {
    // A call that failed part way stops its provider's stream.
    reader.cancel().catch(() => {});
  }
}

/** The usage of a stream's finish part, when it has one. */
export const streamUsage = (parts: readonly StreamPart[]): ProviderUsage | undefined => {
  const finish = parts.findLast((p) => p.type === 'finish');
  return finish?.type === 'finish' ? finish.usage : undefined;
};

/**
 * The parts `doStream` streams for `response`, as {@link generateResultFor} does for `doGenerate`: the provider's own
 * parts when the hooks left its answer; else its other parts, then the hooks' text as one delta and their tool calls,
 * then the finish.
 */
export function streamPartsFor(
  response: ModelCallResponse,
  original: readonly StreamPart[] | undefined,
  unchanged: boolean,
  usage: ProviderUsage,
  raw: string,
): StreamPart[] {
  const finish = original?.findLast((p) => p.type === 'finish');
  const originalFinish = finish?.type === 'finish' ? finish : undefined;
  if (original !== undefined && unchanged) {
    return originalFinish === undefined || originalFinish.usage === usage ? [...original] : original.map((p) => (p === originalFinish ? { ...originalFinish, usage } : p));
  }
  // The inputs of the calls dropped or rewritten stream no more: only what the provider ran itself stays.
  const clientCalls = new Set((original ?? []).flatMap((p) => (isClientCall(p) ? [p.toolCallId] : [])));
  const kept = (original ?? [{ type: 'stream-start' as const, warnings: [] }]).filter(
    (p) =>
      p.type !== 'finish' &&
      p.type !== 'text-start' &&
      p.type !== 'text-delta' &&
      p.type !== 'text-end' &&
      !isClientCall(p) &&
      !((p.type === 'tool-input-start' || p.type === 'tool-input-delta' || p.type === 'tool-input-end') && clientCalls.has(p.id)),
  );
  const text: StreamPart[] =
    response.text === ''
      ? []
      : [
          { type: 'text-start', id: HOOK_TEXT_ID },
          { type: 'text-delta', id: HOOK_TEXT_ID, delta: response.text },
          { type: 'text-end', id: HOOK_TEXT_ID },
        ];
  const finishReason = finishFor(response, originalFinish?.finishReason, original === undefined ? raw : undefined);
  const end: StreamPart = { ...(originalFinish ?? {}), type: 'finish', finishReason, usage: original === undefined ? providerUsageOf(response.usage) : usage };
  return [...kept, ...text, ...response.toolCalls.map(callPart), end];
}

/** A stream of `parts`. */
export const streamOf = (parts: readonly StreamPart[]): ReadableStream<StreamPart> =>
  new ReadableStream<StreamPart>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
