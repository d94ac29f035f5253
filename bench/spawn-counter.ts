/**
 * Counts the processes this process spawns, by wrapping `child_process.spawn` itself (and updating the ES module
 * bindings of it, which the script runner imports), so a count does not rely on what the hooks report.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
const childProcess = require('node:child_process') as typeof import('node:child_process');

/** Starts counting; `stop()` restores the real spawn and returns the count. */
export function countSpawns(): { readonly count: number; stop(): number } {
  const original = childProcess.spawn;
  let count = 0;
  childProcess.spawn = function counted(this: unknown, ...args: unknown[]) {
    count++;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  syncBuiltinESMExports();
  return {
    get count() {
      return count;
    },
    stop() {
      childProcess.spawn = original;
      syncBuiltinESMExports();
      return count;
    },
  };
}
