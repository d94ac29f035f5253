/**
 * The state every concern of a run shares, and the dispatch of its events.
 *
 * @module
 */
import { AgentState, HookEvent, HookOutcome, ToolCall, ToolExecution, type AnyHookContext, type ContextFor, type DispatchOptions, type HookEventName, type HookNote, type HookObserver, type Message, type Metadata, type RunStatus, type StopReason, type SubagentRef, type Usage } from '../../core/index.js';
import type { RunResult } from '../run-result.js';
import { frozenRecord } from '../../core/internal/frozen.js';
import { ToolRefusedError } from '../tool-refused-error.js';
import { usageFromJson } from '../internal/snapshot-codec.js';
import { type AgentConfig, type RunEnvironment, type RunInit, type LoopPosition, Halt } from './run-types.js';

/**
 * What every concern of a run shares: its mutable state, the dispatch of its events, its messages and its result. One
 * instance per `run()` (as {@link Run}): runs of one agent never share it.
 */
export abstract class RunCore {
  protected state: AgentState;
  protected metadata: Metadata;
  protected readonly prompt: string;
  protected readonly signal: AbortSignal | undefined;
  protected readonly dispatchOptions: DispatchOptions;
  protected pendingContext: string[] = [];
  protected readonly systemMessages: string[] = [];
  protected usage: Usage | undefined;
  protected text = '';
  protected status: RunStatus = 'completed';
  protected stopReason: StopReason | undefined;
  protected reason: string | undefined;
  protected stopBlocks = 0;
  protected rejectedStop: string | undefined;
  protected childRuns = 0;
  protected ending = false;
  /** The error a step's model call ended the turn on: the run's StopFailure. */
  protected modelFailure: { readonly error: unknown } | undefined;
  protected readonly answered = new Set<string>();
  protected readonly optionVariants: DispatchOptions[] = [];
  protected readonly started: number;
  /** The tools the step's answer could call (see {@link ModelTurn.offered}); `undefined` for every tool. */
  protected offered: ReadonlySet<string> | undefined;
  /** The step and tool call the loop is at: where an interruption stops it. */
  protected position: LoopPosition | undefined;

  constructor(
    protected readonly config: AgentConfig,
    protected readonly env: RunEnvironment,
    protected readonly init: RunInit,
  ) {
    this.state = init.state;
    // Frozen once, here and at every change, so that the contexts built from it share it instead of copying it.
    this.metadata = frozenRecord(init.metadata);
    this.prompt = init.prompt;
    this.signal = init.signal;
    this.started = performance.now();
    const frame = init.resume?.frame;
    if (frame !== undefined) {
      this.pendingContext = [...frame.pendingContext];
      this.systemMessages.push(...frame.systemMessages);
      this.usage = usageFromJson(frame.usage);
      this.text = frame.text;
      this.stopBlocks = frame.stopBlocks;
      this.rejectedStop = frame.rejectedStop;
      this.childRuns = frame.childRuns;
      this.started -= frame.elapsedMs;
      for (const m of this.state.messages) if (m.role === 'tool' && m.toolCallId !== undefined) this.answered.add(m.toolCallId);
    }
    const emitter = env.emitter;
    const stream = init.stream;
    this.dispatchOptions = {
      signal: init.signal,
      onNote: (note: HookNote) => {
        emitter.emit('hook:note', note);
        if (note.level !== 'warning') return;
        const warning = { code: note.code, message: note.message, event: note.event, hookName: note.hookName };
        emitter.emit('warning', warning);
        stream?.emit({ type: 'warning', warning });
      },
      waitUntil: env.track,
      // Without a wake to hand it (a plain run), a hook that would wake the model runs in the foreground.
      onWake: env.noLaterTurn === true ? undefined : (message, from) => env.wakes.push(message, from),
    };
  }

  /** Whether dispatching `event` does anything: a hook can run for it, or someone listens to the lifecycle. */
  protected wants(event: HookEventName): boolean {
    return this.config.stack.hasHooksFor(event) || this.listening();
  }

  /** Whether someone listens to the lifecycle (`event`, `dispatched`): then every event is dispatched. */
  protected listening(): boolean {
    const emitter = this.env.emitter;
    return emitter.listenerCount('event') > 0 || emitter.listenerCount('dispatched') > 0;
  }

  protected refuse(call: ToolCall, message: string, by: 'hook' | 'permission' | 'approver'): ToolExecution {
    this.env.emitter.emit('tool:blocked', { toolCall: call, reason: message, by });
    this.addToolMessage(call, message);
    return ToolExecution.failure(call, new ToolRefusedError(message, by));
  }

  /** Runs a dispatch after the tool ran: when a hook halts there, the model's record still says what the tool did. */
  protected async answering<T>(call: ToolCall, content: () => string, dispatch: () => Promise<T>): Promise<T> {
    try {
      return await dispatch();
    } catch (error) {
      if (error instanceof Halt && !this.answered.has(call.id)) this.addToolMessage(call, content());
      throw error;
    }
  }

