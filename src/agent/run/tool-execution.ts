/**
 * A run's tool calls, from PreToolUse to PostToolUse.
 *
 * @module
 */
import { ToolCall, ToolExecution, ToolHookContext } from '../../core/index.js';
import { resultText } from '../../core/internal/as-text.js';
import { subagentInput } from '../internal/subagent-input.js';
import { messageOf } from '../../core/internal/message-of.js';
import { safeParseOf } from '../../core/internal/zod-module.js';
import { sessionShellSetup } from '../../dialects/claude-env-file.js';
import { ToolInputError, ToolNotOfferedError, UnknownToolError, type Tool } from '../tool.js';
import { type ResolvedSubagent, type ResumePoint, type CheckedCall, type ModelTurn, type LoopPosition, type Review, type Decision, Halt, Interrupt, requestId, epochNow } from './run-types.js';
import { RunModelTurns } from './model-turns.js';

/** A run's tool calls: each decided (PreToolUse, the permission hooks, approval), then run, then PostToolUse. */
export abstract class RunToolExecution extends RunModelTurns {
  /** Asks the approver about `call`, or says that the run is to be interrupted there. */
  protected abstract approve(call: ToolCall, reason: string): Promise<Decision | 'interrupt'>;
  /** A decision on `call`: its refusal, or the call to run. */
  protected abstract decided(call: ToolCall, decision: Decision, reviewed?: boolean): Promise<ToolCall | ToolExecution>;
  /** Goes on with the call an interrupted run stopped at. */
  protected abstract resumeTool(at: ResumePoint): Promise<ToolExecution>;
  /** The decision a resumed run was given for request `id`. */
  protected abstract resumeDecision(id: string): Decision;
  /** Says that permission updates a PermissionRequest hook granted were ignored. */
  protected abstract ignoredPermissionUpdates(updates: readonly Readonly<Record<string, unknown>>[]): void;
  /** Starts a subagent's run for `call`. */
  protected abstract runSubagent(call: ToolCall, sub: ResolvedSubagent): Promise<string | ToolExecution>;
  /** Goes on with a subagent's interrupted run. */
  protected abstract resumeSubagent(call: ToolCall, sub: ResolvedSubagent, at: ResumePoint): Promise<string>;

