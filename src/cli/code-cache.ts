/**
 * The executable's files — its body `dist/cli-stage.cjs`, the first stage's run of a hook `dist/cli-run.cjs`, the
 * bridged call `dist/bridge.cjs` — loaded with a code cache of V8 made after a call has run: an agent starts the
 * executable once per bridged hook call, and compiling those files' functions is a large part of the call. Node's
 * own compile cache (Node ≥ 22.1, see `compile-cache.ts`) keeps only what is compiled before the file runs — its top
 * level — while V8 compiles each function the first time it is called; Node 20 has none. A cache made once the call
 * has answered holds the functions the call ran, so the next call compiles almost nothing of ours, on every Node.
 *
 * The cache is a file in `compile/` of the user's cache folder (see `agentHooksCacheDir`: none with
 * `AGENT_HOOKS_CACHE_DIR=off`, never a folder a project file chose), named by the V8 version, the architecture and the
 * build of the file (its path, size and time) with the options Node was started with, and replaced whole (written
 * beside, then renamed). Each build, Node and set of options keeps its own, so that two copies of agent-hooks, two
 * Nodes, or a Node started two ways, called in turn do not compile afresh on every call; writing one removes those of
 * the file written longest ago (see `pruneBuildCaches`). V8 checks that a cache was made by the same V8 with the same
 * flags and refuses it otherwise; the file is then compiled as usual and the cache made again. A cache that cannot be
 * read or written only makes the call slower, so that is not reported.
 *
 * @module
 * @internal
 */
import { nodeFs } from '../core/internal/node-fs.js';
import { createRequire } from 'node:module';
import { basename, dirname, sep } from 'node:path';
import { lazyModule } from '../core/internal/lazy-module.js';
import { buildTag, pruneBuildCaches } from '../script/internal/build-caches.js';
import { agentHooksCacheDir } from '../script/internal/cache-dir.js';

const { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } = nodeFs;

/** A CommonJS file loaded by {@link requireWithCodeCache}. */
export interface CodeCachedModule<T> {
  /** What the file exports. */
  readonly exports: T;
  /**
   * Writes the cache for the next call when there was none to use (none yet, or one V8 refused); call it once the file's
   * work is done, so the cache holds what that work compiled. Returns the cache file written, if any.
   */
  save(): string | undefined;
}

// Loaded for a call the first stage hands over, not by one it answers alone.
const vm = lazyModule<typeof import('node:vm')>('node:vm');

/**
 * The options this Node was started with (its command line's and `NODE_OPTIONS`): V8 refuses a cache made under other
 * V8 flags, so two ways of starting Node called in turn (`node --no-opt` and `node`, say) would each refuse the other's
 * cache and write their own over it on every call. Every option counts, V8's or not: more caches than needed, never
 * one refused.
 */
function nodeOptionsOf(env: Readonly<Record<string, string | undefined>>): string {
  const fromEnv = env['NODE_OPTIONS'] ?? '';
  return process.execArgv.length === 0 && fromEnv === '' ? '' : `:${JSON.stringify([process.execArgv, fromEnv])}`;
}

/** Where the cache of `file` is kept, and the prefix of every cache of a file of that name; `undefined` with caches off. */
function cacheFileOf(file: string, env: Readonly<Record<string, string | undefined>>): { path: string; prefix: string } | undefined {
  const dir = agentHooksCacheDir(env);
  if (dir === undefined) return undefined;
  const stat = statSync(file);
  // A name, not a digest (the executable's first file computes it before any of its code is cached): two builds whose
  // names met would take turns refusing each other's cache, or, of the same length, run the other's code; the file's
  // path, size and time besides make that as likely as two 64-bit hashes meeting.
  const build = buildTag(`${file}:${stat.size}:${stat.mtimeMs}${nodeOptionsOf(env)}`);
  const prefix = `${basename(file)}-`;
  // Joined by hand (the name holds no separator): each pass of path.join over a long path before the first stage
  // counts towards V8 compiling Node's path normaliser while the call waits, which on Node 22, in a project at a long
  // path, cost the call more than its code cache saved.
  return { path: `${dir}${sep}compile${sep}${prefix}${process.versions.v8}-${process.arch}-${build}.v8`, prefix };
}

/**
 * Requires the CommonJS file `file` as `require` would, compiled with its code cache when there is one; with the cache
 * folder off it is required as usual. Compiled so, the file's own `import()` has no loader to go to (a code cache drops
 * what would give it one on Node 20, and Node's way to name its loader is experimental and says so on stderr): the
 * file must import ES modules through a function the caller lends it (see `module-import.ts`).
 *
 * @internal
 */
export function requireWithCodeCache<T>(file: string, env: Readonly<Record<string, string | undefined>> = process.env): CodeCachedModule<T> {
  let cache: { path: string; prefix: string } | undefined;
  try {
    cache = cacheFileOf(file, env);
  } catch {
    cache = undefined;
  }
  if (cache === undefined) return { exports: createRequire(file)(file) as T, save: () => undefined };
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cache.path);
  } catch {
    cachedData = undefined;
  }
  // The wrapper CommonJS gives a file, on its first line so that the file's line numbers stay as they are.
  const source = `(function (exports, require, module, __filename, __dirname) { ${readFileSync(file, 'utf8')}\n})`;
  const script = new (vm().Script)(source, { filename: file, cachedData });
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  const loaded = { exports: {} as T };
  wrapper.call(loaded.exports, loaded.exports, createRequire(file), loaded, file, dirname(file));
  const stale = cachedData === undefined || script.cachedDataRejected === true;
  const at = cache;
  return {
    exports: loaded.exports,
    save: () => (stale ? write(at, script) : undefined),
  };
}

/**
 * Writes the script's cache to `at.path` whole, and removes the caches of the file that other builds or Nodes wrote
 * longest ago, with what killed writers left half-written.
 */
function write(at: { path: string; prefix: string }, script: import('node:vm').Script): string | undefined {
  try {
    const dir = dirname(at.path);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const partial = `${at.path}.${process.pid}.partial`;
    writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
    renameSync(partial, at.path);
    // One another call is writing right now is younger than an hour: it is left to that call's rename.
    pruneBuildCaches(dir, (name) => name.startsWith(at.prefix) && (name.endsWith('.v8') || name.endsWith('.partial')), basename(at.path));
    return at.path;
  } catch {
    return undefined;
  }
}
