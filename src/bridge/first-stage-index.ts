/**
 * What the bridge's first stage has learnt, kept on disk between processes, in a folder of this build's: for each hook
 * folder, what its HOOK.md says about the calls it may run on, keyed by the file's stat, in a file per root (the user's
 * hooks folder, a project's: see `root-files.ts`); and the readings of event and tool names, which depend on this build
 * alone. A stat that differs, a folder never seen, a name never read: the first stage learns it again (or leaves the
 * call to the full path). Nothing here decides that a hook runs, or whether it is trusted.
 *
 * @module
 * @internal
 */
import type { Stats } from 'node:fs';
import { nodeFs } from '../core/internal/node-fs.js';
import { dirname, join, sep } from 'node:path';
import { buildTag } from '../script/internal/build-caches.js';
import { buildStamp } from '../script/internal/build-stamp.js';
import { agentHooksCacheDir } from '../script/internal/cache-dir.js';
import { readJson, RootFiles, writeJson } from '../script/internal/root-files.js';
import type { HookFilter } from './hook-filter.js';

const { statSync } = nodeFs;

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

/** The build's lessons: what event and tool names read as, and what a hook run alone needs to know of its frontmatter. */
interface LessonsFile {
  readonly format: string;
  readonly events: Record<string, string | null>;
  readonly aliases: Record<string, readonly string[]>;
  /** The `event_type` a HOOK.md script gets, by canonical event and trigger as written (`event|trigger`). */
  readonly hookNames?: Record<string, string>;
  /** Whether a project hook's `matcher.tool` has no problem that loading the hook once trusted reports, by regex. */
  readonly toolMatchers?: Record<string, boolean>;
}

/** Past these many entries the oldest are dropped: a call reads the lessons, and the files of its two roots. */
const MAX_FOLDERS = 2000;
const MAX_NAMES = 500;

/** The index folders of every build, and the one file each build had before (`bridge-index.json`, then by build). */
const INDEX_KIND = /^bridge-index(-[0-9a-f]{16})?(\.json(\.\d+\.\d+\.tmp)?)?$/;

let format: string | undefined;
/** This build of agent-hooks (see {@link buildStamp}), once per process. */
const buildFormat = (): string => (format ??= `first-stage-2:${buildStamp(import.meta.url)}`);

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
 * The first stage's memory: read once per process, written back once when something was learnt. It is a folder of
 * this build's in the cache folder: the lessons (what event and tool names read as) in one file, and what the hook
 * folders of each root hold in a file of that root's own, so that a call reads what it needs — its project's hooks and
 * the user's — however many projects the user has (2,000 folders of other projects in one file cost every call 4.5 ms
 * to parse on Node 24).
 *
 * @internal
 */
export class FirstStageIndex {
  private readonly format = buildFormat();
  private events = new Map<string, string | null>();
  private aliases = new Map<string, readonly string[]>();
  private hookNames = new Map<string, string>();
  private toolMatchers = new Map<string, boolean>();
  private readonly folders: RootFiles<FolderEntry>;
  private dirty = false;

  /** @param file - the lessons file in this build's index folder; `undefined` keeps nothing between processes. */
  constructor(private readonly file: string | undefined) {
    this.folders = new RootFiles(file === undefined ? undefined : dirname(file), this.format, { isEntry: isFolderEntry, max: MAX_FOLDERS, builds: INDEX_KIND });
    if (file === undefined) return;
    const lessons = readJson(file).parsed as Partial<LessonsFile> | null | undefined;
    if (!isObject(lessons) || lessons.format !== this.format) return;
    if (isObject(lessons.events)) this.events = new Map(Object.entries(lessons.events));
    if (isObject(lessons.aliases)) this.aliases = new Map(Object.entries(lessons.aliases));
    if (isObject(lessons.hookNames)) this.hookNames = new Map(Object.entries(lessons.hookNames));
    if (isObject(lessons.toolMatchers)) this.toolMatchers = new Map(Object.entries(lessons.toolMatchers));
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

  /** The `event_type` a HOOK.md script gets on canonical `event` when its trigger is written `trigger`, if learnt. */
  hookEventName(event: string, trigger: string): string | undefined {
    const value = this.hookNames.get(`${event}|${trigger}`);
    return typeof value === 'string' ? value : undefined;
  }

  /** Remembers the `event_type` of `event` for a trigger written `trigger`. */
  setHookEventName(event: string, trigger: string, name: string): void {
    this.hookNames.set(`${event}|${trigger}`, name);
    this.dirty = true;
  }

  /** Whether a trusted project hook with `matcher.tool` `tool` loads with no problem about it, if learnt. */
  toolMatcherClean(tool: string): boolean | undefined {
    const value = this.toolMatchers.get(tool);
    return typeof value === 'boolean' ? value : undefined;
  }

  /** Remembers whether `matcher.tool` `tool` loads with no problem. */
  setToolMatcherClean(tool: string, clean: boolean): void {
    this.toolMatchers.set(tool, clean);
    this.dirty = true;
  }

  /** What folder `dir` holds, if learnt while its HOOK.md had the stat `key`. */
  folder(dir: string, key: string): FolderVerdict | undefined {
    const entry = this.folders.entries(dirname(dir)).get(dir);
    return entry?.key === key ? entry.verdict : undefined;
  }

  /** Remembers what folder `dir` holds while its HOOK.md has the stat `key`. */
  setFolder(dir: string, key: string, verdict: FolderVerdict): void {
    this.folders.set(dirname(dir), dir, { key, verdict });
  }

  /**
   * Writes what was learnt, each file through a temporary file and a rename, readable by the user alone. Failing to
   * write costs the next process a lesson, nothing more: it is ignored. Making this build's folder removes the index
   * folders of builds written longest ago, and a root's first file the files of roots not written for a month (see
   * `root-files.ts`): a root still in use learns again, once.
   */
  save(): void {
    if (this.file === undefined) return;
    try {
      if (this.dirty) {
        this.dirty = false;
        this.folders.ensureFolder();
        const last = <V>(map: Map<string, V>): Record<string, V> => Object.fromEntries([...map].slice(-MAX_NAMES));
        const lessons: LessonsFile = {
          format: this.format,
          events: last(this.events),
          aliases: last(this.aliases),
          hookNames: last(this.hookNames),
          toolMatchers: last(this.toolMatchers),
        };
        writeJson(this.file, lessons);
      }
      this.folders.save();
    } catch {
      // See above.
    }
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const isFolderEntry = (value: unknown): value is FolderEntry => isObject(value) && typeof value.key === 'string' && isVerdict(value.verdict);

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
 * The lessons file of this build's index, `bridge-index-<build>/lessons.json` in the user's cache folder (see
 * `buildTag`), or `undefined` when caches are off (`AGENT_HOOKS_CACHE_DIR=off`). Each build has its own folder, so that
 * builds called in turn do not take each other's files for empty.
 *
 * @internal
 */
export function firstStageIndexFile(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const dir = agentHooksCacheDir(env);
  return dir === undefined ? undefined : join(dir, `bridge-index-${buildTag(buildFormat())}`, 'lessons.json');
}
