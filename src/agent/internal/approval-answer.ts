// Internal: not exported from the package.
import type { ApprovalAnswer, ApprovalDecision, ApprovalDecisionKind } from '../approval.js';

/** The decisions an approver can make where the run cannot pause: a framework's loop runs its tools itself, so no `respond`. */
export const LOOP_DECISIONS: readonly ApprovalDecisionKind[] = Object.freeze(['approve', 'edit', 'reject']);

/**
 * An approver's answer where the run cannot be paused (a framework's own loop): a decision as it is, and an interrupt
 * as a refusal that says why.
 */
export function decisionWithoutInterrupt(answer: ApprovalAnswer, where: string): ApprovalDecision {
  if (typeof answer === 'boolean') return { approved: answer };
  if ('interrupt' in answer && answer.interrupt === true) {
    return { approved: false, reason: `the approver asked to pause the run for a later decision, which ${where} cannot do; answer true/false there` };
  }
  if ('respond' in answer) {
    return { approved: false, reason: `the approver answered in place of the tool (respond), which ${where} cannot do; answer true/false there` };
  }
  return answer as ApprovalDecision;
}

