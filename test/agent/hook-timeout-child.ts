/**
 * Runs test/agent/hook-timeout-process.ts in a process of its own (so that what would hold it open shows), and gives
 * its last line, parsed, and how long the whole process took.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export function hookTimeoutChild(...args: string[]): { out: Record<string, unknown>; ms: number } {
  const started = performance.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(here, 'hook-timeout-process.ts'), ...args], {
    cwd: join(here, '..', '..'),
    encoding: 'utf8',
    timeout: 90_000,
  });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`the child exited with ${run.status ?? run.signal}: ${run.stderr}`);
  return { out: JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>, ms };
}
