/**
 * One run of an agent: the loop that fires every lifecycle event, in order.
 *
 * @module
 */
import { resultText } from '../core/internal/as-text.js';
import { callModelWithHooks } from '../core/internal/model-call.js';
import { addUsage } from '../core/internal/usage.js';
import type { EventEmitter } from 'eventemitter3';
import {
  AgentState,
  AgentStep,
  CompactHookContext,
  ExecutionHookContext,
  FailureHookContext,
  HookError,
  HookEvent,
  HookOutcome,
  NotificationHookContext,
  PromptHookContext,
  SessionHookContext,
  StepHookContext,
  StopHookContext,
  SubagentHookContext,
  ToolBatchHookContext,
  ToolCall,
  ToolExecution,
  ToolHookContext,
  type AnyHookContext,
  type ContextFor,
  type DispatchOptions,
  type HookEventName,
  type HookNote,
  type HookObserver,
  type HookStack,
  type Message,
  type Metadata,
  type ModelCallRequest,
  type ModelCallResponse,
  type ModelSettings,
  type ModelToolSpec,
  type RunStatus,
  type StopReason,
  type Usage,
  selectedTools,
} from '../core/index.js';
import { z } from 'zod';
import type { AgentEvents } from './agent-events.js';
import type { AgentStreamEvent, StreamTextMode } from './agent-stream.js';
import type { ApprovalDecision, ApprovalDecisions, Approver } from './approval.js';
import type { Checkpointer } from './checkpointer.js';
import { compactMessages, type CompactionOptions } from './compaction.js';
import type { Model, ModelRequest, ModelResponse, ModelToolCall } from './model.js';
import type { RunResult } from './run-result.js';
import type { Subagent } from './subagent.js';
import type { WakeInbox } from './wake-inbox.js';
import { SUBAGENT_INPUT } from './internal/subagent-input.js';
import { frozenRecord } from '../core/internal/frozen.js';
import { messageOf } from '../core/internal/message-of.js';
import { ToolInputError, ToolNotOfferedError, UnknownToolError, type Tool, type ToolDefinition } from './tool.js';
import { ToolRefusedError } from './tool-refused-error.js';
import { randomUUID } from 'node:crypto';
import { JsonWriter, callFromJson, executionFromJson, stateFromJson, usageFromJson } from './internal/snapshot-codec.js';
import type { PendingApproval, RunFrameJson } from './run-snapshot.js';

export { ToolRefusedError } from './tool-refused-error.js';

/**
 * Everything a run needs from its agent; immutable, so concurrent runs share it safely.
 *
 * @internal
 */
export interface AgentConfig {
  /** The agent's name, when given. */
  readonly name: string | undefined;
  /** The model. */
  readonly model: Model;
  /** The tools, by name. */
  readonly tools: ReadonlyMap<string, Tool>;
  /** The subagents, by name. */
  readonly subagents: ReadonlyMap<string, ResolvedSubagent>;
  /** What the model is told about tools and subagents. */
  readonly definitions: readonly ToolDefinition[];
  /** The system prompt. */
  readonly systemPrompt: string | undefined;
  /** The step limit. */
  readonly maxSteps: number;
  /** Compaction, when enabled. */
  readonly compaction: CompactionOptions | undefined;
  /** The approver, when there is one. */
  readonly approver: Approver | undefined;
  /** Every hook, guarded by the error policy. */
  readonly stack: HookStack;
  /** How many Stop continuations in a row are honoured. */
  readonly stopLoopLimit: number;
  /** Sampling settings sent with every model call, when set. */
  readonly modelSettings: ModelSettings | undefined;
  /** How many times AfterModel hooks may have one step's model call made again. */
  readonly modelRetryLimit: number;
  /** Whether a call that needs approval, with no approver to decide it, interrupts the run instead of being refused. */
  readonly approvalInterrupts: boolean;
  /** Where interrupted runs are saved, when set. */
  readonly checkpointer: Checkpointer | undefined;
  /** The key snapshots are signed and checked with, when set. */
  readonly snapshotKey: string | Uint8Array | undefined;
}

/**
 * A subagent with the configuration its runs use.
 *
 * @internal
 */
export interface ResolvedSubagent {
  /** Its definition. */
  readonly def: Subagent;
  /** The configuration of its runs. */
  readonly config: AgentConfig;
}

/** What a run shares with the runs of its subagents and with its session. */
export interface RunEnvironment {
  readonly emitter: EventEmitter<AgentEvents>;
  /** Keeps work hooks handed over (async script hooks) until a session or the agent drains it. */
  readonly track: (work: Promise<unknown>) => void;
  /** The messages background hooks hand the model, waiting for its next call (this run's, or the session's next turn's). */
  readonly wakes: WakeInbox;
}

/** How a run starts. */
export interface RunInit {
  readonly prompt: string;
  readonly state: AgentState;
  readonly metadata: Metadata;
  readonly signal: AbortSignal | undefined;
  /** Fire SessionStart first (the first run of a session). */
  readonly sessionStart?: boolean;
  /** Set when this is a subagent's run: its stop gate is SubagentStop. */
  readonly subagent?: { readonly name: string; readonly type: string } | undefined;
  /** Set when the run is streamed: where its events go. */
  readonly stream?: RunStream | undefined;
  /** Set when the run goes on from an interruption: where, and what its loop carried. */
  readonly resume?: ResumeInit | undefined;
}

/** How a run goes on from an interruption: its frame read back, and the decisions. */
export interface ResumeInit {
  /** The interrupted run's frame. */
  readonly frame: RunFrameJson;
  /** The decisions, by request id. */
  readonly decisions: ApprovalDecisions;
}

