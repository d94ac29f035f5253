import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createClient } from 'redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '../support/servers/redis-server.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

let server: RedisServer;
beforeAll(async () => {
  server = await startRedis();
}, 60_000);
afterAll(() => server?.close());

it('examples/redis-checkpointer.ts keeps the waiting run in a real Redis and resumes it from there', async () => {
  const { stdout } = await run(tsx, ['examples/redis-checkpointer.ts'], { cwd: root, timeout: 60_000, env: { ...process.env, REDIS_URL: server.url } });
  expect(stdout).toMatch(/^approver: Deploy to staging\? → yes\napprover: Deploy to production\? → later\nrun: interrupted\n/);
  expect(stdout).toContain('  tool result: deployed to staging\n  pending: deploy {"env":"production"}: Deploy to production?\nin Redis: friday-release (key example:run:friday-release)\n');
  // The resume asked no approver again: the refusal fired PermissionDenied and reached the model.
  expect(stdout.match(/approver:/g)).toHaveLength(2);
  expect(stdout).toContain('PermissionDenied hook: deploy {"env":"production"}: no production deploys on Fridays');
  expect(stdout).toContain('the model was told: Tool call refused: no production deploys on Fridays');
  expect(stdout).toContain('resumed: completed: Staging is live; production was refused (no production deploys on Fridays).');
  expect(stdout).toMatch(/in Redis: \[\]\n$/);
  // Taken out of the server itself, not only out of a list.
  const client = await createClient({ url: server.url }).on('error', () => {}).connect();
  expect(await client.keys('*')).toEqual([]);
  client.destroy();
});

it('examples/redis-checkpointer.ts without REDIS_URL says how to start Redis', async () => {
  const env = { ...process.env };
  delete env['REDIS_URL'];
  const failed = await run(tsx, ['examples/redis-checkpointer.ts'], { cwd: root, timeout: 60_000, env }).catch((e: { code: number; stdout: string }) => e);
  expect(failed).toMatchObject({ code: 1 });
  expect((failed as { stdout: string }).stdout).toContain('REDIS_URL is not set: start Redis');
});
