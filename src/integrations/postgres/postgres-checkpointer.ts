/**
 * A checkpointer on Postgres, through a `pg` pool or client the caller made.
 *
 * @module
 */
import type { Checkpointer } from '../../agent/checkpointer.js';
import { CheckpointerError, type CheckpointerOperation } from '../../agent/checkpointer-error.js';
import type { RunSnapshot } from '../../agent/run-snapshot.js';
import { savedId, snapshotText } from '../../agent/internal/snapshot-text.js';
import { assertStorableId, isStorableId, parseStoredSnapshot, quotedTableName } from '../../agent/internal/stored-snapshot.js';

/**
 * What the checkpointer needs of a Postgres connection: `query(text, values)`, as a `pg` `Pool`, `Client` or
 * `PoolClient` has it. A pool is the one to give: it replaces a connection that dropped.
 */
export interface PostgresQueryable {
  /** Runs one parameterised statement. */
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
}

/** What the checkpointer reads of a statement's result, as `pg` gives it. */
export interface PostgresQueryResult {
  /** The rows the statement gave, as objects by column name. */
  readonly rows: readonly unknown[];
  /** How many rows the statement touched. */
  readonly rowCount: number | null;
}

/** How a {@link PostgresCheckpointer} keeps its snapshots. */
export interface PostgresCheckpointerOptions {
  /**
   * The table, `name` or `schema.name` (letters, digits and `_`); default `agent_hooks_runs`. It is quoted, so its case
   * is kept.
   */
  readonly table?: string;
  /**
   * Whether to create the table when it is missing (`CREATE TABLE IF NOT EXISTS`, once, before the first statement);
   * default `true`. With `false`, create it yourself ({@link PostgresCheckpointer.migration}).
   */
  readonly createTable?: boolean;
}

/** The default table. */
const TABLE = 'agent_hooks_runs';

/**
 * SQLSTATEs of a `CREATE TABLE IF NOT EXISTS` that lost a race with another process creating the same table: a unique
 * violation in the catalogue, the table, or its row type ("type … already exists", which Postgres raises when both
 * passed the existence check before either committed).
 */
const CREATED_BY_ANOTHER = new Set(['23505', '42P07', '42710']);

/**
 * Keeps each snapshot as a row of a Postgres table, through a `pg` `Pool` (or `Client`) that you make, configure and
 * close: the checkpointer opens no connection of its own.
 *
 * ```sql
 * CREATE TABLE IF NOT EXISTS "agent_hooks_runs" (
 *   id text PRIMARY KEY,
 *   snapshot text NOT NULL,
 *   saved_at timestamptz NOT NULL DEFAULT now()
 * )
 * ```
 *
 * - `save` is one `INSERT … ON CONFLICT (id) DO UPDATE`; `take` is one `DELETE … WHERE id = $1 RETURNING snapshot`:
 *   of concurrent takers, in any process, one gets the row.
 * - Every id and snapshot goes as a parameter, never in the SQL; the table name is checked to be a plain name.
 * - Ids are kept as they are, up to 1,024 bytes of UTF-8 (no NUL, no unpaired surrogate: such an id is refused at
 *   `save`). `list` is sorted by id, byte by byte (`COLLATE "C"`).
 * - A failed statement (a dropped connection, a server that is down) is a {@link CheckpointerError} naming the table,
 *   the operation and the id; a `take` that fails deletes nothing unless Postgres had committed it when the
 *   connection dropped.
 *
 * ```ts
 * import pg from 'pg';
 * import { PostgresCheckpointer } from 'agent-hooks/postgres';
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const checkpointer = new PostgresCheckpointer(pool);
 * // … and `await pool.end()` when the process is done.
 * ```
 */
export class PostgresCheckpointer implements Checkpointer {
  /** The table, quoted as it goes in SQL: `"agent_hooks_runs"`. */
  readonly table: string;
  private readonly db: PostgresQueryable;
  private readonly createTable: boolean;
  private ready: Promise<void> | undefined;

