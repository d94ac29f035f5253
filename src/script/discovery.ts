/**
 * Finding every HOOK.md hook of the user and of the project, reading only frontmatters.
 *
 * @module
 */
import type { HookEnv } from './hook-dirs.js';
import { findManifests } from './internal/find-manifests.js';
import type { HookManifest } from './manifest.js';
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

/**
 * Discovers the HOOK.md hooks of the user (`$XDG_CONFIG_HOME/agents/hooks`), of the project (`.agents/hooks`) and of
 * any extra folders. Each direct sub-folder holding a HOOK.md is a hook; other folders are passed over silently, and
 * a missing hooks folder is not a problem. Only frontmatters are read (progressive disclosure): bodies are read
 * when a hook fires, and scripts are only stat'ed.
 *
 * Names: a project hook with the same `name` as a user hook replaces it, silently, as the spec says (it is listed in
 * {@link DiscoveryResult.overridden}). A hook of an extra folder whose name is already taken, or a second hook of one
 * name within a level, is dropped with a `duplicate-name` warning: extra folders add hooks, they do not get to
 * replace the ones the user and the project chose. Trust does not come into it here: {@link discoverHooks} lets a
 * project hook take the place of the user's only once it is trusted and valid.
 *
 * One bad hook never stops the others: its problems are reported and the rest load. With `strict`, any error makes
 * the call throw a {@link HookLoadError} listing every problem instead.
 *
 * @throws {@link HookLoadError} in strict mode, when any problem is an error.
 */
export async function discoverManifests(options: DiscoveryOptions = {}): Promise<DiscoveryResult> {
  const found = await findManifests(options, false);
  if (options.strict === true && found.problems.some((p) => p.severity === 'error')) throw new HookLoadError(found.problems);
  return found;
}
