/**
 * A batch's review as JSON and back: what a snapshot keeps of the calls reviewed before any of them ran.
 *
 * @module
 */
import { JsonWriter, callFromJson } from '../internal/snapshot-codec.js';
import type { ApprovalDecisionJson, ReviewedCallJson } from '../run-snapshot.js';
import type { Decision, Review } from './run-types.js';

/** `review` as JSON; what JSON cannot hold as it was is noted in `json`'s `lossy`. */
export function reviewToJson(json: JsonWriter, review: Review, path: string): ReviewedCallJson {
  const call = json.call(review.call, `${path}.call`);
  switch (review.kind) {
    case 'run':
    case 'fail':
      return { kind: review.kind, call };
    case 'refuse':
      return { kind: 'refuse', call, message: review.message, by: review.by };
    case 'ask':
      return {
        kind: 'ask',
        call,
        reason: review.reason,
        ...(review.requestId !== undefined ? { requestId: review.requestId } : {}),
        ...(review.decision !== undefined ? { decision: decisionToJson(json, review.decision, `${path}.decision`), reviewed: review.reviewed === true } : {}),
      };
  }
}

function decisionToJson(json: JsonWriter, decision: Decision, path: string): ApprovalDecisionJson {
  if ('respond' in decision) return { respond: json.value(decision.respond, `${path}.respond`) ?? null };
  return {
    approved: decision.approved,
    ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
    ...(decision.stopRun !== undefined ? { stopRun: decision.stopRun } : {}),
    ...(decision.updatedInput !== undefined ? { updatedInput: json.record(decision.updatedInput, `${path}.updatedInput`) } : {}),
  };
}

/** A review read back from JSON: the input of a call is checked again when it is carried out. */
export function reviewFromJson(json: ReviewedCallJson): Review {
  const call = callFromJson(json.call);
  switch (json.kind) {
    case 'run':
    case 'fail':
      return { kind: json.kind, call };
    case 'refuse':
      return { kind: 'refuse', call, message: json.message ?? 'Tool call refused by a hook.', by: json.by ?? 'hook' };
    case 'ask':
      return {
        kind: 'ask',
        call,
        reason: json.reason ?? 'A hook asked for approval.',
        ...(json.requestId !== undefined ? { requestId: json.requestId } : {}),
        ...(json.decision !== undefined ? { decision: { ...json.decision }, reviewed: json.reviewed === true } : {}),
      };
  }
}
