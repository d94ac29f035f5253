/**
 * OpenTelemetry tracing of an agent's runs, steps, tool calls and hooks.
 *
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { SpanStatusCode, context as otelContext, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
// This entry point is built on its own: importing the package by name (types only) keeps one copy of its classes and
// declarations, so that an OtelHooks is a Hook of the same package the user's agent comes from.
import type {
  Agent,
  AnyHookContext,
  Hook,
  HookObserver,
  HookOutcome,
  HookRunInfo,
  MaybePromise,
  NextFn,
  RunFrameJson,
  RunInterruptedInfo,
} from 'agent-hooks';
import { OtelAttributes as A } from './otel-attributes.js';

/** Options of {@link otelHooks}. */
export interface OtelHooksOptions {
  /** The tracer spans are made with (default: `trace.getTracer('agent-hooks')` of the global tracer provider). */
  readonly tracer?: Tracer | undefined;
  /** The priority to register at when the registration names none (default 1000000: around every other hook). */
  readonly priority?: number | undefined;
}

/** The spans of one run, found again through a token in the run's metadata. */
interface RunTrace {
  readonly id: string;
  readonly agentId: string;
  readonly span: Span;
  step: Span | undefined;
  /** Open tool spans by call id, in the order they started. */
  readonly tools: Map<string, { readonly span: Span; readonly name: string }>;
}

/** What the hooks of one dispatch run inside: the span their spans belong under, and their open spans. */
interface DispatchScope {
  readonly parent: Span | undefined;
  readonly open: Map<string, Span[]>;
}

const RUN_KEY = 'agent_hooks.otel.run';

