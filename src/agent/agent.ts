/**
 * The agent: a model, tools and a hook stack, run turn by turn.
 *
 * @module
 */
import { EventEmitter } from 'eventemitter3';
import { AgentState, type HookStack } from '../core/index.js';
import type { AgentEvents } from './agent-events.js';
import type { ResolvedConfig } from './agent-builder.js';
import type { AgentHooksReport } from './hook-loader.js';
import { formatProblem } from '../script/problem.js';
import { forgetSessionEnv } from '../dialects/claude-env-file.js';
import { AgentStream, type StreamOptions } from './agent-stream.js';
import { streamTextMode } from './internal/stream-text-mode.js';
import { Run, type AgentConfig, type RunEnvironment, type RunStream } from './run/index.js';
import type { ResumeOptions, RunOptions, RunResult } from './run-result.js';
import { AgentSession, type SessionOptions } from './session.js';
import { WakeInbox } from './wake-inbox.js';
import { nodeCrypto } from '../core/internal/node-crypto.js';
import type { ApprovalDecisions } from './approval.js';
import { agentShape, checkDecisions, checkShape, readSnapshot } from './internal/snapshot-check.js';
import { signatureOf, signedWith } from './internal/snapshot-signature.js';
import { ResumeError } from './resume-error.js';
import type { RunInterruption } from './run/index.js';
import { RUN_SNAPSHOT_FORMAT, RUN_SNAPSHOT_VERSION, type RunFrameJson, type RunSnapshot } from './run-snapshot.js';

/**
 * The latest interruptions resumed in this process: a snapshot resumes once. Bounded, so that a long-lived server does
 * not grow with every resume; across processes (and past the bound) the checkpointer's `take` is the guard.
 */
const resumedInterrupts = new Set<string>();
const RESUMED_KEPT = 10_000;

let agentIds = 0;

/**
 * An agent built by {@link AgentBuilder}. Immutable: concurrent `run` calls share nothing mutable. Every lifecycle
 * event of a run goes through its hook stack, in this order:
 *
 * ExecutionStart → UserPromptSubmit → per step: BeforeStep → (PreCompact → PostCompact) → model → per tool call:
 * PreToolUse → (PermissionRequest → Notification → approver → PermissionDenied when it refuses) → tool → PostToolUse |
 * PostToolUseFailure; once the step's calls have all resolved: PostToolBatch → AfterStep;
 * when the model makes no tool call or the step limit is reached: Stop → AfterStop → AfterAgent → ExecutionEnd.
 * On an unrecoverable error: AgentFailed → ExecutionEnd (StopFailure first when a model call failed), and `run`
 * rejects with the error. An interruption (a call waiting for a decision) stops the run after that call's
 * Notification, with nothing that ends a run; `resume` goes on from the decision.
 */
export class Agent {
  /** What the agent reports while it runs (see {@link AgentEvents}). */
  readonly events: EventEmitter<AgentEvents> = new EventEmitter<AgentEvents>();
  /** The agent's id (the `agentId` of its states). */
  readonly id: string;
  private readonly pending = new Set<Promise<unknown>>();
  private stack: HookStack;
  private readonly config: Promise<ResolvedConfig>;
  private reported = false;

  /** @internal Use {@link AgentBuilder}. */
  constructor(preview: HookStack, config: Promise<ResolvedConfig>, id?: string) {
    this.id = id ?? `agent_${++agentIds}`;
    this.stack = preview;
    this.config = config;
    config.then(
      (resolved) => (this.stack = resolved.config.stack),
      // A strict hook source's rejection surfaces at ready() and at each run; never as an unhandled rejection.
      () => {},
    );
  }

  /**
   * The hooks every run dispatches to, in the order they run. Hooks from sources (`withHooksFrom`) appear once they
   * have loaded: after `ready()` or the first run.
   */
  get hooks(): HookStack {
    return this.stack;
  }

  /**
   * Waits for hook sources (HOOK.md folders, config files) to load, and tells what was wrong with them. Rejects in
   * strict mode — on a definition that is an error, and on a project hook skipped for want of trust
   * (`UntrustedHooksError`). Runs wait for it themselves, and reject as it does; call it to see problems before the
   * first run.
   */
  async ready(): Promise<AgentHooksReport> {
    const { problems } = await this.config;
    return { problems };
  }

  /**
   * Runs one turn with `prompt` and a fresh conversation. Resolves with status `completed` or `stopped` — or
   * `interrupted`, when a call waits for a decision (see `AgentBuilder.withApprovalInterrupts` and {@link Agent.resume});
   * rejects with the original error when the run fails (after AgentFailed and ExecutionEnd), unless `rejectOnFailure`
   * is false.
   */
  run(prompt: string, options: RunOptions = {}): Promise<RunResult> {
    return this.execute(prompt, options, AgentState.create({ agentId: this.id }), false);
  }

