// Internal: not exported from the package.
/*
 * Validated HOOK.md frontmatters, kept on disk between processes: the bridge starts a process per agent hook call, and
 * validating a frontmatter needs the schema library (tens of milliseconds to load) that a call whose hooks are all
 * known never has to load.
 *
 * An entry is the exact frontmatter text, where it was found (file, folder, level, body offset) and how it was
 * validated, with the manifest validation made of it: a hit is a frontmatter read again, byte for byte the same, at
 * the same place, so it validates to the same manifest. Nothing about a file's stat is trusted, and trust does not
 * come into it at all: a project hook's files are still hashed and checked against the trust store on every load.
 * Only frontmatters that validated without any problem are kept, so a hit has nothing to report. Each build of
 * agent-hooks has a folder of its own (see `build-caches.ts`), with a file per root — the user's hooks folder, each
 * project's — so that a call reads only those of the hooks it may run: another version, or a rebuild, starts afresh
 * without emptying the folder of a build still in use, and the cache does not grow with the user's other projects.
 */
import { dirname, join } from 'node:path';
import type { HookManifest, HookSource } from '../manifest.js';
import { buildTag } from './build-caches.js';
import { buildStamp } from './build-stamp.js';
import { agentHooksCacheDir } from './cache-dir.js';
import { RootFiles } from './root-files.js';

/** Where a frontmatter was read, and how it was validated: all of it is part of an entry's key. */
export interface FrontmatterPlace {
  readonly file: string;
  readonly dir: string;
  readonly source: HookSource | undefined;
  readonly bodyOffset: number;
  readonly deferRegexSafety: boolean;
}

interface Entry {
  readonly key: string;
  readonly manifest: HookManifest;
}

/** Past this many frontmatters of one root, the oldest are dropped: a call reads the files of its roots. */
const MAX_ENTRIES = 1000;

/** The cache folders of every build, and the one file each build had before (`discovery.json`, then by build). */
const CACHE_KIND = /^discovery(-[0-9a-f]{16})?(\.json(\.\d+\.\d+\.tmp)?)?$/;

let format: string | undefined;
/** This build of agent-hooks (see {@link buildStamp}), once per process. */
const buildFormat = (): string => (format ??= `discovery-2:${buildStamp(import.meta.url)}`);

const keyOf = (text: string, place: FrontmatterPlace): string =>
  JSON.stringify([place.dir, place.source ?? 'project', place.bodyOffset, place.deferRegexSafety, text]);

/**
 * The validated frontmatters of one cache folder, a file per root (the folder a hook's folder is in: see
 * `root-files.ts`), each read the first time a call looks at one of its frontmatters and written back once: a call
 * reads those of its own project and of the user, however many projects the user has.
 */
export class DiscoveryCache {
  private readonly roots: RootFiles<Entry>;

  /** @param folder - this build's cache folder (see {@link discoveryCacheDir}). */
  constructor(folder: string) {
    this.roots = new RootFiles(folder, buildFormat(), { isEntry, max: MAX_ENTRIES, builds: CACHE_KIND });
  }

  /** The manifest validated from exactly `text` at `place`, if this build validated it before without a problem. */
  get(text: string, place: FrontmatterPlace): HookManifest | undefined {
    const entry = this.roots.entries(dirname(place.dir)).get(place.file);
    if (entry === undefined || entry.key !== keyOf(text, place)) return undefined;
    // Frozen, as validation makes it.
    const { matcher, metadata } = entry.manifest;
    return Object.freeze({ ...entry.manifest, matcher: matcher === undefined ? undefined : Object.freeze({ ...matcher }), metadata: Object.freeze({ ...metadata }) });
  }

  /** Remembers a frontmatter that validated without a problem. */
  set(text: string, place: FrontmatterPlace, manifest: HookManifest): void {
    this.roots.set(dirname(place.dir), place.file, { key: keyOf(text, place), manifest });
  }

  /**
   * Writes what was added, each root's file through a temporary file and a rename, readable by the user alone. Failing
   * to write (a read-only home, a full disk) costs the next process a validation, nothing more: it is ignored.
   */
  save(): void {
    try {
      this.roots.save();
    } catch {
      // See above.
    }
  }
}

function isEntry(value: unknown): value is Entry {
  if (value === null || typeof value !== 'object') return false;
  const { key, manifest } = value as Partial<Entry>;
  return typeof key === 'string' && manifest !== null && typeof manifest === 'object' && typeof manifest.name === 'string' && typeof manifest.trigger === 'string';
}

/**
 * This build's cache folder in the user's cache folder, `discovery-<build>/` (see `buildTag`), or `undefined` when
 * caches are off (`AGENT_HOOKS_CACHE_DIR=off`).
 */
export function discoveryCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const dir = agentHooksCacheDir(env);
  return dir === undefined ? undefined : join(dir, `discovery-${buildTag(buildFormat())}`);
}
