import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresCheckpointer } from 'agent-hooks/postgres';
import { startPostgres, type PostgresServer } from '../../support/servers/postgres-server.js';
import { conformance } from './conformance.js';

let server: PostgresServer;
let n = 0;
beforeAll(async () => {
  server = await startPostgres();
}, 120_000);
afterAll(() => server?.close());

/** Resolves when `check` does, polling. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

conformance({
  name: 'PostgresCheckpointer',
  shared: true,
  databaseIds: true,
  fresh: async () => ({ kind: 'postgres', url: server.url, table: `runs_${n++}` }),
  restart: async () => {
    await server.stop();
    await server.start();
  },
  // Another connection holds the row's lock, so the take's DELETE waits on it; then the take's backend is killed.
  async dropDuringTake(config, id) {
    if (config.kind !== 'postgres') throw new Error('not a Postgres config');
    const holder = new pg.Client({ connectionString: config.url });
    const admin = new pg.Client({ connectionString: config.url });
    const client = new pg.Client({ connectionString: config.url });
    client.on('error', () => {});
    await Promise.all([holder.connect(), admin.connect(), client.connect()]);
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM ${config.table} WHERE id = $1 FOR UPDATE`, [id]);
      const pid = (client as unknown as { processID: number }).processID;
      const taking = new PostgresCheckpointer(client, { table: config.table }).take(id).then(() => 'taken', (error: unknown) => error);
      await until(async () => (await admin.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'`, [pid])).rowCount === 1, 'the take to wait');
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      return await taking;
    } finally {
      await holder.query('ROLLBACK');
      await Promise.all([holder.end(), admin.end(), client.end().catch(() => {})]);
    }
  },
});

describe('PostgresCheckpointer', () => {
  it('refuses a table name that is not a plain name; keeps its rows in the table and schema it is given', async () => {
    const pool = new pg.Pool({ connectionString: server.url });
    try {
      expect(() => new PostgresCheckpointer(pool, { table: 'runs"; DROP TABLE x; --' })).toThrow(/table name of letters, digits and _.*optionally after a schema/);
      expect(() => new PostgresCheckpointer(pool, { table: 'a.b.c' })).toThrow(/table name/);
      expect(() => new PostgresCheckpointer({} as never)).toThrow(/needs a pg Pool or Client/);
      await pool.query('CREATE SCHEMA agents');
      const checkpointer = new PostgresCheckpointer(pool, { table: 'agents.Runs' });
      expect(await checkpointer.list()).toEqual([]);
      const { rows } = await pool.query(`SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'agents' AND table_name = 'Runs' ORDER BY ordinal_position`);
      expect(rows).toEqual([
        { column_name: 'id', data_type: 'text' },
        { column_name: 'snapshot', data_type: 'text' },
        { column_name: 'saved_at', data_type: 'timestamp with time zone' },
      ]);
      expect(PostgresCheckpointer.migration('agents.Runs')).toBe(
        'CREATE TABLE IF NOT EXISTS "agents"."Runs" (\n  id text PRIMARY KEY,\n  snapshot text NOT NULL,\n  saved_at timestamptz NOT NULL DEFAULT now()\n)',
      );
    } finally {
      await pool.end();
    }
  });

  it('two checkpointers creating the same missing table at once both go on', async () => {
    const pools = [new pg.Pool({ connectionString: server.url }), new pg.Pool({ connectionString: server.url })];
    try {
      const lists = await Promise.all(pools.map((pool) => new PostgresCheckpointer(pool, { table: 'created_at_once' }).list()));
      expect(lists).toEqual([[], []]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('with a server that is down, each method is a CheckpointerError naming the table, the operation and the id', async () => {
    const pool = new pg.Pool({ connectionString: server.url.replace(`:${server.port}/`, ':1/'), connectionTimeoutMillis: 2000 });
    const checkpointer = new PostgresCheckpointer(pool);
    try {
      const error: unknown = await checkpointer.load('run-1').catch((e: unknown) => e);
      expect((error as Error).message).toMatch(/^PostgresCheckpointer \(table "agent_hooks_runs"\) could not load snapshot "run-1": .*ECONNREFUSED.*\. Nothing was changed/);
      await expect(checkpointer.list()).rejects.toThrow(/could not list the saved ids/);
    } finally {
      await pool.end();
    }
  });
});
