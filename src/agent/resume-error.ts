/**
 * Why an interrupted run cannot be resumed.
 *
 * @module
 */

/** What was wrong with a resume: the snapshot, the agent, or the decisions. */
export type ResumeErrorCode =
  /** The snapshot is not one (a field is missing or has the wrong type). */
  | 'invalid-snapshot'
  /** The snapshot was written by a newer version of agent-hooks. */
  | 'newer-version'
  /** The snapshot is of an agent with other tools, subagents or hooks. */
  | 'other-agent'
  /** A decision names a request the snapshot does not have. */
  | 'unknown-request'
  /** A pending request has no decision. */
  | 'missing-decision'
  /** A decision is not one, or its `updatedInput` is not an input the tool takes. */
  | 'invalid-decision'
  /** The snapshot's signature is missing or does not match it: it was changed since it was written, or never signed. */
  | 'tampered'
  /** The snapshot was resumed already (or dropped from the checkpointer). */
  | 'already-resumed'
  /** No snapshot is saved under that id, or the agent has no checkpointer to look in. */
  | 'not-found';

/**
 * `agent.resume()` refused to go on: nothing ran, and the snapshot (in its checkpointer too) is as it was — except for
 * `already-resumed`, where it is gone already.
 */
export class ResumeError extends Error {
  /** Always `'ResumeError'`. */
  override readonly name = 'ResumeError';
  /** What was wrong. */
  readonly code: ResumeErrorCode;

  constructor(code: ResumeErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
