/**
 * A run's tool calls, from PreToolUse to PostToolUse.
 *
 * @module
 */
import { ToolCall, ToolExecution, ToolHookContext } from '../../core/index.js';
import { resultText } from '../../core/internal/as-text.js';
import type { ApprovalDecision } from '../approval.js';
import { SUBAGENT_INPUT } from '../internal/subagent-input.js';
import { messageOf } from '../../core/internal/message-of.js';
import { ToolInputError, ToolNotOfferedError, UnknownToolError, type Tool } from '../tool.js';
import { type ResolvedSubagent, type ResumePoint, type CheckedCall, type ModelTurn, Halt, Interrupt, requestId, epochNow } from './run-types.js';
import { RunModelTurns } from './model-turns.js';

/** A run's tool calls: each decided (PreToolUse, the permission hooks, approval), then run, then PostToolUse. */
export abstract class RunToolExecution extends RunModelTurns {
  /** Asks the approver about `call`, or says that the run is to be interrupted there. */
  protected abstract approve(call: ToolCall, reason: string): Promise<ApprovalDecision | 'interrupt'>;
  /** A decision on `call`: its refusal, or the call to run. */
  protected abstract decided(call: ToolCall, decision: ApprovalDecision, reviewed?: boolean): Promise<ToolCall | ToolExecution>;
  /** Goes on with the call an interrupted run stopped at. */
  protected abstract resumeTool(at: ResumePoint): Promise<ToolExecution>;
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
  protected async decide(original: ToolCall): Promise<ToolExecution | { readonly call: ToolCall; readonly checked: CheckedCall & { ok: true } }> {
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
    const parsed = (tool?.input ?? SUBAGENT_INPUT).safeParse(call.args);
    return parsed.success ? { ok: true, tool, sub, input: parsed.data } : { ok: false, error: new ToolInputError(call.name, parsed.error) };
  }

  protected async toolFailed(call: ToolCall, error: unknown, durationMs?: number): Promise<ToolExecution> {
    const failure = await this.answering(call, () => `Error: ${messageOf(error)}`, () =>
      this.dispatch('PostToolUseFailure', () => ToolHookContext.toolFailure(call, error, this.ctxInit())),
    );
    const execution =
      failure.context?.event === 'PostToolUseFailure' && failure.context.execution ? failure.context.execution : ToolExecution.failure(call, error, durationMs);
    this.addToolMessage(call, execution.isError ? `Error: ${execution.errorMessage ?? messageOf(error)}` : resultText(execution.result));
    return execution;
  }
}
