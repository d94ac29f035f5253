/**
 * The build the command-line tests run: the JavaScript of `dist/`, made with the project's tsup config when
 * dist/cli.cjs is missing or older than the sources, so `npm test` on a fresh clone needs no `npm run build` first.
 * It is made once per run, by the test configs' global setup (`build-once.ts`), before any test file starts; test
 * files call it again only as a cheap check. The type declarations are left out (seconds rather than a minute): the
 * packaging tests build the whole package for themselves, and `npm run build` makes dist/ anew. Worktrees sharing one
 * node_modules share the lock folder, so two builds never write at once.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The executable under test. */
export const CLI = join(root, 'dist', 'cli.cjs');
const LOCK = join(root, 'node_modules', '.cache', 'agent-hooks-cli-build.lock');
/** A bound against a hung build, not its expected time. */
export const BUILD_TIMEOUT_MS = 300_000;

/** tsup with the project's config, without the declarations (see tsup.config.ts). */
const JS_ONLY = `import('tsup').then((t) => t.build({ dts: false, silent: true }))`;

/** The newest modification time among the files the build reads. */
function newestInput(): number {
  let newest = Math.max(statSync(join(root, 'package.json')).mtimeMs, statSync(join(root, 'tsup.config.ts')).mtimeMs);
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  walk(join(root, 'src'));
  return newest;
}

const fresh = (): boolean => existsSync(CLI) && statSync(CLI).mtimeMs >= newestInput();
// A build in progress may have written part of cli.cjs already: it is only fresh with no build before or after the look.
const settled = (): boolean => !existsSync(LOCK) && fresh() && !existsSync(LOCK);

/** Builds dist/'s JavaScript with the project's tsup config unless dist/cli.cjs is newer than every source. */
export async function ensureCliBuilt(): Promise<void> {
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  mkdirSync(join(LOCK, '..'), { recursive: true });
  for (;;) {
    if (settled()) return;
    try {
      mkdirSync(LOCK);
    } catch {
      // Another run is building; a lock left by a killed run is taken over once it is older than a build.
      if (Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > BUILD_TIMEOUT_MS) rmSync(LOCK, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`Timed out waiting for another build of ${CLI} (lock ${LOCK}).`);
      await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    try {
      if (!fresh()) await promisify(execFile)(process.execPath, ['-e', JS_ONLY], { cwd: root, timeout: BUILD_TIMEOUT_MS });
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
}
