/**
 * A run's model calls, streamed or not.
 *
 * @module
 */
import { ToolCall, selectedTools, type ModelCallRequest, type ModelToolSpec, type Usage } from '../../core/index.js';
import { callModelWithHooks } from '../../core/internal/model-call.js';
import type { ModelRequest, ModelResponse, ModelToolCall } from '../model.js';
import { subagentInput } from '../internal/subagent-input.js';
import type { ToolDefinition } from '../tool.js';
import { type ModelTurn, anyInput } from './run-types.js';
import { RunCore } from './run-core.js';
import { asHookFeedback } from '../../core/internal/hook-feedback.js';

/** A run's model calls: bare, through the hooks around them, streamed or not. */
export abstract class RunModelTurns extends RunCore {
  /**
   * Puts the hooks' pending additional context into the conversation, as one system message: what background hooks
   * woke the model with first (a subagent's run leaves those to the run the user started).
   */
  protected flushPendingContext(): void {
    if (this.init.subagent === undefined) this.pendingContext.unshift(...this.env.wakes.take());
    if (this.pendingContext.length > 0) {
      this.addMessage({ role: 'system', content: this.pendingContext.join('\n\n') });
      this.pendingContext = [];
    }
  }

  /**
   * The request of a step's model call, from the conversation as it is now (hooks' pending context first). Frozen
   * here, where it is made: a context keeps a frozen request as it is, so the hooks of BeforeModel,
   * BeforeToolSelection and AfterModel share this one object until one of them rewrites it (`withRequest` and the
   * like make the copy). Its parts are frozen already: the state's messages and the run's tool definitions.
   */
  protected modelCallRequest(): ModelCallRequest<ToolDefinition> {
    this.flushPendingContext();
    const { systemPrompt: system, definitions: tools, modelSettings: settings } = this.config;
    const messages = this.state.messages;
    return Object.freeze(settings === undefined ? { system, messages, tools } : { system, messages, tools, settings });
  }

  /**
   * One step's model call. Without a hook on (or a listener to) the model events it is the bare call, as cheap as it
   * was before these events existed; with one, see {@link Run.hookedModelCall}.
   */
  protected async callModel(index: number): Promise<ModelTurn> {
    const stack = this.config.stack;
    const quiet = !stack.hasHooksFor('BeforeModel') && !stack.hasHooksFor('BeforeToolSelection') && !stack.hasHooksFor('AfterModel');
    if (quiet && !this.listening()) {
      this.flushPendingContext();
      const { systemPrompt: system, definitions: tools, modelSettings: settings } = this.config;
      const messages = this.state.messages;
      const signal = this.signal;
      // Object literals, not spreads: on Node 20 a spread leaves V8's fast path, and this runs on every step.
      const request = settings === undefined ? { system, messages, tools, signal } : { system, messages, tools, settings, signal };
      const response = this.init.stream === undefined ? await this.config.model.generate(request) : await this.generate(request, index);
      const toolCalls = (response.toolCalls ?? []).map((c) => (ToolCall.isToolCall(c) ? c : new ToolCall(c.name, c.args ?? {}, c.id)));
      const turn = { response: { text: response.text ?? '', toolCalls, usage: response.usage }, usage: response.usage };
      this.init.stream?.emit({ type: 'model-response', stepIndex: index, response: turn.response, synthetic: false });
      return turn;
    }
    const turn = await this.hookedModelCall(index);
    const stream = this.init.stream;
    if (stream !== undefined) {
      const { response, synthetic = false } = turn;
      // Held until the hooks decided (see StreamTextMode); a hook's own answer has no model stream to show it live.
      if (response.text !== '' && (this.holdsText() || (synthetic && stream.text === 'live'))) stream.emit({ type: 'text-delta', stepIndex: index, text: response.text });
      stream.emit({ type: 'model-response', stepIndex: index, response, synthetic });
    }
    return turn;
  }

  /** Whether a streamed run holds the model's text back until the hooks around the model call have decided. */
  protected holdsText(): boolean {
    const stack = this.config.stack;
    return this.init.stream?.text !== 'live' && (stack.hasHooksFor('BeforeModel') || stack.hasHooksFor('AfterModel'));
  }

