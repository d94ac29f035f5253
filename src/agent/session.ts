/**
 * A session: a conversation with an agent across several turns.
 *
 * @module
 */
import { AgentState, type Message, type Metadata } from '../core/index.js';
import type { Interruption, ResumeOptions, RunOptions, RunResult } from './run-result.js';
import type { ApprovalDecisions } from './approval.js';
import { stateFromJson } from './internal/snapshot-codec.js';
import type { RunSnapshot } from './run-snapshot.js';
import { AgentStream, type StreamOptions } from './agent-stream.js';
import { streamTextMode } from './internal/stream-text-mode.js';
import type { RunStream } from './run/index.js';

/** Options of {@link Agent.session}. */
export interface SessionOptions {
  /** The session's id (the `sessionId` hooks see); generated when omitted. */
  readonly id?: string | undefined;
  /** The conversation to resume from. */
  readonly messages?: readonly Message[] | undefined;
  /** State metadata kept for the whole session. */
  readonly metadata?: Metadata | undefined;
  /**
   * The snapshot of a session's interrupted turn (from this process or another): the session goes on as that one,
   * with its id and conversation, its SessionStart fired already; `resume(decisions)` ends the turn.
   */
  readonly from?: RunSnapshot | undefined;
}

/**
 * What a session needs from its agent.
 *
 * @internal
 */
export interface SessionHost {
  /** Runs one turn from `state`, streamed when `stream` is given. */
  execute(prompt: string, options: RunOptions, state: AgentState, sessionStart: boolean, stream?: RunStream): Promise<RunResult>;
  /** Goes on with an interrupted turn. */
  resume(snapshot: RunSnapshot, decisions: ApprovalDecisions, options: ResumeOptions): Promise<RunResult>;
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
  /** Whether the last turn that ended, ended with status `failed`. */
  private lastTurnFailed = false;
  private queue: Promise<unknown> = Promise.resolve();
  private interrupted: Interruption | undefined;

  /** @internal Use `agent.session()`. */
  constructor(
    private readonly host: SessionHost,
    agentId: string,
    options: SessionOptions,
  ) {
    const from = options.from;
    if (from !== undefined) {
      if (from === null || typeof from !== 'object' || from.run?.state === undefined) throw new TypeError('agent.session({ from }) needs the snapshot of an interrupted turn (result.interruption.snapshot).');
      this.id = from.session?.id ?? from.id;
      this.state = stateFromJson(from.run.state);
      this.started = true;
      this.interrupted = { id: from.id, pending: from.pending, snapshot: from };
      return;
    }
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

  /** The turn that waits for decisions, when the last one was interrupted; `resume(decisions)` goes on with it. */
  get interruption(): Interruption | undefined {
    return this.interrupted;
  }

  /** Whether `close()` has been called. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Runs one turn, continuing the conversation. Rejects when the session is closed, or as `agent.run` does. */
  run(prompt: string, options: RunOptions = {}): Promise<RunResult> {
    if (this.closed) return Promise.reject(new Error(`Session '${this.id}' is closed; start a new one with agent.session().`));
    const turn = this.queue.then(() => {
      this.checkNotInterrupted();
      return this.turn(prompt, options);
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /**
   * Goes on with the interrupted turn (see `agent.resume`), with a decision for each pending request. Resolves as
   * `run` does — with status `interrupted` again when another call waits.
   */
  resume(decisions: ApprovalDecisions, options: ResumeOptions = {}): Promise<RunResult> {
    if (this.closed) return Promise.reject(new Error(`Session '${this.id}' is closed.`));
    const turn = this.queue.then(async () => {
      const interrupted = this.interrupted;
      if (interrupted === undefined) throw new Error(`Session '${this.id}' has no interrupted turn to resume.`);
      const result = await this.host.resume(interrupted.snapshot, decisions, { ...options, rejectOnFailure: false });
      return this.ended(result, options);
    });
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
      const turn = this.queue.then(() => {
        this.checkNotInterrupted();
        return this.turn(prompt, { ...options, signal }, { emit, text });
      });
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
      this.checkNotInterrupted();
      this.state = await this.host.compact(this.state, instructions);
    });
    this.queue = work.catch(() => undefined);
    return work;
  }

  /**
   * Ends the session: waits for running turns and asynchronous hooks, then fires SessionEnd (once), with `reason` —
   * by default `error` when the last turn failed, else `close`. Each dialect words it as its agent does: Copilot CLI
   * says `error` after a failed run and `complete` otherwise, Cursor `error` and `completed`, Gemini CLI `exit`
   * either way, Claude Code `other`.
   */
  async close(reason?: string): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    await this.host.drain();
    const why = reason ?? (this.lastTurnFailed ? 'error' : 'close');
    if (this.started) await this.host.endSession(this.state, why, this.startedAt === undefined ? undefined : performance.now() - this.startedAt);
  }

  private async turn(prompt: string, options: RunOptions, stream?: RunStream): Promise<RunResult> {
    const first = !this.started;
    this.started = true;
    this.startedAt ??= performance.now();
    const result = await this.host.execute(prompt, { ...options, rejectOnFailure: false }, this.state.with({ steps: [] }), first, stream);
    return this.ended(result, options);
  }

  private ended(result: RunResult, options: RunOptions): RunResult {
    this.state = result.state;
    this.lastTurnFailed = result.status === 'failed';
    this.interrupted = result.interruption;
    if (result.status === 'failed' && options.rejectOnFailure !== false) throw result.error;
    return result;
  }

  private checkNotInterrupted(): void {
    const interrupted = this.interrupted;
    if (interrupted === undefined) return;
    const requests = interrupted.pending.map((p) => `${p.id} (${p.toolCall.name})`).join(', ');
    throw new Error(`Session '${this.id}' has an interrupted turn waiting for decisions on ${requests}: call session.resume(decisions) first.`);
  }
}
