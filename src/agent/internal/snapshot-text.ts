// Internal: not exported from the package.
/**
 * What a checkpointer saves: a run snapshot's id and its JSON text, after checking that a caller without types gave
 * a snapshot (something a load would give back).
 *
 * @module
 */
import { messageOf } from '../../core/internal/message-of.js';
import { RUN_SNAPSHOT_FORMAT, type RunSnapshot } from '../run-snapshot.js';

/** What a value is, for an error message. */
export const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);

/** The id `snapshot` is saved under; throws, naming `where` (`FileCheckpointer`), when it is not a run snapshot. */
export function savedId(snapshot: RunSnapshot, where: string): string {
  if (snapshot === null || typeof snapshot !== 'object' || Array.isArray(snapshot)) {
    throw new TypeError(`${where}.save() needs a run snapshot (an object), got ${kindOf(snapshot)}.`);
  }
  const id: unknown = snapshot.id;
  if (typeof id !== 'string' || id === '') {
    throw new TypeError(
      `${where}.save() needs a snapshot with a non-empty string 'id' to save it under, got ${id === '' ? 'an empty string' : kindOf(id)}. ` +
        'Save the snapshot a run returned, unchanged.',
    );
  }
  if (snapshot.format !== RUN_SNAPSHOT_FORMAT) {
    throw new TypeError(
      `${where}.save() needs a run snapshot, whose 'format' is '${RUN_SNAPSHOT_FORMAT}'; snapshot '${id}' has ${JSON.stringify(snapshot.format) ?? 'none'}. ` +
        'Save the snapshot a run returned, unchanged.',
    );
  }
  return id;
}

/** `snapshot` as JSON text; throws when it is not plain JSON (a cycle, a bigint). */
export function snapshotText(snapshot: RunSnapshot, id: string): string {
  try {
    return JSON.stringify(snapshot);
  } catch (error) {
    throw new TypeError(`Cannot save snapshot '${id}': it is not plain JSON (${messageOf(error)}). Save the snapshot a run returned, unchanged.`, { cause: error });
  }
}
