/**
 * Who decides when a hook asks for approval.
 *
 * @module
 */
import type { AgentState, ToolCall } from '../core/index.js';

/** What the approver is asked. */
export interface ApprovalRequest {
  /** The call waiting for approval (as hooks left it). */
  readonly toolCall: ToolCall;
  /** Why approval is needed: the reasons the asking hooks gave. */
  readonly reason: string;
  /** The agent's state. */
  readonly state: AgentState;
  /** Aborts when the run is cancelled. */
  readonly signal: AbortSignal | undefined;
  /** The decisions the call's tool allows (`defineTool({ approval: { allowed } })`): every kind when it says none. */
  readonly allowed: readonly ApprovalDecisionKind[];
}

/**
 * The kinds of decision a reviewer makes on a request: `approve` (`true`, `{ approved: true }`), `edit`
 * (`{ approved: true, updatedInput }`), `reject` (`false`, `{ approved: false, … }`) and `respond` (`{ respond }`).
 */
export type ApprovalDecisionKind = 'approve' | 'edit' | 'reject' | 'respond';

/** Every {@link ApprovalDecisionKind}, in the order a reviewer's UI shows them. */
export const APPROVAL_DECISION_KINDS: readonly ApprovalDecisionKind[] = Object.freeze(['approve', 'edit', 'reject', 'respond']);

/**
 * A reviewer's answer in place of the tool's, as LangChain's human-in-the-loop `respond`: the tool does not run, and
 * `respond` is the call's result — the model is told it as a tool result. No PostToolUse or PostToolUseFailure fires:
 * no tool ran (as LangChain runs no tool middleware for it); the step's execution records it as a success.
 */
export interface ApprovalResponse {
  /** The call's result, as the tool would return it (plain JSON, to go through a snapshot). */
  readonly respond: unknown;
}

/** What a tool lets a reviewer decide about its calls (`defineTool({ approval })`). */
export interface ToolApprovalOptions {
  /**
   * The decisions allowed on this tool's calls, e.g. `['approve', 'reject']` for a deploy whose input a reviewer may
   * not edit. Another decision is refused: by `agent.resume()` with a `ResumeError` (`invalid-decision`) before
   * anything runs, from an approver with a `TypeError` that fails the run. Every kind when absent.
   */
  readonly allowed?: readonly ApprovalDecisionKind[];
}

/** The approver's answer in full. */
export interface ApprovalDecision {
  /** Whether the call may run. */
  readonly approved: boolean;
  /** Why, told to the model when refused. */
  readonly reason?: string | undefined;
  /** Refuse and end the run: the Stop gate sees `tool_rejected`. */
  readonly stopRun?: boolean | undefined;
  /**
   * Approve the call with this input instead of the one it has. The tool's input schema checks it again (an input it
   * refuses fails the call as the model's bad input does, PostToolUseFailure; given to `agent.resume()`, it is refused
   * before anything runs); the hooks that already ran for the call do not run again.
   */
  readonly updatedInput?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * An approver's answer that decides nothing now: the run is interrupted at this call and resolves with status
 * `interrupted` and a snapshot, to be resumed later — in this process or another — with `agent.resume()`.
 */
export interface ApprovalInterrupt {
  /** Always `true`. */
  readonly interrupt: true;
}

/** What an approver may answer: a decision, `true`/`false` (short for `{ approved }`), a response, or an interrupt. */
export type ApprovalAnswer = boolean | ApprovalDecision | ApprovalResponse | ApprovalInterrupt;

/**
 * Decides a tool call a hook asked about (`HookOutcome.ask`), after the PermissionRequest hooks. `true`/`false` is
 * short for `{ approved }`; `{ interrupt: true }` pauses the run for a decision made later (see
 * `AgentBuilder.withApprovalInterrupts`). Without an approver, such calls are refused.
 */
export type Approver = (request: ApprovalRequest) => ApprovalAnswer | Promise<ApprovalAnswer>;

/** The decisions `agent.resume()` applies, by the id of each pending request: a decision, `true`/`false`, or a response. */
export type ApprovalDecisions = Readonly<Record<string, boolean | ApprovalDecision | ApprovalResponse>>;

/** The kind of `decision`. */
export function decisionKind(decision: boolean | ApprovalDecision | ApprovalResponse): ApprovalDecisionKind {
  if (typeof decision === 'boolean') return decision ? 'approve' : 'reject';
  if ('respond' in decision) return 'respond';
  return !decision.approved ? 'reject' : decision.updatedInput === undefined ? 'approve' : 'edit';
}

/** How calls that need approval are gathered: `withApprover(approver, options)`, `withApprovalInterrupts(options)`. */
export interface ApprovalOptions {
  /**
   * Review a step's whole batch before any of its calls runs: every call of the batch goes through its input check,
   * PreToolUse and — when a hook asks — PermissionRequest, Notification and the approver first; then the calls run in
   * order, each with its decision (PermissionDenied for a refusal, the tool and PostToolUse for the others). So one
   * interruption holds every request of the batch, and a reviewer sees them together, as LangChain's human-in-the-loop
   * middleware shows them.
   *
   * Off by default: it changes the order of events a hook sees (the PreToolUse of a batch's second call fires before
   * its first call's tool runs), and a PreToolUse hook that reads what an earlier call of the same batch did sees it
   * not yet done. A subagent's own requests come from its run, so they are gathered in their own interruption when
   * its call runs. Subagents without an approval mode of their own take their parent's.
   */
  readonly batch?: boolean;
}
