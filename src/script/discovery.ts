/**
 * Finding every HOOK.md hook of the user and of the project, reading only frontmatters.
 *
 * @module
 */
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { projectHooksDir, userHooksDir, type HookEnv } from './hook-dirs.js';
import { loadManifest, type ManifestLoad } from './load-manifest.js';
import type { HookManifest, HookSource } from './manifest.js';
import { HookLoadError, type HookProblem } from './problem.js';

/** Options of {@link discoverManifests}. */
export interface DiscoveryOptions {
  /** The project whose `.agents/hooks` folder is searched. Default `process.cwd()`. */
  readonly projectDir?: string | undefined;
  /**
   * The user-level hooks folder itself, or `false` to skip user hooks (tests, sandboxes, CI). Default
   * `$XDG_CONFIG_HOME/agents/hooks`, else `~/.config/agents/hooks`, read from `hostEnv`.
   */
  readonly userDir?: string | false | undefined;
  /**
   * More hooks folders (each holding hook folders), searched after the project's. Relative paths are resolved against
   * `projectDir`.
   */
  readonly extraDirs?: readonly string[] | undefined;
  /**
   * The environment agent-hooks reads its own settings from: `XDG_CONFIG_HOME` and `HOME` (where the user's hooks
   * folder and trust store are) and `AGENT_HOOKS_TRUST`. Default `process.env`. Given, it is read alone: a variable
   * it lacks is not looked up in `process.env` (without `HOME`, the home is `os.homedir()`). It is never passed to a
   * hook's process: that is `env`.
   */
  readonly hostEnv?: HookEnv | undefined;
  /** Throw a {@link HookLoadError} listing every problem when any of them is an error. Default false. */
  readonly strict?: boolean | undefined;
  /**
   * Check each hook's script entry now (file metadata only, never the script), so that a missing or non-executable
   * script is reported at start-up instead of when the hook first fires. Default true.
   */
  readonly checkEntries?: boolean | undefined;
  /** How many hook folders are read at once. Default 64. */
  readonly concurrency?: number | undefined;
}

/** Figures about one discovery, for logs and benchmarks. */
export interface DiscoveryStats {
  /** Sub-folders examined, with or without a HOOK.md. */
  readonly folders: number;
  /** Bytes read from disk in all: frontmatters only, so this stays small however long the bodies are. */
  readonly bytesRead: number;
  /** Wall-clock time of the whole discovery, in milliseconds. */
  readonly durationMs: number;
}

/** What discovery found. */
export interface DiscoveryResult {
  /**
   * The hooks that loaded: user hooks first, then project hooks, then those of the extra folders; within each level
   * by folder name. Stable from run to run, so that hooks of equal priority always run in the same order.
   */
  readonly manifests: readonly HookManifest[];
  /** Every problem, by level and folder name. Hooks with an error are not in `manifests`; the others still are. */
  readonly problems: readonly HookProblem[];
  /**
   * User hooks replaced by a project hook of the same name. The spec makes this override silent, so it is not a
   * problem; it is listed here so that a tool can show which of the user's hooks a project has switched off.
   */
  readonly overridden: readonly HookManifest[];
  /** Figures about this discovery. */
  readonly stats: DiscoveryStats;
}

interface Level {
  readonly source: HookSource;
  readonly roots: readonly string[];
}

interface Folder {
  readonly source: HookSource;
  readonly dir: string;
}

/** The hook folder candidates of one root, by name; a missing root is simply empty. */
async function listRoot(root: string, source: HookSource): Promise<{ folders: Folder[]; problem?: HookProblem }> {
  let entries: Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { folders: [] };
    const problem: HookProblem = {
      file: root,
      message: `The ${source} hooks folder cannot be listed: ${(error as Error).message}.`,
      severity: 'warning',
      code: 'unreadable',
    };
    return { folders: [], problem };
  }
  // A symlink may point at a hook folder; if it does not, opening HOOK.md through it fails as "no HOOK.md here".
  const names = entries.filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => e.name);
  // Code-unit order, not localeCompare: the order must not change with the user's locale.
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { folders: names.map((name) => ({ source, dir: join(root, name) })) };
}