  /**
   * Runs one turn as {@link Agent.run} does, and streams it: iterate the {@link AgentStream} for the text as the model
   * writes it, each tool call and result, the hooks' decisions and the steps as they end; its `result` resolves as
   * `run()` would. Hooks decide exactly as in `run()`: before a tool runs, and — with `text: 'checked'`, the default —
   * on the model's whole answer before any of its text is handed out (see {@link StreamTextMode}). Leaving the loop
   * early, or `cancel()`, aborts the run and the hooks in progress (a script hook's process is killed).
   *
   * The model streams when it has a `stream` method ({@link ScriptedModel} does, and `aiSdkModel` through the AI SDK's
   * `streamText`); another model's answer comes as one text delta.
   */
  stream(prompt: string, options: StreamOptions = {}): AgentStream {
    const text = streamTextMode(options);
    return new AgentStream(
      (emit, signal) => this.execute(prompt, { ...options, signal }, AgentState.create({ agentId: this.id }), false, undefined, { emit, text }),
      options.signal,
    );
  }

  /**
   * Goes on with an interrupted run (see `AgentBuilder.withApprovalInterrupts`) from exactly where it stopped, with a
   * decision for each pending request: `true`/`{ approved: true }`, `{ approved: true, updatedInput }` (checked
   * against the tool's schema again), or `false`/`{ approved: false, reason }` (the model is told the reason).
   * `from` is the snapshot (`result.interruption.snapshot`, as JSON parsed back) or, with a checkpointer, its id.
   *
   * The agent must be built as the interrupted one was — in this process or another. The hooks that ran for the
   * waiting call do not run again; the rest of its step's batch and every event after it fire as in a run that was
   * never interrupted. Resolves as `run()` does, with status `interrupted` again when another call waits.
   *
   * With a checkpointer, the resumed run keeps a checkpoint after each step it completes, under the same id (removed
   * when the run ends): a run that fails after the approved call ran goes on with `resume(id, {})` from the last
   * completed step, without running that call again. A decision is also `{ respond: result }` (the tool does not run;
   * `result` is its result), and only the kinds the call's tool allows are taken (`defineTool({ approval })`).
   *
   * @throws {@link ResumeError} before anything runs: not a snapshot, a newer format version, another agent (other
   *   tools, subagents or hooks), a decision for an unknown request or none for a pending one, an edited input the
   *   tool refuses, a snapshot resumed already.
   */
  async resume(from: RunSnapshot | string, decisions: ApprovalDecisions, options: ResumeOptions = {}): Promise<RunResult> {
    return this.resumeRun(from, decisions, options);
  }

  /**
   * Goes on with an interrupted run as {@link Agent.resume} does, and streams it as {@link Agent.stream} does: from the
   * waiting call's decision on — its tool's result, the rest of the batch, the steps after it — and `run-end`. The
   * checks of `resume` come first: a {@link ResumeError} rejects `result` before anything runs, and the iteration
   * ends with no event.
   */
  resumeStream(from: RunSnapshot | string, decisions: ApprovalDecisions, options: Omit<StreamOptions, 'metadata' | 'checkpointId'> = {}): AgentStream {
    const text = streamTextMode(options);
    return new AgentStream((emit, signal) => this.resumeRun(from, decisions, { ...options, signal }, undefined, { emit, text }), options.signal);
  }

  /** A session: a conversation kept across turns, opened by SessionStart and closed by SessionEnd. */
  session(options: SessionOptions = {}): AgentSession {
    // What background hooks wake the model with after a turn reaches the session's next turn.
    const wakes = new WakeInbox(this.events);
    return new AgentSession(
      {
        execute: (prompt, runOptions, state, first, stream) => this.execute(prompt, runOptions, state, first, wakes, stream),
        resume: (snapshot, decisions, runOptions) => this.resumeRun(snapshot, decisions, runOptions, wakes),
        endSession: (state, reason, durationMs) => this.endSession(state, reason, durationMs, wakes),
        compact: async (state, instructions) => {
          const config = await this.configuration();
          if (config.compaction === undefined) throw new Error('session.compact() needs compaction: build the agent withCompaction({ maxMessages }).');
          return Run.compact(config, this.environment(wakes), state, instructions);
        },
        // Called once, by close(): after the background hooks, no turn follows to wake.
        drain: async () => {
          await this.drain();
          wakes.close();
        },
      },
      this.id,
      options,
    );
  }