  /** A checkpointer keeping its rows in `options.table`, through `db` (a `pg` `Pool`, `Client` or `PoolClient`). */
  constructor(db: PostgresQueryable, options: PostgresCheckpointerOptions = {}) {
    if (db === null || typeof db !== 'object' || typeof (db as Partial<PostgresQueryable>).query !== 'function') {
      throw new TypeError('PostgresCheckpointer needs a pg Pool or Client (an object with a query method): new PostgresCheckpointer(new pg.Pool({ connectionString })).');
    }
    this.db = db;
    this.table = quotedTableName(options.table ?? TABLE, 'PostgresCheckpointer', true);
    this.createTable = options.createTable ?? true;
  }

  /** The SQL that creates the table `table` (default `agent_hooks_runs`), for a migration of your own. */
  static migration(table: string = TABLE): string {
    return createTableSql(quotedTableName(table, 'PostgresCheckpointer.migration', true));
  }

  /** Saves `snapshot` under its `id`, replacing what was saved there, in one statement. */
  async save(snapshot: RunSnapshot): Promise<void> {
    const id = savedId(snapshot, 'PostgresCheckpointer');
    assertStorableId(id, 'PostgresCheckpointer');
    const text = snapshotText(snapshot, id);
    await this.run('save', id, `INSERT INTO ${this.table} (id, snapshot) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET snapshot = EXCLUDED.snapshot, saved_at = now()`, [id, text]);
  }

  /** The snapshot saved under `id`, or `undefined`. */
  async load(id: string): Promise<RunSnapshot | undefined> {
    if (!isStorableId(id)) return undefined;
    const { rows } = await this.run('load', id, `SELECT snapshot FROM ${this.table} WHERE id = $1`, [id]);
    return this.parse(rows, id);
  }

  /** Removes the snapshot saved under `id` and returns it, in one `DELETE … RETURNING`: of concurrent callers, one gets it. */
  async take(id: string): Promise<RunSnapshot | undefined> {
    if (!isStorableId(id)) return undefined;
    const { rows } = await this.run('take', id, `DELETE FROM ${this.table} WHERE id = $1 RETURNING snapshot`, [id]);
    return this.parse(rows, id);
  }

  /** Drops the snapshot saved under `id`; resolves `true` when there was one. */
  async delete(id: string): Promise<boolean> {
    if (!isStorableId(id)) return false;
    const { rowCount } = await this.run('delete', id, `DELETE FROM ${this.table} WHERE id = $1`, [id]);
    return (rowCount ?? 0) > 0;
  }

  /** The ids of the saved snapshots, sorted byte by byte. */
  async list(): Promise<readonly string[]> {
    const { rows } = await this.run('list', undefined, `SELECT id FROM ${this.table} ORDER BY id COLLATE "C"`, []);
    return rows.map((row) => (row as { id: string }).id);
  }

  private get where(): string {
    return `PostgresCheckpointer (table ${this.table})`;
  }

  private parse(rows: readonly unknown[], id: string): RunSnapshot | undefined {
    const row = rows[0] as { snapshot: unknown } | undefined;
    return row === undefined ? undefined : parseStoredSnapshot(row.snapshot, id, this.where);
  }

  /** Runs one statement once the table is there; a failure of the connection or the server is a CheckpointerError. */
  private async run(operation: CheckpointerOperation, id: string | undefined, sql: string, values: unknown[]) {
    try {
      await this.setUp();
      return await this.db.query(sql, values);
    } catch (error) {
      throw new CheckpointerError({ store: this.where, operation, ...(id === undefined ? {} : { id }), cause: error });
    }
  }

  /** Creates the table once, when asked to; a failed attempt is tried again by the next call. */
  private setUp(): Promise<void> {
    if (!this.createTable) return Promise.resolve();
    this.ready ??= this.db.query(createTableSql(this.table)).then(
      () => undefined,
      (error: unknown) => {
        this.ready = undefined;
        if (CREATED_BY_ANOTHER.has((error as { code?: string } | null)?.code ?? '')) return;
        throw error;
      },
    );
    return this.ready;
  }
}

function createTableSql(table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (\n  id text PRIMARY KEY,\n  snapshot text NOT NULL,\n  saved_at timestamptz NOT NULL DEFAULT now()\n)`;
}
