/**
 * A provider call's parameters as the request hooks around the model call see, and a rewritten request back.
 *
 * @module
 * @internal
 */
import {
  selectedTools,
  type Message,
  type ModelCallRequest,
  type ModelSettings,
  type ModelToolSpec,
  type ToolConfig,
} from '../../../core/index.js';
import type { IncrementalMessages, MessageSource } from './messages.js';
import type { CallOptions, PromptMessage, ProviderTool, ProviderToolChoice } from './provider-types.js';

type ToolPart = Extract<Extract<PromptMessage, { role: 'tool' }>['content'][number], { type: 'tool-result' }>;
type ToolMessage = Extract<PromptMessage, { role: 'tool' }>;

/**
 * One provider call seen as our {@link ModelCallRequest}: the system prompt (the prompt's leading system message),
 * the conversation, the tools, the sampling settings and the tool choice. {@link CallRequest.paramsFor} turns a request
 * the hooks rewrote back into parameters, keeping every part the hooks left as it was — messages, tools, provider
 * options — exactly as the AI SDK made it.
 */
export class CallRequest {
  /** The request hooks see. */
  readonly request: ModelCallRequest;
  private readonly tools = new Map<ModelToolSpec, ProviderTool>();

  /**
   * @param params - the call's parameters.
   * @param conversation - what converted `params.prompt` into `messages`, to find each message's source again.
   * @param messages - `params.prompt` converted.
   */
  constructor(
    private readonly params: CallOptions,
    private readonly conversation: IncrementalMessages<PromptMessage>,
    messages: readonly Message[],
  ) {
    const first = params.prompt[0];
    const system = first?.role === 'system' ? first.content : undefined;
    const specs = (params.tools ?? []).map((tool): ModelToolSpec => {
      // A provider-defined tool (run by the provider) is offered by name: the provider knows its input.
      const spec =
        tool.type === 'function'
          ? { name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema as Record<string, unknown> }
          : { name: tool.name, description: '', inputSchema: {} };
      this.tools.set(spec, tool);
      return spec;
    });
    const settings = settingsOf(params);
    const toolConfig = toolConfigOf(params.toolChoice);
    this.request = {
      system,
      messages: system === undefined ? messages : messages.slice(1),
      tools: specs,
      ...(settings !== undefined ? { settings } : {}),
      ...(toolConfig !== undefined ? { toolConfig } : {}),
    };
  }

  /** The parameters of a call of `request`: the original ones, with what the hooks changed. */
  paramsFor(request: ModelCallRequest): CallOptions {
    const original = this.request;
    if (request === original) return this.params;
    let params: CallOptions = { ...this.params };
    if (request.system !== original.system || request.messages !== original.messages) {
      const first = this.params.prompt[0];
      const system: PromptMessage[] =
        request.system === undefined ? [] : first?.role === 'system' && first.content === request.system ? [first] : [{ role: 'system', content: request.system }];
      params.prompt = [...system, ...this.promptOf(request.messages)];
    }
    if (request.tools !== original.tools || request.toolConfig !== original.toolConfig) {
      const tools = selectedTools(request).map(
        (spec): ProviderTool => this.tools.get(spec) ?? { type: 'function', name: spec.name, description: spec.description, inputSchema: spec.inputSchema as never },
      );
      const toolChoice = request.toolConfig === original.toolConfig ? this.params.toolChoice : toolChoiceOf(request.toolConfig, tools);
      params = { ...params, tools: tools.length > 0 ? tools : undefined, toolChoice: tools.length > 0 ? toolChoice : undefined };
    }
    if (request.settings !== original.settings) {
      const s = request.settings ?? {};
      params = { ...params, temperature: s.temperature, maxOutputTokens: s.maxTokens, topP: s.topP, stopSequences: s.stopSequences ? [...s.stopSequences] : undefined };
    }
    return params;
  }

  /**
   * Our messages as a provider prompt: a message that came from the AI SDK's prompt is given back as it was (files,
   * reasoning and provider options included), one a hook wrote is converted.
   */
  private promptOf(messages: readonly Message[]): PromptMessage[] {
    return promptOf(messages, (m) => this.conversation.sourceOf(m));
  }
}

/**
 * Our messages as a provider prompt; tool results in a row share a message. `sourceOf` finds the AI SDK's message a
 * message came from, which is then given back as it was; other messages are converted.
 */
export function promptOf(messages: readonly Message[], sourceOf: (message: Message) => MessageSource<PromptMessage> | undefined = () => undefined): PromptMessage[] {
  const out: PromptMessage[] = [];
  const given = new Set<PromptMessage>();
  // A tool message this conversion made, which the next tool results join.
  let open: ToolMessage | undefined;
  const result = (part: ToolPart) => {
    if (open !== undefined && out[out.length - 1] === open) open.content.push(part);
    else out.push((open = { role: 'tool', content: [part] }));
  };
  for (const message of messages) {
    const source = sourceOf(message);
    if (source !== undefined && source.part === undefined) {
      out.push(source.message);
      given.add(source.message);
      continue;
    }
    if (source !== undefined && source.message.role === 'tool') {
      result(source.message.content[source.part!] as ToolPart);
      continue;
    }
    // A provider's result inside its assistant message goes with that message.
    if (source !== undefined && given.has(source.message)) continue;
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: message.content });
        break;
      case 'user':
        out.push({ role: 'user', content: [{ type: 'text', text: message.content }] });
        break;
      case 'assistant':
        out.push({
          role: 'assistant',
          content: [
            ...(message.content !== '' ? [{ type: 'text' as const, text: message.content }] : []),
            ...(message.toolCalls ?? []).map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: c.args })),
          ],
        });
        break;
      case 'tool':
        result({ type: 'tool-result', toolCallId: message.toolCallId ?? '', toolName: message.name ?? '', output: { type: 'text', value: message.content } });
        break;
    }
  }
  return out;
}

/** The call's sampling settings in our terms; `undefined` when it sets none of them. */
function settingsOf(params: CallOptions): ModelSettings | undefined {
  const { temperature, maxOutputTokens, topP, stopSequences } = params;
  if (temperature === undefined && maxOutputTokens === undefined && topP === undefined && stopSequences === undefined) return undefined;
  return {
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxOutputTokens !== undefined ? { maxTokens: maxOutputTokens } : {}),
    ...(topP !== undefined ? { topP } : {}),
    ...(stopSequences !== undefined ? { stopSequences } : {}),
  };
}

/** The AI SDK's tool choice in Gemini's terms: `required` is `any`, a named tool is `any` of that one. */
function toolConfigOf(choice: ProviderToolChoice | undefined): ToolConfig | undefined {
  switch (choice?.type) {
    case 'none':
      return { mode: 'none' };
    case 'required':
      return { mode: 'any' };
    case 'tool':
      return { mode: 'any', allowedFunctionNames: [choice.toolName] };
    default:
      return undefined;
  }
}

/** A tool selection as the AI SDK's tool choice, for the tools it leaves (none in mode `none`: no tool is offered). */
function toolChoiceOf(config: ToolConfig | undefined, tools: readonly ProviderTool[]): ProviderToolChoice {
  if (config?.mode !== 'any') return { type: 'auto' };
  return tools.length === 1 ? { type: 'tool', toolName: tools[0]!.name } : { type: 'required' };
}