const isThenable = (value: unknown): value is PromiseLike<HookOutcome> =>
  value instanceof Promise || (value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function');

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const outcomeAttributes = (outcome: HookOutcome | undefined, error?: unknown): Attributes => ({
  [A.OUTCOME]: outcome?.type ?? 'error',
  ...(outcome?.reason !== undefined ? { [A.REASON]: outcome.reason } : error !== undefined ? { [A.REASON]: messageOf(error) } : {}),
});

const round = (ms: number): number => Math.round(ms * 1000) / 1000;

let traces = 0;
/** Makes run tokens unique across processes: a resumed run's metadata carries its token from the process it left. */
const PROCESS_TOKEN = randomUUID().slice(0, 8);

/**
 * Traces an agent with OpenTelemetry. Register it as a hook, and let it observe the agent for one span per hook:
 *
 * ```ts
 * import { otelHooks } from 'agent-hooks/otel';
 *
 * const tracing = otelHooks({ tracer: trace.getTracer('my-app') });
 * const agent = AgentBuilder.new().withModel(model).withTools(bash).withHook(tracing).build();
 * tracing.observe(agent);
 * ```
 *
 * Spans, each under the one before it:
 *
 * | span | from → to | attributes |
 * |---|---|---|
 * | `agent_hooks.run` | SessionStart or ExecutionStart → ExecutionEnd | agent, parent agent and session ids; `agent_hooks.run.status`, reason, duration |
 * | `agent_hooks.step` | BeforeStep → AfterStep | `agent_hooks.step.index` |
 * | `agent_hooks.tool <name>` | PreToolUse → PostToolUse(Failure), or the refusal | `gen_ai.tool.name`, `gen_ai.tool.call.id`, PreToolUse's outcome and reason, `agent_hooks.tool.status` |
 * | `agent_hooks.hook <name>` | one hook's run in one dispatch | `agent_hooks.event`, `agent_hooks.hook.name`, `.priority`, `agent_hooks.outcome`, reason, `agent_hooks.duration_ms` (its own time) |
 *
 * Every dispatch is also an `agent_hooks.dispatch` event on the span it belongs to (tool events on the tool's span,
 * step and model events on the step's, the others on the run's), with the event, the combined outcome and its duration. A
 * subagent's run span is a child of the tool span that started it. A dispatch outside a run (SessionEnd, or a
 * `HookStack.process` of your own) gets an `agent_hooks.dispatch <Event>` span.
 *
 * How it fits: as a Hook at the outermost priority it sees every context, opens and closes the run, step and tool
 * spans, and keeps a token in the run's metadata (`agent_hooks.otel.run`), so concurrent runs never share spans. Hook
 * spans come from the per-hook timings of the stack's observer — `observe(agent)` subscribes to the agent's
 * `hook:start`/`hook:end`/`hook:error` events; pass {@link OtelHooks.observer} to `HookStack.process` when
 * dispatching by hand — and are parented through an `AsyncLocalStorage` scope the hook opens around the rest of the
 * chain. The run span starts under the context active when the run started, so an agent run inside a traced request
 * joins that trace.
 */
export class OtelHooks implements Hook {
  /** Always `'OtelHooks'`. */
  readonly name = 'OtelHooks';
  /** The priority it registers at by default. */
  readonly priority: number;
  /**
   * A hook-by-hook observer that records one span per hook, for `HookStack.process(ctx, terminal, { observer })`.
   * `observe(agent)` wires it to an agent.
   */
  readonly observer: HookObserver;
  private readonly tracer: Tracer;
  private readonly scopes = new AsyncLocalStorage<DispatchScope>();
  private readonly runs = new Map<string, RunTrace>();
  /** Runs whose first dispatch was stopped before the token reached the metadata, by agent id. */
  private readonly orphans = new Map<string, RunTrace[]>();
  /** Tool spans that started a subagent, waiting for its run, by `parentAgentId/subagentName`. */
  private readonly pendingChildren = new Map<string, Span[]>();
  /** Hook spans begun outside any dispatch this hook saw. */
  private readonly unscoped: DispatchScope = { parent: undefined, open: new Map() };

  constructor(options: OtelHooksOptions = {}) {
    if (options.priority !== undefined && (typeof options.priority !== 'number' || !Number.isFinite(options.priority))) {
      throw new TypeError(`otelHooks: priority must be a finite number, got ${String(options.priority)}.`);
    }
    this.tracer = options.tracer ?? trace.getTracer('agent-hooks');
    this.priority = options.priority ?? 1_000_000;
    this.observer = {
      onHookStart: (info) => this.hookStarted(info),
      onHookEnd: (info) => this.hookEnded(info, info.outcome, info.durationMs),
      onHookError: (info) => this.hookEnded(info, undefined, info.durationMs, info.error),
    };
  }

  /**
   * Records one span per hook run of `agent`'s dispatches (its `hook:*` events), and ends an interrupted run's spans
   * where it stopped (`run:interrupted`: status `interrupted`; a resumed run gets a span of its own, marked
   * `agent_hooks.run.resumed`). Returns a function that stops it.
   */
  observe(agent: Pick<Agent, 'events'>): () => void {
    const { onHookStart, onHookEnd, onHookError } = this.observer as Required<HookObserver>;
    agent.events.on('hook:start', onHookStart);
    agent.events.on('hook:end', onHookEnd);
    agent.events.on('hook:error', onHookError);
    const onInterrupted = (info: RunInterruptedInfo) => this.interrupted(info);
    agent.events.on('run:interrupted', onInterrupted);
    return () => {
      agent.events.off('run:interrupted', onInterrupted);
      agent.events.off('hook:start', onHookStart);
      agent.events.off('hook:end', onHookEnd);
      agent.events.off('hook:error', onHookError);
    };
  }

  handle(ctx: AnyHookContext, next: NextFn): MaybePromise<HookOutcome> {
    let run = this.runOf(ctx);
    let goOn = ctx;
    let starting = false;
    // A run resumed from an interruption carries the token of a span that ended there (or in another process).
    const resumed = run === undefined && typeof ctx.metadata[RUN_KEY] === 'string';
    if (run === undefined && (resumed || ctx.event === 'ExecutionStart' || ctx.event === 'SessionStart')) {
      run = this.startRun(ctx, resumed);
      goOn = ctx.withMetadata(RUN_KEY, run.id);
      starting = true;
    }
    if (run === undefined) return this.standalone(ctx, next);
    const current = run;
    const parent = this.enter(current, ctx);
    const started = performance.now();
    const done = (outcome: HookOutcome): HookOutcome => {
      if (starting && outcome.context?.metadata[RUN_KEY] !== current.id) this.adopt(current);
      this.leave(current, ctx, parent, outcome, performance.now() - started);
      return outcome;
    };
    const failed = (error: unknown): never => {
      this.leave(current, ctx, parent, undefined, performance.now() - started, error);
      throw error;
    };
    let result: MaybePromise<HookOutcome>;
    try {
      result = this.scopes.run({ parent, open: new Map() }, () => next(goOn));
    } catch (error) {
      return failed(error);
    }
    return isThenable(result) ? Promise.resolve(result).then(done, failed) : done(result);
  }

  private runOf(ctx: AnyHookContext): RunTrace | undefined {
    const id = ctx.metadata[RUN_KEY];
    if (typeof id === 'string') return this.runs.get(id);
    return this.orphans.get(ctx.state.agentId)?.[0];
  }

  /** A run whose first dispatch was stopped carries no token; its later events find it by agent id. */
  private adopt(run: RunTrace): void {
    const list = this.orphans.get(run.agentId) ?? [];
    list.push(run);
    this.orphans.set(run.agentId, list);
  }

  private startRun(ctx: AnyHookContext, resumed = false): RunTrace {
    const { agentId, parentAgentId, sessionId } = ctx.state;
    let parent: Context = otelContext.active();
    if (parentAgentId !== undefined && agentId.startsWith(`${parentAgentId}/`)) {
      // A subagent's id is `<parent>/<name>#<n>`: its run belongs under the tool call that started it.
      const key = `${parentAgentId}/${agentId.slice(parentAgentId.length + 1).replace(/#\d+$/, '')}`;
      const waiting = this.pendingChildren.get(key);
      const span = waiting?.shift();
      if (waiting?.length === 0) this.pendingChildren.delete(key);
      if (span !== undefined) parent = trace.setSpan(parent, span);
    }
    const span = this.tracer.startSpan(
      'agent_hooks.run',
      {
        attributes: {
          [A.AGENT_ID]: agentId,
          ...(parentAgentId !== undefined ? { [A.PARENT_AGENT_ID]: parentAgentId } : {}),
          ...(sessionId !== undefined ? { [A.SESSION_ID]: sessionId } : {}),
          ...(resumed ? { [A.RUN_RESUMED]: true } : {}),
        },
      },
      parent,
    );
    const run: RunTrace = { id: `run-${PROCESS_TOKEN}-${++traces}`, agentId, span, step: undefined, tools: new Map() };
    this.runs.set(run.id, run);
    return run;
  }

  private child(name: string, parent: Span, attributes: Attributes): Span {
    return this.tracer.startSpan(name, { attributes }, trace.setSpan(otelContext.active(), parent));
  }

  /** Opens the step or tool span an event begins; returns the span the dispatch belongs to. */
  private enter(run: RunTrace, ctx: AnyHookContext): Span {
    switch (ctx.event) {
      case 'BeforeStep':
        run.step?.end();
        run.step = this.child('agent_hooks.step', run.span, { [A.STEP_INDEX]: ctx.stepIndex });
        return run.step;
      case 'BeforeModel':
      case 'BeforeToolSelection':
      case 'AfterModel':
      case 'PostToolBatch':
      case 'AfterStep':
      case 'PreCompact':
      case 'PostCompact':
        return run.step ?? run.span;
      case 'PreToolUse':
        return this.openTool(run, ctx.toolCall.name, ctx.toolCall.id);
      case 'PermissionRequest':
      case 'PermissionDenied':
      case 'PostToolUse':
      case 'PostToolUseFailure':
        // A call that could not run (unknown tool, invalid input) fails without a PreToolUse.
        return run.tools.get(ctx.toolCall.id)?.span ?? this.openTool(run, ctx.toolCall.name, ctx.toolCall.id);
      case 'SubagentStart':
        return this.latestTool(run, ctx.name) ?? run.step ?? run.span;
      case 'Notification':
        return this.latestTool(run) ?? run.step ?? run.span;
      default:
        return run.span;
    }
  }

  private openTool(run: RunTrace, name: string, id: string): Span {
    const span = this.child(`agent_hooks.tool ${name}`, run.step ?? run.span, { [A.TOOL_NAME]: name, [A.TOOL_CALL_ID]: id });
    run.tools.set(id, { span, name });
    return span;
  }

  private latestTool(run: RunTrace, name?: string): Span | undefined {
    let found: Span | undefined;
    for (const tool of run.tools.values()) if (name === undefined || tool.name === name) found = tool.span;
    return found;
  }

  /** Records the dispatch on its span, and closes what the event ends. */
  private leave(run: RunTrace, ctx: AnyHookContext, parent: Span, outcome: HookOutcome | undefined, durationMs: number, error?: unknown): void {
    parent.addEvent('agent_hooks.dispatch', { [A.EVENT]: ctx.event, ...outcomeAttributes(outcome, error), [A.DURATION_MS]: round(durationMs) });
    const type = outcome?.type;
    switch (ctx.event) {
      case 'PreToolUse':
        parent.setAttributes(outcomeAttributes(outcome, error));
        if (type === 'block' || type === 'stop') this.closeTool(run, ctx.toolCall.id, 'refused');
        break;
      case 'PermissionRequest':
        if (type === 'block' || type === 'stop') this.closeTool(run, ctx.toolCall.id, 'refused', outcome?.reason);
        break;
      case 'SubagentStart': {
        if (type !== 'proceed') break;
        const key = `${ctx.state.agentId}/${ctx.name}`;
        this.pendingChildren.set(key, [...(this.pendingChildren.get(key) ?? []), parent]);
        break;
      }
      case 'PostToolUse':
        this.closeTool(run, ctx.toolCall.id, 'ok');
        break;
      case 'PostToolUseFailure':
        this.closeTool(run, ctx.toolCall.id, 'error', ctx.errorMessage);
        break;
      case 'AfterStep':
        for (const [id] of run.tools) {
          const execution = ctx.step?.executions.find((e) => e.toolCall.id === id);
          const refused = (execution?.error as Error | undefined)?.name === 'ToolRefusedError';
          this.closeTool(run, id, refused ? 'refused' : 'error', execution?.errorMessage);
        }
        run.step?.end();
        run.step = undefined;
        break;
      case 'ExecutionEnd':
        this.endRun(run, ctx.status, ctx.reason, ctx.durationMs);
        break;
      default:
        break;
    }
  }

  private closeTool(run: RunTrace, id: string, status: 'ok' | 'error' | 'refused' | 'interrupted', reason?: string): void {
    const tool = run.tools.get(id);
    if (tool === undefined) return;
    run.tools.delete(id);
    for (const [key, spans] of this.pendingChildren) {
      const left = spans.filter((s) => s !== tool.span);
      if (left.length === 0) this.pendingChildren.delete(key);
      else if (left.length !== spans.length) this.pendingChildren.set(key, left);
    }
    tool.span.setAttribute(A.TOOL_STATUS, status);
    if (status === 'error') tool.span.setStatus({ code: SpanStatusCode.ERROR, ...(reason !== undefined ? { message: reason } : {}) });
    else if (reason !== undefined) tool.span.setAttribute(A.REASON, reason);
    tool.span.end();
  }

  /**
   * An interrupted run's spans end where it stopped — its own, and its subagents' runs under it — so that they are
   * exported now and nothing waits in memory for a resume that may come in another process, or never.
   */
  private interrupted(info: RunInterruptedInfo): void {
    // The run's token, and those of the subagents' runs it was inside, from the snapshot's frames.
    const tokens = new Set<unknown>([info.metadata[RUN_KEY]]);
    for (let frame: RunFrameJson | undefined = info.interruption.snapshot.run; frame !== undefined; frame = frame.at?.child) tokens.add(frame.metadata[RUN_KEY]);
    for (const run of [...this.runs.values()].reverse()) {
      if (!tokens.has(run.id)) continue;
      for (const [id] of run.tools) this.closeTool(run, id, 'interrupted', 'the run was interrupted: the call waits for a decision');
      this.endRun(run, 'interrupted', undefined, undefined);
    }
  }

  private endRun(run: RunTrace, status: string | undefined, reason: string | undefined, durationMs: number | undefined): void {
    for (const [id] of run.tools) this.closeTool(run, id, 'refused', 'the run ended first');
    run.step?.end();
    run.step = undefined;
    run.span.setAttributes({
      ...(status !== undefined ? { [A.RUN_STATUS]: status } : {}),
      ...(reason !== undefined ? { [A.REASON]: reason } : {}),
      ...(durationMs !== undefined ? { [A.DURATION_MS]: round(durationMs) } : {}),
    });
    if (status === 'failed') run.span.setStatus({ code: SpanStatusCode.ERROR, ...(reason !== undefined ? { message: reason } : {}) });
    run.span.end();
    this.runs.delete(run.id);
    const orphans = this.orphans.get(run.agentId);
    if (orphans?.includes(run)) {
      const left = orphans.filter((r) => r !== run);
      if (left.length === 0) this.orphans.delete(run.agentId);
      else this.orphans.set(run.agentId, left);
    }
  }

  /** A dispatch outside any run: one span for it, with its hooks' spans inside. */
  private standalone(ctx: AnyHookContext, next: NextFn): MaybePromise<HookOutcome> {
    const span = this.tracer.startSpan(`agent_hooks.dispatch ${ctx.event}`, {
      attributes: { [A.EVENT]: ctx.event, [A.AGENT_ID]: ctx.state.agentId, ...(ctx.state.sessionId !== undefined ? { [A.SESSION_ID]: ctx.state.sessionId } : {}) },
    });
    const started = performance.now();
    const end = (outcome: HookOutcome | undefined, error?: unknown): void => {
      span.setAttributes({ ...outcomeAttributes(outcome, error), [A.DURATION_MS]: round(performance.now() - started) });
      if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: messageOf(error) });
      span.end();
    };
    const done = (outcome: HookOutcome): HookOutcome => (end(outcome), outcome);
    const failed = (error: unknown): never => {
      end(undefined, error);
      throw error;
    };
    let result: MaybePromise<HookOutcome>;
    try {
      result = this.scopes.run({ parent: span, open: new Map() }, () => next(ctx));
    } catch (error) {
      return failed(error);
    }
    return isThenable(result) ? Promise.resolve(result).then(done, failed) : done(result);
  }

  private hookStarted(info: HookRunInfo): void {
    const scope = this.scopes.getStore();
    // This hook's own runs show as the run, step and tool spans, never as hook spans — also where one event is
    // dispatched inside another's chain (BeforeToolSelection inside BeforeModel's), within a scope it opened.
    if (info.hookName === this.name) return;
    const at = scope ?? this.unscoped;
    const parent = at.parent === undefined ? otelContext.active() : trace.setSpan(otelContext.active(), at.parent);
    const span = this.tracer.startSpan(
      `agent_hooks.hook ${info.hookName}`,
      { attributes: { [A.EVENT]: info.event, [A.HOOK_NAME]: info.hookName, [A.HOOK_PRIORITY]: info.priority } },
      parent,
    );
    const key = `${info.hookName}\u0000${info.priority}\u0000${info.event}`;
    at.open.set(key, [...(at.open.get(key) ?? []), span]);
  }

  private hookEnded(info: HookRunInfo, outcome: HookOutcome | undefined, durationMs: number, error?: unknown): void {
    const at = this.scopes.getStore() ?? this.unscoped;
    const key = `${info.hookName}\u0000${info.priority}\u0000${info.event}`;
    const spans = at.open.get(key);
    const span = spans?.pop();
    if (span === undefined) return;
    if (spans!.length === 0) at.open.delete(key);
    span.setAttributes({ ...outcomeAttributes(outcome, error), [A.DURATION_MS]: round(durationMs) });
    if (error !== undefined) {
      span.recordException(error instanceof Error ? error : new Error(messageOf(error)));
      span.setStatus({ code: SpanStatusCode.ERROR, message: messageOf(error) });
    }
    span.end();
  }
}

/**
 * Traces an agent with OpenTelemetry: run, step, tool and hook spans with outcomes and durations (see
 * {@link OtelHooks}). Needs `@opentelemetry/api` (an optional peer dependency) and a tracer provider of your choice.
 *
 * ```ts
 * import { otelHooks } from 'agent-hooks/otel';
 *
 * const tracing = otelHooks();
 * const agent = AgentBuilder.new().withModel(model).withHook(tracing).build();
 * tracing.observe(agent);
 * ```
 */
export function otelHooks(options: OtelHooksOptions = {}): OtelHooks {
  return new OtelHooks(options);
}
