/**
 * Why a checkpointer could not reach its store.
 *
 * @module
 */
import { messageOf } from '../core/internal/message-of.js';

/** The {@link Checkpointer} method that failed. */
export type CheckpointerOperation = 'save' | 'load' | 'take' | 'delete' | 'list';

/** What a {@link CheckpointerError} is made of. */
export interface CheckpointerErrorOptions {
  /** The store, as a user would find it: `PostgresCheckpointer (table "agent_hooks_runs")`. */
  readonly store: string;
  /** The method that failed. */
  readonly operation: CheckpointerOperation;
  /** The snapshot's id; none for `list`. */
  readonly id?: string;
  /** What the store's client threw. */
  readonly cause: unknown;
}

/** What is known of the snapshot after each operation failed, and what to do. */
const AFTERWARDS: Record<CheckpointerOperation, string> = {
  save: 'The snapshot was not saved (the run still returns it, in result.interruption.snapshot): check that the store is reachable, then save it again.',
  // A command that reached the store and ran before the connection dropped cannot be told from one that did not: say so.
  take:
    'The snapshot was not taken, unless the store had already carried out the take when the connection failed: load(id) says whether it is still there. ' +
    'Check that the store is reachable, then resume again.',
  load: 'Nothing was changed: check that the store is reachable and try again.',
  delete: 'The snapshot is still there, unless the store had already deleted it when the connection failed: check that the store is reachable and try again.',
  list: 'Nothing was changed: check that the store is reachable and try again.',
};

/**
 * A checkpointer's store failed (a dropped connection, a server that is down, a database that is closed): names the
 * store, the operation and the snapshot's id, says what became of the snapshot and what to do. The client's own error
 * is its `cause`. A take that fails leaves the snapshot in the store, unless the store had already carried out the
 * take when the connection failed (no client can tell those two apart).
 */
export class CheckpointerError extends Error {
  /** Always `'CheckpointerError'`. */
  override readonly name = 'CheckpointerError';
  /** The store: its class and where it keeps snapshots. */
  readonly store: string;
  /** The method that failed. */
  readonly operation: CheckpointerOperation;
  /** The snapshot's id; `undefined` for `list`. */
  readonly id: string | undefined;

  constructor(options: CheckpointerErrorOptions) {
    const what = options.id === undefined ? 'the saved ids' : `snapshot ${JSON.stringify(options.id)}`;
    super(`${options.store} could not ${options.operation === 'list' ? 'list' : options.operation} ${what}: ${messageOf(options.cause)}. ${AFTERWARDS[options.operation]}`, {
      cause: options.cause,
    });
    this.store = options.store;
    this.operation = options.operation;
    this.id = options.id;
  }
}
