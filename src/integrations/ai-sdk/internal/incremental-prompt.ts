/**
 * The agent's conversation as a provider prompt, converted once per message rather than once per step.
 *
 * @module
 * @internal
 */
import type { LanguageModel } from 'ai';
import type { Message } from '../../../core/index.js';

/**
 * An AI SDK language model object that `generateText` calls as it is: specification v3 (AI SDK 6's providers) or v4
 * (AI SDK 7's). Typed as v3, the types of the `ai` this package compiles against; v4 calls a model the same way for
 * what we touch (a prompt of messages in, `doGenerate` and `doStream`), and a wrapper keeps its model's version.
 */
export type LanguageModelV3 = Extract<LanguageModel, { readonly specificationVersion: 'v3' }>;
type CallOptions = Parameters<LanguageModelV3['doGenerate']>[0];
/** One message of a provider prompt. */
export type PromptMessage = CallOptions['prompt'][number];

/**
 * The messages `toModelMessages` makes one model message of, and the provider prompt message the AI SDK converted it
 * to: a message, or a run of consecutive tool results (one tool message).
 */
interface Unit {
  readonly members: readonly Message[];
  readonly converted: PromptMessage;
  /** For an assistant unit, the ids of its tool calls; for a tool unit, the ids its results answer. */
  readonly calls: readonly string[];
  readonly results: readonly string[];
  readonly resets: boolean;
}

/** The specification versions of the model objects the AI SDK calls as they are (AI SDK 6: v3; AI SDK 7: v4). */
const CALLED_AS_IS: readonly unknown[] = ['v3', 'v4'];

/**
 * Whether `model` is a language model object of specification v3 or v4, which the AI SDK calls as it is (a v2 model
 * or a gateway id is converted by the SDK itself).
 */
export const isCalledAsIs = (model: LanguageModel): model is LanguageModelV3 =>
  typeof model === 'object' && model !== null && CALLED_AS_IS.includes((model as { specificationVersion?: unknown }).specificationVersion);

/** What one step sends: the messages the AI SDK still has to convert, and the model that completes the prompt. */
export interface StepPrompt {
  /** The messages not converted before: the end of the conversation. */
  readonly fresh: readonly Message[];
  /** A model for this one call: the user's, called with the converted messages before `fresh`'s conversion. */
  readonly model: LanguageModelV3;
}

/**
 * Converted prompt messages, each kept with the messages it was made from (by identity: the agent's messages are
 * immutable and a conversation grows by appending), so that each step converts only what was added since the last.
 * Nothing is held for a message the agent no longer holds.
 *
 * The AI SDK still converts every message, once: `generateText` is given only the messages that follow the longest
 * start of the conversation already converted, and the model of the call puts the converted start back in front. A
 * message's conversion depends on it alone (no files to download in our messages), except that consecutive tool
 * messages are merged: a cut never falls inside a run of tool results.
 */
export class IncrementalPrompt {
  /** Each unit, by its first message. */
  private readonly units = new WeakMap<Message, Unit>();

  /**
   * The split of `messages` for one step, or `undefined` when the whole conversation must go through `generateText`
   * (nothing converted yet, or a start whose tool calls are not all answered, which the AI SDK must judge whole).
   */
  step(inner: LanguageModelV3, system: string | undefined, messages: readonly Message[]): StepPrompt | undefined {
    const known: Unit[] = [];
    const pending = new Set<string>();
    let at = 0;
    // The last message always goes to generateText, so that it is never called without messages.
    while (at < messages.length - 1) {
      const unit = this.units.get(messages[at]!);
      if (unit === undefined || !startsWith(messages, at, unit.members)) break;
      const after = messages[at + unit.members.length];
      // A run of tool results that grew since is converted again, whole: the AI SDK merges it into one message.
      if (after === undefined || (unit.results.length > 0 && after.role === 'tool')) break;
      for (const id of unit.results) pending.delete(id);
      if (unit.resets && pending.size > 0) return undefined;
      for (const id of unit.calls) pending.add(id);
      known.push(unit);
      at += unit.members.length;
    }
    if (known.length === 0 || pending.size > 0) return undefined;
    const fresh = messages.slice(at);
    const prefix = known.map((u) => u.converted);
    const head: PromptMessage[] = system !== undefined ? [{ role: 'system', content: system }] : [];
    const remember = (converted: readonly PromptMessage[]) => this.remember(fresh, converted);
    return { fresh, model: completing(inner, head, prefix, remember) };
  }

  /** A whole conversation sent through `generateText`, converted by it: kept for the next steps. */
  whole(inner: LanguageModelV3, messages: readonly Message[], system: string | undefined): LanguageModelV3 {
    const head: PromptMessage[] = system !== undefined ? [{ role: 'system', content: system }] : [];
    return completing(inner, [], [], (converted) => this.remember(messages, converted.slice(head.length)));
  }

  /** Keeps the conversion of `messages` when it is one prompt message per unit, as it is for our messages. */
  private remember(messages: readonly Message[], converted: readonly PromptMessage[]): void {
    const groups = unitsOf(messages);
    if (groups.length !== converted.length) return;
    groups.forEach((members, i) => {
      const first = members[0]!;
      const c = converted[i]!;
      if (c.role !== (first.role === 'tool' ? 'tool' : first.role)) return;
      this.units.set(first, {
        members,
        converted: c,
        calls: first.role === 'assistant' ? (first.toolCalls ?? []).map((call) => call.id) : [],
        results: first.role === 'tool' ? members.map((m) => m.toolCallId ?? '') : [],
        resets: first.role === 'user' || first.role === 'system',
      });
    });
  }
}

function startsWith(messages: readonly Message[], at: number, members: readonly Message[]): boolean {
  for (let i = 0; i < members.length; i++) if (messages[at + i] !== members[i]) return false;
  return true;
}

/** The messages as `toModelMessages` groups them: each message alone, except runs of tool results. */
function unitsOf(messages: readonly Message[]): Message[][] {
  const groups: Message[][] = [];
  for (const message of messages) {
    const last = groups[groups.length - 1];
    if (message.role === 'tool' && last !== undefined && last[0]!.role === 'tool') last.push(message);
    else groups.push([message]);
  }
  return groups;
}

/**
 * `inner` for one `generateText` call: its prompt is `head`, then `prefix`, then what the AI SDK converted; the
 * AI SDK's conversion is handed to `converted` first. Everything else is the user's model.
 */
function completing(
  inner: LanguageModelV3,
  head: readonly PromptMessage[],
  prefix: readonly PromptMessage[],
  converted: (messages: readonly PromptMessage[]) => void,
): LanguageModelV3 {
  let seen = false;
  const prompt = (options: CallOptions): CallOptions => {
    // Retries call again with the same conversion: keep it once.
    if (!seen) {
      seen = true;
      converted(options.prompt);
    }
    return head.length === 0 && prefix.length === 0 ? options : { ...options, prompt: [...head, ...prefix, ...options.prompt] };
  };
  return {
    // The user's version: AI SDK 7 would take a model declared v3 for an older one and adapt its calls.
    specificationVersion: inner.specificationVersion,
    provider: inner.provider,
    modelId: inner.modelId,
    get supportedUrls() {
      return inner.supportedUrls;
    },
    doGenerate: (options) => inner.doGenerate(prompt(options)),
    doStream: (options) => inner.doStream(prompt(options)),
  };
}
