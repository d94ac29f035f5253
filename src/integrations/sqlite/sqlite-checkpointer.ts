/**
 * A checkpointer on SQLite, through a database the caller opened.
 *
 * @module
 */
import type { Checkpointer } from '../../agent/checkpointer.js';
import { CheckpointerError, type CheckpointerOperation } from '../../agent/checkpointer-error.js';
import type { RunSnapshot } from '../../agent/run-snapshot.js';
import { savedId, snapshotText } from '../../agent/internal/snapshot-text.js';
import { assertStorableId, isStorableId, parseStoredSnapshot, quotedTableName } from '../../agent/internal/stored-snapshot.js';

/** What the checkpointer reads of a statement that ran, as `better-sqlite3` and `node:sqlite` give it. */
export interface SqliteRunResult {
  /** How many rows the statement changed. */
  readonly changes: number | bigint;
}

/** A prepared statement, as `better-sqlite3` and `node:sqlite` both make them. */
export interface SqliteStatement {
  /** Runs the statement; says how many rows it changed. */
  run(...params: unknown[]): SqliteRunResult;
  /** The first row the statement gives, or `undefined`. */
  get(...params: unknown[]): unknown;
  /** Every row the statement gives. */
  all(...params: unknown[]): unknown[];
}

/**
 * What the checkpointer needs of a SQLite database: `prepare(sql)` and `exec(sql)`, as a `better-sqlite3` `Database`
 * (12 or later) and a `node:sqlite` `DatabaseSync` (Node 22.13 or later) both have them.
 */
export interface SqliteDatabase {
  /** Compiles one statement. */
  prepare(sql: string): SqliteStatement;
  /** Runs SQL that gives no rows. */
  exec(sql: string): unknown;
}

/** How a {@link SqliteCheckpointer} keeps its snapshots. */
export interface SqliteCheckpointerOptions {
  /** The table (letters, digits and `_`); default `agent_hooks_runs`. */
  readonly table?: string;
  /**
   * Whether to create the table when it is missing (`CREATE TABLE IF NOT EXISTS`, before the first statement); default
   * `true`. With `false`, create it yourself ({@link SqliteCheckpointer.migration}).
   */
  readonly createTable?: boolean;
}

/** The default table. */
const TABLE = 'agent_hooks_runs';

/**
 * Keeps each snapshot as a row of a SQLite table, through a database that you open and close (`better-sqlite3`, or
 * `node:sqlite` where Node has it): the checkpointer opens nothing of its own. Any process that opens the same file
 * reaches the same snapshots.
 *
 * ```sql
 * CREATE TABLE IF NOT EXISTS "agent_hooks_runs" (
 *   id TEXT PRIMARY KEY NOT NULL,
 *   snapshot TEXT NOT NULL,
 *   saved_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
 * )
 * ```
 *
 * - `save` is one `INSERT … ON CONFLICT (id) DO UPDATE`; `take` is one `DELETE … WHERE id = ? RETURNING snapshot`
 *   (SQLite 3.35 or later), which SQLite runs under its write lock: of concurrent takers, in any process, one gets the
 *   row. A process that finds the database locked waits for the database's busy timeout (`better-sqlite3`: 5 s by
 *   default; `node:sqlite`: none unless you set `timeout`), then fails with a {@link CheckpointerError}.
 * - Every id and snapshot goes as a parameter, never in the SQL; the table name is checked to be a plain name.
 * - Ids are kept as they are, up to 1,024 bytes of UTF-8 (no NUL, no unpaired surrogate: such an id is refused at
 *   `save`). `list` is sorted by id, byte by byte.
 * - A failed statement (a closed database, a lock held too long, a full disk) is a {@link CheckpointerError} naming
 *   the table, the operation and the id; a `take` that fails deletes nothing.
 *
 * ```ts
 * import Database from 'better-sqlite3';
 * import { SqliteCheckpointer } from 'agent-hooks/sqlite';
 *
 * const db = new Database('.agent/runs.db');
 * db.pragma('journal_mode = WAL'); // readers do not wait for writers
 * const checkpointer = new SqliteCheckpointer(db);
 * ```
 */
