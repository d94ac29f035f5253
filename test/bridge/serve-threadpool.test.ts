/**
 * A hook request's own path does not wait on libuv's thread pool: `serve` checks that the request comes from its
 * project (the payload's `cwd`, a `realpath` and a `stat`) without it, so that whatever holds the pool's threads —
 * a hundred requests' file calls in flight, a hook module's hashing or compression — never holds a hook call back.
 */
import { pbkdf2 } from 'node:crypto';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { HookStack } from 'agent-hooks';
import { startHookServer, type HookServer } from '../../src/bridge/serve/hook-server.js';

const TOKEN = 'test-token-0123456789abcdef0123456789';
const cleanups: (() => Promise<unknown>)[] = [];
// The pool's jobs are measured to take about 3 s each, with the machine as it was then; four of them on fewer cores,
// beside the rest of the suite, take longer, and the clean-up waits for them.
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
}, 60_000);

function post(server: HookServer, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/hooks/claude`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Iterations of pbkdf2 that take about `ms` on this machine, measured. */
async function iterationsFor(ms: number): Promise<number> {
  const probe = 20_000;
  const started = performance.now();
  await new Promise((resolve, reject) => pbkdf2('p', 's', probe, 32, 'sha512', (error) => (error ? reject(error) : resolve(undefined))));
  return Math.ceil((probe * ms) / Math.max(1, performance.now() - started));
}

it('answers a request from its project while every thread of libuv’s pool is busy', async () => {
  const project = await realpath(await mkdtemp(join(tmpdir(), 'agent-hooks-serve-pool-')));
  cleanups.push(() => rm(project, { recursive: true, force: true }));
  const server = await startHookServer({ stack: () => new HookStack(), token: TOKEN, project });
  cleanups.push(() => server.close({ graceMs: 100, drainMs: 100 }));
  const body = JSON.stringify({ session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't' });
  expect(await post(server, body)).toBe(200);

  // Every thread of the pool (4 unless UV_THREADPOOL_SIZE says otherwise) holds a job of some seconds.
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  const iterations = await iterationsFor(3000);
  let firstFree: number | undefined;
  const jobs = Array.from(
    { length: threads },
    () => new Promise<void>((resolve) => pbkdf2('p', 's', iterations, 32, 'sha512', () => ((firstFree ??= performance.now()), resolve()))),
  );
  cleanups.push(() => Promise.all(jobs));
  const status = await post(server, body);
  expect(status).toBe(200);
  // Answered while no thread of the pool was free yet.
  expect(firstFree, 'a thread of the pool was free before the answer').toBeUndefined();
}, 30_000);
