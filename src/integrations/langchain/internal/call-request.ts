/**
 * A LangChain agent's model request as the request hooks around the model call see, and a rewritten one back.
 *
 * @module
 * @internal
 */
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import type { WrapModelCallHook } from 'langchain';
import { selectedTools, type Message, type ModelCallRequest, type ModelSettings, type ModelToolSpec, type ToolConfig } from '../../../core/index.js';
import { fromLangChainMessages, textOf } from './messages.js';

/** The request `wrapModelCall` is given. */
export type LangchainRequest = Parameters<WrapModelCallHook>[0];
type Tool = LangchainRequest['tools'][number];
type ToolChoice = LangchainRequest['toolChoice'];

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A tool as the model is told about it: a LangChain tool's name, description and input schema, or a provider tool's. */
function specOf(tool: Tool): ModelToolSpec {
  const loose = tool as { name?: unknown; description?: unknown; schema?: unknown; type?: unknown; function?: { name?: unknown; description?: unknown; parameters?: unknown } };
  if (isObject(loose.function) && typeof loose.function.name === 'string') {
    const { name, description, parameters } = loose.function;
    return { name, description: typeof description === 'string' ? description : '', inputSchema: isObject(parameters) ? parameters : {} };
  }
  let inputSchema: Record<string, unknown> = {};
  if (loose.schema !== undefined) {
    try {
      inputSchema = toJsonSchema(loose.schema as Parameters<typeof toJsonSchema>[0]) as Record<string, unknown>;
    } catch {
      // A schema LangChain cannot describe is still the tool's; hooks see it without one.
    }
  }
  const name = typeof loose.name === 'string' ? loose.name : String(loose.type ?? 'tool');
  return { name, description: typeof loose.description === 'string' ? loose.description : '', inputSchema };
}

/**
 * One model call of a `createAgent` agent seen as our {@link ModelCallRequest}: the system message's text as the
 * system prompt, the messages, the tools (LangChain's and the provider's), the `toolChoice`, and `temperature`,
 * `maxTokens`, `topP` and `stop` of its `modelSettings`. {@link CallRequest.requestFor} turns a request the hooks
 * rewrote back into LangChain's, keeping every message and tool the hooks left as LangChain made it.
 */
export class CallRequest {
  /** The request hooks see. */
  readonly request: ModelCallRequest;
  private readonly sources = new WeakMap<Message, BaseMessage>();
  private readonly tools = new Map<ModelToolSpec, Tool>();

  /** @param messages - `langchain.messages` converted, when they already are. */
  constructor(
    private readonly langchain: LangchainRequest,
    messages: readonly Message[] = fromLangChainMessages(langchain.messages),
  ) {
    messages.forEach((m, i) => this.sources.set(m, langchain.messages[i]!));
    const specs = langchain.tools.map((tool) => {
      const spec = specOf(tool);
      this.tools.set(spec, tool);
      return spec;
    });
    const system = textOf(langchain.systemMessage);
    const settings = settingsOf(langchain.modelSettings);
    const toolConfig = toolConfigOf(langchain.toolChoice);
    this.request = {
      system: system === '' ? undefined : system,
      messages,
      tools: specs,
      ...(settings !== undefined ? { settings } : {}),
      ...(toolConfig !== undefined ? { toolConfig } : {}),
    };
  }

  /** LangChain's request for `request`: the original one, with what the hooks changed. */
  requestFor(request: ModelCallRequest): LangchainRequest {
    const original = this.request;
    if (request === original) return this.langchain;
    let out: LangchainRequest = { ...this.langchain };
    let system = request.system === original.system ? this.langchain.systemMessage : new SystemMessage(request.system ?? '');
    if (request.messages !== original.messages) {
      const messages: BaseMessage[] = [];
      const context: string[] = [];
      for (const message of request.messages) {
        const source = this.sources.get(message);
        if (source !== undefined) messages.push(source);
        // A system message a hook adds (its context) joins the system message, as the middleware sends context.
        else if (message.role === 'system') context.push(message.content);
        else messages.push(toLangChain(message));
      }
      if (context.length > 0) system = new SystemMessage(`${textOf(system)}${textOf(system) === '' ? '' : '\n\n'}${context.join('\n\n')}`);
      out.messages = messages;
    }
    // Only the message: LangChain refuses a request whose systemPrompt and systemMessage both changed.
    if (system !== this.langchain.systemMessage) out = { ...out, systemMessage: system };
    if (request.tools !== original.tools || request.toolConfig !== original.toolConfig) {
      const tools = selectedTools(request).map(
        (spec): Tool => this.tools.get(spec) ?? { type: 'function', function: { name: spec.name, description: spec.description, parameters: spec.inputSchema } },
      );
      const toolChoice = request.toolConfig === original.toolConfig ? this.langchain.toolChoice : toolChoiceOf(request.toolConfig, tools.map((t) => specOf(t).name));
      out = { ...out, tools, toolChoice };
    }
    if (request.settings !== original.settings) {
      const { temperature, maxTokens, topP, stopSequences } = request.settings ?? {};
      out = { ...out, modelSettings: { ...this.langchain.modelSettings, temperature, maxTokens, topP, stop: stopSequences === undefined ? undefined : [...stopSequences] } };
    }
    return out;
  }
}

/** A message a hook wrote, as LangChain's. */
function toLangChain(message: Message): BaseMessage {
  switch (message.role) {
    case 'user':
      return new HumanMessage(message.content);
    case 'system':
      return new SystemMessage(message.content);
    case 'assistant':
      return new AIMessage({ content: message.content, tool_calls: (message.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, args: c.args, type: 'tool_call' as const })) });
    case 'tool':
      return new ToolMessage({ content: message.content, tool_call_id: message.toolCallId ?? '', ...(message.name !== undefined ? { name: message.name } : {}) });
  }
}

/** The sampling settings of `modelSettings` in our terms; `undefined` when it sets none of them. */
function settingsOf(settings: Record<string, unknown> | undefined): ModelSettings | undefined {
  if (settings === undefined) return undefined;
  const number = (key: string) => (typeof settings[key] === 'number' ? (settings[key] as number) : undefined);
  const temperature = number('temperature');
  const maxTokens = number('maxTokens');
  const topP = number('topP');
  const stop = Array.isArray(settings.stop) && settings.stop.every((s) => typeof s === 'string') ? (settings.stop as string[]) : undefined;
  if (temperature === undefined && maxTokens === undefined && topP === undefined && stop === undefined) return undefined;
  return {
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(topP !== undefined ? { topP } : {}),
    ...(stop !== undefined ? { stopSequences: stop } : {}),
  };
}

/** LangChain's tool choice in Gemini's terms: `required` is `any`, a named function is `any` of that one. */
function toolConfigOf(choice: ToolChoice): ToolConfig | undefined {
  if (choice === undefined || choice === 'auto') return undefined;
  if (choice === 'none') return { mode: 'none' };
  if (choice === 'required') return { mode: 'any' };
  return { mode: 'any', allowedFunctionNames: [choice.function.name] };
}

/** A tool selection as LangChain's tool choice, for the tools it leaves (none in mode `none`: no tool is offered). */
function toolChoiceOf(config: ToolConfig | undefined, names: readonly string[]): ToolChoice {
  if (names.length === 0) return undefined;
  if (config?.mode !== 'any') return 'auto';
  return names.length === 1 ? { type: 'function', function: { name: names[0]! } } : 'required';
}
