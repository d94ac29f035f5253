/**
 * A private Redis server for one test file: `redis-server` on a free loopback port, its append-only file in a
 * temporary folder (so that a snapshot survives a restart, as it must in production), stopped and removed after.
 * A missing binary fails the tests, saying what to install.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export const REDIS_MISSING =
  'The Redis checkpointer tests need redis-server, and none was found on the PATH. ' +
  'Install it: `apt-get install -y redis-server` (Debian, Ubuntu), `brew install redis` (macOS), then run the tests again.';

function binary(): string | undefined {
  return (process.env['PATH'] ?? '').split(':').map((dir) => join(dir, 'redis-server')).find((file) => existsSync(file));
}

/** A running server. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGTERM: it writes its append-only file and exits): its clients' connections drop. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const bin = binary();
  if (bin === undefined) throw new Error(REDIS_MISSING);
  const root = await mkdtemp(join(tmpdir(), 'agent-hooks-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', root, '--daemonize', 'no'];
      const started = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child = started;
      let output = '';
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          started.stdout.off('data', onData);
          started.stdout.resume();
          resolve();
        }
      };
      started.stdout.on('data', onData);
      started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      started.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready on port ${port}:\n${output}`)));
      started.once('error', reject);
    });
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop,
    async close() {
      await stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}
