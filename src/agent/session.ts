/**
 * A session: a conversation with an agent across several turns.
 *
 * @module
 */
import { AgentState, type Message, type Metadata } from '../core/index.js';
import type { RunOptions, RunResult } from './run-result.js';
import { AgentStream, type StreamOptions } from './agent-stream.js';
import { streamTextMode } from './internal/stream-text-mode.js';
import type { RunStream } from './run.js';

/** Options of {@link Agent.session}. */
export interface SessionOptions {
  /** The session's id (the `sessionId` hooks see); generated when omitted. */
  readonly id?: string | undefined;
  /** The conversation to resume from. */
  readonly messages?: readonly Message[] | undefined;
  /** State metadata kept for the whole session. */
  readonly metadata?: Metadata | undefined;
}

/**
 * What a session needs from its agent.
 *
 * @internal
 */
export interface SessionHost {
  /** Runs one turn from `state`, streamed when `stream` is given. */
  execute(prompt: string, options: RunOptions, state: AgentState, sessionStart: boolean, stream?: RunStream): Promise<RunResult>;
  /** Fires SessionEnd. */
  endSession(state: AgentState, reason: string, durationMs: number | undefined): Promise<void>;
  /** Compacts the conversation on request. */
  compact(state: AgentState, instructions: string | undefined): Promise<AgentState>;
  /** Waits for work asynchronous hooks left running. */
  drain(): Promise<void>;
}

let sessionIds = 0;

/**
 * A conversation kept across turns. The first `run` fires SessionStart (before its ExecutionStart); `close()` waits
 * for the turn in progress and for asynchronous hooks, then fires SessionEnd. Turns of one session run one after the
 * other, in call order, even when `run` is called again before the previous turn ended.
 */
export class AgentSession {
  /** The session's id. */
  readonly id: string;
  private state: AgentState;
  private started = false;
  private startedAt: number | undefined;
  private closed = false;
  private queue: Promise<unknown> = Promise.resolve();

  /** @internal Use `agent.session()`. */
  constructor(
    private readonly host: SessionHost,
    agentId: string,
    options: SessionOptions,
  ) {
    this.id = options.id ?? `session_${++sessionIds}`;
    this.state = AgentState.create({
      agentId,
      sessionId: this.id,
      messages: options.messages ?? [],
      metadata: options.metadata ?? {},
    });
  }

  /** The conversation so far. */
  get messages(): readonly Message[] {
    return this.state.messages;
  }

  /** Whether `close()` has been called. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Runs one turn, continuing the conversation. Rejects when the session is closed, or as `agent.run` does. */
  run(prompt: string, options: RunOptions = {}): Promise<RunResult> {
    if (this.closed) return Promise.reject(new Error(`Session '${this.id}' is closed; start a new one with agent.session().`));
    const turn = this.queue.then(() => this.turn(prompt, options));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /**
   * Runs one turn, continuing the conversation, and streams it as `agent.stream()` does. The turn waits for the turns
   * before it; its events start when it starts. Throws when the session is closed.
   */
  stream(prompt: string, options: StreamOptions = {}): AgentStream {
    if (this.closed) throw new Error(`Session '${this.id}' is closed; start a new one with agent.session().`);
    const text = streamTextMode(options);
    return new AgentStream((emit, signal) => {
      const turn = this.queue.then(() => this.turn(prompt, { ...options, signal }, { emit, text }));
      this.queue = turn.catch(() => undefined);
      return turn;
    }, options.signal);
  }

  /**
   * Compacts the conversation now (PreCompact and PostCompact with trigger `manual`), with optional instructions for
   * the summary. Needs `withCompaction(…)` on the agent; waits for the turn in progress.
   */
  compact(instructions?: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`Session '${this.id}' is closed.`));
    const work = this.queue.then(async () => {
      this.state = await this.host.compact(this.state, instructions);
    });
    this.queue = work.catch(() => undefined);
    return work;
  }

  /** Ends the session: waits for running turns and asynchronous hooks, then fires SessionEnd (once). */
  async close(reason = 'close'): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    await this.host.drain();
    if (this.started) await this.host.endSession(this.state, reason, this.startedAt === undefined ? undefined : performance.now() - this.startedAt);
  }

  private async turn(prompt: string, options: RunOptions, stream?: RunStream): Promise<RunResult> {
    const first = !this.started;
    this.started = true;
    this.startedAt ??= performance.now();
    const result = await this.host.execute(prompt, { ...options, rejectOnFailure: false }, this.state.with({ steps: [] }), first, stream);
    this.state = result.state;
    if (result.status === 'failed' && options.rejectOnFailure !== false) throw result.error;
    return result;
  }
}
