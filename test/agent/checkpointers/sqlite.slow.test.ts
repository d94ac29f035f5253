import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteCheckpointer } from 'agent-hooks/sqlite';
import { installNode, versionOf } from '../../support/install-node.mjs';
import { conformance } from './conformance.js';
import { betterSqlite3 } from '../../support/cached-package.js';

let root: string;
let n = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'agent-hooks-sqlite-store-'));
  // The first run installs better-sqlite3 into the cache, compiling it where no prebuilt binary can be fetched.
  betterSqlite3();
}, 15 * 60_000);
afterAll(() => rm(root, { recursive: true, force: true }));

conformance({
  name: 'SqliteCheckpointer',
  shared: true,
  databaseIds: true,
  fresh: async () => ({ kind: 'sqlite', file: join(root, `runs-${n++}.db`), table: 'agent_hooks_runs' }),
  // SQLite has no server: what drops is the database handle, closed under the checkpointer.
  async dropDuringTake(config, id) {
    if (config.kind !== 'sqlite') throw new Error('not a SQLite config');
    const db = new (betterSqlite3())(config.file);
    const checkpointer = new SqliteCheckpointer(db, { table: config.table });
    db.close();
    return checkpointer.take(id).then(() => 'taken', (error: unknown) => error);
  },
});

describe('SqliteCheckpointer', () => {
  it('refuses a table name that is not a plain name, and creates the table it is given', async () => {
    const db = new (betterSqlite3())(':memory:');
    expect(() => new SqliteCheckpointer(db, { table: 'runs; DROP TABLE x' })).toThrow(/table name of letters, digits and _.*"runs; DROP TABLE x"/);
    expect(() => new SqliteCheckpointer(db, { table: 'main.runs' })).toThrow(/table name/);
    expect(() => new SqliteCheckpointer({} as never)).toThrow(/needs a SQLite database/);
    const checkpointer = new SqliteCheckpointer(db, { table: 'Runs_2' });
    expect(await checkpointer.list()).toEqual([]);
    expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'Runs_2'").get()).toEqual({ sql: SqliteCheckpointer.migration('Runs_2').replace('IF NOT EXISTS ', '') });
    db.close();
  });

  it('with createTable: false, a missing table is a CheckpointerError saying so', async () => {
    const db = new (betterSqlite3())(':memory:');
    const error: unknown = await new SqliteCheckpointer(db, { createTable: false }).list().catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^SqliteCheckpointer \(table "agent_hooks_runs"\) could not list the saved ids: no such table: agent_hooks_runs\./);
    db.close();
  });
});

describe('SqliteCheckpointer on node:sqlite', () => {
  // Node 20 has no node:sqlite: the check runs on the Node 24 the test:node suites use (installed once into a cache).
  it('keeps, lists, takes once and deletes through a node:sqlite DatabaseSync (Node 24)', async () => {
    const node = installNode(versionOf('24'));
    const here = (file: string) => JSON.stringify(pathToFileURL(join(import.meta.dirname, file)).href);
    const script = join(root, 'node-sqlite.mts');
    await writeFile(
      script,
      [
        "import { DatabaseSync } from 'node:sqlite';",
        `import { SqliteCheckpointer } from ${here('../../../src/integrations/sqlite/index.ts')};`,
        `import { RUN_SNAPSHOT_FORMAT } from ${here('../../../src/agent/run-snapshot.ts')};`,
        `const db = new DatabaseSync(${JSON.stringify(join(root, 'node-sqlite.db'))}, { timeout: 5000 });`,
        'const checkpointer = new SqliteCheckpointer(db);',
        "const snapshot = (id) => ({ format: RUN_SNAPSHOT_FORMAT, id, pending: [] });",
        "for (const id of ['b', 'a', \"'; DROP TABLE agent_hooks_runs; --\"]) await checkpointer.save(snapshot(id));",
        "const out = { list: await checkpointer.list(), load: (await checkpointer.load('a'))?.id, take: (await checkpointer.take('a'))?.id, again: (await checkpointer.take('a')) ?? null, deleted: await checkpointer.delete('b'), left: await checkpointer.list() };",
        'db.close();',
        'console.log(JSON.stringify(out));',
      ].join('\n'),
    );
    const { stdout } = await promisify(execFile)(node, ['--import', 'tsx', script], { cwd: join(import.meta.dirname, '..', '..', '..'), timeout: 60_000 });
    expect(JSON.parse(stdout)).toEqual({
      list: ["'; DROP TABLE agent_hooks_runs; --", 'a', 'b'],
      load: 'a',
      take: 'a',
      again: null,
      deleted: true,
      left: ["'; DROP TABLE agent_hooks_runs; --"],
    });
  }, 120_000);
});
