/**
 * The hooks of an agent loop someone else runs (the Vercel AI SDK's `generateText`, the OpenAI Agents SDK's `run`):
 * tool calls and model calls dispatched through one {@link HookStack}, with the state, metadata and approvals of one
 * conversation.
 *
 * @module
 */
import { EventEmitter } from 'eventemitter3';
import {
  AgentBuilder,
  type AgentEvents,
  type AgentHooksReport,
  type ApprovalDecision,
  type Approver,
  type HookErrorPolicy,
  ToolNotOfferedError,
} from '../agent/index.js';
import { LOOP_DECISIONS, decisionWithoutInterrupt } from '../agent/internal/approval-answer.js';
import { guardStack } from '../agent/hook-error-policy.js';
import { checkTimeout, DEFAULT_HOOK_TIMEOUT_MS } from '../agent/hook-timeout.js';
import {
  AgentState,
  AgentStep,
  FailureHookContext,
  HookError,
  HookEvent,
  HookOutcome,
  HookStack,
  NotificationHookContext,
  StepHookContext,
  ToolCall,
  ToolExecution,
  ToolHookContext,
  modelCallResponse,
  selectedTools,
  type AnyHookContext,
  type DispatchOptions,
  type HookEventName,
  type HookNote,
  type Message,
  type Metadata,
  type ModelCallRequest,
  type ModelCallResponse,
  type ModelResponseInit,
  type Usage,
} from '../core/index.js';
import { callModelWithHooks } from '../core/internal/model-call.js';
import { messageOf } from '../core/internal/message-of.js';
import { formatProblem } from '../script/problem.js';

/** Where the hooks come from: a stack, a builder (its callbacks and `withHooksFrom` sources), or a {@link LoopHooks}. */
export type HookSource = HookStack | AgentBuilder | LoopHooks;

/** Options of {@link LoopHooks}. */
export interface LoopHooksOptions {
  /** Decides tool calls a hook asked about (`HookOutcome.ask`). Without one, such calls are refused. */
  readonly approver?: Approver | undefined;
  /** What happens when a hook of a {@link HookStack} source throws (default `'fail'`); a builder brings its own policy. */
  readonly onHookError?: HookErrorPolicy | undefined;
  /**
   * How long, in milliseconds, one hook of a {@link HookStack} source may take before it fails as a `timeout` under
   * `onHookError` (default 60 000; `Infinity` for none; a hook's own `timeout` wins). A builder brings its own
   * `withOptions({ hookTimeout })`.
   */
  readonly hookTimeout?: number | undefined;
  /** The `agentId` of the state hooks see (default `'external-agent'`). */
  readonly agentId?: string | undefined;
  /** The `sessionId` of the state hooks see (script hooks get it as `session_id`). */
  readonly sessionId?: string | undefined;
  /** Metadata every hook can read (`ctx.get(key)`); hooks add to it as the conversation goes on. */
  readonly metadata?: Metadata | undefined;
  /**
   * How many times AfterModel hooks may have one model call made again (default: the builder's `modelRetryLimit` when
   * the hooks come from one, else 3, as an agent's); past it the last answer stands, with a `model-retry-forced`
   * warning.
   */
  readonly modelRetryLimit?: number | undefined;
}

/** What a tool call becomes once its hooks have run: the value the model is shown, or an error the SDK reports. */
export type ToolRunner = (call: ToolCall) => unknown;

/** Options of one {@link LoopHooks.runTool} call. */
export interface RunToolOptions {
  /** The SDK's abort signal for the call; hooks get it as their scope's signal. */
  readonly signal?: AbortSignal | undefined;
  /** The conversation so far, for the state hooks see. */
  readonly messages?: readonly Message[] | undefined;
}

/** What the model produced in one step, for {@link LoopHooks.afterStep}. */
export interface StepReport {
  /** The model's text. */
  readonly text: string;
  /** The tool calls it made. */
  readonly toolCalls: readonly ToolCall[];
  /** The tokens it used, when reported. */
  readonly usage?: Usage | undefined;
}

