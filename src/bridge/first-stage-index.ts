/**
 * What the bridge's first stage has learnt, kept on disk between processes: for each hook folder, what its HOOK.md
 * says about the calls it may run on, keyed by the file's stat; and the readings of event and tool names, which
 * depend on this build alone. A stat that differs, a folder never seen, a name never read: the first stage learns it
 * again (or leaves the call to the full path). Nothing here decides that a hook runs, or whether it is trusted.
 *
 * @module
 * @internal
 */
import type { Stats } from 'node:fs';
import { nodeFs } from '../core/internal/node-fs.js';
import { basename, dirname, join, sep } from 'node:path';
import { buildTag, pruneBuildCaches } from '../script/internal/build-caches.js';
import { buildStamp } from '../script/internal/build-stamp.js';
import { agentHooksCacheDir } from '../script/internal/cache-dir.js';
import type { HookFilter } from './hook-filter.js';

const { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } = nodeFs;

/** The index files of every build, and their temporary files (`bridge-index.json`: the builds before they were named). */
const INDEX_FILE = /^bridge-index(-[0-9a-f]{16})?\.json(\.\d+\.\d+\.tmp)?$/;

/**
 * What a hook folder holds, for the first stage: `'none'`, no HOOK.md (discovery passes over it); `'problem'`, a
 * HOOK.md discovery would report a problem about (the full path says it); else the hook's {@link HookFilter}.
 *
 * @internal
 */
export type FolderVerdict = 'none' | 'problem' | HookFilter;

interface FolderEntry {
  readonly key: string;
  readonly verdict: FolderVerdict;
}

interface IndexFile {
  readonly format: string;
  readonly events: Record<string, string | null>;
  readonly aliases: Record<string, readonly string[]>;
  readonly folders: Record<string, FolderEntry>;
}

/** Past these many entries the oldest are dropped: the file is read on every bridged call. */
const MAX_FOLDERS = 2000;
const MAX_NAMES = 500;

let format: string | undefined;
/** This build of agent-hooks (see {@link buildStamp}), once per process. */
const buildFormat = (): string => (format ??= `first-stage-1:${buildStamp(import.meta.url)}`);

const statKey = (stat: Stats): string => `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.mode}`;