  /**
   * One model call of a streamed run: through the model's `stream` when it has one, handing out the text as it
   * comes unless it is held (see {@link Run.holdsText}); through `generate` otherwise, its text given whole.
   */
  protected async generate(request: ModelRequest, stepIndex: number): Promise<ModelResponse> {
    const { model } = this.config;
    const stream = this.init.stream!;
    const live = !this.holdsText();
    if (model.stream === undefined) {
      const response = await model.generate(request);
      if (live && typeof response.text === 'string' && response.text !== '') stream.emit({ type: 'text-delta', stepIndex, text: response.text });
      return response;
    }
    let text = '';
    const toolCalls: ModelToolCall[] = [];
    let usage: Usage | undefined;
    try {
      for await (const part of model.stream(request)) {
        // A cancelled run stops reading: leaving the loop ends the model's stream.
        this.signal?.throwIfAborted();
        if (part.type === 'text-delta') {
          if (typeof part.text !== 'string') throw new TypeError(`The model's stream gave a text-delta whose text is ${typeof part.text}, not a string.`);
          text += part.text;
          if (live && part.text !== '') stream.emit({ type: 'text-delta', stepIndex, text: part.text });
        } else if (part.type === 'tool-call') {
          toolCalls.push(part.toolCall);
        } else if (part.type === 'finish') {
          usage = part.usage;
        }
      }
    } catch (error) {
      // A model that gave up because the run was cancelled fails with its own abort error: the run's reason stands.
      this.signal?.throwIfAborted();
      throw error;
    }
    this.signal?.throwIfAborted();
    return usage === undefined ? { text, toolCalls } : { text, toolCalls, usage };
  }

  /**
   * The step's model call through the hooks around it (see `callModelWithHooks`): an AfterModel block's reason is
   * added to the conversation before the call is made again, and a `model-retry-forced` warning says when the limit
   * let the last answer stand.
   */
  protected async hookedModelCall(index: number): Promise<ModelTurn> {
    const outcome = await callModelWithHooks({
      stepIndex: index,
      modelName: this.config.model.name,
      retryLimit: this.config.modelRetryLimit,
      wants: (event) => this.wants(event),
      init: () => this.ctxInit(),
      request: () => this.modelCallRequest(),
      dispatch: (event, make, terminal) => this.dispatch(event, make as never, true, terminal as never) as never,
      call: async (request) => {
        this.signal?.throwIfAborted();
        const modelRequest = this.modelRequest(request);
        return this.init.stream === undefined ? this.config.model.generate(modelRequest) : this.generate(modelRequest, index);
      },
      // The rejected answer is not recorded (its tool calls never run); the model is told why and asked again.
      retry: (feedback) => this.addMessage(asHookFeedback({ role: 'user', content: feedback })),
      retryForced: (reason, blocks) => {
        this.env.emitter.emit('model:retry-forced', { reason, stepIndex: index, blocks });
        this.warn('model-retry-forced', reason, 'AfterModel');
      },
    });
    // This run's dispatches throw a halt themselves: only a host that records a stop sees one here.
    if (outcome.halted) throw new Error('A model call of a run halted without a halt.');
    const { response, usage, synthetic, request } = outcome;
    // What the answer could call: the request of the call that gave it — or, for an answer a hook gave, the request as
    // the hooks left it — as the model is offered it. An AfterModel rewrite adds no tool to it.
    const offered = selectedTools(request).map((t) => t.name);
    return { response, usage, synthetic, offered };
  }

  /**
   * What the model receives for `request`: only the tools its selection allows, each the agent's own definition when
   * it is one (a tool a hook made up is offered with a permissive input schema), and the run's signal.
   */
  protected modelRequest(request: ModelCallRequest): ModelRequest {
    const own = new Set<ModelToolSpec>(this.config.definitions);
    const tools = selectedTools(request).map((spec): ToolDefinition => {
      if (own.has(spec)) return spec as ToolDefinition;
      const { name, description, inputSchema } = spec;
      const input = this.config.tools.get(name)?.input ?? (this.config.subagents.has(name) ? subagentInput() : anyInput());
      return { name, description, inputSchema, input };
    });
    return {
      system: request.system,
      messages: request.messages,
      tools,
      ...(request.settings !== undefined ? { settings: request.settings } : {}),
      ...(request.toolConfig !== undefined ? { toolConfig: request.toolConfig } : {}),
      signal: this.signal,
    };
  }
}
