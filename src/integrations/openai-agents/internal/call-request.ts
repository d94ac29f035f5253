/**
 * An OpenAI Agents SDK model request as the request hooks around the model call see, and a rewritten one back.
 *
 * @module
 * @internal
 */
import type { AgentInputItem, ModelRequest, ModelSettings as SdkSettings, SerializedHandoff, SerializedTool } from '@openai/agents';
import {
  ToolCall,
  selectedTools,
  type Message,
  type ModelCallRequest,
  type ModelSettings,
  type ModelToolSpec,
  type ToolConfig,
} from '../../../core/index.js';

/** A tool the model is offered: one of the request's tools, or a handoff (which the model calls as a tool). */
type Offered = { readonly tool: SerializedTool } | { readonly handoff: SerializedHandoff };

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The arguments of a function call, when they are a JSON object. */
export function argsOf(json: string): Record<string, unknown> {
  try {
    const value: unknown = json.trim() === '' ? {} : JSON.parse(json);
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

/** The text of a message's content: a string, or its text parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.flatMap((part: unknown) => (isObject(part) && typeof part.text === 'string' ? [part.text] : [])).join('');
}

/** A function call's output as the model is shown it. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isObject(output) && output.type === 'text' && typeof output.text === 'string') return output.text;
  if (Array.isArray(output)) return textOf(output);
  return JSON.stringify(output) ?? '';
}

/**
 * One model call of an OpenAI Agents SDK run seen as our {@link ModelCallRequest}: the instructions as the system
 * prompt, the input items as the conversation (an assistant message with the function calls that follow it; items with
 * no counterpart here, such as reasoning, stay with the message after them), the function tools, hosted tools and
 * handoffs as tools, and `temperature`, `maxTokens`, `topP` and `toolChoice`. {@link CallRequest.requestFor} turns a
 * request the hooks rewrote back into the SDK's, keeping every item and tool the hooks left as the SDK made it.
 */
export class CallRequest {
  /** The request hooks see. */
  readonly request: ModelCallRequest;
  /** The conversation's input items of each message, by message. */
  private readonly sources = new WeakMap<Message, readonly AgentInputItem[]>();
  /** Items after the last message, which no message carries. */
  private readonly tail: readonly AgentInputItem[];
  private readonly offered = new Map<ModelToolSpec, Offered>();

  constructor(private readonly sdk: ModelRequest) {
    const items: readonly AgentInputItem[] = typeof sdk.input === 'string' ? [{ role: 'user', content: sdk.input }] : sdk.input;
    const messages: Message[] = [];
    const groups: AgentInputItem[][] = [];
    let pending: AgentInputItem[] = [];
    const add = (message: Message, item: AgentInputItem) => {
      messages.push(message);
      groups.push([...pending, item]);
      pending = [];
    };
    for (const item of items) {
      const loose = item as { type?: string; role?: string; content?: unknown };
      if (loose.type === 'function_call') {
        const call = item as Extract<AgentInputItem, { type: 'function_call' }>;
        const toolCall = new ToolCall(call.name, argsOf(call.arguments), call.callId);
        const last = messages[messages.length - 1];
        // A call joins the assistant message it follows, as our conversation holds calls.
        if (last?.role === 'assistant' && pending.length === 0) {
          messages[messages.length - 1] = { ...last, toolCalls: [...(last.toolCalls ?? []), toolCall] };
          groups[groups.length - 1]!.push(item);
        } else add({ role: 'assistant', content: '', toolCalls: [toolCall] }, item);
      } else if (loose.type === 'function_call_result') {
        const result = item as Extract<AgentInputItem, { type: 'function_call_result' }>;
        add({ role: 'tool', content: outputText(result.output), toolCallId: result.callId, name: result.name }, item);
      } else if ((loose.type === undefined || loose.type === 'message') && (loose.role === 'user' || loose.role === 'system' || loose.role === 'assistant')) {
        add({ role: loose.role, content: textOf(loose.content) }, item);
      } else {
        pending.push(item);
      }
    }
    messages.forEach((m, i) => this.sources.set(m, groups[i]!));
    this.tail = pending;

    const specs: ModelToolSpec[] = [];
    for (const tool of sdk.tools) {
      // A hosted tool (run by OpenAI) is offered by name: the provider knows its input.
      const spec =
        tool.type === 'function'
          ? { name: tool.name, description: tool.description, inputSchema: tool.parameters as Record<string, unknown> }
          : { name: tool.name, description: '', inputSchema: {} };
      this.offered.set(spec, { tool });
      specs.push(spec);
    }
    for (const handoff of sdk.handoffs) {
      const spec = { name: handoff.toolName, description: handoff.toolDescription, inputSchema: handoff.inputJsonSchema as Record<string, unknown> };
      this.offered.set(spec, { handoff });
      specs.push(spec);
    }
    const settings = settingsOf(sdk.modelSettings);
    const toolConfig = toolConfigOf(sdk.modelSettings.toolChoice);
    this.request = {
      system: sdk.systemInstructions,
      messages,
      tools: specs,
      ...(settings !== undefined ? { settings } : {}),
      ...(toolConfig !== undefined ? { toolConfig } : {}),
    };
  }

  /** The input items of the conversation as this request has it (what the hooks added is converted). */
  itemsOf(messages: readonly Message[]): AgentInputItem[] {
    const out: AgentInputItem[] = [];
    for (const message of messages) {
      const source = this.sources.get(message);
      if (source !== undefined) out.push(...source);
      else out.push(...inputItemsOf(message));
    }
    out.push(...this.tail);
    return out;
  }

  /**
   * The SDK's request for `request`: the original one, with what the hooks changed. `unsupported` is told the name of
   * each setting a hook set that the SDK's model settings do not have.
   */
  requestFor(request: ModelCallRequest, unsupported: (setting: string) => void): ModelRequest {
    const original = this.request;
    if (request === original) return this.sdk;
    let sdk: ModelRequest = { ...this.sdk };
    if (request.system !== original.system) sdk.systemInstructions = request.system;
    if (request.messages !== original.messages) sdk.input = this.itemsOf(request.messages);
    if (request.tools !== original.tools || request.toolConfig !== original.toolConfig) {
      const chosen = selectedTools(request).map((spec): Offered => this.offered.get(spec) ?? { tool: { type: 'function', name: spec.name, description: spec.description, parameters: spec.inputSchema as never, strict: false } });
      const tools = chosen.flatMap((o) => ('tool' in o ? [o.tool] : []));
      const handoffs = chosen.flatMap((o) => ('handoff' in o ? [o.handoff] : []));
      const names = [...tools.map((t) => t.name), ...handoffs.map((h) => h.toolName)];
      const toolChoice = request.toolConfig === original.toolConfig ? this.sdk.modelSettings.toolChoice : toolChoiceOf(request.toolConfig, names);
      sdk = { ...sdk, tools, handoffs, modelSettings: { ...sdk.modelSettings, toolChoice } };
    }
    if (request.settings !== original.settings) {
      const s = request.settings ?? {};
      if (s.stopSequences !== undefined) unsupported('stopSequences');
      sdk = { ...sdk, modelSettings: { ...sdk.modelSettings, temperature: s.temperature, maxTokens: s.maxTokens, topP: s.topP } };
    }
    return sdk;
  }
}

/** A message a hook wrote, as input items. */
export function inputItemsOf(message: Message): AgentInputItem[] {
  switch (message.role) {
    case 'system':
      return [{ role: 'system', content: message.content }];
    case 'user':
      return [{ role: 'user', content: message.content }];
    case 'assistant':
      return [
        ...(message.content !== ''
          ? [{ type: 'message' as const, role: 'assistant' as const, status: 'completed' as const, content: [{ type: 'output_text' as const, text: message.content }] }]
          : []),
        ...(message.toolCalls ?? []).map((c) => ({ type: 'function_call' as const, callId: c.id, name: c.name, arguments: JSON.stringify(c.args), status: 'completed' as const })),
      ];
    case 'tool':
      return [{ type: 'function_call_result', callId: message.toolCallId ?? '', name: message.name ?? '', status: 'completed', output: { type: 'text', text: message.content } }];
  }
}

/** The SDK's sampling settings in our terms; `undefined` when it sets none of them. */
function settingsOf(settings: SdkSettings): ModelSettings | undefined {
  const { temperature, maxTokens, topP } = settings;
  if (temperature === undefined && maxTokens === undefined && topP === undefined) return undefined;
  return { ...(temperature !== undefined ? { temperature } : {}), ...(maxTokens !== undefined ? { maxTokens } : {}), ...(topP !== undefined ? { topP } : {}) };
}

/** The SDK's tool choice in Gemini's terms: `required` is `any`, a named tool is `any` of that one. */
function toolConfigOf(choice: SdkSettings['toolChoice']): ToolConfig | undefined {
  if (choice === undefined || choice === 'auto') return undefined;
  if (choice === 'none') return { mode: 'none' };
  if (choice === 'required') return { mode: 'any' };
  return { mode: 'any', allowedFunctionNames: [choice] };
}

/** A tool selection as the SDK's tool choice, for the tools it leaves (none in mode `none`: no tool is offered). */
function toolChoiceOf(config: ToolConfig | undefined, names: readonly string[]): SdkSettings['toolChoice'] {
  if (names.length === 0) return undefined;
  if (config?.mode !== 'any') return 'auto';
  return names.length === 1 ? names[0] : 'required';
}
