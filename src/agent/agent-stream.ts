/**
 * A run streamed: what `agent.stream()` and `session.stream()` return, and the events it yields.
 *
 * @module
 */
import type { AgentStep, HookEventName, HookOutcome, ModelCallResponse, OutcomeType, ToolCall, ToolExecution } from '../core/index.js';
import type { AgentWarning } from './agent-events.js';
import type { RunOptions, RunResult } from './run-result.js';

/**
 * When a streamed run hands out the model's text:
 * - `checked` (the default) — as soon as nothing can change it any more. With no hook on BeforeModel or AfterModel,
 *   that is as the model writes it. With one, the text of each model call is held until those hooks have decided,
 *   then given whole: a hook that rewrites, redacts or rejects the answer works on the whole answer, and no text it
 *   rejected or changed ever reaches the stream.
 * - `live` — always as the model writes it, also while hooks could still change it; the `model-response` event then
 *   says what stands (rewritten, or from a call made again), and the consumer must replace what it showed.
 */
export type StreamTextMode = 'checked' | 'live';

/** Options of `agent.stream()` and `session.stream()`: a run's options, and when text is handed out. */
export interface StreamOptions extends RunOptions {
  /** When the model's text is handed out (default `checked`; see {@link StreamTextMode}). */
  readonly text?: StreamTextMode | undefined;
}

/** A step begins: the events of the step follow, and `step-end` closes it. */
export interface StepStartEvent {
  /** Always `'step-start'`. */
  readonly type: 'step-start';
  /** 0-based index of the step. */
  readonly stepIndex: number;
}

/**
 * A piece of the step's answer text. In `checked` mode the deltas of a step join to the step's final text; in `live`
 * mode, to what the model wrote (see {@link StreamTextMode}).
 */
export interface TextDeltaEvent {
  /** Always `'text-delta'`. */
  readonly type: 'text-delta';
  /** 0-based index of the step. */
  readonly stepIndex: number;
  /** The text. */
  readonly text: string;
}

/** The step's answer, once the hooks around the model call have decided: what the run goes on with. */
export interface ModelResponseEvent {
  /** Always `'model-response'`. */
  readonly type: 'model-response';
  /** 0-based index of the step. */
  readonly stepIndex: number;
  /** The text and the tool calls, as the hooks left them. */
  readonly response: ModelCallResponse;
  /** Whether a hook answered instead of the model (the model was not called for it). */
  readonly synthetic: boolean;
}

/** A tool call of the step is next: its PreToolUse hooks run now, and decide whether it runs. */
export interface ToolCallEvent {
  /** Always `'tool-call'`. */
  readonly type: 'tool-call';
  /** 0-based index of the step. */
  readonly stepIndex: number;
  /** The call, as the model (or a hook answering for it) made it. */
  readonly toolCall: ToolCall;
}

/** A tool call is done: its result, its failure, or its refusal (an error execution whose error says who refused). */
export interface ToolResultEvent {
  /** Always `'tool-result'`. */
  readonly type: 'tool-result';
  /** 0-based index of the step. */
  readonly stepIndex: number;
  /** What the call did, after the PostToolUse (or PostToolUseFailure) hooks. */
  readonly execution: ToolExecution;
}

/** The hooks of a lifecycle event have decided. Given for every event that has hooks; the decision is theirs, merged. */
export interface HookDecisionEvent {
  /** Always `'hook-decision'`. */
  readonly type: 'hook-decision';
  /** The lifecycle event. */
  readonly event: HookEventName;
  /** The merged decision: `proceed`, `block`, `stop` or `ask`. */
  readonly decision: OutcomeType;
  /** The reason given with a block, stop or ask. */
  readonly reason: string | undefined;
  /** Whether a hook changed what the event is about (a rewritten tool input, prompt, request or answer). */
  readonly changed: boolean;
  /** The whole outcome: its context, additional context and system messages. */
  readonly outcome: HookOutcome;
  /** How long the hooks took, in milliseconds. */
  readonly durationMs: number;
}

/** A step is done: its text, tool calls, executions and usage. */
export interface StepEndEvent {
  /** Always `'step-end'`. */
  readonly type: 'step-end';
  /** The step. */
  readonly step: AgentStep;
}

/** Something went wrong without failing the run (as the agent's `warning` event). */
export interface StreamWarningEvent {
  /** Always `'warning'`. */
  readonly type: 'warning';
  /** The warning. */
  readonly warning: AgentWarning;
}

/** An event of a subagent's run, inside the tool call that started it. */
export interface SubagentStreamEvent {
  /** Always `'subagent'`. */
  readonly type: 'subagent';
  /** The subagent's name (the tool the model called). */
  readonly name: string;
  /** The subagent's run's id (its state's `agentId`). */
  readonly agentId: string;
  /** The event, as the subagent's own stream would give it. */
  readonly event: AgentStreamEvent;
}