export class SqliteCheckpointer implements Checkpointer {
  /** The table, quoted as it goes in SQL: `"agent_hooks_runs"`. */
  readonly table: string;
  private readonly db: SqliteDatabase;
  private readonly createTable: boolean;
  private ready = false;

  /** A checkpointer keeping its rows in `options.table` of `db` (a `better-sqlite3` or `node:sqlite` database). */
  constructor(db: SqliteDatabase, options: SqliteCheckpointerOptions = {}) {
    if (db === null || typeof db !== 'object' || typeof (db as Partial<SqliteDatabase>).prepare !== 'function' || typeof (db as Partial<SqliteDatabase>).exec !== 'function') {
      throw new TypeError("SqliteCheckpointer needs a SQLite database (an object with prepare and exec methods): new SqliteCheckpointer(new Database('runs.db')) with better-sqlite3.");
    }
    this.db = db;
    this.table = quotedTableName(options.table ?? TABLE, 'SqliteCheckpointer', false);
    this.createTable = options.createTable ?? true;
  }

  /** The SQL that creates the table `table` (default `agent_hooks_runs`), for a migration of your own. */
  static migration(table: string = TABLE): string {
    return createTableSql(quotedTableName(table, 'SqliteCheckpointer.migration', false));
  }

  /** Saves `snapshot` under its `id`, replacing what was saved there, in one statement. */
  async save(snapshot: RunSnapshot): Promise<void> {
    const id = savedId(snapshot, 'SqliteCheckpointer');
    assertStorableId(id, 'SqliteCheckpointer');
    const text = snapshotText(snapshot, id);
    this.run('save', id, (db) =>
      db
        .prepare(
          `INSERT INTO ${this.table} (id, snapshot) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET snapshot = excluded.snapshot, saved_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
        )
        .run(id, text),
    );
  }

  /** The snapshot saved under `id`, or `undefined`. */
  async load(id: string): Promise<RunSnapshot | undefined> {
    if (!isStorableId(id)) return undefined;
    return this.parse(
      this.run('load', id, (db) => db.prepare(`SELECT snapshot FROM ${this.table} WHERE id = ?`).get(id)),
      id,
    );
  }

  /** Removes the snapshot saved under `id` and returns it, in one `DELETE … RETURNING`: of concurrent callers, one gets it. */
  async take(id: string): Promise<RunSnapshot | undefined> {
    if (!isStorableId(id)) return undefined;
    return this.parse(
      this.run('take', id, (db) => db.prepare(`DELETE FROM ${this.table} WHERE id = ? RETURNING snapshot`).get(id)),
      id,
    );
  }

  /** Drops the snapshot saved under `id`; resolves `true` when there was one. */
  async delete(id: string): Promise<boolean> {
    if (!isStorableId(id)) return false;
    return Number(this.run('delete', id, (db) => db.prepare(`DELETE FROM ${this.table} WHERE id = ?`).run(id)).changes) > 0;
  }

  /** The ids of the saved snapshots, sorted byte by byte. */
  async list(): Promise<readonly string[]> {
    const rows = this.run('list', undefined, (db) => db.prepare(`SELECT id FROM ${this.table} ORDER BY id`).all());
    return rows.map((row) => (row as { id: string }).id);
  }

  private get where(): string {
    return `SqliteCheckpointer (table ${this.table})`;
  }

  private parse(row: unknown, id: string): RunSnapshot | undefined {
    return row === undefined ? undefined : parseStoredSnapshot((row as { snapshot: unknown }).snapshot, id, this.where);
  }

  /** Runs `statement` once the table is there; a failure of the database is a CheckpointerError. */
  private run<T>(operation: CheckpointerOperation, id: string | undefined, statement: (db: SqliteDatabase) => T): T {
    try {
      if (this.createTable && !this.ready) {
        this.db.exec(createTableSql(this.table));
        this.ready = true;
      }
      return statement(this.db);
    } catch (error) {
      throw new CheckpointerError({ store: this.where, operation, ...(id === undefined ? {} : { id }), cause: error });
    }
  }
}

function createTableSql(table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (\n  id TEXT PRIMARY KEY NOT NULL,\n  snapshot TEXT NOT NULL,\n  saved_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))\n)`;
}
