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
 * agent-hooks has a file of its own (see `build-caches.ts`): another version, or a rebuild, starts afresh without
 * emptying the file of a build still in use.
 */
import { nodeFs } from '../../core/internal/node-fs.js';
import { basename, dirname, join } from 'node:path';
import type { HookManifest, HookSource } from '../manifest.js';
import { buildTag, pruneBuildCaches } from './build-caches.js';
import { buildStamp } from './build-stamp.js';
import { agentHooksCacheDir } from './cache-dir.js';

const { mkdirSync, readFileSync, renameSync, writeFileSync } = nodeFs;

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

interface CacheFile {
  readonly format: string;
  readonly entries: Record<string, Entry>;
}

/** Past this many frontmatters, the oldest are dropped: the file is read on every bridged call. */
const MAX_ENTRIES = 1000;

/** The cache files of every build, and their temporary files (`discovery.json`: the builds before they were named). */
const CACHE_FILE = /^discovery(-[0-9a-f]{16})?\.json(\.\d+\.\d+\.tmp)?$/;

let format: string | undefined;
/** This build of agent-hooks (see {@link buildStamp}), once per process. */
const buildFormat = (): string => (format ??= `discovery-1:${buildStamp(import.meta.url)}`);

const keyOf = (text: string, place: FrontmatterPlace): string =>
  JSON.stringify([place.dir, place.source ?? 'project', place.bodyOffset, place.deferRegexSafety, text]);

/** The validated frontmatters of one cache file, read once per process and written back once. */
export class DiscoveryCache {
  private readonly entries: Map<string, Entry>;
  private readonly format: string;
  private dirty = false;
  /** Whether the file was there when read: one written for the first time removes what builds no longer used left. */
  private existed = false;

  constructor(private readonly file: string) {
    this.format = buildFormat();
    this.entries = new Map();
    try {
      const text = readFileSync(file, 'utf8');
      this.existed = true;
      const parsed = JSON.parse(text) as Partial<CacheFile> | null;
      if (parsed !== null && parsed.format === this.format && typeof parsed.entries === 'object' && parsed.entries !== null) {
        for (const [path, entry] of Object.entries(parsed.entries)) {
          if (isEntry(entry)) this.entries.set(path, entry);
        }
      }
    } catch {
      // Missing, unreadable or corrupt: an empty cache, replaced on the next write.
    }
  }

  /** The manifest validated from exactly `text` at `place`, if this build validated it before without a problem. */
  get(text: string, place: FrontmatterPlace): HookManifest | undefined {
    const entry = this.entries.get(place.file);
    if (entry === undefined || entry.key !== keyOf(text, place)) return undefined;
    // Frozen, as validation makes it.
    const { matcher, metadata } = entry.manifest;
    return Object.freeze({ ...entry.manifest, matcher: matcher === undefined ? undefined : Object.freeze({ ...matcher }), metadata: Object.freeze({ ...metadata }) });
  }

  /** Remembers a frontmatter that validated without a problem. */
  set(text: string, place: FrontmatterPlace, manifest: HookManifest): void {
    this.entries.delete(place.file);
    this.entries.set(place.file, { key: keyOf(text, place), manifest });
    this.dirty = true;
  }

  /**
   * Writes what was added, through a temporary file and a rename, readable by the user alone. Failing to write (a
   * read-only home, a full disk) costs the next process a validation, nothing more: it is ignored. The first write of
   * this build's file removes the cache files of builds written longest ago (see `pruneBuildCaches`).
   */
  save(): void {
    if (!this.dirty) return;
    this.dirty = false;
    try {
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      const temp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
      const body: CacheFile = { format: this.format, entries: Object.fromEntries([...this.entries].slice(-MAX_ENTRIES)) };
      writeFileSync(temp, `${JSON.stringify(body)}\n`, { mode: 0o600 });
      renameSync(temp, this.file);
      if (!this.existed) pruneBuildCaches(dirname(this.file), (name) => CACHE_FILE.test(name), basename(this.file));
      this.existed = true;
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
 * This build's file in the user's cache folder, `discovery-<build>.json` (see `buildTag`), or `undefined` when caches
 * are off (`AGENT_HOOKS_CACHE_DIR=off`).
 */
export function discoveryCacheFile(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const dir = agentHooksCacheDir(env);
  return dir === undefined ? undefined : join(dir, `discovery-${buildTag(buildFormat())}.json`);
}
