/**
 * A run's approvals, interruptions and resume points.
 *
 * @module
 */
import { NotificationHookContext, ToolCall, ToolExecution, ToolHookContext } from '../../core/index.js';
import { APPROVAL_DECISION_KINDS, decisionKind, type ApprovalDecision, type ApprovalDecisionKind } from '../approval.js';
import { resultText } from '../../core/internal/as-text.js';
import type { Tool } from '../tool.js';
import { JsonWriter, callFromJson, executionFromJson, usageFromJson } from '../internal/snapshot-codec.js';
import type { RunFrameJson } from '../run-snapshot.js';
import { type Decision, type ResumePoint, type RunInterruption, RETRY_NOTE, Interrupt, describe, requestId } from './run-types.js';
import { RunToolExecution } from './tool-execution.js';
import { reviewFromJson, reviewToJson } from './review-codec.js';

/** A run's approvals: the approver, the decisions a resumed run applies, and where an interruption stops the run. */
export abstract class RunApprovals extends RunToolExecution {
  /** Goes on with the call an interrupted run stopped at: the decision made since, or the subagent's run. */
  protected async resumeTool(at: ResumePoint): Promise<ToolExecution> {
    if (at.phase === 'subagent') return this.invoke(at.call, { ok: true, tool: undefined, sub: this.config.subagents.get(at.call.name)!, input: undefined }, at);
    return this.carryOut({ kind: 'ask', call: at.call, reason: at.reason!, requestId: at.requestId! });
  }

  /** The decision a resumed run was given for request `id`, as a decision. */
  protected resumeDecision(id: string): Decision {
    const answer = this.init.resume!.decisions[id]!;
    return typeof answer === 'boolean' ? { approved: answer } : answer;
  }

  /** A decision on `call`: its refusal or the reviewer's response, or the call to run (with the input the decision gave it). */
  protected async decided(call: ToolCall, decision: Decision, reviewed = this.config.approver !== undefined): Promise<ToolCall | ToolExecution> {
    if ('respond' in decision) return this.responded(call, decision.respond);
    if (!decision.approved) return this.denied(call, decision, reviewed);
    return decision.updatedInput === undefined ? call : new ToolCall(call.name, { ...decision.updatedInput }, call.id);
  }

  /**
   * The reviewer answered in place of the tool: its answer is the call's result, and no tool ran — so neither
   * PostToolUse nor PostToolUseFailure fires, as LangChain runs no tool middleware for a `respond`.
   */
  protected responded(call: ToolCall, result: unknown): ToolExecution {
    this.addToolMessage(call, resultText(result));
    return ToolExecution.success(call, result, 0);
  }

  /** The decisions a reviewer may make on a call to `name` (see `defineTool({ approval })`). */
  protected allowedFor(name: string): readonly ApprovalDecisionKind[] {
    return this.config.tools.get(name)?.approval?.allowed ?? APPROVAL_DECISION_KINDS;
  }

  /** Permission updates a PermissionRequest hook granted (Claude Code's): there are no permission rules here to update. */
  protected ignoredPermissionUpdates(updates: readonly Readonly<Record<string, unknown>>[]): void {
    const kinds = updates.map((u) => String(u.type ?? 'update')).join(', ');
    this.warn('ignored-outcome', `A PermissionRequest hook granted permission updates (updatedPermissions: ${kinds}); this agent has no permission rules to update, so they were ignored. The call itself was decided as the hook said.`, 'PermissionRequest');
  }

  /**
   * The approver refused `call`. PermissionDenied fires — where Claude Code fires it when its auto-mode classifier
   * refuses a call: here the approver stands in that place; a hook's refusal, or one for want of an approver, does not
   * count — and a hook's `withRetry()` tells the model it may try the call again, unless the refusal ended the run.
   */
  protected async denied(call: ToolCall, decision: ApprovalDecision, reviewed: boolean): Promise<ToolExecution> {
    const message = `Tool call refused: ${decision.reason ?? 'the approver said no'}`;
    if (decision.stopRun) this.rejectedStop = decision.reason ?? 'The approver refused the call and ended the run.';
    // Refused for want of an approver: no one decided, so PermissionDenied does not fire. A decision given to a resumed
    // run was made, as an approver's is.
    if (!reviewed) return this.refuse(call, message, 'approver');
    const reason = decision.reason ?? 'The approver refused the call.';
    const outcome = await this.answering(call, () => message, () =>
      this.dispatch('PermissionDenied', () => ToolHookContext.permissionDenied(call, { ...this.ctxInit(), reason })),
    );
    const retry = outcome.context?.event === 'PermissionDenied' && outcome.context.retry && decision.stopRun !== true;
    return this.refuse(call, retry ? `${message}\n${RETRY_NOTE}` : message, 'approver');
  }