/** The run is over: the last event of a stream, with the result `run()` would have resolved with. */
export interface RunEndEvent {
  /** Always `'run-end'`. */
  readonly type: 'run-end';
  /** How the run ended; a failed run carries its error here. */
  readonly result: RunResult;
}

/** What a streamed run yields, in the order things happen. */
export type AgentStreamEvent =
  | StepStartEvent
  | TextDeltaEvent
  | ModelResponseEvent
  | ToolCallEvent
  | ToolResultEvent
  | HookDecisionEvent
  | StepEndEvent
  | StreamWarningEvent
  | SubagentStreamEvent
  | RunEndEvent;

/** The error a streamed run is cancelled with when its consumer stops reading or calls `cancel()` without a reason. */
export class StreamCancelledError extends Error {
  /** Always `'AbortError'`, as an aborted signal's reason is named, so that code checking for aborts sees one. */
  override readonly name = 'AbortError';
}

/**
 * A run, streamed: iterate it (`for await`) for its events as they happen; `result` resolves as `run()` would.
 * It can be iterated once. Stopping early — `break`, `return` or a throw in the loop — or `cancel()` aborts the run:
 * the model call and the hooks in progress are cancelled (a script hook's process is killed), AgentFailed and
 * ExecutionEnd fire, and the result is a failure with a {@link StreamCancelledError} (or the reason given).
 *
 * A run that fails does not make the iteration throw: its last event is `run-end` with status `failed` and the error,
 * and `result` rejects with the error (unless `rejectOnFailure` is false), as `run()` does.
 *
 * ```ts
 * for await (const event of agent.stream('Fix the tests')) {
 *   if (event.type === 'text-delta') process.stdout.write(event.text);
 *   if (event.type === 'hook-decision' && event.decision === 'block') console.log(`\n[${event.event}] ${event.reason}`);
 * }
 * ```
 */
export class AgentStream implements AsyncIterable<AgentStreamEvent> {
  /** How the run ended, as `run()` resolves (or rejects). */
  readonly result: Promise<RunResult>;
  private readonly buffer: AgentStreamEvent[] = [];
  private waiting: ((result: IteratorResult<AgentStreamEvent>) => void) | undefined;
  private ended = false;
  private iterated = false;
  private readonly abort: (reason: unknown) => void;

  /**
   * @internal Use `agent.stream()` or `session.stream()`. `start` runs the run, handing each event to `emit`; it is
   * given a signal that aborts when the stream is cancelled.
   */
  constructor(start: (emit: (event: AgentStreamEvent) => void, signal: AbortSignal) => Promise<RunResult>, signal: AbortSignal | undefined) {
    const controller = new AbortController();
    this.abort = (reason) => controller.abort(reason);
    // The caller's own signal cancels the run as well.
    const combined = signal === undefined ? controller.signal : AbortSignal.any([signal, controller.signal]);
    this.result = start((event) => this.push(event), combined).finally(() => this.end());
    // A consumer that stopped reading may never look at the result: its rejection must not go unhandled.
    this.result.catch(() => undefined);
  }

  /** Cancels the run (see the class). Does nothing once the run has ended. */
  cancel(reason: unknown = new StreamCancelledError('The stream was cancelled: its consumer stopped reading.')): void {
    if (this.ended) return;
    this.abort(reason);
    this.end();
  }

  /** The text deltas of the agent's own answer (a subagent's are left out), as one stream of strings. */
  textStream(): AsyncIterable<string> {
    const events = this[Symbol.asyncIterator]();
    return {
      [Symbol.asyncIterator]: () => ({
        next: async (): Promise<IteratorResult<string>> => {
          for (;;) {
            const next = await events.next();
            if (next.done === true) return { done: true, value: undefined };
            if (next.value.type === 'text-delta') return { done: false, value: next.value.text };
          }
        },
        return: async (): Promise<IteratorResult<string>> => {
          await events.return?.();
          return { done: true, value: undefined };
        },
      }),
    };
  }

  /** The run's events, in order; once only. Its `return` (a `break` out of `for await`) cancels the run. */
  [Symbol.asyncIterator](): AsyncIterator<AgentStreamEvent> {
    if (this.iterated) throw new TypeError('An AgentStream can be iterated once; it is already being read.');
    this.iterated = true;
    return {
      next: () => {
        const event = this.buffer.shift();
        if (event !== undefined) return Promise.resolve({ done: false, value: event });
        if (this.ended) return Promise.resolve({ done: true, value: undefined });
        return new Promise((resolve) => (this.waiting = resolve));
      },
      return: () => {
        this.cancel();
        this.buffer.length = 0;
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }

  private push(event: AgentStreamEvent): void {
    if (this.ended) return;
    const waiting = this.waiting;
    if (waiting !== undefined) {
      this.waiting = undefined;
      waiting({ done: false, value: event });
    } else {
      this.buffer.push(event);
    }
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.({ done: true, value: undefined });
  }
}
