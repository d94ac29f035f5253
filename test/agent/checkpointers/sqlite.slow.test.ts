import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteCheckpointer } from 'agent-hooks/sqlite';
import { conformance } from './conformance.js';

let root: string;
let n = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'agent-hooks-sqlite-store-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

conformance({
  name: 'SqliteCheckpointer',
  shared: true,
  databaseIds: true,
  fresh: async () => ({ kind: 'sqlite', file: join(root, `runs-${n++}.db`), table: 'agent_hooks_runs' }),
  // SQLite has no server: what drops is the database handle, closed under the checkpointer.
  async dropDuringTake(config, id) {
    if (config.kind !== 'sqlite') throw new Error('not a SQLite config');
    const db = new Database(config.file);
    const checkpointer = new SqliteCheckpointer(db, { table: config.table });
    db.close();
    return checkpointer.take(id).then(() => 'taken', (error: unknown) => error);
  },
});

describe('SqliteCheckpointer', () => {
  it('refuses a table name that is not a plain name, and creates the table it is given', async () => {
    const db = new Database(':memory:');
    expect(() => new SqliteCheckpointer(db, { table: 'runs; DROP TABLE x' })).toThrow(/table name of letters, digits and _.*"runs; DROP TABLE x"/);
    expect(() => new SqliteCheckpointer(db, { table: 'main.runs' })).toThrow(/table name/);
    expect(() => new SqliteCheckpointer({} as never)).toThrow(/needs a SQLite database/);
    const checkpointer = new SqliteCheckpointer(db, { table: 'Runs_2' });
    expect(await checkpointer.list()).toEqual([]);
    expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'Runs_2'").get()).toEqual({ sql: SqliteCheckpointer.migration('Runs_2').replace('IF NOT EXISTS ', '') });
    db.close();
  });

  it('with createTable: false, a missing table is a CheckpointerError saying so', async () => {
    const db = new Database(':memory:');
    const error: unknown = await new SqliteCheckpointer(db, { createTable: false }).list().catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^SqliteCheckpointer \(table "agent_hooks_runs"\) could not list the saved ids: no such table: agent_hooks_runs\./);
    db.close();
  });
});
