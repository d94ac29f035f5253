/**
 * The proof on Postgres: process A runs an agent to its approval and saves the run in Postgres; process B, another
 * Node process, resumes it by id, and the tool runs once — counted by the rows it writes. A third process resuming the
 * same id finds nothing to resume.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../../support/servers/postgres-server.js';

const run = promisify(execFile);
const repo = join(import.meta.dirname, '..', '..', '..');
const script = join(import.meta.dirname, 'postgres-proof-process.ts');

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
}, 120_000);
afterAll(() => server?.close());

const processOf = async (...args: string[]) => (await run(process.execPath, ['--import', 'tsx', script, server.url, ...args], { cwd: repo, timeout: 60_000 })).stdout;

it('a run interrupted in one Node process resumes by id in another, through Postgres, and its tool runs once', async () => {
  const a = await processOf('interrupt', 'release-42');
  const b = await processOf('resume', 'release-42');
  const c = await processOf('resume', 'release-42', 'C');
  const transcript = `${a}${b}${c}`;
  console.log(transcript);

  const pidOf = (out: string) => /\(pid (\d+)\)/.exec(out)![1];
  expect(new Set([pidOf(a), pidOf(b), pidOf(c)]).size).toBe(3);
  expect(a).toMatch(/^process A \(pid \d+\): run interrupted at deploy \{"env":"production"\}: Deploy to production\?\n/);
  expect(a).toMatch(/table "proof_runs" holds \[release-42\]; table "deploys" holds \[\]\n$/);
  expect(b).toMatch(/^process B \(pid \d+\): loaded 'release-42' from Postgres: 1 request waiting, /);
  expect(b).toContain('run completed: Production is deployed.');
  expect(b).toMatch(new RegExp(`table "proof_runs" holds \\[\\]; table "deploys" holds \\[production by pid ${pidOf(b)}\\]\\n$`));
  expect(c).toMatch(/^process C \(pid \d+\): loaded 'release-42' from Postgres: nothing\n/);
  expect(c).toContain("ResumeError (not-found): No interrupted run is saved under 'release-42'");

  const pool = new pg.Pool({ connectionString: server.url });
  try {
    expect((await pool.query('SELECT env, pid FROM deploys')).rows).toEqual([{ env: 'production', pid: Number(pidOf(b)) }]);
  } finally {
    await pool.end();
  }
}, 120_000);
