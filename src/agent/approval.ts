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
}

/** The approver's answer in full. */
export interface ApprovalDecision {
  /** Whether the call may run. */
  readonly approved: boolean;
  /** Why, told to the model when refused. */
  readonly reason?: string | undefined;
  /** Refuse and end the run: the Stop gate sees `tool_rejected`. */
  readonly stopRun?: boolean | undefined;
}

/**
 * Decides a tool call a hook asked about (`HookOutcome.ask`), after the PermissionRequest hooks. `true`/`false` is
 * short for `{ approved }`. Without an approver, such calls are refused.
 */
export type Approver = (request: ApprovalRequest) => boolean | ApprovalDecision | Promise<boolean | ApprovalDecision>;