  /** Waits until the work asynchronous hooks left running (async script hooks) has finished. */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** @internal The configuration runs use, once hook sources have loaded. */
  resolved(): Promise<ResolvedConfig> {
    return this.config;
  }

  private async configuration(): Promise<AgentConfig> {
    const { config, problems, notices } = await this.config;
    if (!this.reported) {
      // Problems are told once per agent, as warnings, so a bad hook definition never goes unnoticed.
      this.reported = true;
      // And a project hook skipped for want of trust is said on stderr too: a guard that silently does not run is
      // missed by a program that never listens to warnings (withHooksFrom's `stderrNotice: false` leaves it out).
      if (notices.length > 0) process.stderr.write(`${notices.join('\n')}\n`);
      for (const p of problems) {
        // Information (the bridge skipped in an agent's config) is no warning: it stays in ready()'s problems.
        if (p.severity === 'info') continue;
        this.events.emit('warning', { code: `hook-problem:${p.code}`, message: formatProblem(p), hookName: p.hookName });
      }
    }
    return config;
  }

  private environment(wakes: WakeInbox, noLaterTurn = false): RunEnvironment {
    return {
      emitter: this.events,
      wakes,
      noLaterTurn,
      track: (work) => {
        const tracked = work.then(
          () => undefined,
          () => undefined,
        );
        this.pending.add(tracked);
        void tracked.then(() => this.pending.delete(tracked));
      },
    };
  }

  private async execute(
    prompt: string,
    options: RunOptions,
    state: AgentState,
    sessionStart: boolean,
    sessionWakes?: WakeInbox,
    stream?: RunStream,
  ): Promise<RunResult> {
    if (typeof prompt !== 'string') throw new TypeError(`${stream ? 'stream' : 'run'}() needs a prompt string, got ${typeof prompt}.`);
    // A plain run's own inbox: a background hook done after it wakes no model.
    const wakes = sessionWakes ?? new WakeInbox(this.events);
    const config = await this.configuration();
    const run = new Run(config, this.environment(wakes, sessionWakes === undefined), {
      prompt,
      state,
      metadata: { ...(options.metadata ?? {}) },
      signal: options.signal,
      sessionStart,
      ...(stream !== undefined ? { stream } : {}),
    });
    return this.finish(run, config, options, wakes, sessionWakes !== undefined, stream);
  }

  private async resumeRun(from: RunSnapshot | string, decisions: ApprovalDecisions, options: ResumeOptions, sessionWakes?: WakeInbox, stream?: RunStream): Promise<RunResult> {
    const config = await this.configuration();
    const { checkpointer } = config;
    let value: unknown = from;
    if (typeof from === 'string') {
      if (checkpointer === undefined) {
        throw new ResumeError('not-found', `agent.resume('${from}') looks the id up in a checkpointer, and this agent has none: build it withCheckpointer(…), or give resume() the snapshot itself.`);
      }
      value = await checkpointer.load(from);
      if (value === undefined) throw new ResumeError('not-found', `No interrupted run is saved under '${from}': it was resumed already, dropped, or never saved in this checkpointer.`);
    }
    const snapshot = readSnapshot(value);
    if (config.snapshotKey !== undefined && !signedWith(snapshot, config.snapshotKey)) {
      throw new ResumeError(
        'tampered',
        snapshot.signature === undefined
          ? `This snapshot ('${snapshot.id}') is not signed, and this agent resumes only snapshots signed with its key (withSnapshotKey).`
          : `This snapshot ('${snapshot.id}') does not match its signature: it was changed since it was written, or signed with another key. Nothing was run.`,
      );
    }
    checkShape(snapshot, config);
    checkDecisions(snapshot, decisions, config);
    if (resumedInterrupts.has(snapshot.interruptId)) {
      throw new ResumeError('already-resumed', `This snapshot ('${snapshot.id}', interruption ${snapshot.interruptId}) was resumed already; a snapshot resumes once.`);
    }
    if (checkpointer !== undefined) {
      // Taken out of the store before anything runs: of two processes resuming one snapshot, one gets it.
      const taken = await checkpointer.take(snapshot.id);
      if (taken === undefined) {
        throw new ResumeError('already-resumed', `The interrupted run '${snapshot.id}' is no longer in the checkpointer: it was resumed already (or dropped).`);
      }
      if (taken.interruptId !== snapshot.interruptId) {
        if (taken.run.nextStep !== undefined) {
          // A checkpoint between two steps: another process resumed this run and is carrying it on. It is not put
          // back — that process saves it again after its next step and deletes it when the run ends, and a copy put
          // back after that delete would let a later resume run the finished run's steps again.
          throw new ResumeError('already-resumed', `The interrupted run '${snapshot.id}' was resumed already, and is being carried on (a checkpoint between two of its steps was in the checkpointer).`);
        }
        await checkpointer.save(taken);
        throw new ResumeError('already-resumed', `This snapshot of '${snapshot.id}' is older than the one saved under that id: it was resumed already, and the run was interrupted again since. Resume the saved one.`);
      }
    }
    resumedInterrupts.add(snapshot.interruptId);
    if (resumedInterrupts.size > RESUMED_KEPT) resumedInterrupts.delete(resumedInterrupts.values().next().value!);
    const wakes = sessionWakes ?? new WakeInbox(this.events);
    // With a checkpointer, a resumed run keeps a checkpoint after each step it completes, under the same id: the one
    // taken above is gone, and a run that fails after the approved call ran goes on from there rather than run it again.
    let kept = false;
    const keepStep =
      checkpointer === undefined || snapshot.session !== undefined
        ? undefined
        : async (frame: RunFrameJson, lossy: readonly string[]) => {
            await checkpointer.save(this.snapshot(config, { frame, pending: [], lossy }, snapshot.id, undefined));
            kept = true;
          };
    const run = Run.resumed(config, this.environment(wakes, sessionWakes === undefined), { frame: snapshot.run, decisions }, { signal: options.signal, stream, keepStep });
    // A run that ended — completed or stopped — needs its step checkpoint no more; a failed one keeps it to go on from.
    const ended = async () => {
      if (kept) await checkpointer!.delete(snapshot.id);
    };
    return this.finish(run, config, { ...options, checkpointId: snapshot.id }, wakes, sessionWakes !== undefined, stream, snapshot.session?.id, ended);
  }