/** The stat of `file`, `null` when there is none (as opening it would find: ENOENT, ENOTDIR); throws otherwise. */
function statOrNull(file: string): Stats | null {
  try {
    return statSync(file, { throwIfNoEntry: false }) ?? null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

/**
 * The key of a hook folder's HOOK.md: its stat, or that of the lowercase `hook.md` discovery falls back on when there
 * is no HOOK.md, or that there is neither.
 *
 * @throws the file system's error when a stat fails otherwise (the full path then reports it).
 * @internal
 */
export function folderKey(dir: string): string {
  // `dir` is a folder as discovery lists it, already normalised: joined by hand, as `path.join` costs more than the
  // stat on a call that looks at every hook folder of the project.
  const upper = statOrNull(`${dir}${sep}HOOK.md`);
  if (upper !== null) return `U${statKey(upper)}`;
  const lower = statOrNull(`${dir}${sep}hook.md`);
  return lower === null ? 'none' : `L${statKey(lower)}`;
}

/**
 * The first stage's memory: read once per process, written back once when something was learnt.
 *
 * @internal
 */
export class FirstStageIndex {
  private readonly format = buildFormat();
  private events = new Map<string, string | null>();
  private aliases = new Map<string, readonly string[]>();
  private folders = new Map<string, FolderEntry>();
  private dirty = false;
  /** Whether the file was there when read: one written for the first time removes what builds no longer used left. */
  private existed = false;

  /** @param file - the index file; `undefined` keeps nothing between processes. */
  constructor(private readonly file: string | undefined) {
    if (file === undefined) return;
    try {
      const text = readFileSync(file, 'utf8');
      this.existed = true;
      const parsed = JSON.parse(text) as Partial<IndexFile> | null;
      if (parsed === null || parsed.format !== this.format) return;
      if (isObject(parsed.events)) this.events = new Map(Object.entries(parsed.events));
      if (isObject(parsed.aliases)) this.aliases = new Map(Object.entries(parsed.aliases));
      if (isObject(parsed.folders)) this.folders = new Map(Object.entries(parsed.folders));
    } catch {
      // Missing, unreadable or corrupt: an empty index, replaced on the next write.
    }
  }

  /** The canonical event `key` (a rule and a name) reads as; `null`: none; `undefined`: not learnt. */
  event(key: string): string | null | undefined {
    const value = this.events.get(key);
    return value === null || typeof value === 'string' ? value : undefined;
  }

  /** Remembers what `key` reads as. */
  setEvent(key: string, event: string | null): void {
    this.events.set(key, event);
    this.dirty = true;
  }

  /** Every name of `tool` (itself among them), if learnt. */
  aliasesOf(tool: string): readonly string[] | undefined {
    const value = this.aliases.get(tool);
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
  }

  /** Remembers every name of `tool`. */
  setAliases(tool: string, aliases: readonly string[]): void {
    this.aliases.set(tool, aliases);
    this.dirty = true;
  }

  /** What folder `dir` holds, if learnt while its HOOK.md had the stat `key`. */
  folder(dir: string, key: string): FolderVerdict | undefined {
    const entry = this.folders.get(dir);
    return entry !== undefined && isObject(entry) && entry.key === key && isVerdict(entry.verdict) ? entry.verdict : undefined;
  }

  /** Remembers what folder `dir` holds while its HOOK.md has the stat `key`. */
  setFolder(dir: string, key: string, verdict: FolderVerdict): void {
    this.folders.delete(dir);
    this.folders.set(dir, { key, verdict });
    this.dirty = true;
  }

  /**
   * Writes what was learnt, through a temporary file and a rename, readable by the user alone. Failing to write costs
   * the next process a lesson, nothing more: it is ignored. The first write of this build's file removes the index
   * files of builds written longest ago (see `pruneBuildCaches`).
   */
  save(): void {
    if (!this.dirty || this.file === undefined) return;
    this.dirty = false;
    const temp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    try {
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      const last = <V>(map: Map<string, V>, max: number): Record<string, V> => Object.fromEntries([...map].slice(-max));
      const body: IndexFile = { format: this.format, events: last(this.events, MAX_NAMES), aliases: last(this.aliases, MAX_NAMES), folders: last(this.folders, MAX_FOLDERS) };
      writeFileSync(temp, `${JSON.stringify(body)}\n`, { mode: 0o600 });
      renameSync(temp, this.file);
      if (!this.existed) pruneBuildCaches(dirname(this.file), (name) => INDEX_FILE.test(name), basename(this.file));
      this.existed = true;
    } catch {
      // See above.
    }
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function isVerdict(value: unknown): value is FolderVerdict {
  if (value === 'none' || value === 'problem' || value === 'always') return true;
  if (!isObject(value) || typeof value.event !== 'string') return false;
  const tools = value.tools;
  if (tools === null) return true;
  if (!isObject(tools)) return false;
  const list = tools.kind === 'exact' ? tools.names : tools.kind === 'contains' ? tools.parts : undefined;
  return Array.isArray(list) && list.every((v) => typeof v === 'string');
}

/**
 * This build's index in the user's cache folder, `bridge-index-<build>.json` (see `buildTag`), or `undefined` when
 * caches are off (`AGENT_HOOKS_CACHE_DIR=off`). Each build has its own, so that builds called in turn do not take each
 * other's for empty.
 *
 * @internal
 */
export function firstStageIndexFile(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const dir = agentHooksCacheDir(env);
  return dir === undefined ? undefined : join(dir, `bridge-index-${buildTag(buildFormat())}.json`);
}
