/**
 * The user's trust store: which project hooks the user has reviewed and trusted, each pinned by its content.
 *
 * @module
 */
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { userEnvOf } from '../../dialects/project-set-env.js';
import { isInside } from './internal/paths.js';
import type { HookEnv } from '../hook-dirs.js';
import type { HookProblem } from '../problem.js';
import type { TrustFingerprint } from './trust-fingerprint.js';
import { fsPromises } from '../../core/internal/node-fs.js';
import { nodeCrypto } from '../../core/internal/node-crypto.js';
import { fileReads } from '../../process/file-reads.js';

/** One trusted hook: where it is defined and what its content was when the user trusted it. */
export interface TrustEntry {
  /** The file that defines the hook (absolute): a HOOK.md, an agent's config file, or a config module. */
  readonly path: string;
  /** For a config file's hook, the JSON path of its entry; absent for HOOK.md and a config module. */
  readonly field?: string | undefined;
  /** The kind of definition: `HOOK.md`, `claude`, `copilot`, `vscode`, `gemini`, `cursor`, `codex` or `config-module`. */
  readonly kind: string;
  /** The hook's name when it was trusted. */
  readonly name: string;
  /** The SHA-256 of its content (see {@link TrustFingerprint.sha256}). */
  readonly sha256: string;
  /** The SHA-256 of each part, to tell what changed later (see {@link TrustFingerprint.files}). */
  readonly files: Readonly<Record<string, string>>;
  /** When it was trusted (ISO 8601). */
  readonly trustedAt: string;
}

/** How a hook stands against a trust store. */
export type TrustStatus = 'trusted' | 'untrusted' | 'changed';

/** How a hook stands against a trust store, and what changed since it was trusted. */
export interface TrustVerdict {
  /** `trusted`: pinned with this content. `changed`: trusted once, with other content. `untrusted`: never trusted. */
  readonly status: TrustStatus;
  /** For `changed`: each part that differs, as `scripts/run changed`, `scripts/lib.sh added`, `the entry changed`. */
  readonly changes: readonly string[];
  /** For `changed`: the entry trusted for the same HOOK.md, or the same place in a config file. */
  readonly previous?: TrustEntry | undefined;
}

/** What reading the store gave. A store that cannot be read is treated as empty: nothing is trusted. */
export interface TrustStoreRead {
  /** The trusted hooks. */
  readonly entries: readonly TrustEntry[];
  /** Why the store could not be read (not valid JSON, not a trust store, unreadable), when it could not. */
  readonly problem?: HookProblem | undefined;
}

/** What a change to the store did. */
export interface TrustStoreWrite {
  /** The entries added or replaced (by {@link TrustStore.trust}) or removed (by {@link TrustStore.untrust}). */
  readonly entries: readonly TrustEntry[];
  /** The copy kept of a store that could not be read, before it was replaced by a valid one. */
  readonly backup?: string | undefined;
}

/** Where the user's trust store is: the environment to read, or a home directory that stands in for the user's. */
export interface TrustStoreLocation {
  /**
   * The environment to read `XDG_CONFIG_HOME` and `HOME` from (a loader's `hostEnv`). Default `process.env`, unless
   * `homeDir` is given; given, it is read alone, and `homeDir` still wins over its `HOME`.
   */
  readonly hostEnv?: HookEnv | undefined;
  /** The user's home directory; with no `hostEnv`, it alone decides (a sandbox's home has no `XDG_CONFIG_HOME`). */
  readonly homeDir?: string | false | undefined;
}

/** The format written; a store with another version is reported and not read. */
const STORE_VERSION = 1;
/** How long a writer waits for another one's lock, and when a lock is taken as left behind by a killed process. */
const LOCK_WAIT_MS = 10_000;
const LOCK_STALE_MS = 30_000;

/**
 * The trust store's file: `$XDG_CONFIG_HOME/agent-hooks/trust.json`, else `~/.config/agent-hooks/trust.json` — the
 * same rules as the user's hooks folder (`$XDG_CONFIG_HOME/agents/hooks`). A relative `XDG_CONFIG_HOME` is ignored, and
 * so is one (or a `HOME`) that a project file set (see `userEnvOf`).
 */
