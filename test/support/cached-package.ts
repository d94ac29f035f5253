/**
 * A package the slow suites need but a contributor's `npm install` should not build: installed once, pinned, into a
 * cache folder outside the repository (as the other Node versions and the agent CLIs are), and required from there.
 * `better-sqlite3` is one: with no prebuilt binary reachable it compiles from source, minutes on a small machine.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';

const root = process.env.AGENT_HOOKS_PACKAGES_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'agent-hooks', 'packages');

/** `name@version` required from the cache, installed there first when it is missing (by the Node running this). */
export function cachedPackage<T>(name: string, version: string): T {
  const dir = join(root, `${name.replace('/', '+')}@${version}-node${process.versions.modules}`);
  if (!existsSync(join(dir, 'installed.json'))) {
    // Installed beside the final folder and renamed into place, so an interrupted install is never taken as done.
    const temporary = `${dir}.${process.pid}.tmp`;
    rmSync(temporary, { recursive: true, force: true });
    mkdirSync(temporary, { recursive: true });
    writeFileSync(join(temporary, 'package.json'), `${JSON.stringify({ name: 'agent-hooks-test-packages', private: true }, null, 2)}\n`);
    process.stderr.write(`Installing ${name}@${version} into ${dir} (once)\n`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', `${name}@${version}`], { cwd: temporary, stdio: ['ignore', 'inherit', 'inherit'] });
    writeFileSync(join(temporary, 'installed.json'), `${JSON.stringify({ name, version }, null, 2)}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(temporary, dir);
  }
  return createRequire(join(dir, 'package.json'))(name) as T;
}

/** The `better-sqlite3` the SQLite checkpointer's tests run on (12: 13 needs Node 22). */
export const betterSqlite3 = (): typeof BetterSqlite3 => cachedPackage<typeof BetterSqlite3>('better-sqlite3', '12.11.1');
