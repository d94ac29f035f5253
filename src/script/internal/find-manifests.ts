// Internal: not exported from the package.
import type { Dirent } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileReads } from '../../process/file-reads.js';
import type { DiscoveryOptions, DiscoveryResult } from '../discovery.js';
import { projectHooksDir, userHooksDir } from '../hook-dirs.js';
import { loadManifest, type ManifestLoad } from '../load-manifest.js';
import type { HookManifest, HookSource } from '../manifest.js';
import type { HookProblem } from '../problem.js';
import { mayRunOn, type HookCall } from './call-filter.js';
import type { DiscoveryCache } from './discovery-cache.js';

/**
 * What a caller that loads hooks for one call adds to discovery: the call, so that hooks which cannot run on it are
 * left out before anything of theirs is validated or hashed, and a cache of validated frontmatters.
 */
export interface CallScope {
  readonly call?: HookCall | undefined;
  readonly cache?: DiscoveryCache | undefined;
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
    entries = await fileReads.entries(root);
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
 * What {@link discoverManifests} does, strict mode aside; with `deferProjectRegexSafety`, the matcher regexes of
 * project hooks are compiled for their syntax only (see `deferringRegexSafety`), for a caller that checks trust first
 * and their safety after.
 */
export async function findManifests(options: DiscoveryOptions, deferProjectRegexSafety: boolean, scope: CallScope = {}): Promise<DiscoveryResult> {
  // process.hrtime rather than performance, whose first use loads ten of Node's own modules on a bridged call.
  const started = process.hrtime.bigint();
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
  // A hook that shares its name with another (a project hook taking the place of the user's, a duplicate) is always
  // loaded: which of them runs depends on the other's validity and trust, whatever the call.
  const names = new Map<string, number>();
  for (const folder of folders) names.set(basename(folder.dir), (names.get(basename(folder.dir)) ?? 0) + 1);
  const { call } = scope;
  const mayRun = call === undefined ? undefined : (data: unknown) => mayRunOn(data, call);
  const loads: ManifestLoad[] = await mapBounded(folders, options.concurrency ?? 64, (folder) =>
    loadManifest(folder.dir, {
      source: folder.source,
      checkEntry: options.checkEntries ?? true,
      deferRegexSafety: deferProjectRegexSafety && folder.source === 'project',
      mayRun: names.get(basename(folder.dir)) === 1 ? mayRun : undefined,
      cache: scope.cache,
    }),
  );
  scope.cache?.save();

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

  return {
    manifests: Object.freeze(kept),
    problems: Object.freeze(problems),
    overridden: Object.freeze(overridden),
    stats: Object.freeze({ folders: folders.length, bytesRead, durationMs: Number(process.hrtime.bigint() - started) / 1e6 }),
  };
}