/** Where a run stopped, with live objects. */
interface InterruptPoint {
  readonly stepIndex: number;
  readonly turn: ModelTurn;
  readonly executions: readonly ToolExecution[];
  readonly callIndex: number;
  readonly phase: 'approval' | 'subagent';
  readonly call: ToolCall;
  readonly reason?: string;
  readonly requestId?: string;
  readonly child?: RunFrameJson;
  readonly startedAt?: number;
}

/** Where a resumed run goes on: the interrupted step and call, read back. */
type ResumePoint = InterruptPoint;

/** What an interrupted run hands its caller: its frame as JSON, the requests that wait, and what JSON could not hold. */
export interface RunInterruption {
  readonly frame: RunFrameJson;
  readonly pending: readonly PendingApproval[];
  readonly lossy: readonly string[];
}

/** Where a streamed run's events go, and when it hands out the model's text. */
export interface RunStream {
  readonly emit: (event: AgentStreamEvent) => void;
  readonly text: StreamTextMode;
}

/** A tool call checked against its tool's schema: what runs it and the parsed input, or why it cannot run. */
type CheckedCall =
  | { readonly ok: true; readonly tool: Tool | undefined; readonly sub: ResolvedSubagent | undefined; readonly input: unknown }
  | { readonly ok: false; readonly error: Error };

/** One step's model call as the loop goes on with it: the answer, and the usage of every model call it took. */
interface ModelTurn {
  readonly response: ModelCallResponse;
  readonly usage: Usage | undefined;
  /** Whether a hook answered instead of the model. */
  readonly synthetic?: boolean;
  /**
   * The names of the tools the answer's request offered, as the hooks around the model call left it; absent when
   * every tool of the agent was. A call to a tool of the agent outside it is refused, as a call to an unknown tool is.
   */
  readonly offered?: readonly string[] | undefined;
}

/** The input of a tool a hook offered the model without one of the agent's tools behind it. */
const ANY_INPUT = z.record(z.string(), z.unknown());

/** What the model is told beside a refusal when a PermissionDenied hook says it may retry: Claude Code's words. */
const RETRY_NOTE = 'The PermissionDenied hook indicated you may retry this tool call.';

/** Thrown inside the loop when a hook halts the run; caught by the run itself. */
class Halt {
  constructor(
    readonly reason: string,
    readonly stopReason: StopReason,
  ) {}
}

/** Thrown inside the loop when a call waits for a decision made later; caught by the run itself. */
class Interrupt {
  constructor(
    readonly point: Omit<InterruptPoint, 'stepIndex' | 'turn' | 'executions' | 'callIndex'>,
    /** The requests of the subagent's run the call started; an approval's own request is made from the point. */
    readonly pending: readonly PendingApproval[] = [],
  ) {}
}

/** A value, named for an error message. */
const describe = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object without `approved`' : `${typeof value} ${String(value)}`);

/** A new approval request's id. */
const requestId = (): string => `apr_${randomUUID()}`;

/** Milliseconds since the epoch, with the precision of `performance.now()`: comparable across processes. */
const epochNow = (): number => performance.timeOrigin + performance.now();

/**
 * The run loop. One instance per `run()`: all mutable state of a run lives here, so runs of one agent never share it.
 */
export class Run {
  private state: AgentState;
  private metadata: Metadata;
  private readonly prompt: string;
  private readonly signal: AbortSignal | undefined;
  private readonly dispatchOptions: DispatchOptions;
  private pendingContext: string[] = [];
  private readonly systemMessages: string[] = [];
  private usage: Usage | undefined;
  private text = '';
  private status: RunStatus = 'completed';
  private stopReason: StopReason | undefined;
  private reason: string | undefined;
  private stopBlocks = 0;
  private rejectedStop: string | undefined;
  private childRuns = 0;
  private ending = false;
  /** The error a step's model call ended the turn on: the run's StopFailure. */
  private modelFailure: { readonly error: unknown } | undefined;
  private readonly answered = new Set<string>();
  private readonly optionVariants: DispatchOptions[] = [];
  private readonly started: number;
  /** The tools the step's answer could call (see {@link ModelTurn.offered}); `undefined` for every tool. */
  private offered: ReadonlySet<string> | undefined;
  /** The step and tool call the loop is at: where an interruption stops it. */
  private position: { readonly stepIndex: number; readonly turn: ModelTurn; readonly executions: readonly ToolExecution[]; callIndex: number } | undefined;