  protected async runTools(turn: ModelTurn, stepIndex: number, at?: ResumePoint): Promise<ToolExecution[]> {
    const calls = turn.response.toolCalls;
    const executions: ToolExecution[] = at === undefined ? [] : [...at.executions];
    const stream = this.init.stream;
    const position: LoopPosition = (this.position = { stepIndex, turn, executions, callIndex: 0 });
    this.offered = turn.offered === undefined ? undefined : new Set(turn.offered);
    let done = at === undefined ? 0 : at.callIndex;
    let interrupted = false;
    try {
      // A batch's requests are decided by now: they are kept so, should a subagent's run interrupt this one again.
      if (at?.review !== undefined) position.review = at.review.map((r) => (r?.kind === 'ask' && r.requestId !== undefined ? { ...r, requestId: undefined, decision: this.resumeDecision(r.requestId), reviewed: true } : r));
      else if (at === undefined && this.config.approvalBatch && calls.length > 0) await this.reviewBatch(calls, stepIndex, position);
      const review = position.review;
      for (; done < calls.length; done++) {
        const call = calls[done]!;
        this.signal?.throwIfAborted();
        if (this.rejectedStop !== undefined) {
          this.addToolMessage(call, 'Not run: an earlier call of this step was refused and the run is ending.');
        } else {
          // The call the run stopped at goes on from there, unless it was a batch's review: then every call is carried out.
          const resumed = at !== undefined && done === at.callIndex && (at.review === undefined || at.phase === 'subagent') ? at : undefined;
          if (resumed === undefined && review === undefined) stream?.emit({ type: 'tool-call', stepIndex, toolCall: call });
          position.callIndex = done;
          let execution: ToolExecution;
          if (resumed !== undefined) {
            execution = await this.resumeTool(resumed);
          } else if (review !== undefined) {
            execution = await this.carryOut(review[done]!);
          } else {
            const reviewed = await this.review(call);
            if (reviewed.kind === 'ask' && reviewed.requestId !== undefined) {
              throw new Interrupt({ phase: 'approval', call: reviewed.call, reason: reviewed.reason, requestId: reviewed.requestId });
            }
            // Two awaits of plain results rather than one of a function that returns another's promise: fewer turns of
            // the event loop per call.
            execution = reviewed.kind === 'run' && reviewed.checked !== undefined ? await this.invoke(reviewed.call, reviewed.checked) : await this.carryOut(reviewed);
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
   * Reviews every call of a step's batch before any of them runs (`{ batch: true }`), and interrupts the run once, with
   * every request no one decided, when there is one.
   */
  private async reviewBatch(calls: readonly ToolCall[], stepIndex: number, position: LoopPosition): Promise<void> {
    const review: Review[] = [];
    for (const call of calls) {
      this.signal?.throwIfAborted();
      this.init.stream?.emit({ type: 'tool-call', stepIndex, toolCall: call });
      review.push(await this.review(call));
    }
    position.review = review;
    const waiting = review.find((r) => r.kind === 'ask' && r.requestId !== undefined);
    if (waiting?.kind === 'ask') throw new Interrupt({ phase: 'approval', call: waiting.call, reason: waiting.reason, requestId: waiting.requestId! });
  }

  /**
   * A call up to the moment it runs: its input checked, PreToolUse, and — when a hook asked — PermissionRequest and the
   * approver (a decision, or a request left for later). Nothing of it is carried out yet: see {@link carryOut}.
   */
  protected async review(original: ToolCall): Promise<Review> {
    let checked = this.checkInput(original);
    if (!checked.ok) return { kind: 'fail', call: original, error: checked.error };

    const pre = await this.dispatch('PreToolUse', () => ToolHookContext.beforeToolUse(original, this.ctxInit()));
    // A hook cut short by the cancellation decided nothing: whatever the stack answered, the run ends here.
    this.signal?.throwIfAborted();
    if (pre.type === 'block') return { kind: 'refuse', call: original, message: `Tool call blocked by a hook: ${pre.reason}`, by: 'hook' };
    let call = pre.context?.event === 'PreToolUse' ? pre.context.toolCall : original;

    if (pre.type === 'ask' && pre.deferred) {
      // Deferred: no PermissionRequest and no approver now. With approval interrupts the run pauses at the call, to be
      // resumed with a decision; without, it ends here and the tool does not run, as a headless Claude Code ends.
      const reason = pre.reason ?? 'A hook deferred the call.';
      if (this.config.approvalInterrupts) return { kind: 'ask', call, reason, ...(call === original ? { checked } : {}), requestId: requestId() };
      throw new Halt(`A PreToolUse hook deferred the call to ${call.name} (${reason}), and this agent has no approval interrupts to wait for a decision: the run ends, the tool not run.`, 'hook_stop');
    }
    if (pre.type === 'ask') {
      const reason = pre.reason ?? 'A hook asked for approval.';
      const perm = await this.dispatch('PermissionRequest', () => ToolHookContext.permissionRequest(call, { ...this.ctxInit(), reason }));
      if (perm.type === 'block') return { kind: 'refuse', call, message: `Tool call refused by a permission hook: ${perm.reason}`, by: 'permission' };
      if (perm.context?.event === 'PermissionRequest') call = perm.context.toolCall;
      if (perm.context?.event === 'PermissionRequest' && perm.context.updatedPermissions !== undefined) this.ignoredPermissionUpdates(perm.context.updatedPermissions);
      if (!perm.granted) {
        const why = perm.type === 'ask' && perm.reason ? perm.reason : reason;
        const same = call === original ? { checked } : {};
        const decision = await this.approve(call, why);
        if (decision === 'interrupt') return { kind: 'ask', call, reason: why, ...same, requestId: requestId() };
        return { kind: 'ask', call, reason: why, ...same, decision, reviewed: this.config.approver !== undefined };
      }
    }

    if (call !== original) {
      checked = this.checkInput(call);
      if (!checked.ok) return { kind: 'fail', call, error: checked.error };
    }
    return { kind: 'run', call, checked };
  }

  /**
   * Carries out a reviewed call: its refusal, its failure, or its decision applied (PermissionDenied for a refusal, an
   * edited input checked again) and the call run. A decision left for later is the resumed run's.
   */
  protected async carryOut(reviewed: Review): Promise<ToolExecution> {
    const { call } = reviewed;
    switch (reviewed.kind) {
      case 'refuse':
        return this.refuse(call, reviewed.message, reviewed.by);
      case 'fail': {
        if (reviewed.error !== undefined) return this.toolFailed(call, reviewed.error);
        // Read back from a snapshot: the check that failed is made again, for its error.
        const checked = this.checkInput(call);
        return checked.ok ? this.invoke(call, checked) : this.toolFailed(call, checked.error);
      }
      case 'run': {
        const checked = reviewed.checked ?? this.checkInput(call);
        return checked.ok ? this.invoke(call, checked) : this.toolFailed(call, checked.error);
      }
      case 'ask': {
        const decision = reviewed.decision ?? this.resumeDecision(reviewed.requestId!);
        // A reviewer decided a request left for later: a refusal fires PermissionDenied whatever the approval mode.
        const decided = await this.decided(call, decision, reviewed.decision === undefined ? true : reviewed.reviewed);
        if (ToolExecution.isToolExecution(decided)) return decided;
        const checked = decided === call && reviewed.checked !== undefined ? reviewed.checked : this.checkInput(decided);
        return checked.ok ? this.invoke(decided, checked) : this.toolFailed(decided, checked.error);
      }
    }
  }

  /**
   * Runs a checked call's tool (or subagent), then PostToolUse or PostToolUseFailure. With `resumed`, the subagent's
   * run goes on from its interruption instead of starting.
   */
  protected async invoke(call: ToolCall, checked: CheckedCall & { ok: true }, resumed?: ResumePoint): Promise<ToolExecution> {
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
        result = await tool!.execute(input, { toolCall: call, state: this.state, signal: this.signal, shellSetup: sessionShellSetup(this.state.sessionId) });
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
  protected checkInput(call: ToolCall): CheckedCall {
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
    const parsed = safeParseOf(tool?.input ?? subagentInput(), call.args);
    return parsed.success ? { ok: true, tool, sub, input: parsed.data } : { ok: false, error: new ToolInputError(call.name, parsed.error) };
  }

  protected async toolFailed(call: ToolCall, error: unknown, durationMs?: number): Promise<ToolExecution> {
    const failure = await this.answering(call, () => `Error: ${messageOf(error)}`, () =>
      this.dispatch('PostToolUseFailure', () => ToolHookContext.toolFailure(call, error, this.ctxInit(), durationMs)),
    );
    const execution =
      failure.context?.event === 'PostToolUseFailure' && failure.context.execution ? failure.context.execution : ToolExecution.failure(call, error, durationMs);
    this.addToolMessage(call, execution.isError ? `Error: ${execution.errorMessage ?? messageOf(error)}` : resultText(execution.result));
    return execution;
  }
}
