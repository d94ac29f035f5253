/**
 * Opens each checkpointer from a JSON config, the same way in a test and in the child processes of the conformance
 * suite: the child is given the config on its command line.
 */
import pg from 'pg';
import { createClient } from 'redis';
import { FileCheckpointer, MemoryCheckpointer, type Checkpointer } from '../../../src/index.js';
import { PostgresCheckpointer } from '../../../src/integrations/postgres/index.js';
import { RedisCheckpointer } from '../../../src/integrations/redis/index.js';
import { SqliteCheckpointer } from '../../../src/integrations/sqlite/index.js';
import { betterSqlite3 } from '../../support/cached-package.js';

/** Where one test's store lives. */
export type StoreConfig =
  | { readonly kind: 'memory' }
  | { readonly kind: 'file'; readonly directory: string }
  | { readonly kind: 'postgres'; readonly url: string; readonly table: string }
  | { readonly kind: 'redis'; readonly url: string; readonly prefix: string }
  | { readonly kind: 'sqlite'; readonly file: string; readonly table: string };

/** A checkpointer and what closes its connection. */
export interface OpenedStore {
  readonly checkpointer: Checkpointer;
  close(): Promise<void>;
}

/** The checkpointer `config` names, on a connection of its own (a pool, a client, a database handle). */
export async function openStore(config: StoreConfig): Promise<OpenedStore> {
  switch (config.kind) {
    case 'memory':
      return { checkpointer: new MemoryCheckpointer(), close: async () => {} };
    case 'file':
      return { checkpointer: new FileCheckpointer(config.directory), close: async () => {} };
    case 'postgres': {
      const pool = new pg.Pool({ connectionString: config.url, max: 4 });
      // A pool's idle connection that the server drops (a restart) is reported here and replaced on the next query.
      pool.on('error', () => {});
      return { checkpointer: new PostgresCheckpointer(pool, { table: config.table }), close: () => pool.end() };
    }
    case 'redis': {
      const client = createClient({ url: config.url, socket: { reconnectStrategy: (retries) => Math.min(50 * retries, 500) } });
      // node-redis reports a dropped connection here, then reconnects on its own.
      client.on('error', () => {});
      await client.connect();
      return { checkpointer: new RedisCheckpointer(client, { prefix: config.prefix }), close: async () => client.destroy() };
    }
    case 'sqlite': {
      const db = new (betterSqlite3())(config.file);
      db.pragma('journal_mode = WAL');
      return { checkpointer: new SqliteCheckpointer(db, { table: config.table }), close: async () => void db.close() };
    }
  }
}