  /**
   * Dispatches one event. Carries metadata and state changes forward, collects additional context and system
   * messages, turns `stop` into a halt where the event allows it, and warns about outcomes the event cannot honour.
   */
  protected async dispatch<E extends HookEventName>(
    event: E,
    make: () => AnyHookContext & { event: E },
    canHalt = true,
    terminal?: (ctx: ContextFor<E>) => Promise<HookOutcome>,
  ): Promise<HookOutcome<AnyHookContext & { event: E }>> {
    const emitter = this.env.emitter;
    const listening = emitter.listenerCount('event') > 0 || emitter.listenerCount('dispatched') > 0;
    // With a terminal (the model call), the caller has checked that the dispatch is wanted: the terminal must run.
    if (!listening && !this.config.stack.hasHooksFor(event) && terminal === undefined) return HookOutcome.proceed();
    const ctx = make();
    emitter.emit('event', ctx);
    const started = performance.now();
    const outcome = await this.config.stack.process(ctx, terminal as ((ctx: AnyHookContext) => Promise<HookOutcome>) | undefined, this.withObserver());
    const durationMs = performance.now() - started;
    emitter.emit('dispatched', { context: outcome.context ?? ctx, outcome, durationMs });
    if (this.init.stream !== undefined && this.config.stack.hasHooksFor(event)) this.streamDecision(event, ctx, outcome, durationMs);

    if (outcome.context !== undefined) {
      if (outcome.context.metadata !== ctx.metadata) this.metadata = Object.freeze({ ...this.metadata, ...outcome.context.metadata });
      if (outcome.context.state !== ctx.state) this.state = outcome.context.state;
    }
    if (outcome.additionalContext.length > 0) this.pendingContext.push(...outcome.additionalContext);
    if (outcome.systemMessages.length > 0) this.systemMessages.push(...outcome.systemMessages);

    const info = HookEvent.info(event);
    if (outcome.type === 'stop') {
      if (info.canStop && canHalt) throw new Halt(outcome.reason ?? `Stopped by a ${event} hook.`, 'hook_stop');
      if (!info.canStop) this.warn('ignored-outcome', `A ${event} hook returned stop (${outcome.reason}); the run is already ending, so it was ignored.`, event);
    } else if (outcome.type === 'block' && !info.canBlock) {
      this.warn('ignored-outcome', `A ${event} hook returned block (${outcome.reason}); ${event} cannot be blocked, so it was ignored.`, event);
    } else if (outcome.type === 'ask' && !info.canAsk) {
      this.warn('ignored-outcome', `A ${event} hook returned ask (${outcome.reason}); only tool calls can ask for approval, so it was ignored.`, event);
    }
    return outcome as HookOutcome<AnyHookContext & { event: E }>;
  }

  /** Hands a streamed run's consumer what the hooks of `event` decided. */
  protected streamDecision(event: HookEventName, before: AnyHookContext, outcome: HookOutcome, durationMs: number): void {
    const after = outcome.context;
    // BeforeModel's context comes back carrying the model's answer (the stack's terminal adds it): only a rewritten
    // request counts as a change there; an answer given instead of the model shows in the model-response event.
    const changed =
      after !== undefined && after !== before && (after.event !== 'BeforeModel' || before.event !== 'BeforeModel' || after.request !== before.request);
    this.init.stream!.emit({ type: 'hook-decision', event, decision: outcome.type, reason: outcome.reason, changed, outcome, durationMs });
  }

  /**
   * The options of a dispatch: with an observer only while someone listens to hook timings, and without the signal
   * once the run is ending. Each variant is made once per run, so the stack makes its hooks' scope once too.
   */
  protected withObserver(): DispatchOptions {
    const emitter = this.env.emitter;
    const observed = emitter.listenerCount('hook:start') + emitter.listenerCount('hook:end') + emitter.listenerCount('hook:error') > 0;
    const variant = (observed ? 1 : 0) + (this.ending ? 2 : 0);
    return (this.optionVariants[variant] ??= {
      ...this.dispatchOptions,
      // Once the run is ending (AgentFailed, ExecutionEnd), a cancelled signal must not cut short the hooks that report it.
      ...(this.ending ? { signal: undefined } : {}),
      ...(observed
        ? {
            observer: {
              onHookStart: (info) => emitter.emit('hook:start', info),
              onHookEnd: (info) => emitter.emit('hook:end', info),
              onHookError: (info) => emitter.emit('hook:error', info),
            } satisfies HookObserver,
          }
        : {}),
    });
  }

  // Where a context needs more than these two, they are listed beside its other fields, not spread from here: on
  // Node 20 `{ ...this.ctxInit(), x }` leaves V8's fast path for object literals and costs some 40 times as much.
  protected ctxInit(): { state: AgentState; metadata: Metadata; subagent: SubagentRef | undefined } {
    return { state: this.state, metadata: this.metadata, subagent: this.init.subagent };
  }

  protected addMessage(message: Message): void {
    this.state = this.state.withMessage(message);
  }

  protected addToolMessage(call: ToolCall, content: string): void {
    this.answered.add(call.id);
    this.addMessage({ role: 'tool', content, toolCallId: call.id, name: call.name });
  }

  protected warn(code: string, message: string, event?: string): void {
    const warning = { code, message, event };
    this.env.emitter.emit('warning', warning);
    this.init.stream?.emit({ type: 'warning', warning });
  }

  protected result(error?: unknown): RunResult {
    return {
      status: this.status,
      text: this.text,
      stopReason: this.stopReason,
      reason: this.reason,
      steps: this.state.steps,
      messages: this.state.messages,
      usage: this.usage,
      systemMessages: Object.freeze([...this.systemMessages]),
      state: this.state,
      metadata: this.metadata,
      ...(error !== undefined ? { error } : {}),
    };
  }
}
