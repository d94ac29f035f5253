/**
 * A checkpointer that keeps each snapshot in a file of its own.
 *
 * @module
 */
import { fsPromises } from '../core/internal/node-fs.js';
import { join, resolve } from 'node:path';
import type { Checkpointer } from './checkpointer.js';
import { messageOf } from '../core/internal/message-of.js';
import { nodeCrypto } from '../core/internal/node-crypto.js';
import { RUN_SNAPSHOT_FORMAT, type RunSnapshot } from './run-snapshot.js';
import { kindOf, savedId, snapshotText } from './internal/snapshot-text.js';

const EXTENSION = '.json';

/** The longest file name ext4, APFS and NTFS accept. */
const NAME_MAX = 255;

/**
 * The longest encoded id. A snapshot's file gets renamed to `<encoded>.json.<pid>-<16 hex digits>.taken` when it is
 * taken, so the limit leaves room for that tail (with a pid of up to 10 digits): an id that could be saved but whose
 * claimed name were too long would be a snapshot no one could ever take.
 */
const MAX_ENCODED_LENGTH = NAME_MAX - EXTENSION.length - '.'.length - 10 - '-'.length - 16 - '.taken'.length;

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

/**
 * Keeps each snapshot in its own file, `<directory>/<encoded id>.json`, so that any process that reaches the
 * directory can list, resume or drop a run. The directory is created (mode 0700, files 0600: snapshots hold the
 * conversation) on the first save.
 *
 * - Ids are encoded so that any id is one safe file name, on any common file system: `encodeURIComponent`, plus
 *   `%XX` for `*`, a leading `.`, upper-case letters (so that ids differing only in case stay apart where names do
 *   not, as on macOS and Windows) and the first letter of a Windows device name such as `con`; `%uXXXX` for an
 *   unpaired surrogate. An id longer than 216 characters once encoded is refused.
 * - `save` writes a temporary file beside the target, flushes it to disk and renames it over the target: a reader
 *   sees the old snapshot or the new one, never half of one.
 * - `take` renames the file to a name of its own before reading it: the rename succeeds for one caller only, in this
 *   process or any other, so a snapshot resumes once.
 *
 * Leftovers of a crash (`*.tmp` from a save, `*.taken` from a take) are never listed nor loaded; delete them at will.
 *
 * ```ts
 * const checkpointer = new FileCheckpointer('.agent/checkpoints');
 * ```
 */
export class FileCheckpointer implements Checkpointer {
  /** The directory the snapshots are kept in (absolute). */
  readonly directory: string;

  /** A checkpointer keeping its files in `directory` (nothing is created until the first save). */
  constructor(directory: string) {
    if (typeof directory !== 'string' || directory === '') {
      throw new TypeError(`FileCheckpointer needs the path of a directory to keep snapshots in, got ${directory === '' ? 'an empty string' : kindOf(directory)}.`);
    }
    this.directory = resolve(directory);
  }