  protected async approve(call: ToolCall, reason: string): Promise<Decision | 'interrupt'> {
    await this.dispatch('Notification', () =>
      NotificationHookContext.notify(`Approval needed for ${call.name}: ${reason}`, { state: this.state, metadata: this.metadata, notificationType: 'permission_prompt', title: 'Approval needed' }),
    );
    const approver = this.config.approver;
    if (approver === undefined) {
      return this.config.approvalInterrupts ? 'interrupt' : { approved: false, reason: `approval needed (${reason}) and this agent has no approver` };
    }
    const allowed = this.allowedFor(call.name);
    const answer = await approver({ toolCall: call, reason, state: this.state, signal: this.signal, allowed });
    if (answer !== null && typeof answer === 'object' && 'interrupt' in answer && answer.interrupt === true) return 'interrupt';
    const isResponse = answer !== null && typeof answer === 'object' && 'respond' in answer;
    if (typeof answer !== 'boolean' && !isResponse && (answer === null || typeof answer !== 'object' || typeof (answer as ApprovalDecision).approved !== 'boolean')) {
      throw new TypeError(`The approver answered ${describe(answer)} for ${call.name}; answer true/false, { approved, reason?, updatedInput?, stopRun? }, { respond } or { interrupt: true }.`);
    }
    const decision = answer as boolean | Decision;
    const kind = decisionKind(decision);
    if (!allowed.includes(kind)) {
      throw new TypeError(`The approver answered ${kind} for ${call.name}, and ${call.name} allows ${allowed.join(', ')} only (defineTool({ approval: { allowed } })).`);
    }
    return typeof decision === 'boolean' ? { approved: decision } : decision;
  }

  /** The interrupted step and call of `frame`, with live objects. */
  protected resumePoint(frame: RunFrameJson): ResumePoint {
    const at = frame.at!;
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
      // Aligned with the step's calls: none before the first call still to carry out.
      ...(at.review !== undefined ? { review: [...new Array<undefined>(at.callIndex), ...at.review.map(reviewFromJson)] } : {}),
    };
  }

  /**
   * After each step a resumed run completes, its checkpoint between that step and the next (see
   * {@link RunInit.keepStep}): a run that fails later goes on from there, without running again what ran.
   */
  protected async keepStep(nextStep: number): Promise<void> {
    const keep = this.init.keepStep;
    if (keep === undefined) return;
    const json = new JsonWriter();
    await keep({ ...this.frameJson(json), nextStep }, json.lossy);
  }

  /** What this run's loop carries from step to step, as JSON: a frame without its position. */
  private frameJson(json: JsonWriter): Omit<RunFrameJson, 'at' | 'nextStep'> {
    const runUsage = json.usage(this.usage);
    return {
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
    };
  }

  /** This run, stopped by `interrupt`, as JSON: everything its loop carries, and where it stopped. */
  protected interruption(interrupt: Interrupt): RunInterruption {
    const position = this.position!;
    const { point } = interrupt;
    const json = new JsonWriter();
    const { response, synthetic, offered } = position.turn;
    const usage = json.usage(response.usage);
    const review = position.review?.slice(position.callIndex).map((r, i) => reviewToJson(json, r!, `step.review[${i}]`));
    const frame: RunFrameJson = {
      ...this.frameJson(json),
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
        ...(review !== undefined ? { review } : {}),
      },
    };
    // An approval's request is the call the run stopped at, as the frame holds it: what a reviewer sees is what runs.
    const at = frame.at!;
    // With whole batches, every request of the batch that no one decided waits, in the order of the calls.
    const agentId = this.state.agentId;
    const pending =
      point.phase !== 'approval'
        ? interrupt.pending
        : review === undefined
          ? [{ id: at.requestId!, toolCall: at.call, reason: at.reason!, agentId, subagentPath: [], allowed: [...this.allowedFor(at.call.name)] }]
          : review
              .filter((r) => r.requestId !== undefined)
              .map((r) => ({ id: r.requestId!, toolCall: r.call, reason: r.reason!, agentId, subagentPath: [], allowed: [...this.allowedFor(r.call.name)] }));
    return { frame, pending, lossy: json.lossy };
  }
}
