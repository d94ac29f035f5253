/**
 * Where interrupted runs wait for their decisions.
 *
 * @module
 */
import type { RunSnapshot } from './run-snapshot.js';

/**
 * Keeps the snapshots of interrupted runs by id ({@link RunSnapshot.id}: a session's id, or the run's checkpoint id),
 * so that a run can be listed, resumed or dropped from anywhere that reaches the store. Small on purpose: five
 * methods over a key/value store. Snapshots are plain JSON; store them as text (`JSON.stringify`) and give back
 * what was stored.
 *
 * `take` is what makes a snapshot resume once: of two processes taking the same id, one gets it. Map it on the
 * store's own atomic read-and-delete (Redis `GETDEL`, SQL `DELETE … RETURNING`, a file `rename`). It makes a
 * snapshot resume at most once: a process that dies after taking it and before the run is interrupted again or ends
 * leaves nothing in the store. `save` may refuse an id the store cannot hold (say, too long); the order of `list` is
 * the store's.
 */
export interface Checkpointer {
  /** Saves `snapshot` under its `id`, replacing what was saved there. */
  save(snapshot: RunSnapshot): Promise<void>;
  /** The snapshot saved under `id`, or `undefined`. */
  load(id: string): Promise<RunSnapshot | undefined>;
  /** Removes the snapshot saved under `id` and returns it, atomically: of concurrent callers, one gets it. */
  take(id: string): Promise<RunSnapshot | undefined>;
  /** Drops the snapshot saved under `id`; resolves `true` when there was one. */
  delete(id: string): Promise<boolean>;
  /** The ids of the saved snapshots. */
  list(): Promise<readonly string[]>;
}
