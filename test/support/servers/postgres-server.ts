/**
 * A private Postgres server for one test file: `initdb` in a temporary folder, `pg_ctl start` on a free loopback port
 * (no password: `trust`, reachable from 127.0.0.1 only), stopped and removed after. As root, the server runs as
 * `nobody`, since Postgres refuses to run as root. Missing binaries fail the tests, saying what to install.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

const exec = promisify(execFile);

/** Where Debian, Ubuntu, Homebrew and the official images put them, when they are not on the PATH. */
function binDir(): string | undefined {
  const onPath = (process.env['PATH'] ?? '').split(':').find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (onPath !== undefined) return onPath;
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    for (const version of versions) if (existsSync(join(debian, version, 'bin', 'initdb'))) return join(debian, version, 'bin');
  }
  return ['/opt/homebrew/bin', '/usr/local/pgsql/bin'].find((dir) => existsSync(join(dir, 'initdb')));
}

export const POSTGRES_MISSING =
  'The Postgres checkpointer tests need a Postgres server (initdb and pg_ctl), and none was found on the PATH nor in /usr/lib/postgresql/*/bin. ' +
  'Install it: `apt-get install -y postgresql` (Debian, Ubuntu), `brew install postgresql` (macOS), then run the tests again.';

/** A running server. */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  readonly port: number;
  /** Stops the server (`pg_ctl stop -m fast`): its clients' connections drop. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDir();
  if (bin === undefined) throw new Error(POSTGRES_MISSING);
  const root = await mkdtemp(join(tmpdir(), 'agent-hooks-pg-'));
  const data = join(root, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  // Postgres will not run as root: the folder goes to nobody, and so do the commands.
  if (asRoot) {
    await chown(root, 65534, 65534);
    await chmod(root, 0o700);
  }
  const run = (command: string, args: string[]) =>
    asRoot ? exec('runuser', ['-u', 'nobody', '--', join(bin, command), ...args], { cwd: root }) : exec(join(bin, command), args, { cwd: root });
  await run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
  const log = join(root, 'server.log');
  // -F: no fsync (a test server); -k: its Unix socket in its own folder, not /var/run.
  const options = `-F -p ${port} -h 127.0.0.1 -k ${root}`;
  const start = async () => {
    try {
      await run('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start']);
    } catch (error) {
      const text = await readFile(log, 'utf8').catch(() => '');
      throw new Error(`Postgres did not start on port ${port}: ${(error as Error).message}\n${text}`);
    }
  };
  const stop = async () => {
    await run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    async close() {
      await stop().catch(() => {});
      await rm(root, { recursive: true, force: true });
    },
  };
}