/** Runs `task` over `items` with at most `limit` in flight, keeping results in item order. */
async function mapBounded<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/**
 * Discovers the HOOK.md hooks of the user (`$XDG_CONFIG_HOME/agents/hooks`), of the project (`.agents/hooks`) and of
 * any extra folders. Each direct sub-folder holding a HOOK.md is a hook; other folders are passed over silently, and
 * a missing hooks folder is not a problem. Only frontmatters are read (progressive disclosure): bodies are read by
 * {@link readHookBody} when a hook fires, and scripts are only stat'ed.
 *
 * Names: a project hook with the same `name` as a user hook replaces it, silently, as the spec says (it is listed in
 * {@link DiscoveryResult.overridden}). A hook of an extra folder whose name is already taken, or a second hook of one
 * name within a level, is dropped with a `duplicate-name` warning: extra folders add hooks, they do not get to
 * replace the ones the user and the project chose.
 *
 * One bad hook never stops the others: its problems are reported and the rest load. With `strict`, any error makes
 * the call throw a {@link HookLoadError} listing every problem instead.
 *
 * @throws {@link HookLoadError} in strict mode, when any problem is an error.
 */
export async function discoverManifests(options: DiscoveryOptions = {}): Promise<DiscoveryResult> {
  const started = performance.now();
  const projectDir = resolve(options.projectDir ?? process.cwd());
  const levels: Level[] = [];
  if (options.userDir !== false) levels.push({ source: 'user', roots: [resolve(options.userDir ?? userHooksDir(options.hostEnv ?? process.env))] });
  levels.push({ source: 'project', roots: [projectHooksDir(projectDir)] });
  levels.push({ source: 'extra', roots: (options.extraDirs ?? []).map((d) => resolve(projectDir, d)) });

  // The same folder named twice (an extra dir that is the project's, a user dir inside the project) is read once.
  const seen = new Set<string>();
  const listed = await Promise.all(
    levels.flatMap((level) => level.roots.filter((root) => !seen.has(root) && seen.add(root)).map((root) => listRoot(root, level.source))),
  );
  const folders = listed.flatMap((l) => l.folders);
  const loads: ManifestLoad[] = await mapBounded(folders, options.concurrency ?? 64, (folder) =>
    loadManifest(folder.dir, { source: folder.source, checkEntry: options.checkEntries ?? true }),
  );

  const problems: HookProblem[] = listed.flatMap((l) => (l.problem === undefined ? [] : [l.problem]));
  const byName = new Map<string, HookManifest>();
  const kept: HookManifest[] = [];
  const overridden: HookManifest[] = [];
  let bytesRead = 0;
  for (const load of loads) {
    bytesRead += load.bytesRead;
    if (!load.found) continue;
    problems.push(...load.problems);
    const manifest = load.manifest;
    if (manifest === undefined) continue;
    const earlier = byName.get(manifest.name);
    if (earlier === undefined) {
      byName.set(manifest.name, manifest);
      kept.push(manifest);
    } else if (earlier.source === 'user' && manifest.source === 'project') {
      overridden.push(earlier);
      kept.splice(kept.indexOf(earlier), 1);
      byName.set(manifest.name, manifest);
      kept.push(manifest);
    } else {
      problems.push({
        file: manifest.file,
        hookName: manifest.name,
        field: 'name',
        found: JSON.stringify(manifest.name),
        message: `Another ${earlier.source} hook is already named ${JSON.stringify(manifest.name)} (${earlier.file}); this one is ignored. Rename one of them.`,
        severity: 'warning',
        code: 'duplicate-name',
      });
    }
  }

  if (options.strict === true && problems.some((p) => p.severity === 'error')) throw new HookLoadError(problems);
  return {
    manifests: Object.freeze(kept),
    problems: Object.freeze(problems),
    overridden: Object.freeze(overridden),
    stats: Object.freeze({ folders: folders.length, bytesRead, durationMs: performance.now() - started }),
  };
}
