/**
 * Node's compile cache for the `agent-hooks` executable: an agent starts it once per bridged hook call, and compiling
 * our modules anew each time is one of the largest parts of that start. Node 22.1 and later keep the compiled code of
 * each module in a folder and reuse it while the module's source is unchanged; Node 20 has no such cache, and this
 * does nothing there.
 *
 * The folder is `compile/` in the user's cache folder (see `agentHooksCacheDir`): none with `AGENT_HOOKS_CACHE_DIR=off`,
 * and never one a project file chose (`userEnvOf`). Compiled code is loaded as code, so a folder a repository picked
 * could hand the next call code of the repository's making.
 *
 * @module
 * @internal
 */
import module from 'node:module';
import { join } from 'node:path';
import { agentHooksCacheDir } from '../script/internal/cache-dir.js';

/** `module.enableCompileCache` of Node ≥ 22.1, absent from Node 20 and its types. */
type EnableCompileCache = (directory?: string) => { status: number; message?: string; directory?: string };

/**
 * Turns Node's compile cache on in `compile/` of the user's cache folder, where Node has one. Returns the folder, or
 * `undefined` when nothing was turned on: Node too old, caches off, or Node refusing (a folder it cannot write). A
 * cache that cannot be used only makes the start slower; no hook's decision depends on it, so that is not reported.
 *
 * @internal
 */
export function enableCompileCache(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const enable = (module as unknown as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (typeof enable !== 'function') return undefined;
  const dir = agentHooksCacheDir(env);
  if (dir === undefined) return undefined;
  try {
    return enable(join(dir, 'compile')).directory;
  } catch {
    return undefined;
  }
}