export function trustStorePath(location: TrustStoreLocation = {}): string {
  const homeDir = location.homeDir === false ? undefined : location.homeDir;
  const env = userEnvOf(location.hostEnv ?? (homeDir === undefined ? process.env : {}));
  const xdg = env['XDG_CONFIG_HOME'];
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return join(xdg, 'agent-hooks', 'trust.json');
  const home = homeDir ?? (env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : homedir());
  return join(resolve(home), '.config', 'agent-hooks', 'trust.json');
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function isEntry(v: unknown): v is TrustEntry {
  return (
    isRecord(v) &&
    typeof v.path === 'string' &&
    (v.field === undefined || typeof v.field === 'string') &&
    typeof v.kind === 'string' &&
    typeof v.name === 'string' &&
    typeof v.sha256 === 'string' &&
    isRecord(v.files) &&
    Object.values(v.files).every((h) => typeof h === 'string') &&
    typeof v.trustedAt === 'string'
  );
}

/** Whether an entry pins the same definition as a fingerprint: the same file and, for a config hook, the same entry. */
const samePlace = (entry: { path: string; field?: string | undefined }, other: { path: string; field?: string | undefined }): boolean =>
  entry.path === other.path && (entry.field ?? '') === (other.field ?? '');

/**
 * How a hook stands against the entries of a store. It is trusted when an entry for its file holds its content
 * (for a config hook: any entry of that file with the same content, so an entry moved within the file stays trusted);
 * changed when an entry for the same HOOK.md, or the same entry of a config file, holds other content; else untrusted.
 *
 * @internal
 */
export function trustVerdict(entries: readonly TrustEntry[], fingerprint: TrustFingerprint): TrustVerdict {
  let earlier: TrustEntry | undefined;
  for (const entry of entries) {
    if (entry.path !== fingerprint.path) continue;
    if (entry.sha256 === fingerprint.sha256 && (fingerprint.field !== undefined || entry.field === undefined)) return { status: 'trusted', changes: [] };
    if (samePlace(entry, fingerprint)) earlier = entry;
  }
  if (earlier === undefined) return { status: 'untrusted', changes: [] };
  const changes: string[] = [];
  const label = (part: string): string => (part === '#entry' ? 'the entry' : part);
  for (const [part, hash] of Object.entries(fingerprint.files)) {
    const before = earlier.files[part];
    if (before === undefined) changes.push(`${label(part)} added`);
    else if (before !== hash) changes.push(`${label(part)} changed`);
  }
  for (const part of Object.keys(earlier.files)) if (fingerprint.files[part] === undefined) changes.push(`${label(part)} removed`);
  if (changes.length === 0 || earlier.kind !== fingerprint.kind) changes.push(`read as ${fingerprint.kind}, trusted as ${earlier.kind}`);
  return { status: 'changed', changes, previous: earlier };
}

/** An error code of a failed file operation. */
const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

/**
 * The user's trust store: a JSON file (mode 0600, in a folder of mode 0700) listing the project hooks the user has
 * trusted, each pinned by its file and the SHA-256 of its content. A hook whose content changed is no longer trusted.
 *
 * Reading never throws: a store that is not valid JSON, or not a trust store, is reported as a problem and treated as
 * empty (nothing is trusted). Writing is atomic (a temporary file renamed over the store) and made under a lock file
 * (`trust.json.lock`), re-reading the store inside the lock, so two processes trusting at once both keep their
 * entries. A store that could not be read is copied aside (`trust.json.corrupt-<time>`) before it is replaced.
 *
 * ```ts
 * const store = TrustStore.forUser();
 * const { trustChecks } = await discoverHooks({ projectDir, trust: store });
 * await store.trust(trustChecks.filter((c) => c.status !== 'trusted').map((c) => c.fingerprint));
 * ```
 */
export class TrustStore {
  /** The store's file (absolute). */
  readonly path: string;
  private cache: { key: string; read: TrustStoreRead } | undefined;

  /** A store kept in `path` (nothing is read or created yet). */
  constructor(path: string) {
    this.path = resolve(path);
  }

  /** The user's store, at {@link trustStorePath}. */
  static forUser(location: TrustStoreLocation = {}): TrustStore {
    return new TrustStore(trustStorePath(location));
  }

  /**
   * Reads the store. A missing file is an empty store; one that cannot be read or understood is empty too, with a
   * problem saying why. Repeated reads of an unchanged file are answered from memory (checked by one `stat`).
   */
  async load(): Promise<TrustStoreRead> {
    let info;
    try {
      info = await fileReads.stat(this.path);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return { entries: [] };
      return { entries: [], problem: this.problem(`cannot be read: ${(error as Error).message}`) };
    }
    const key = `${info.ino}:${info.size}:${info.mtimeMs}`;
    if (this.cache?.key === key) return this.cache.read;
    let text: string;
    try {
      text = await fileReads.readFile(this.path, 'utf8');
    } catch (error) {
      return { entries: [], problem: this.problem(`cannot be read: ${(error as Error).message}`) };
    }
    const read = this.parse(text);
    this.cache = { key, read };
    return read;
  }

  /** The trusted hooks (none when the store cannot be read). */
  async entries(): Promise<readonly TrustEntry[]> {
    return (await this.load()).entries;
  }

  /** How a hook stands: trusted, changed since it was trusted, or untrusted (see {@link TrustVerdict}). */
  async verdict(fingerprint: TrustFingerprint): Promise<TrustVerdict> {
    return trustVerdict(await this.entries(), fingerprint);
  }

  /** Whether the store trusts this hook with this content. */
  async isTrusted(fingerprint: TrustFingerprint): Promise<boolean> {
    return (await this.verdict(fingerprint)).status === 'trusted';
  }

  /**
   * Trusts hooks with their current content: each fingerprint replaces any entry for the same HOOK.md or the same
   * config entry. Creates the store (and its folder) when there is none.
   */
  trust(fingerprints: readonly TrustFingerprint[], now: Date = new Date()): Promise<TrustStoreWrite> {
    const trustedAt = now.toISOString();
    const added: TrustEntry[] = fingerprints.map((f) => {
      const entry: TrustEntry = { path: f.path, kind: f.kind, name: f.name, sha256: f.sha256, files: { ...f.files }, trustedAt };
      return f.field === undefined ? entry : { ...entry, field: f.field };
    });
    return this.update((entries) => ({
      entries: [...entries.filter((e) => !added.some((a) => samePlace(e, a))), ...added],
      changed: added,
    }));
  }

  /**
   * Removes entries: those for which `which` returns true, or those whose file lies inside the folder `which` (a
   * project's entries). Nothing is created when there is no store.
   */
  untrust(which: string | ((entry: TrustEntry) => boolean)): Promise<TrustStoreWrite> {
    const test = typeof which === 'string' ? (e: TrustEntry) => isInside(e.path, resolve(which)) : which;
    return this.update((entries) => ({ entries: entries.filter((e) => !test(e)), changed: entries.filter(test) }), false);
  }

  private problem(what: string): HookProblem {
    return {
      file: this.path,
      severity: 'warning',
      code: 'corrupt-trust-store',
      message: `The trust store ${what}; it is treated as empty, so no project hook is trusted. Fix or delete the file; the next 'agent-hooks trust' keeps a copy of it and writes a new one.`,
    };
  }

  private parse(text: string): TrustStoreRead {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { entries: [], problem: this.problem(`is not valid JSON (${(error as Error).message})`) };
    }
    if (!isRecord(value) || !Array.isArray(value.hooks)) return { entries: [], problem: this.problem('is not a trust store (no "hooks" list)') };
    if (value.version !== STORE_VERSION) {
      return { entries: [], problem: this.problem(`has version ${JSON.stringify(value.version)}, and this version of agent-hooks reads version ${STORE_VERSION}`) };
    }
    const bad = value.hooks.findIndex((e) => !isEntry(e));
    if (bad >= 0) return { entries: [], problem: this.problem(`has an invalid entry at hooks[${bad}]`) };
    return { entries: Object.freeze(value.hooks as TrustEntry[]) };
  }

  /** Runs `change` on the current entries under the lock, and writes the result atomically. */
  private async update(
    change: (entries: readonly TrustEntry[]) => { entries: TrustEntry[]; changed: TrustEntry[] },
    create = true,
  ): Promise<TrustStoreWrite> {
    const dir = dirname(this.path);
    if (!create && !(await fileReads.stat(this.path).then(() => true, () => false))) return { entries: [] };
    await fsPromises().mkdir(dir, { recursive: true, mode: 0o700 });
    const release = await this.lock();
    try {
      this.cache = undefined;
      const current = await this.load();
      let backup: string | undefined;
      if (current.problem !== undefined && (await fileReads.stat(this.path).then(() => true, () => false))) {
        backup = `${this.path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        await fsPromises().copyFile(this.path, backup);
        await fsPromises().chmod(backup, 0o600);
      }
      const { entries, changed } = change(current.entries);
      entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : (a.field ?? '') < (b.field ?? '') ? -1 : 1));
      const text = `${JSON.stringify({ version: STORE_VERSION, hooks: entries }, null, 2)}\n`;
      const temp = `${this.path}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`;
      const handle = await fsPromises().open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      try {
        await fsPromises().chmod(temp, 0o600);
        await fsPromises().rename(temp, this.path);
      } catch (error) {
        await fsPromises().rm(temp, { force: true });
        throw error;
      }
      this.cache = undefined;
      return backup === undefined ? { entries: changed } : { entries: changed, backup };
    } finally {
      await release();
    }
  }

  /** Takes the store's lock file, waiting while another process holds it; a lock older than 30 s is taken over. */
  private async lock(): Promise<() => Promise<void>> {
    const lockPath = `${this.path}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        const handle = await fsPromises().open(lockPath, 'wx', 0o600);
        await handle.writeFile(String(process.pid));
        await handle.close();
        return () => fsPromises().unlink(lockPath).catch(() => undefined);
      } catch (error) {
        if (codeOf(error) !== 'EEXIST') throw error;
      }
      const held = await fileReads.stat(lockPath).catch(() => undefined);
      if (held !== undefined && Date.now() - held.mtimeMs > LOCK_STALE_MS) {
        await fsPromises().unlink(lockPath).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(`The trust store ${this.path} is locked by another process (${lockPath}); try again, or delete the lock file if no agent-hooks process is running.`);
      }
      await new Promise((r) => setTimeout(r, 10 + Math.random() * 40));
    }
  }
}
