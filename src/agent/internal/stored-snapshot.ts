// Internal: not exported from the package.
/**
 * What the checkpointers on a database share: which ids they hold, the names they accept for a table or a key
 * prefix, and the check of what comes back.
 *
 * @module
 */
import { messageOf } from '../../core/internal/message-of.js';
import { RUN_SNAPSHOT_FORMAT, type RunSnapshot } from '../run-snapshot.js';

/** The longest id, in UTF-8 bytes: well under the ~2,700 bytes a Postgres index entry may take. */
export const MAX_ID_BYTES = 1024;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a database cannot hold `id` exactly, or `undefined` when it can. Its text goes to the database as UTF-8: a lone
 * surrogate would come back as U+FFFD (another id), and Postgres refuses a NUL in text.
 */
export function unstorableId(id: string): string | undefined {
  if (id.includes('\u0000')) return 'it holds a NUL character';
  if (LONE_SURROGATE.test(id)) return 'it holds an unpaired surrogate (not valid Unicode)';
  const bytes = Buffer.byteLength(id, 'utf8');
  if (bytes > MAX_ID_BYTES) return `it is ${bytes} bytes long in UTF-8, and at most ${MAX_ID_BYTES} fit`;
  return undefined;
}

/** Throws, naming `where`, when `id` cannot be saved; `load`, `take` and `delete` find nothing under such an id. */
export function assertStorableId(id: string, where: string): void {
  const why = unstorableId(id);
  if (why !== undefined) {
    throw new RangeError(`${where} cannot save snapshot ${JSON.stringify(id)}: ${why}. Give the run another id (the checkpointId run option, or the session's id).`);
  }
}

/** `true` when `id` is one that could have been saved (a string a database holds exactly). */
export const isStorableId = (id: unknown): id is string => typeof id === 'string' && id !== '' && unstorableId(id) === undefined;

/** A table name, bare or with its schema: letters, digits and `_`, not starting with a digit. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * `name` (`table` or `schema.table`) quoted for SQL; throws, naming `where`, when it is not a plain identifier. Only
 * plain names are accepted, so that no name can carry SQL of its own.
 */
export function quotedTableName(name: unknown, where: string, allowSchema: boolean): string {
  const parts = typeof name === 'string' ? name.split('.') : [];
  if (parts.length === 0 || parts.length > (allowSchema ? 2 : 1) || !parts.every((part) => IDENTIFIER.test(part))) {
    throw new TypeError(
      `${where} needs a table name of letters, digits and _ (not starting with a digit, at most 63 characters)` +
        `${allowSchema ? ', optionally after a schema name and a dot' : ''}; got ${JSON.stringify(name) ?? String(name)}.`,
    );
  }
  return parts.map((part) => `"${part}"`).join('.');
}

/**
 * The snapshot `text` holds, saved under `id` in `where`; throws when it holds something else (a row or a key written
 * by something other than this store).
 */
export function parseStoredSnapshot(text: unknown, id: string, where: string): RunSnapshot {
  const remedy = `Delete it (checkpointer.delete(${JSON.stringify(id)})) or save the run's snapshot again.`;
  if (typeof text !== 'string') throw new TypeError(`${where} holds no text under ${JSON.stringify(id)} (got ${typeof text}). ${remedy}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SyntaxError(`${where} holds no valid JSON under ${JSON.stringify(id)} (${messageOf(error)}). ${remedy}`, { cause: error });
  }
  const record = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  if (record?.['format'] !== RUN_SNAPSHOT_FORMAT) {
    throw new TypeError(`${where} holds no run snapshot under ${JSON.stringify(id)}: its 'format' is not '${RUN_SNAPSHOT_FORMAT}'. ${remedy}`);
  }
  if (record['id'] !== id) {
    throw new TypeError(`${where} holds snapshot ${JSON.stringify(record['id'])} under ${JSON.stringify(id)}. ${remedy}`);
  }
  return value as RunSnapshot;
}