  constructor(
    private readonly config: AgentConfig,
    private readonly env: RunEnvironment,
    private readonly init: RunInit,
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
      onWake: (message, from) => env.wakes.push(message, from),
    };
  }

  /** Fires SessionEnd for a session's final state; `close()` of a session calls it. */
  static async endSession(config: AgentConfig, env: RunEnvironment, state: AgentState, reason: string, durationMs?: number): Promise<void> {
    const run = new Run(config, env, { prompt: '', state, metadata: {}, signal: undefined });
    await run.dispatch('SessionEnd', () => SessionHookContext.onEnd({ state, reason, model: config.model.name, durationMs }), false);
  }

  /** Compacts a session's conversation on request (PreCompact and PostCompact with trigger `manual`). */
  static async compact(config: AgentConfig, env: RunEnvironment, state: AgentState, instructions: string | undefined): Promise<AgentState> {
    const run = new Run(config, env, { prompt: '', state, metadata: {}, signal: undefined });
    try {
      await run.maybeCompact('manual', instructions);
    } catch (error) {
      if (!(error instanceof Halt)) throw error;
      // A stop from a compaction hook outside a run has nothing to halt: the conversation stays as it was.
      return state;
    }
    return run.state;
  }

  /**
   * A run that goes on from `frame`, an interrupted run's (checked against this agent by the caller), with the
   * decisions for its pending requests.
   */
  static resumed(config: AgentConfig, env: RunEnvironment, resume: ResumeInit, options: { signal: AbortSignal | undefined; stream?: RunStream | undefined }): Run {
    const { frame } = resume;
    return new Run(config, env, {
      prompt: frame.prompt,
      state: stateFromJson(frame.state),
      metadata: { ...frame.metadata },
      signal: options.signal,
      subagent: frame.subagent,
      stream: options.stream,
      resume,
    });
  }

  /** Runs to the end, or to an interruption. Resolves with the result, and the error when the run failed. */
  async execute(): Promise<RunResult & { readonly failure?: { readonly error: unknown }; readonly interrupted?: RunInterruption }> {
    let failure: { error: unknown } | undefined;
    try {
      try {
        await this.main();
      } catch (error) {
        // Interrupted: the run is not over, so nothing that ends it fires (Stop, ExecutionEnd); resuming goes on from here.
        if (error instanceof Interrupt) return { ...this.result(), status: 'interrupted', interrupted: this.interruption(error) };
        if (!(error instanceof Halt)) throw error;
        this.halted(error);
      }
      await this.afterTurn();
    } catch (error) {
      failure = { error };
      await this.failed(error);
    }
    this.ending = true;
    try {
      await this.dispatch('ExecutionEnd', () =>
        ExecutionHookContext.onEnd({
          state: this.state,
          metadata: this.metadata,
          prompt: this.prompt,
          status: this.status,
          reason: this.reason,
          durationMs: performance.now() - this.started,
        }),
      );
    } catch (error) {
      if (failure === undefined) {
        failure = { error };
        await this.failed(error);
      }
    }
    return { ...this.result(failure?.error), ...(failure ? { failure } : {}) };
  }

  private async main(): Promise<void> {
    const resume = this.init.resume;
    const at = resume === undefined ? undefined : this.resumePoint(resume.frame);
    if (at === undefined) {
      if (this.init.sessionStart) await this.dispatch('SessionStart', () => SessionHookContext.onStart({ state: this.state, metadata: this.metadata, source: 'startup', model: this.config.model.name }));
      await this.dispatch('ExecutionStart', () => ExecutionHookContext.onStart({ state: this.state, metadata: this.metadata, prompt: this.prompt }));
      const submitted = await this.dispatch('UserPromptSubmit', () => PromptHookContext.onSubmit(this.prompt, this.ctxInit()));
      if (submitted.type === 'block') throw new Halt(submitted.reason ?? 'The prompt was rejected by a hook.', 'prompt_blocked');
      const prompt = submitted.context?.event === 'UserPromptSubmit' ? submitted.context.prompt : this.prompt;
      this.addMessage({ role: 'user', content: prompt });
    }

    const stream = this.init.stream;
    for (let index = at?.stepIndex ?? 0; ; index++) {
      this.signal?.throwIfAborted();
      let turn: ModelTurn;
      let executions: ToolExecution[];
      if (at !== undefined && index === at.stepIndex) {
        // The interrupted step: its model answer is in the conversation already, and its batch goes on at the call
        // that waited.
        turn = at.turn;
        executions = await this.runTools(turn, index, at);
      } else {
        stream?.emit({ type: 'step-start', stepIndex: index });
        await this.dispatch('BeforeStep', () => StepHookContext.beforeStep(index, this.ctxInit()));
        await this.maybeCompact('auto');
        try {
          turn = await this.callModel(index);
        } catch (error) {
          this.noteModelFailure(error);
          throw error;
        }
        const toolCalls = turn.response.toolCalls;
        this.text = turn.response.text;
        this.addMessage({ role: 'assistant', content: this.text, ...(toolCalls.length > 0 ? { toolCalls } : {}) });
        executions = await this.runTools(turn, index);
      }
      const { response, usage } = turn;
      const toolCalls = response.toolCalls;
      const step = new AgentStep({ index, text: this.text, toolCalls, executions, ...(usage ? { usage } : {}) });
      this.usage = addUsage(this.usage, usage);
      this.state = this.state.with({ steps: [...this.state.steps, step] });
      // Checked here, not in the dispatch: an awaited call per step is what an agent without these hooks would pay.
      if (toolCalls.length > 0 && this.wants('PostToolBatch')) await this.postToolBatch(step);
      await this.dispatch('AfterStep', () => StepHookContext.afterStep(step, this.ctxInit()));
      stream?.emit({ type: 'step-end', step });

      const stopReason: StopReason | undefined =
        this.rejectedStop !== undefined
          ? 'tool_rejected'
          : toolCalls.length === 0
            ? 'no_tool_calls'
            : index + 1 >= this.config.maxSteps
              ? 'max_steps'
              : undefined;
      if (stopReason === undefined) continue;
      if (await this.stopGate(stopReason, index + 1 >= this.config.maxSteps)) continue;
      this.stopReason = stopReason;
      if (stopReason === 'tool_rejected') this.reason = this.rejectedStop;
      return;
    }
  }

  /**
   * The Stop (or SubagentStop) gate. Resolves true when a hook keeps the agent working — never past the step limit,
   * which stays a hard limit whatever the gate says.
   */
  private async stopGate(stopReason: StopReason, atStepLimit: boolean): Promise<boolean> {
    const sub = this.init.subagent;
    // Made only when a hook or a listener wants the context.
    const init = () => ({
      state: this.state,
      metadata: this.metadata,
      stopReason,
      finalMessage: this.text,
      stopHookActive: this.stopBlocks > 0,
      continuationCount: this.stopBlocks,
      subagentName: sub?.name,
      subagentType: sub?.type,
    });
    const event = sub ? 'SubagentStop' : 'Stop';
    const outcome = sub
      ? await this.dispatch('SubagentStop', () => StopHookContext.subagentStop(init()))
      : await this.dispatch('Stop', () => StopHookContext.stop(init()));
    if (outcome.type !== 'block') return false;
    const feedback = outcome.reason ?? 'A stop hook asked the agent to keep working.';
    if (atStepLimit) {
      this.warn('ignored-outcome', `A ${event} hook blocked at the step limit (${this.config.maxSteps}); the run ends: ${feedback}`, event);
      return false;
    }
    if (this.stopBlocks >= this.config.stopLoopLimit) {
      const reason = `Stop hooks kept the agent working ${this.stopBlocks} times in a row; ending the run anyway (last reason: ${feedback}).`;
      this.env.emitter.emit('stop:forced', { reason, blocks: this.stopBlocks + 1 });
      this.warn('stop-forced', reason, event);
      return false;
    }
    this.stopBlocks++;
    this.rejectedStop = undefined;
    this.addMessage({ role: 'user', content: feedback });
    return true;
  }

  private async afterTurn(): Promise<void> {
    const init = () => ({
      state: this.state,
      metadata: this.metadata,
      stopReason: this.stopReason ?? 'no_tool_calls',
      finalMessage: this.text,
      stopHookActive: this.stopBlocks > 0,
      continuationCount: this.stopBlocks,
    });
    for (const event of ['AfterStop', 'AfterAgent'] as const) {
      const outcome = await this.dispatch(event, () => new StopHookContext(event, init()), false);
      if (outcome.type === 'stop' && this.status !== 'stopped') this.halted(new Halt(outcome.reason ?? `Stopped by a ${event} hook.`, 'hook_stop'));
    }
  }

  private async failed(error: unknown): Promise<void> {
    this.ending = true;
    this.status = 'failed';
    this.stopReason = undefined;
    this.reason = messageOf(error);
    if (this.modelFailure?.error === error) await this.stopFailure(error);
    try {
      await this.dispatch('AgentFailed', () => FailureHookContext.onFailure(error, this.ctxInit()));
    } catch (hookError) {
      // The run already failed; a failing AgentFailed hook must not replace the original error.
      this.warn('hook-error', `An AgentFailed hook failed too: ${messageOf(hookError)}`, 'AgentFailed');
    }
  }

  /**
   * Keeps an error the step's model call ended on for StopFailure — not a hook's, not a halt, not a cancellation — as
   * an API error ends the turn in Claude Code.
   */
  private noteModelFailure(error: unknown): void {
    if (!(error instanceof Halt) && !HookError.isHookError(error) && this.signal?.aborted !== true) this.modelFailure = { error };
  }

  /**
   * StopFailure, in place of Stop, before AgentFailed. Claude Code ignores what its hooks answer: here a decision is
   * ignored with a warning (by `dispatch`), and so is context for a model the turn no longer calls.
   */
  private async stopFailure(error: unknown): Promise<void> {
    try {
      const outcome = await this.dispatch(
        'StopFailure',
        () => FailureHookContext.onStopFailure(error, { state: this.state, metadata: this.metadata, finalMessage: this.text === '' ? undefined : this.text }),
        false,
      );
      if (outcome.additionalContext.length > 0) {
        this.warn('ignored-outcome', `A StopFailure hook added context for the model (${outcome.additionalContext.join(' ')}); the turn has ended on an error, so it was ignored.`, 'StopFailure');
      }
    } catch (hookError) {
      // A failing StopFailure hook must not replace the error the turn ended on.
      this.warn('hook-error', `A StopFailure hook failed: ${messageOf(hookError)}`, 'StopFailure');
    }
  }

  /** PostToolBatch, once every tool call of `step` has resolved: a block ends the run there, as Claude Code ends the turn. */
  private async postToolBatch(step: AgentStep): Promise<void> {
    const batch = await this.dispatch('PostToolBatch', () => ToolBatchHookContext.afterBatch(step, this.ctxInit()));
    if (batch.type === 'block') throw new Halt(batch.reason ?? 'A PostToolBatch hook ended the run.', 'hook_stop');
  }

  private halted(halt: Halt): void {
    this.status = 'stopped';
    this.stopReason = halt.stopReason;
    this.reason = halt.reason;
  }

  private async maybeCompact(trigger: 'auto' | 'manual', instructions?: string): Promise<void> {
    const options = this.config.compaction;
    if (options === undefined || (trigger === 'auto' && this.state.messages.length <= options.maxMessages)) return;
    const before = this.state.messages;
    const pre = await this.dispatch('PreCompact', () =>
      CompactHookContext.before({ state: this.state, metadata: this.metadata, trigger, messagesBefore: before, customInstructions: instructions }),
    );
    const custom = pre.context?.event === 'PreCompact' ? pre.context.customInstructions : instructions;
    const after = await compactMessages(this.state.messages, options, { instructions: custom, signal: this.signal });
    this.state = this.state.withMessages(after);
    await this.dispatch('PostCompact', () =>
      CompactHookContext.after({ state: this.state, metadata: this.metadata, trigger, messagesBefore: before, messagesAfter: after, customInstructions: custom }),
    );
    // As in Claude Code, the compacted conversation starts again: SessionStart with source `compact`, so hooks that
    // put context in at the start (a branch, open tasks) put it back.
    await this.dispatch('SessionStart', () => SessionHookContext.onStart({ state: this.state, metadata: this.metadata, source: 'compact', model: this.config.model.name }));
  }

  /**
   * Puts the hooks' pending additional context into the conversation, as one system message: what background hooks
   * woke the model with first (a subagent's run leaves those to the run the user started).
   */
  private flushPendingContext(): void {
    if (this.init.subagent === undefined) this.pendingContext.unshift(...this.env.wakes.take());
    if (this.pendingContext.length > 0) {
      this.addMessage({ role: 'system', content: this.pendingContext.join('\n\n') });
      this.pendingContext = [];
    }
  }

  /** The request of a step's model call, from the conversation as it is now (hooks' pending context first). */
  private modelCallRequest(): ModelCallRequest<ToolDefinition> {
    this.flushPendingContext();
    const { systemPrompt: system, definitions: tools, modelSettings: settings } = this.config;
    const messages = this.state.messages;
    return settings === undefined ? { system, messages, tools } : { system, messages, tools, settings };
  }

  /**
   * One step's model call. Without a hook on (or a listener to) the model events it is the bare call, as cheap as it
   * was before these events existed; with one, see {@link Run.hookedModelCall}.
   */
  private async callModel(index: number): Promise<ModelTurn> {
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
  private holdsText(): boolean {
    const stack = this.config.stack;
    return this.init.stream?.text !== 'live' && (stack.hasHooksFor('BeforeModel') || stack.hasHooksFor('AfterModel'));
  }

  /**
   * One model call of a streamed run: through the model's `stream` when it has one, handing out the text as it
   * comes unless it is held (see {@link Run.holdsText}); through `generate` otherwise, its text given whole.
   */
  private async generate(request: ModelRequest, stepIndex: number): Promise<ModelResponse> {
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
  private async hookedModelCall(index: number): Promise<ModelTurn> {
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
      retry: (feedback) => this.addMessage({ role: 'user', content: feedback }),
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
  private modelRequest(request: ModelCallRequest): ModelRequest {
    const own = new Set<ModelToolSpec>(this.config.definitions);
    const tools = selectedTools(request).map((spec): ToolDefinition => {
      if (own.has(spec)) return spec as ToolDefinition;
      const { name, description, inputSchema } = spec;
      const input = this.config.tools.get(name)?.input ?? (this.config.subagents.has(name) ? SUBAGENT_INPUT : ANY_INPUT);
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

  /** Whether dispatching `event` does anything: a hook can run for it, or someone listens to the lifecycle. */
  private wants(event: HookEventName): boolean {
    return this.config.stack.hasHooksFor(event) || this.listening();
  }

  /** Whether someone listens to the lifecycle (`event`, `dispatched`): then every event is dispatched. */
  private listening(): boolean {
    const emitter = this.env.emitter;
    return emitter.listenerCount('event') > 0 || emitter.listenerCount('dispatched') > 0;
  }

  private async runTools(turn: ModelTurn, stepIndex: number, at?: ResumePoint): Promise<ToolExecution[]> {
    const calls = turn.response.toolCalls;
    const executions: ToolExecution[] = at === undefined ? [] : [...at.executions];
    const stream = this.init.stream;
    const position = (this.position = { stepIndex, turn, executions, callIndex: 0 });
    this.offered = turn.offered === undefined ? undefined : new Set(turn.offered);
    let done = at === undefined ? 0 : at.callIndex;
    let interrupted = false;
    try {
      for (; done < calls.length; done++) {
        const call = calls[done]!;
        this.signal?.throwIfAborted();
        if (this.rejectedStop !== undefined) {
          this.addToolMessage(call, 'Not run: an earlier call of this step was refused and the run is ending.');
        } else {
          const resumed = at !== undefined && done === at.callIndex ? at : undefined;
          if (resumed === undefined) stream?.emit({ type: 'tool-call', stepIndex, toolCall: call });
          position.callIndex = done;
          let execution: ToolExecution;
          if (resumed === undefined) {
            // Two awaits of plain results rather than one of a function that returns another's promise: fewer turns of
            // the event loop per call.
            const decided = await this.decide(call);
            execution = ToolExecution.isToolExecution(decided) ? decided : await this.invoke(decided.call, decided.checked);
          } else {
            execution = await this.resumeTool(resumed);
          }
          executions.push(execution);
          stream?.emit({ type: 'tool-result', stepIndex, execution });
        }
      }
    } catch (error) {
      interrupted = error instanceof Interrupt;
      throw error;
    } finally {
      // Every call gets an answer, so the conversation stays valid for a later turn even when the run halts midway;
      // an interrupted batch leaves its calls open, for the resumed run to answer.
      if (!interrupted) {
        for (const call of calls.slice(done)) {
          if (!this.answered.has(call.id)) this.addToolMessage(call, 'Not run: the run was stopped.');
        }
      }
    }
    return executions;
  }

  /**
   * A call up to the moment it runs: its input checked, PreToolUse, and — when a hook asked — PermissionRequest and the
   * approver (or an interruption). Resolves with the call to run, as the hooks and the decision left it, or with the
   * execution that ends it (a refusal, an input its tool refuses).
   */
  private async decide(original: ToolCall): Promise<ToolExecution | { readonly call: ToolCall; readonly checked: CheckedCall & { ok: true } }> {
    let checked = this.checkInput(original);
    if (!checked.ok) return this.toolFailed(original, checked.error);

    const pre = await this.dispatch('PreToolUse', () => ToolHookContext.beforeToolUse(original, this.ctxInit()));
    // A hook cut short by the cancellation decided nothing: whatever the stack answered, the run ends here.
    this.signal?.throwIfAborted();
    if (pre.type === 'block') return this.refuse(original, `Tool call blocked by a hook: ${pre.reason}`, 'hook');
    let call = pre.context?.event === 'PreToolUse' ? pre.context.toolCall : original;

    if (pre.type === 'ask') {
      const reason = pre.reason ?? 'A hook asked for approval.';
      const perm = await this.dispatch('PermissionRequest', () => ToolHookContext.permissionRequest(call, { state: this.state, metadata: this.metadata, reason }));
      if (perm.type === 'block') return this.refuse(call, `Tool call refused by a permission hook: ${perm.reason}`, 'permission');
      if (perm.context?.event === 'PermissionRequest') call = perm.context.toolCall;
      if (perm.context?.event === 'PermissionRequest' && perm.context.updatedPermissions !== undefined) this.ignoredPermissionUpdates(perm.context.updatedPermissions);
      if (!perm.granted) {
        const why = perm.type === 'ask' && perm.reason ? perm.reason : reason;
        const decision = await this.approve(call, why);
        if (decision === 'interrupt') throw new Interrupt({ phase: 'approval', call, reason: why, requestId: requestId() });
        const decided = await this.decided(call, decision);
        if (ToolExecution.isToolExecution(decided)) return decided;
        call = decided;
      }
    }

    if (call !== original) {
      checked = this.checkInput(call);
      if (!checked.ok) return this.toolFailed(call, checked.error);
    }
    return { call, checked };
  }

  /** Goes on with the call an interrupted run stopped at: the decision made since, or the subagent's run. */
  private async resumeTool(at: ResumePoint): Promise<ToolExecution> {
    if (at.phase === 'subagent') return this.invoke(at.call, { ok: true, tool: undefined, sub: this.config.subagents.get(at.call.name)!, input: undefined }, at);
    const answer = this.init.resume!.decisions[at.requestId!]!;
    // A reviewer decided: a refusal fires PermissionDenied whatever this agent's approval mode.
    const decided = await this.decided(at.call, typeof answer === 'boolean' ? { approved: answer } : answer, true);
    if (ToolExecution.isToolExecution(decided)) return decided;
    const checked = this.checkInput(decided);
    if (!checked.ok) return this.toolFailed(decided, checked.error);
    return this.invoke(decided, checked);
  }

  /** A decision on `call`: its refusal, or the call to run (with the input the decision gave it). */
  private async decided(call: ToolCall, decision: ApprovalDecision, reviewed = this.config.approver !== undefined): Promise<ToolCall | ToolExecution> {
    if (!decision.approved) return this.denied(call, decision, reviewed);
    return decision.updatedInput === undefined ? call : new ToolCall(call.name, { ...decision.updatedInput }, call.id);
  }

  /**
   * Runs a checked call's tool (or subagent), then PostToolUse or PostToolUseFailure. With `resumed`, the subagent's
   * run goes on from its interruption instead of starting.
   */
  private async invoke(call: ToolCall, checked: CheckedCall & { ok: true }, resumed?: ResumePoint): Promise<ToolExecution> {
    const { tool, sub, input } = checked;
    // The last moment to honour a cancellation that came during the permission hooks or the approver.
    this.signal?.throwIfAborted();
    // A resumed subagent's call started before the interruption: its duration counts from then.
    const started = resumed?.startedAt === undefined ? performance.now() : performance.now() - Math.max(0, epochNow() - resumed.startedAt);
    let result: unknown;
    try {
      if (sub !== undefined) {
        const outcome = resumed === undefined ? await this.runSubagent(call, sub) : await this.resumeSubagent(call, sub, resumed);
        if (ToolExecution.isToolExecution(outcome)) return outcome;
        result = outcome;
      } else {
        result = await tool!.execute(input, { toolCall: call, state: this.state, signal: this.signal });
      }
    } catch (error) {
      if (error instanceof Halt || error instanceof Interrupt) throw error;
      this.signal?.throwIfAborted();
      return this.toolFailed(call, error, performance.now() - started);
    }
    const execution = ToolExecution.success(call, result, performance.now() - started);
    const post = await this.answering(call, () => resultText(result), () =>
      this.dispatch('PostToolUse', () => ToolHookContext.afterToolUse(execution, this.ctxInit())),
    );
    if (post.type === 'block') {
      this.addToolMessage(call, `Tool result rejected by a hook: ${post.reason}`);
      return execution;
    }
    const final = post.context?.event === 'PostToolUse' && post.context.execution ? post.context.execution : execution;
    this.addToolMessage(call, final.isError ? `Error: ${final.errorMessage}` : resultText(final.result));
    return final;
  }

  /**
   * What a call runs (its tool or subagent) and its input as the schema parsed it, or why it cannot run (an unknown
   * tool, a schema mismatch). The input is parsed once, here, and the parsed value is what the tool receives.
   */
  private checkInput(call: ToolCall): CheckedCall {
    const tool = this.config.tools.get(call.name);
    const sub = this.config.subagents.get(call.name);
    if (tool === undefined && sub === undefined) {
      return { ok: false, error: new UnknownToolError(call.name, [...this.config.tools.keys(), ...this.config.subagents.keys()]) };
    }
    // A tool the hooks took out of the step's selection is, for that step, a tool the model was never given: a call
    // to it (under mode `none`, or written into the answer by a hook) is refused as an unknown tool's is.
    const offered = this.offered;
    if (offered !== undefined && !offered.has(call.name)) {
      const names = [...offered].filter((name) => this.config.tools.has(name) || this.config.subagents.has(name));
      return { ok: false, error: new ToolNotOfferedError(call.name, names) };
    }
    const parsed = (tool?.input ?? SUBAGENT_INPUT).safeParse(call.args);
    return parsed.success ? { ok: true, tool, sub, input: parsed.data } : { ok: false, error: new ToolInputError(call.name, parsed.error) };
  }

  /** Runs a dispatch after the tool ran: when a hook halts there, the model's record still says what the tool did. */
  private async answering<T>(call: ToolCall, content: () => string, dispatch: () => Promise<T>): Promise<T> {
    try {
      return await dispatch();
    } catch (error) {
      if (error instanceof Halt && !this.answered.has(call.id)) this.addToolMessage(call, content());
      throw error;
    }
  }

  private async toolFailed(call: ToolCall, error: unknown, durationMs?: number): Promise<ToolExecution> {
    const failure = await this.answering(call, () => `Error: ${messageOf(error)}`, () =>
      this.dispatch('PostToolUseFailure', () => ToolHookContext.toolFailure(call, error, this.ctxInit())),
    );
    const execution =
      failure.context?.event === 'PostToolUseFailure' && failure.context.execution ? failure.context.execution : ToolExecution.failure(call, error, durationMs);
    this.addToolMessage(call, execution.isError ? `Error: ${execution.errorMessage ?? messageOf(error)}` : resultText(execution.result));
    return execution;
  }

  private refuse(call: ToolCall, message: string, by: 'hook' | 'permission' | 'approver'): ToolExecution {
    this.env.emitter.emit('tool:blocked', { toolCall: call, reason: message, by });
    this.addToolMessage(call, message);
    return ToolExecution.failure(call, new ToolRefusedError(message, by));
  }

  /** Permission updates a PermissionRequest hook granted (Claude Code's): there are no permission rules here to update. */
  private ignoredPermissionUpdates(updates: readonly Readonly<Record<string, unknown>>[]): void {
    const kinds = updates.map((u) => String(u.type ?? 'update')).join(', ');
    this.warn('ignored-outcome', `A PermissionRequest hook granted permission updates (updatedPermissions: ${kinds}); this agent has no permission rules to update, so they were ignored. The call itself was decided as the hook said.`, 'PermissionRequest');
  }

  /**
   * The approver refused `call`. PermissionDenied fires — where Claude Code fires it when its auto-mode classifier
   * refuses a call: here the approver stands in that place; a hook's refusal, or one for want of an approver, does not
   * count — and a hook's `withRetry()` tells the model it may try the call again, unless the refusal ended the run.
   */
  private async denied(call: ToolCall, decision: ApprovalDecision, reviewed: boolean): Promise<ToolExecution> {
    const message = `Tool call refused: ${decision.reason ?? 'the approver said no'}`;
    if (decision.stopRun) this.rejectedStop = decision.reason ?? 'The approver refused the call and ended the run.';
    // Refused for want of an approver: no one decided, so PermissionDenied does not fire. A decision given to a resumed
    // run was made, as an approver's is.
    if (!reviewed) return this.refuse(call, message, 'approver');
    const reason = decision.reason ?? 'The approver refused the call.';
    const outcome = await this.answering(call, () => message, () =>
      this.dispatch('PermissionDenied', () => ToolHookContext.permissionDenied(call, { state: this.state, metadata: this.metadata, reason })),
    );
    const retry = outcome.context?.event === 'PermissionDenied' && outcome.context.retry && decision.stopRun !== true;
    return this.refuse(call, retry ? `${message}\n${RETRY_NOTE}` : message, 'approver');
  }

  private async approve(call: ToolCall, reason: string): Promise<ApprovalDecision | 'interrupt'> {
    await this.dispatch('Notification', () =>
      NotificationHookContext.notify(`Approval needed for ${call.name}: ${reason}`, { state: this.state, metadata: this.metadata, notificationType: 'permission_prompt', title: 'Approval needed' }),
    );
    const approver = this.config.approver;
    if (approver === undefined) {
      return this.config.approvalInterrupts ? 'interrupt' : { approved: false, reason: `approval needed (${reason}) and this agent has no approver` };
    }
    const answer = await approver({ toolCall: call, reason, state: this.state, signal: this.signal });
    if (typeof answer === 'boolean') return { approved: answer };
    if (answer !== null && typeof answer === 'object' && 'interrupt' in answer && answer.interrupt === true) return 'interrupt';
    if (answer === null || typeof answer !== 'object' || typeof (answer as ApprovalDecision).approved !== 'boolean') {
      throw new TypeError(`The approver answered ${describe(answer)} for ${call.name}; answer true/false, { approved, reason?, updatedInput?, stopRun? } or { interrupt: true }.`);
    }
    return answer as ApprovalDecision;
  }

  /** The interrupted step and call of `frame`, with live objects. */
  private resumePoint(frame: RunFrameJson): ResumePoint {
    const { at } = frame;
    const toolCalls = at.response.toolCalls.map(callFromJson);
    const usage = usageFromJson(at.response.usage);
    return {
      stepIndex: at.stepIndex,
      turn: {
        response: { text: at.response.text, toolCalls, ...(usage !== undefined ? { usage } : {}) },
        usage,
        synthetic: at.response.synthetic === true,
        ...(at.response.offered !== undefined ? { offered: at.response.offered } : {}),
      },
      executions: at.executions.map(executionFromJson),
      callIndex: at.callIndex,
      phase: at.phase,
      call: callFromJson(at.call),
      ...(at.reason !== undefined ? { reason: at.reason } : {}),
      ...(at.requestId !== undefined ? { requestId: at.requestId } : {}),
      ...(at.child !== undefined ? { child: at.child } : {}),
      ...(at.startedAt !== undefined ? { startedAt: at.startedAt } : {}),
    };
  }

  /** This run, stopped by `interrupt`, as JSON: everything its loop carries, and where it stopped. */
  private interruption(interrupt: Interrupt): RunInterruption {
    const position = this.position!;
    const { point } = interrupt;
    const json = new JsonWriter();
    const { response, synthetic, offered } = position.turn;
    const usage = json.usage(response.usage);
    const runUsage = json.usage(this.usage);
    const frame: RunFrameJson = {
      prompt: this.prompt,
      state: json.state(this.state, 'state'),
      metadata: json.record(this.metadata, 'metadata'),
      pendingContext: [...this.pendingContext],
      systemMessages: [...this.systemMessages],
      ...(runUsage !== undefined ? { usage: runUsage } : {}),
      text: this.text,
      stopBlocks: this.stopBlocks,
      ...(this.rejectedStop !== undefined ? { rejectedStop: this.rejectedStop } : {}),
      childRuns: this.childRuns,
      elapsedMs: performance.now() - this.started,
      ...(this.init.subagent !== undefined ? { subagent: { name: this.init.subagent.name, type: this.init.subagent.type } } : {}),
      at: {
        stepIndex: position.stepIndex,
        response: {
          text: response.text,
          toolCalls: response.toolCalls.map((c, i) => json.call(c, `step.toolCalls[${i}]`)),
          ...(usage !== undefined ? { usage } : {}),
          ...(synthetic === true ? { synthetic } : {}),
          ...(offered !== undefined ? { offered: [...offered] } : {}),
        },
        executions: position.executions.map((e, i) => json.execution(e, `step.executions[${i}]`)),
        callIndex: position.callIndex,
        phase: point.phase,
        call: json.call(point.call, 'call'),
        ...(point.reason !== undefined ? { reason: point.reason } : {}),
        ...(point.requestId !== undefined ? { requestId: point.requestId } : {}),
        ...(point.child !== undefined ? { child: point.child } : {}),
        ...(point.startedAt !== undefined ? { startedAt: point.startedAt } : {}),
      },
    };
    // An approval's request is the call the run stopped at, as the frame holds it: what a reviewer sees is what runs.
    const { at } = frame;
    const pending =
      point.phase === 'approval' ? [{ id: at.requestId!, toolCall: at.call, reason: at.reason!, agentId: this.state.agentId, subagentPath: [] }] : interrupt.pending;
    return { frame, pending, lossy: json.lossy };
  }

  /** SubagentStart, then the child's run. Returns the child's text, or the refusal. */
  private async runSubagent(call: ToolCall, sub: ResolvedSubagent): Promise<string | ToolExecution> {
    const task = String(call.args['task'] ?? '');
    const start = await this.dispatch('SubagentStart', () =>
      SubagentHookContext.onStart({ state: this.state, metadata: this.metadata, name: sub.def.name, type: sub.def.type, task }),
    );
    if (start.type === 'block') return this.refuse(call, `Subagent refused by a hook: ${start.reason}`, 'hook');
    const finalTask = start.context?.event === 'SubagentStart' ? start.context.task : task;
    // Derived from the parent's id, so a subagent's id never collides with its parent's or a sibling's.
    const childId = `${this.state.agentId}/${sub.def.name}#${++this.childRuns}`;
    const child = new Run(sub.config, this.env, {
      prompt: finalTask,
      state: AgentState.create({
        agentId: childId,
        parentAgentId: this.state.agentId,
        sessionId: this.state.sessionId,
      }),
      metadata: {},
      signal: this.signal,
      subagent: { name: sub.def.name, type: sub.def.type },
      stream: this.subagentStream(sub.def.name, childId),
    });
    const startedAt = epochNow();
    return this.childResult(call, sub, childId, await child.execute(), startedAt);
  }

  /** A subagent's interrupted run, going on with the decisions this run was resumed with. */
  private async resumeSubagent(call: ToolCall, sub: ResolvedSubagent, at: ResumePoint): Promise<string> {
    const frame = at.child!;
    const child = Run.resumed(sub.config, this.env, { frame, decisions: this.init.resume!.decisions }, {
      signal: this.signal,
      stream: this.subagentStream(sub.def.name, frame.state.agentId),
    });
    return this.childResult(call, sub, frame.state.agentId, await child.execute(), at.startedAt ?? epochNow());
  }

  /** What a subagent's run gives its call: its text, or why it stopped; an interruption inside it interrupts this run. */
  private childResult(call: ToolCall, sub: ResolvedSubagent, childId: string, outcome: Awaited<ReturnType<Run['execute']>>, startedAt: number): string {
    const { failure, interrupted, ...result } = outcome;
    if (interrupted !== undefined) {
      const pending = interrupted.pending.map((p) => ({ ...p, subagentPath: [sub.def.name, ...p.subagentPath] }));
      throw new Interrupt({ phase: 'subagent', call, child: interrupted.frame, startedAt }, pending);
    }
    this.subagentStream(sub.def.name, childId)?.emit({ type: 'run-end', result });
    if (failure) throw failure.error;
    return result.status === 'stopped' ? `${result.text}${result.text ? '\n' : ''}(subagent stopped: ${result.reason})` : result.text;
  }

  /** A subagent's stream inside this run's: each of its events wrapped in a `subagent` event. */
  private subagentStream(name: string, agentId: string): RunStream | undefined {
    const stream = this.init.stream;
    if (stream === undefined) return undefined;
    return { text: stream.text, emit: (event) => stream.emit({ type: 'subagent', name, agentId, event }) };
  }

  /**
   * Dispatches one event. Carries metadata and state changes forward, collects additional context and system
   * messages, turns `stop` into a halt where the event allows it, and warns about outcomes the event cannot honour.
   */
  private async dispatch<E extends HookEventName>(
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
  private streamDecision(event: HookEventName, before: AnyHookContext, outcome: HookOutcome, durationMs: number): void {
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
  private withObserver(): DispatchOptions {
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
  private ctxInit(): { state: AgentState; metadata: Metadata } {
    return { state: this.state, metadata: this.metadata };
  }

  private addMessage(message: Message): void {
    this.state = this.state.withMessage(message);
  }

  private addToolMessage(call: ToolCall, content: string): void {
    this.answered.add(call.id);
    this.addMessage({ role: 'tool', content, toolCallId: call.id, name: call.name });
  }

  private warn(code: string, message: string, event?: string): void {
    const warning = { code, message, event };
    this.env.emitter.emit('warning', warning);
    this.init.stream?.emit({ type: 'warning', warning });
  }

  private result(error?: unknown): RunResult {
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
