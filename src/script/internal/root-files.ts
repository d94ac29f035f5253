// Internal: not exported from the package.
/*
 * What a build keeps per hooks folder (a root: the user's hooks folder, a project's `.agents/hooks`) in a cache folder
 * of its own — the first stage's index and the validated frontmatters: a file per root, `root-<tag>.json`, read the
 * first time a call looks at one of that root's hook folders, so that a call reads its own project's and the user's
 * however many projects the user has. A file that names another root (two roots whose names share a tag) or another
 * build is read as empty. Writing a root's file for the first time removes the files of roots not written for a month
 * (the project learns again, once); creating the build's folder removes those of builds written longest ago (see
 * `pruneBuildCaches`). Node's own modules only: the bridge's first stage uses this.
 */
import { nodeFs } from '../../core/internal/node-fs.js';
import { basename, dirname, join } from 'node:path';
import { buildTag, pruneBuildCaches } from './build-caches.js';

const { mkdirSync, readFileSync, renameSync, writeFileSync } = nodeFs;

/** The files of the roots in a build's folder, and their temporary files. */
const ROOT_FILE = /^root-[0-9a-f]{16}\.json(\.\d+\.\d+\.tmp)?$/;

interface RootFile {
  readonly format: string;
  readonly root: string;
  readonly entries: Record<string, unknown>;
}

interface Root<E> {
  readonly entries: Map<string, E>;
  existed: boolean;
  dirty: boolean;
}

/** The parsed JSON of `file` when it is there (`undefined` when it cannot be read or parsed), and whether it was. */
export function readJson(file: string): { readonly existed: boolean; readonly parsed?: unknown } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { existed: false };
  }
  try {
    return { existed: true, parsed: JSON.parse(text) as unknown };
  } catch {
    return { existed: true };
  }
}

/** Writes `body` to `file` whole, through a temporary file and a rename, readable by the user alone. */
export function writeJson(file: string, body: unknown): void {
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temp, `${JSON.stringify(body)}\n`, { mode: 0o600 });
  renameSync(temp, file);
}

/** How one kind of entry is kept: what a valid one is, how many a root keeps, and the names of its builds' folders. */
export interface RootFilesKind<E> {
  /** Whether a stored value is an entry (others are dropped as they are read). */
  readonly isEntry: (value: unknown) => value is E;
  /** Past this many entries of one root, the oldest are dropped. */
  readonly max: number;
  /** The names of every build's folder of this kind in the cache folder, and of the files of the builds before. */
  readonly builds: RegExp;
}

/** The entries of a build's folder, a file per root, by the path of what each entry is about (a file, a folder). */
export class RootFiles<E> {
  private readonly roots = new Map<string, Root<E>>();

  /**
   * @param folder - this build's folder; `undefined` keeps nothing between processes.
   * @param format - what a file must say it is: the kind and the build.
   */
  constructor(
    private readonly folder: string | undefined,
    private readonly format: string,
    private readonly kind: RootFilesKind<E>,
  ) {}

  /** The entries of `root` (the folder the path an entry is about is in), read from its file the first time. */
  entries(root: string): Map<string, E> {
    return this.rootOf(root).entries;
  }

  /** Remembers `entry` for `path`, in `root`, as the newest. */
  set(root: string, path: string, entry: E): void {
    const known = this.rootOf(root);
    known.entries.delete(path);
    known.entries.set(path, entry);
    known.dirty = true;
  }

  private fileOf(root: string): string | undefined {
    return this.folder === undefined ? undefined : join(this.folder, `root-${buildTag(root)}.json`);
  }

  private rootOf(root: string): Root<E> {
    let known = this.roots.get(root);
    if (known === undefined) {
      const file = this.fileOf(root);
      const { existed, parsed } = file === undefined ? { existed: false } : readJson(file);
      const stored = parsed as Partial<RootFile> | null | undefined;
      const entries = new Map<string, E>();
      if (typeof stored === 'object' && stored !== null && stored.format === this.format && stored.root === root && typeof stored.entries === 'object' && stored.entries !== null) {
        for (const [path, entry] of Object.entries(stored.entries)) {
          if (this.kind.isEntry(entry)) entries.set(path, entry);
        }
      }
      known = { entries, existed, dirty: false };
      this.roots.set(root, known);
    }
    return known;
  }

  /**
   * Makes this build's folder when it is missing, and then removes the folders of builds written longest ago. Throws
   * when the folder cannot be made.
   */
  ensureFolder(): void {
    if (this.folder === undefined) return;
    try {
      mkdirSync(this.folder, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
      mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    }
    pruneBuildCaches(dirname(this.folder), (name) => this.kind.builds.test(name), basename(this.folder));
  }

  /** Writes the files of the roots that changed. Throws when one cannot be written. */
  save(): void {
    const dirty = [...this.roots].filter(([, known]) => known.dirty);
    if (this.folder === undefined || dirty.length === 0) return;
    this.ensureFolder();
    for (const [root, known] of dirty) {
      known.dirty = false;
      const file = this.fileOf(root)!;
      writeJson(file, { format: this.format, root, entries: Object.fromEntries([...known.entries].slice(-this.kind.max)) } satisfies RootFile);
      if (!known.existed) pruneBuildCaches(this.folder, (name) => ROOT_FILE.test(name), basename(file), Date.now(), Infinity);
      known.existed = true;
    }
  }
}