/**
 * Calls the framework's model for {@link LoopHooks.modelCall}: `request` is the call as the BeforeModel and
 * BeforeToolSelection hooks left it. Offer the model only `selectedTools(request)`, and force a tool call when
 * `request.toolConfig.mode` is `any`.
 */
export type ModelCaller = (request: ModelCallRequest) => Promise<ModelResponseInit> | ModelResponseInit;

/** Options of one {@link LoopHooks.modelCall}. */
export interface ModelCallOptions {
  /** The framework's abort signal for the call; hooks get it as their scope's signal. */
  readonly signal?: AbortSignal | undefined;
  /** The model's name: what a string matcher of the model events tests. */
  readonly modelName?: string | undefined;
}

/** What a model call came to once the hooks around it decided: see {@link LoopHooks.modelCall}. */
export interface ModelCallResult {
  /** The answer the framework goes on with, as AfterModel left it; empty when a hook stopped the run. */
  readonly response: ModelCallResponse;
  /** Whether a hook answered instead of the model (the model was not called for this answer). */
  readonly synthetic: boolean;
  /** The request of the call that gave the answer, as BeforeModel and BeforeToolSelection left it. */
  readonly request: ModelCallRequest;
  /** The tokens of every call made, retries included. */
  readonly usage: Usage | undefined;
  /**
   * What the hooks added to the conversation, in order: before each retry, AfterModel's reason as a user message and
   * the hooks' `additionalContext` as a system message. Our agent keeps them in its conversation; keep them in the
   * framework's, before the answer, where it lets you.
   */
  readonly added: readonly Message[];
  /** How many times AfterModel hooks had the call made again. */
  readonly retries: number;
  /** Why a hook stopped the run during the call, when one did (as {@link LoopHooks.stopReason}). */
  readonly stopped: string | undefined;
}

const EMPTY_RESPONSE = modelCallResponse({});


/**
 * The hooks of one conversation run by another SDK's loop. It dispatches each tool call through PreToolUse,
 * PermissionRequest (after an `ask`), PostToolUse and PostToolUseFailure, and each model call through BeforeStep,
 * BeforeModel, BeforeToolSelection, AfterModel ({@link LoopHooks.modelCall}) and AfterStep, with our context classes,
 * so matchers, callbacks, Hook classes and HOOK.md script hooks work as in an {@link AgentBuilder} agent. Metadata set
 * by a hook carries to later events; `additionalContext` waits in {@link LoopHooks.takeContext} for the next model
 * call; a `stop` is remembered in {@link LoopHooks.stopReason}.
 *
 * The texts the model is shown instead of a tool's result are those of the agent runtime:
 * - `Tool call blocked by a hook: <reason>` — a PreToolUse block;
 * - `Tool call refused by a permission hook: <reason>` — a PermissionRequest block;
 * - `Tool call refused: <reason>` — the approver said no, or a hook asked and there is no approver;
 * - `Tool result rejected by a hook: <reason>` — a PostToolUse block (the tool did run);
 * - `Not run: the run was stopped.` — a hook stopped the run, at this call or earlier.
 *
 * A hook that throws under `onHookError: 'fail'` (the default) fails the conversation, as it fails our agent's run:
 * the dispatch rejects with the `HookError` naming the hook and the event, {@link LoopHooks.failure} keeps it, a
 * `hook-failed` warning is emitted, AgentFailed fires, and every later tool call, model call and event of the
 * conversation rejects with the same error before anything runs. Each integration turns that into a failure its
 * framework's caller sees (see docs/frameworks.md, "When a hook throws"). Under `'ignore'` the hook is skipped with a
 * `hook-error` warning; under `'block'` its failure is a block of what the event guards.
 *
 * A tool call is checked against the tools its step's model call offered, as the hooks around that call left them
 * ({@link LoopHooks.modelCall} remembers the selection until the next step): a call to a tool they took out is refused
 * with a `ToolNotOfferedError`, as our agent refuses it (see {@link LoopHooks.runTool}).
 *
 * One instance serves one conversation: share it between the tools and the middleware of one `generateText` call (or
 * one chat), and call {@link LoopHooks.drain} before exiting so asynchronous script hooks finish.
 */
