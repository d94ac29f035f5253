/**
 * An earlier runtime of this package, to measure the current one against side by side in one process: its `src/`
 * taken from git history into bench/.baseline/<commit>/ (once) and imported from there.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as current from '../src/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The runtime of `commit`, its `src/` written once under bench/.baseline/ from git history. */
export async function runtimeAt(commit: string, suite: string): Promise<typeof current> {
  const dir = join(root, 'bench', '.baseline', commit);
  if (!existsSync(join(dir, 'src', 'index.ts'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    try {
      const archive = execFileSync('git', ['archive', '--format=tar', commit, 'src'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
      execFileSync('tar', ['-x', '-C', dir], { input: archive });
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`${suite} bench: the runtime to compare with is commit ${commit.slice(0, 7)}, which this checkout's git history does not have (a shallow clone?): ${String(error)}`);
    }
  }
  return (await import(pathToFileURL(join(dir, 'src', 'index.ts')).href)) as typeof current;
}

