/**
 * A checkpointer that keeps snapshots in this process's memory.
 *
 * @module
 */
import type { Checkpointer } from './checkpointer.js';
import type { RunSnapshot } from './run-snapshot.js';
import { savedId, snapshotText } from './internal/snapshot-text.js';

/**
 * Keeps snapshots in a `Map`, for tests and for runs resumed by the process that interrupted them. Nothing survives
 * the process.
 *
 * Snapshots are kept as JSON text, as a database or a file would keep them: changing a snapshot after saving it, or
 * one that was loaded, changes nothing stored, and what comes back is what any text store would give back (no
 * `undefined` fields, no class instances). A snapshot that does not survive `JSON.stringify` is refused at `save`,
 * where the mistake is, rather than at `resume`.
 *
 * ```ts
 * const checkpointer = new MemoryCheckpointer();
 * ```
 */
export class MemoryCheckpointer implements Checkpointer {
  private readonly texts = new Map<string, string>();

  /** Saves `snapshot` under its `id`, replacing what was saved there (an id keeps its place in {@link list}). */
  async save(snapshot: RunSnapshot): Promise<void> {
    const id = savedId(snapshot, 'MemoryCheckpointer');
    this.texts.set(id, snapshotText(snapshot, id));
  }

  /** A fresh copy of the snapshot saved under `id`, or `undefined`. */
  async load(id: string): Promise<RunSnapshot | undefined> {
    const text = this.texts.get(id);
    return text === undefined ? undefined : (JSON.parse(text) as RunSnapshot);
  }

  /** Removes the snapshot saved under `id` and returns it; of concurrent callers, the first gets it. */
  async take(id: string): Promise<RunSnapshot | undefined> {
    // Read and delete with no `await` between them: no other caller can run in between.
    const text = this.texts.get(id);
    if (text === undefined) return undefined;
    this.texts.delete(id);
    return JSON.parse(text) as RunSnapshot;
  }

  /** Drops the snapshot saved under `id`; resolves `true` when there was one. */
  async delete(id: string): Promise<boolean> {
    return this.texts.delete(id);
  }

  /** The ids of the saved snapshots, in the order they were first saved. */
  async list(): Promise<readonly string[]> {
    return [...this.texts.keys()];
  }
}