export class LoopHooks {
  /** Dispatches, hook runs, notes, refusals and warnings, as an agent's `events` reports them. */
  readonly events: EventEmitter<AgentEvents> = new EventEmitter<AgentEvents>();
  private readonly resolved: Promise<{
    readonly stack: HookStack;
    readonly problems: AgentHooksReport['problems'];
    readonly modelRetryLimit?: number | undefined;
    readonly notices: readonly string[];
  }>;
  private readonly approver: Approver | undefined;
  /** The limit the options gave, else the builder's (once the hooks are resolved), else 3. */
  private modelRetryLimit: number | undefined;
  private readonly pending = new Set<Promise<unknown>>();
  private stack: HookStack | undefined;
  private reported = false;
  private state: AgentState;
  private metadata: Metadata;
  private pendingContext: string[] = [];
  private readonly messages: string[] = [];
  private stopped: string | undefined;
  /** The error that failed the conversation: a hook that threw under `'fail'`, or hook sources that did not load. */
  private failed: { readonly error: unknown } | undefined;
  private steps = 0;
  /**
   * The names of the tools the last model call offered, as the hooks around it left its request; `undefined` when no
   * such hook ran (every tool was). The framework runs the calls of an answer before it calls the model again, so the
   * last call's selection is the one a tool call is checked against.
   */
  private offered: ReadonlySet<string> | undefined;