  /** Saves `snapshot` under its `id`, replacing what was saved there; atomically, a reader never sees half a file. */
  async save(snapshot: RunSnapshot): Promise<void> {
    const id = savedId(snapshot, 'FileCheckpointer');
    const file = this.fileOf(id);
    if (file === undefined) {
      throw new RangeError(
        `Cannot save snapshot '${id}' in ${this.directory}: its id is ${encodeId(id).length} characters long once encoded for a file name, ` +
          `and at most ${MAX_ENCODED_LENGTH} fit. Give the run a shorter id (the checkpointId run option, or the session's id).`,
      );
    }
    const text = snapshotText(snapshot, id);
    await fsPromises().mkdir(this.directory, { recursive: true, mode: 0o700 });
    const temp = `${file}.${uniqueTag()}.tmp`;
    // `wx` creates the file or fails: a symlink planted at the temporary name is never written through.
    const handle = await fsPromises().open(temp, 'wx', 0o600);
    try {
      try {
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fsPromises().rename(temp, file);
    } catch (error) {
      await fsPromises().rm(temp, { force: true });
      throw error;
    }
  }

  /**
   * The snapshot saved under `id`, or `undefined`. Throws, naming the file, when the file holds something other than a
   * run snapshot.
   */
  async load(id: string): Promise<RunSnapshot | undefined> {
    const file = this.fileOf(id);
    if (file === undefined) return undefined;
    let text: string;
    try {
      text = await fsPromises().readFile(file, 'utf8');
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return undefined;
      throw error;
    }
    return parseSnapshot(text, file, id, `Delete it (checkpointer.delete(${JSON.stringify(id)})) or save the run's snapshot again.`);
  }

  /**
   * Removes the snapshot saved under `id` and returns it: of concurrent callers, in any process, one gets it and the
   * others get `undefined`. Throws, naming the file, when the file holds something other than a run snapshot; the file
   * is then out of the store but kept, for inspection.
   */
  async take(id: string): Promise<RunSnapshot | undefined> {
    const file = this.fileOf(id);
    if (file === undefined) return undefined;
    const claimed = `${file}.${uniqueTag()}.taken`;
    try {
      await fsPromises().rename(file, claimed);
    } catch (error) {
      // Not there, or another caller renamed it first.
      if (codeOf(error) === 'ENOENT') return undefined;
      throw error;
    }
    const snapshot = parseSnapshot(await fsPromises().readFile(claimed, 'utf8'), claimed, id, 'It is out of the store now; inspect it, then delete it.');
    await fsPromises().unlink(claimed);
    return snapshot;
  }

  /** Drops the snapshot saved under `id`; resolves `true` when there was one. */
  async delete(id: string): Promise<boolean> {
    const file = this.fileOf(id);
    if (file === undefined) return false;
    try {
      await fsPromises().unlink(file);
      return true;
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return false;
      throw error;
    }
  }

  /** The ids of the saved snapshots, sorted. Files this class did not name (leftovers, strangers) are left out. */
  async list(): Promise<readonly string[]> {
    let names: string[];
    try {
      names = await fsPromises().readdir(this.directory);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return [];
      throw error;
    }
    const ids: string[] = [];
    for (const name of names) {
      if (!name.endsWith(EXTENSION)) continue;
      const id = decodeId(name.slice(0, -EXTENSION.length));
      if (id !== undefined) ids.push(id);
    }
    return ids.sort();
  }

  /** The file of `id`, or `undefined` when no file can hold it (nothing can have been saved under it). */
  private fileOf(id: string): string | undefined {
    if (typeof id !== 'string') return undefined;
    const encoded = encodeId(id);
    return encoded === '' || encoded.length > MAX_ENCODED_LENGTH ? undefined : join(this.directory, encoded + EXTENSION);
  }
}

/** Pairs of surrogates are left whole; an unpaired one (which `encodeURIComponent` refuses) is split out. */
const UNPAIRED_SURROGATE = /([\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF])/;

/** Reserved on Windows whatever follows their first dot (`nul.json` is the null device). */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com\d|lpt\d)(?:\.|$)/;

const hex = (char: string): string => char.charCodeAt(0).toString(16).toUpperCase();

/**
 * `id` as one file name component: no separator, no `.` or `..`, nothing a file system folds together. The only
 * upper-case letters left are the hex digits of escapes, which makes the name unique even where case is ignored.
 */
function encodeId(id: string): string {
  const encoded = id
    .split(UNPAIRED_SURROGATE)
    .map((piece, index) =>
      index % 2 === 1
        ? `%u${hex(piece).padStart(4, '0')}`
        : encodeURIComponent(piece).replace(/%[0-9A-F]{2}|[A-Z*]/g, (match) => (match.length === 1 ? `%${hex(match)}` : match)),
    )
    .join('');
  return encoded.startsWith('.') || WINDOWS_DEVICE.test(encoded) ? `%${hex(encoded)}${encoded.slice(1)}` : encoded;
}

/** The id `encoded` names, or `undefined` when {@link encodeId} would not have written it so. */
function decodeId(encoded: string): string | undefined {
  let id: string;
  try {
    id = encoded.replace(/%u([0-9A-F]{4})|(?:%[0-9A-F]{2}|[^%])+/g, (match, unpaired: string | undefined) =>
      unpaired === undefined ? decodeURIComponent(match) : String.fromCharCode(Number.parseInt(unpaired, 16)),
    );
  } catch (error) {
    if (error instanceof URIError) return undefined;
    throw error;
  }
  // Only the one spelling this class writes: every listed id then loads.
  return id !== '' && encoded.length <= MAX_ENCODED_LENGTH && encodeId(id) === encoded ? id : undefined;
}

/** `<pid>-<random>`: a tag no other save or take, in this process or another, picks at the same time. */
function uniqueTag(): string {
  return `${process.pid}-${nodeCrypto().randomBytes(8).toString('hex')}`;
}

/** The snapshot `text` holds; throws, naming `file`, when it holds something else. */
function parseSnapshot(text: string, file: string, id: string, remedy: string): RunSnapshot {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SyntaxError(`Checkpoint file ${file} is not valid JSON (${messageOf(error)}). ${remedy}`, { cause: error });
  }
  const record = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  if (record?.['format'] !== RUN_SNAPSHOT_FORMAT) {
    throw new TypeError(`Checkpoint file ${file} does not hold a run snapshot: its 'format' is not '${RUN_SNAPSHOT_FORMAT}'. ${remedy}`);
  }
  // A file copied or renamed by hand would otherwise resume another run than the one asked for.
  if (record['id'] !== id) {
    throw new TypeError(`Checkpoint file ${file} holds snapshot ${JSON.stringify(record['id'])}, not '${id}' as its name says. ${remedy}`);
  }
  return value as RunSnapshot;
}