  /** The end of a run: its snapshot saved when it was interrupted, its inbox closed, its failure thrown. */
  private async finish(
    run: Run,
    config: AgentConfig,
    options: RunOptions,
    wakes: WakeInbox,
    inSession: boolean,
    stream: RunStream | undefined,
    sessionId?: string,
    ended?: () => Promise<void>,
  ): Promise<RunResult> {
    const { failure, interrupted, ...outcome } = await run.execute();
    if (failure === undefined && interrupted === undefined) await ended?.();
    let result: RunResult = outcome;
    if (interrupted !== undefined) {
      const session = sessionId ?? (inSession ? outcome.state.sessionId : undefined);
      const snapshot = this.snapshot(config, interrupted, options.checkpointId ?? session ?? `run_${nodeCrypto().randomUUID()}`, session);
      if (config.checkpointer !== undefined) await config.checkpointer.save(snapshot);
      const interruption = { id: snapshot.id, pending: snapshot.pending, snapshot };
      result = { ...outcome, interruption };
      this.events.emit('run:interrupted', { agentId: outcome.state.agentId, interruption, metadata: outcome.metadata });
    }
    if (!inSession) wakes.close();
    stream?.emit({ type: 'run-end', result });
    if (failure !== undefined && options.rejectOnFailure !== false) throw failure.error;
    return result;
  }

  /** An interrupted run's snapshot; a value JSON cannot hold as it was is said in a `snapshot-lossy` warning. */
  private snapshot(config: AgentConfig, interrupted: RunInterruption, id: string, sessionId: string | undefined): RunSnapshot {
    if (interrupted.lossy.length > 0) {
      const shown = interrupted.lossy.slice(0, 5).join('; ');
      const more = interrupted.lossy.length > 5 ? ` and ${interrupted.lossy.length - 5} more` : '';
      this.events.emit('warning', {
        code: 'snapshot-lossy',
        message: `The run was interrupted, and its snapshot holds some values as JSON does, not as they were: ${shown}${more}. A resumed run sees them so; keep tool results and metadata to plain JSON to resume exactly.`,
      });
    }
    const snapshot: RunSnapshot = {
      format: RUN_SNAPSHOT_FORMAT,
      version: RUN_SNAPSHOT_VERSION,
      id,
      interruptId: nodeCrypto().randomUUID(),
      createdAt: new Date().toISOString(),
      pending: interrupted.pending,
      agent: agentShape(config),
      ...(sessionId !== undefined ? { session: { id: sessionId } } : {}),
      run: interrupted.frame,
    };
    return config.snapshotKey === undefined ? snapshot : { ...snapshot, signature: signatureOf(snapshot, config.snapshotKey) };
  }

  private async endSession(state: AgentState, reason: string, durationMs: number | undefined, wakes: WakeInbox): Promise<void> {
    try {
      await Run.endSession(await this.configuration(), this.environment(wakes), state, reason, durationMs);
    } finally {
      // The lines its SessionStart hooks left for its shell commands end with the session.
      if (state.sessionId !== undefined) forgetSessionEnv(state.sessionId);
    }
  }
}