  /**
   * Hooks from a stack, or from a builder: its hooks are taken and its sources start loading now, so changing the
   * builder afterwards changes nothing here.
   *
   * Project hooks a builder's `withHooksFrom` skipped for want of trust (not trusted yet, or changed since) are said on
   * stderr once per LoopHooks, at its first event, as our agent says them at its first run — each hook, its file, and
   * the command that trusts them — unless `withHooksFrom({ stderrNotice: false })`; they are also `hook-problem:*`
   * warnings on {@link LoopHooks.events} and problems of {@link LoopHooks.ready}. With `withHooksFrom({ strict: true })`
   * they are a refusal instead: `ready()` and the first event reject with an `UntrustedHooksError`, which fails the
   * conversation (see {@link LoopHooks.failure}) before any model call or tool runs.
   */
  constructor(source: HookStack | AgentBuilder, options: LoopHooksOptions = {}) {
    checkTimeout(options.hookTimeout, 'LoopHooks({ hookTimeout })');
    if (source instanceof AgentBuilder) this.resolved = source.resolveHooks();
    else if (HookStack.isHookStack(source)) this.resolved = Promise.resolve({ stack: guardStack(source, options.onHookError ?? 'fail', options.hookTimeout ?? DEFAULT_HOOK_TIMEOUT_MS), problems: [], notices: [] });
    else throw new TypeError(`Hooks come from a HookStack or an AgentBuilder, got ${describe(source)}.`);
    // A strict hook source's rejection surfaces at ready() and at each dispatch; never as an unhandled rejection.
    this.resolved.catch(() => {});
    if (options.approver !== undefined && typeof options.approver !== 'function') {
      throw new TypeError('approver must be a function (request) => boolean | decision.');
    }
    this.approver = options.approver;
    const limit = options.modelRetryLimit;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) throw new RangeError(`modelRetryLimit must be a non-negative integer, got ${String(limit)}.`);
    this.modelRetryLimit = limit;
    this.state = AgentState.create({ agentId: options.agentId ?? 'external-agent', sessionId: options.sessionId });
    this.metadata = { ...(options.metadata ?? {}) };
  }

  /** `source` itself when it is a LoopHooks (options are then ignored), else a new one over it. */
  static from(source: HookSource, options?: LoopHooksOptions): LoopHooks {
    return source instanceof LoopHooks ? source : new LoopHooks(source, options);
  }

  /**
   * Waits for the hook sources (HOOK.md folders) to load, and tells what was wrong with them. Rejects as the sources
   * do: under `strict`, on a definition that is an error, or a project hook skipped for want of trust
   * (`UntrustedHooksError`).
   */
  async ready(): Promise<AgentHooksReport> {
    const { problems } = await this.resolved;
    return { problems };
  }

  /** Why a hook stopped the run, once one has; the loop should end (see the integrations' stop conditions). */
  get stopReason(): string | undefined {
    return this.stopped;
  }

  /**
   * The error that failed the conversation, once one has: a `HookError` naming the hook that threw and the event
   * (under `onHookError: 'fail'`), or what kept the hook sources from loading. From then on every tool call, model
   * call and event of this conversation rejects with it, before anything runs.
   */
  get failure(): unknown {
    return this.failed?.error;
  }

  /**
   * Throws {@link LoopHooks.failure} when the conversation has failed: what an integration calls before it lets its
   * framework go on (a model call, a tool).
   *
   * @internal
   */
  throwIfFailed(): void {
    if (this.failed !== undefined) throw this.failed.error;
  }

  /** The `systemMessage`s hooks left for the user, in order. */
  get systemMessages(): readonly string[] {
    return Object.freeze([...this.messages]);
  }

  /** The metadata hooks have set so far (with the initial metadata). */
  get currentMetadata(): Metadata {
    return this.metadata;
  }

  /** The steps (model calls) reported so far through {@link LoopHooks.afterStep}. */
  get stepCount(): number {
    return this.steps;
  }

  /** Takes the `additionalContext` hooks produced since the last call: text for the model's next call. */
  takeContext(): string[] {
    const taken = this.pendingContext;
    this.pendingContext = [];
    return taken;
  }

  /** Waits until the work asynchronous hooks left running (async script hooks) has finished. */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /**
   * Runs one tool call through the hooks: PreToolUse (block, ask, rewrite), then PermissionRequest, Notification and
   * the approver after an ask, then `run` with the call as the hooks left it, then PostToolUse (reject, replace) or,
   * when `run` throws, PostToolUseFailure. Resolves with what the model should see; rejects with the tool's error when
   * it failed and no hook replaced the failure, and with the signal's reason when the call is cancelled before `run`
   * (which then never runs, whatever the hooks answered).
   *
   * A call to a tool the last {@link LoopHooks.modelCall} did not offer (BeforeToolSelection or BeforeModel took it out
   * of the request, or chose mode `none`) is refused as our agent refuses it: `run` never runs, PreToolUse does not
   * fire, PostToolUseFailure fires with a `ToolNotOfferedError`, and the call rejects with it (unless a
   * PostToolUseFailure hook replaced the failure with a result). So is a call a hook renamed to such a tool. A
   * framework looks a call up in its own, full tool set: this is what keeps a tool the hooks removed from running.
   */
  async runTool(call: ToolCall, run: ToolRunner, options: RunToolOptions = {}): Promise<unknown> {
    this.throwIfFailed();
    const dispatchOptions = this.dispatchOptions(options.signal);
    if (options.messages !== undefined) this.state = this.state.withMessages(options.messages);
    if (this.stopped !== undefined) return STOPPED;
    // A tool the hooks took out of the step's selection is a tool the model was never given: the framework's loop
    // still finds it in its own tool set, so it is refused here, as our agent refuses it — before PreToolUse.
    const refused = this.notOffered(call);
    if (refused !== undefined) return this.toolFailed(call, refused, dispatchOptions);

    const pre = await this.dispatch('PreToolUse', () => ToolHookContext.beforeToolUse(call, this.init()), dispatchOptions);
    if (pre.type === 'stop') return STOPPED;
    if (pre.type === 'block') return this.refuse(call, `Tool call blocked by a hook: ${pre.reason}`, 'hook');
    let current = pre.context?.event === 'PreToolUse' ? pre.context.toolCall : call;

    if (pre.type === 'ask') {
      const reason = pre.reason ?? 'A hook asked for approval.';
      const perm = await this.dispatch('PermissionRequest', () => ToolHookContext.permissionRequest(current, { ...this.init(), reason }), dispatchOptions);
      if (perm.type === 'stop') return STOPPED;
      if (perm.type === 'block') return this.refuse(current, `Tool call refused by a permission hook: ${perm.reason}`, 'permission');
      if (perm.context?.event === 'PermissionRequest') current = perm.context.toolCall;
      if (!perm.granted) {
        const decision = await this.approve(current, perm.type === 'ask' && perm.reason ? perm.reason : reason, dispatchOptions, options.signal);
        if (this.stopped !== undefined) return STOPPED;
        if (!decision.approved) {
          if (decision.stopRun) this.stopped = decision.reason ?? 'The approver refused the call and ended the run.';
          return this.refuse(current, `Tool call refused: ${decision.reason ?? 'the approver said no'}`, 'approver');
        }
        if (decision.updatedInput !== undefined) current = new ToolCall(current.name, { ...decision.updatedInput }, current.id);
      }
    }
    // A hook that renamed the call cannot reach a tool the step did not offer either.
    const renamed = current.name === call.name ? undefined : this.notOffered(current);
    if (renamed !== undefined) return this.toolFailed(current, renamed, dispatchOptions);

    // A hook cut short by a cancellation decided nothing: the tool must not run on what the stack answered.
    options.signal?.throwIfAborted();
    // Nor after another call's hook failed the conversation while this one's hooks ran (the SDKs run a step's calls
    // side by side).
    this.throwIfFailed();
    const started = performance.now();
    let result: unknown;
    try {
      result = await run(current);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      return this.toolFailed(current, error, dispatchOptions);
    }
    const execution = ToolExecution.success(current, result, performance.now() - started);
    const post = await this.dispatch('PostToolUse', () => ToolHookContext.afterToolUse(execution, this.init()), dispatchOptions);
    if (post.type === 'block') return `Tool result rejected by a hook: ${post.reason}`;
    const final = post.context?.event === 'PostToolUse' && post.context.execution ? post.context.execution : execution;
    if (final.isError) throw final.error;
    return final.result;
  }

  /** Fires BeforeStep for the next model call. */
  async beforeStep(signal?: AbortSignal): Promise<void> {
    // A new step: its calls are checked against its own model call's selection, not the last step's.
    this.offered = undefined;
    await this.dispatch('BeforeStep', () => StepHookContext.beforeStep(this.steps, this.init()), this.dispatchOptions(signal));
  }

  /** Records a finished model call as a step of the state and fires AfterStep. */
  async afterStep(report: StepReport, signal?: AbortSignal): Promise<void> {
    const step = new AgentStep({ index: this.steps++, text: report.text, toolCalls: report.toolCalls, ...(report.usage ? { usage: report.usage } : {}) });
    this.state = this.state.with({ steps: [...this.state.steps, step] });
    await this.dispatch('AfterStep', () => StepHookContext.afterStep(step, this.init()), this.dispatchOptions(signal));
  }

  /**
   * Which of the model events a call dispatches: those with a hook, or all three while someone listens to `events`
   * (`event`, `dispatched`). With none, {@link LoopHooks.modelCall} is the bare call.
   *
   * @internal
   */
  async modelEvents(): Promise<{ readonly beforeModel: boolean; readonly toolSelection: boolean; readonly afterModel: boolean }> {
    const stack = await this.hooks();
    const listening = this.listening();
    return {
      beforeModel: listening || stack.hasHooksFor('BeforeModel'),
      toolSelection: listening || stack.hasHooksFor('BeforeToolSelection'),
      afterModel: listening || stack.hasHooksFor('AfterModel'),
    };
  }

  /**
   * Runs one model call of the framework through the hooks around it, as our agent runs its own:
   * BeforeModel, whose chain ends in BeforeToolSelection and `call` (so that a Hook class's `handle(ctx, next)` wraps
   * the call, and `ctx.callModel()` makes it again), then AfterModel.
   *
   * - BeforeModel may rewrite the request (this call only) or answer instead of the model, which is then not called;
   *   its block is a refusal whose reason is the answer.
   * - BeforeToolSelection narrows the tools: `call` gets the request with its `toolConfig`.
   * - AfterModel may rewrite the answer, or block: the call is made again (BeforeModel onwards) with the conversation
   *   and the reason as a user message after it, at most `modelRetryLimit` times; past that the last answer stands,
   *   with a `model-retry-forced` warning and `model:retry-forced` on {@link LoopHooks.events}.
   * - A `stop` from any of them ends the call: the result's `stopped` says why and its answer is empty.
   *
   * `request` is the call as the framework would make it, the hooks' pending context already in it. Resolves with the
   * answer to go on with; rejects with the model's error when no BeforeModel middleware handled it. The tools the
   * answer's request offered are remembered: until the next step ({@link LoopHooks.beforeStep}), {@link LoopHooks.runTool}
   * refuses a call to any other.
   */
  async modelCall(request: ModelCallRequest, call: ModelCaller, options: ModelCallOptions = {}): Promise<ModelCallResult> {
    const { signal, modelName } = options;
    const stopped = (usage: Usage | undefined, added: readonly Message[], retries: number): ModelCallResult => ({
      response: EMPTY_RESPONSE,
      synthetic: false,
      request,
      usage,
      added,
      retries,
      stopped: this.stopped,
    });
    this.throwIfFailed();
    if (this.stopped !== undefined) return stopped(undefined, [], 0);
    const wanted = await this.modelEvents();
    if (!wanted.beforeModel && !wanted.toolSelection && !wanted.afterModel) {
      this.offered = undefined;
      const response = modelCallResponse(await call(request));
      return { response, synthetic: false, request, usage: response.usage, added: [], retries: 0, stopped: undefined };
    }

    const dispatchOptions = this.dispatchOptions(signal);
    const added: Message[] = [];
    const outcome = await callModelWithHooks({
      stepIndex: this.steps,
      modelName,
      retryLimit: this.modelRetryLimit ?? 3,
      wants: (event) => (event === 'BeforeModel' ? wanted.beforeModel : event === 'AfterModel' ? wanted.afterModel : wanted.toolSelection),
      init: () => this.init(),
      request: () => (added.length === 0 ? request : { ...request, messages: [...request.messages, ...added] }),
      dispatch: (event, make, terminal) => this.dispatch(event, make as never, dispatchOptions, terminal as never) as never,
      call: async (selected) => {
        signal?.throwIfAborted();
        return call(selected);
      },
      halted: () => this.stopped !== undefined,
      retry: (feedback) => {
        // The rejected answer is dropped (its tool calls never run); the model is told why, with the hooks' context.
        added.push({ role: 'user', content: feedback });
        const context = this.takeContext();
        if (context.length > 0) added.push({ role: 'system', content: context.join('\n\n') });
      },
      retryForced: (reason, blocks) => {
        this.events.emit('model:retry-forced', { reason, stepIndex: this.steps, blocks });
        this.events.emit('warning', { code: 'model-retry-forced', message: reason, event: 'AfterModel' });
      },
    });
    if (outcome.halted) return stopped(outcome.usage, added, outcome.retries);
    const { response, synthetic, request: sentRequest, usage, retries } = outcome;
    // What the answer may call: the request of the call that gave it (or, for an answer a hook gave, the request as the
    // hooks left it), as the model was offered it. An AfterModel rewrite adds no tool to it.
    this.offered = new Set(selectedTools(sentRequest).map((t) => t.name));
    return { response, synthetic, request: sentRequest, usage, added, retries, stopped: undefined };
  }

  /**
   * Dispatches any event of the conversation, for the integrations whose framework reports more than tool and model
   * calls (a session, a prompt, a stop gate): `make` builds the context from the conversation's state and metadata,
   * and the outcome is remembered like any other (metadata, context, messages, a stop).
   *
   * @internal
   */
  fire<E extends HookEventName>(
    event: E,
    make: (init: { state: AgentState; metadata: Metadata }) => AnyHookContext & { event: E },
    signal?: AbortSignal,
  ): Promise<HookOutcome<AnyHookContext & { event: E }>> {
    return this.dispatch(event, () => make(this.init()), this.dispatchOptions(signal));
  }

  /** Keeps the conversation the hooks see up to date (the middleware calls it with each model call's prompt). */
  setMessages(messages: readonly Message[]): void {
    this.state = this.state.withMessages(messages);
  }

  private async approve(call: ToolCall, reason: string, dispatchOptions: DispatchOptions, signal: AbortSignal | undefined): Promise<ApprovalDecision> {
    await this.dispatch(
      'Notification',
      () => NotificationHookContext.notify(`Approval needed for ${call.name}: ${reason}`, { ...this.init(), notificationType: 'permission_prompt', title: 'Approval needed' }),
      dispatchOptions,
    );
    if (this.approver === undefined) return { approved: false, reason: `approval needed (${reason}) and no approver was given` };
    const answer = await this.approver({ toolCall: call, reason, state: this.state, signal, allowed: LOOP_DECISIONS });
    return decisionWithoutInterrupt(answer, "a framework's loop");
  }

  /** The refusal of a call to a tool the last model call did not offer; `undefined` when it did (or offered all). */
  private notOffered(call: ToolCall): ToolNotOfferedError | undefined {
    const offered = this.offered;
    return offered === undefined || offered.has(call.name) ? undefined : new ToolNotOfferedError(call.name, [...offered]);
  }

  /**
   * A call that failed (its tool threw, or it was refused before it ran): PostToolUseFailure, whose hook may replace the
   * failure with a result; else the error is thrown for the framework to report.
   */
  private async toolFailed(call: ToolCall, error: unknown, dispatchOptions: DispatchOptions): Promise<unknown> {
    const failure = await this.dispatch('PostToolUseFailure', () => ToolHookContext.toolFailure(call, error, this.init()), dispatchOptions);
    const replaced = failure.context?.event === 'PostToolUseFailure' ? failure.context.execution : undefined;
    if (replaced !== undefined && !replaced.isError) return replaced.result;
    throw error;
  }

  private refuse(call: ToolCall, message: string, by: 'hook' | 'permission' | 'approver'): string {
    this.events.emit('tool:blocked', { toolCall: call, reason: message, by });
    return message;
  }

  private init(): { state: AgentState; metadata: Metadata } {
    return { state: this.state, metadata: this.metadata };
  }

  private async hooks(): Promise<HookStack> {
    if (this.stack !== undefined) return this.stack;
    const { stack, problems, modelRetryLimit, notices } = await this.resolved;
    this.modelRetryLimit ??= modelRetryLimit ?? 3;
    if (!this.reported) {
      // Told once, as warnings, so a bad hook definition never goes unnoticed.
      this.reported = true;
      // And a project hook skipped for want of trust is said on stderr too, as our agent says it: a guard that silently
      // does not run is missed by a program that never listens to warnings (`stderrNotice: false` leaves it out).
      if (notices.length > 0) process.stderr.write(`${notices.join('\n')}\n`);
      for (const p of problems) this.events.emit('warning', { code: `hook-problem:${p.code}`, message: formatProblem(p), hookName: p.hookName });
    }
    return (this.stack = stack);
  }

  private dispatchOptions(signal: AbortSignal | undefined): DispatchOptions {
    const emitter = this.events;
    const observed = emitter.listenerCount('hook:start') + emitter.listenerCount('hook:end') + emitter.listenerCount('hook:error') > 0;
    return {
      signal,
      onNote: (note: HookNote) => {
        emitter.emit('hook:note', note);
        if (note.level === 'warning') emitter.emit('warning', { code: note.code, message: note.message, event: note.event, hookName: note.hookName });
      },
      waitUntil: (work) => {
        const tracked = work.then(
          () => undefined,
          () => undefined,
        );
        this.pending.add(tracked);
        void tracked.then(() => this.pending.delete(tracked));
      },
      ...(observed
        ? {
            observer: {
              onHookStart: (info) => emitter.emit('hook:start', info),
              onHookEnd: (info) => emitter.emit('hook:end', info),
              onHookError: (info) => emitter.emit('hook:error', info),
            },
          }
        : {}),
    };
  }

  /** Whether someone listens to the lifecycle (`event`, `dispatched`): then every event is dispatched. */
  private listening(): boolean {
    return this.events.listenerCount('event') > 0 || this.events.listenerCount('dispatched') > 0;
  }

  /**
   * Dispatches one event: carries metadata and state forward, collects context and messages, remembers a stop. With a
   * `terminal` (the model call ending BeforeModel's chain) the dispatch always runs, so that the terminal does.
   */
  private async dispatch<E extends HookEventName>(
    event: E,
    make: () => AnyHookContext & { event: E },
    options: DispatchOptions,
    terminal?: (ctx: AnyHookContext & { event: E }) => Promise<HookOutcome>,
  ): Promise<HookOutcome<AnyHookContext & { event: E }>> {
    this.throwIfFailed();
    let stack: HookStack;
    try {
      stack = await this.hooks();
    } catch (error) {
      throw await this.fail(error, event);
    }
    const emitter = this.events;
    if (terminal === undefined && !this.listening() && !stack.hasHooksFor(event)) return HookOutcome.proceed();
    const ctx = make();
    emitter.emit('event', ctx);
    const started = performance.now();
    let outcome: HookOutcome;
    try {
      outcome = await stack.process(ctx, terminal as ((ctx: AnyHookContext) => Promise<HookOutcome>) | undefined, options);
    } catch (error) {
      // A hook's own error fails the conversation; the model's, passed through BeforeModel's chain, is the SDK's to
      // handle (it may retry), and a cancellation is the caller's.
      if (HookError.isHookError(error) && options.signal?.aborted !== true) throw await this.fail(error, event);
      throw error;
    }
    emitter.emit('dispatched', { context: outcome.context ?? ctx, outcome, durationMs: performance.now() - started });

    if (outcome.context !== undefined) {
      if (outcome.context.metadata !== ctx.metadata) this.metadata = { ...this.metadata, ...outcome.context.metadata };
      if (outcome.context.state !== ctx.state) this.state = outcome.context.state;
    }
    if (outcome.additionalContext.length > 0) this.pendingContext.push(...outcome.additionalContext);
    if (outcome.systemMessages.length > 0) this.messages.push(...outcome.systemMessages);

    const info = HookEvent.info(event);
    if (outcome.type === 'stop') {
      this.stopped ??= outcome.reason ?? `Stopped by a ${event} hook.`;
    } else if (outcome.type === 'block' && !info.canBlock) {
      this.warn(`A ${event} hook returned block (${outcome.reason}); ${event} cannot be blocked, so it was ignored.`, event);
    } else if (outcome.type === 'ask' && !info.canAsk) {
      this.warn(`A ${event} hook returned ask (${outcome.reason}); only tool calls can ask for approval, so it was ignored.`, event);
    }
    return outcome as HookOutcome<AnyHookContext & { event: E }>;
  }

  /**
   * Fails the conversation with `error` (the first failure only): a `hook-failed` warning, then AgentFailed, as our
   * agent fires it. Returns `error`, for the caller to throw.
   */
  private async fail(error: unknown, event: HookEventName): Promise<unknown> {
    if (this.failed !== undefined) return error;
    this.failed = { error };
    const hookName = HookError.isHookError(error) ? error.hookName : undefined;
    // A hook that threw, or hook sources that refused to load (`strict`): either way the conversation is over.
    const why = HookError.isHookError(error) ? "onHookError 'fail'" : 'the hook sources did not load';
    this.events.emit('warning', { code: 'hook-failed', message: `${messageOf(error)} (${why}: the run was ended)`, event, hookName });
    await this.afterFailure('AgentFailed', (init) => FailureHookContext.onFailure(error, init));
    return error;
  }

  /**
   * Dispatches an event that reports a failure (AgentFailed; ExecutionEnd with status `failed`) once the conversation
   * has failed. A hook that fails here too must not replace the first error: it is a `hook-error` warning.
   *
   * @internal
   */
  async afterFailure<E extends HookEventName>(event: E, make: (init: { state: AgentState; metadata: Metadata }) => AnyHookContext & { event: E }): Promise<void> {
    if (this.stack === undefined) return;
    if (!this.listening() && !this.stack.hasHooksFor(event)) return;
    const ctx = make(this.init());
    this.events.emit('event', ctx);
    try {
      await this.stack.process(ctx, undefined, this.dispatchOptions(undefined));
    } catch (hookError) {
      this.events.emit('warning', { code: 'hook-error', message: `A ${event} hook failed too: ${messageOf(hookError)}`, event });
    }
  }

  private warn(message: string, event: string): void {
    this.events.emit('warning', { code: 'ignored-outcome', message, event });
  }
}

/** What a tool call is answered with once a hook has stopped the run. */
const STOPPED = 'Not run: the run was stopped.';

const describe = (value: unknown): string =>
  value === null ? 'null' : typeof value === 'object' ? ((value as object).constructor?.name ?? 'an object') : typeof value;
