/**
 * What trust pins of a hook: its definition and the files it runs, each by its SHA-256.
 *
 * @module
 */
import type { Dirent, Stats } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { fileReads } from '../../process/file-reads.js';
import type { CommandHookOrigin } from '../command-hook.js';
import type { HookManifest } from '../manifest.js';
import { commandReferences } from './internal/command-files.js';
import { hashOf, sha256Hex } from '../../core/internal/sha256.js';

/**
 * A hook's identity and content, as a trust store pins it: where it is defined and a SHA-256 of every part that
 * decides what it does. Any change to a part changes `sha256`, and the hook is no longer trusted.
 */
export interface TrustFingerprint {
  /** The file that defines the hook: a HOOK.md, or an agent's config file (absolute). */
  readonly path: string;
  /** For a config file's hook, the JSON path of its entry (`hooks.PreToolUse[0].hooks[1]`); absent for HOOK.md. */
  readonly field?: string | undefined;
  /**
   * The kind of definition: `HOOK.md`, the agent whose config file holds it (`claude`, `copilot`, …), or
   * `config-module` for a module of in-process hooks (`agent-hooks.config.*`).
   */
  readonly kind: string;
  /** The hook's name, for listings. */
  readonly name: string;
  /**
   * Each part and its SHA-256 (hex; ` +x` appended for an executable file). A HOOK.md hook's parts are its HOOK.md and
   * every file under its `scripts/` folder, named relative to the hook folder; a config hook's are `#entry` (its entry
   * as canonical JSON, with its event and matcher) and each project file its command names, relative to the project;
   * a config module's, its own file, by its name.
   */
  readonly files: Readonly<Record<string, string>>;
  /** The SHA-256 (hex) of the kind and every part: what a trust store compares. */
  readonly sha256: string;
  /**
   * For a config hook, what its command (or its `env`) names that is not pinned, each with the reason: a path outside
   * the project, in the home folder, or built from a variable (`~/bin/check.sh (in the home folder, so not pinned)`).
   * Shown to the user who reviews the hook; not part of `sha256`.
   */
  readonly unpinned?: readonly string[] | undefined;
}

/**
 * Why a hook cannot be fingerprinted: a part of it cannot be read as a file (a FIFO, a device, a link to
 * `/proc/self/mem`, a folder the user may not list), or there is too much of it to pin. Loaders skip such a hook with
 * an `unpinnable-hook` problem; nothing else is affected.
 */
export class TrustFingerprintError extends Error {
  /** The part at fault (absolute). */
  readonly file: string;
  /** What is wrong with it, as the end of a sentence naming it (`is a FIFO, not a file`). */
  readonly reason: string;

  constructor(file: string, reason: string) {
    super(`${file} ${reason}, so the hook cannot be pinned by trust: remove it, or make it a regular file (or a folder of them) inside the project.`);
    this.name = 'TrustFingerprintError';
    this.file = file;
    this.reason = reason;
  }
}

/**
 * The most one fingerprint reads: a folder link may point anywhere (`scripts/lib -> /`), and checking a hook must stay
 * cheap whatever its folder holds.
 *
 * @internal
 */
export const TRUST_PIN_LIMITS = Object.freeze({ files: 10_000, bytes: 256 * 1024 * 1024 });

/**
 * The part of a config hook's fingerprint that is its entry.
 *
 * @internal
 */
export const ENTRY_PART = '#entry';

/**
 * The kind of a config module's fingerprint: `agent-hooks.config.*`, the in-process hooks `agent-hooks bridge` imports.
 *
 * @internal
 */
export const CONFIG_MODULE_KIND = 'config-module';

/** A config hook as trust sees it: a {@link CommandHook} or a prompt hook of a config file. */
export interface ConfigTrustSubject {
  /** The hook's name. */
  readonly name: string;
  /** Where it is defined; `origin.definition` is the entry as written. */
  readonly origin: CommandHookOrigin;
  /** The shell command it runs, for a command hook. */
  readonly command?: string | undefined;
  /** The project directory, absolute: the files a command names are looked for inside it. */
  readonly projectDir?: string | undefined;
  /** The command's working directory (default: the project directory): relative paths in it start there. */
  readonly cwd?: string | undefined;
  /**
   * The variables the entry sets for the command: a value naming a project file (`BASH_ENV: ./setup.sh`, which bash
   * runs first) pins that file as the command's own words do.
   */
  readonly env?: Readonly<Record<string, string>> | undefined;
}

/** A HOOK.md hook as trust sees it: anything with its name and manifest, such as a {@link ScriptHook}. */
export interface HookMdTrustSubject {
  /** The hook's name. */
  readonly name: string;
  /** The hook's manifest: where its HOOK.md and folder are. */
  readonly manifest: HookManifest;
}

const sha256 = sha256Hex;

/** Whether `key` is an array index, which JavaScript orders first, by value, among an object's keys. */
const isIndex = (key: string): boolean => /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 4294967295;

/** The JSON text of a value that holds no other value, or `undefined` for one JSON leaves out. */
function leafJson(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint') return JSON.stringify(value);
  return undefined;
}

interface JsonFrame {
  readonly value: object;
  /** The keys in output order; `undefined` for an array. */
  readonly keys: readonly string[] | undefined;
  next: number;
  readonly parts: string[];
}

/**
 * JSON with the keys of every object sorted, so that the same value always gives the same text whatever order a file
 * writes its keys in; `undefined` members are left out, as `JSON.stringify` does. Array-index keys (`"0"`, `"12"`)
 * come first, by value, as JavaScript orders them. Written without recursion, so a value nested thousands of levels
 * deep (a config file can hold one) is serialized rather than overflowing the stack.
 *
 * @throws TypeError for a circular value or a bigint, as `JSON.stringify` does.
 *
 * @internal
 */
export function canonicalJson(value: unknown): string {
  const stack: JsonFrame[] = [];
  const open = new Set<object>();
  let result: string | undefined;
  const deliver = (text: string | undefined): void => {
    const frame = stack[stack.length - 1];
    if (frame === undefined) result = text;
    else if (frame.keys === undefined) frame.parts.push(text ?? 'null');
    else if (text !== undefined) frame.parts.push(`${JSON.stringify(frame.keys[frame.next - 1])}:${text}`);
  };
  const visit = (raw: unknown, key: string): void => {
    const convertible = raw !== null && typeof raw === 'object' && typeof (raw as { toJSON?: unknown }).toJSON === 'function';
    const item = convertible ? (raw as { toJSON(key: string): unknown }).toJSON(key) : raw;
    if (typeof item === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
    if (item === null || typeof item !== 'object') return deliver(leafJson(item));
    if (item instanceof Number || item instanceof String || item instanceof Boolean) return deliver(leafJson(item.valueOf()));
    if (open.has(item)) throw new TypeError('Converting circular structure to JSON');
    open.add(item);
    const own = Array.isArray(item) ? undefined : Object.keys(item);
    const keys = own === undefined ? undefined : [...own.filter(isIndex), ...own.filter((k) => !isIndex(k)).sort()];
    stack.push({ value: item, keys, next: 0, parts: [] });
  };
  visit(value, '');
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const size = frame.keys === undefined ? (frame.value as unknown[]).length : frame.keys.length;
    if (frame.next < size) {
      const key = frame.keys === undefined ? String(frame.next) : frame.keys[frame.next]!;
      frame.next++;
      visit((frame.value as Record<string, unknown>)[key], key);
      continue;
    }
    stack.pop();
    open.delete(frame.value);
    deliver(frame.keys === undefined ? `[${frame.parts.join(',')}]` : `{${frame.parts.join(',')}}`);
  }
  return result as string;
}

/** What one fingerprint has read so far, against {@link TRUST_PIN_LIMITS}. */
class PinBudget {
  files = 0;
  bytes = 0;

  /** Counts one more part: a file, or a link to a folder. */
  part(path: string): void {
    if (++this.files > TRUST_PIN_LIMITS.files) throw new TrustFingerprintError(path, `is past the ${TRUST_PIN_LIMITS.files}th file of the hook, more than trust pins`);
  }

  /** Counts bytes read from `path`. */
  read(path: string, bytes: number): void {
    this.bytes += bytes;
    if (this.bytes > TRUST_PIN_LIMITS.bytes) throw new TrustFingerprintError(path, `takes the hook past ${TRUST_PIN_LIMITS.bytes / 1024 / 1024} MiB, more than trust pins`);
  }
}

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

/** What a file system entry that is neither a file nor a folder is, for messages. */
function kindOf(info: Stats): string {
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * SHA-256 of what the open file holds, read in chunks so a large file never sits in memory whole; `size` (what its
 * stat said) picks the hash's implementation, not what is read.
 */
async function hashOpen(path: string, read: (buffer: Buffer) => Promise<number>, budget: PinBudget, size: number): Promise<string> {
  const hash = hashOf(size);
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    const n = await read(buffer);
    if (n === 0) return hash.digest();
    budget.read(path, n);
    hash.update(buffer.subarray(0, n));
  }
}

/**
 * A file's part value: its hash, marked when it is executable (that decides how, and whether, it runs); `undefined`
 * when there is nothing at `path` or it is a folder.
 *
 * @throws {@link TrustFingerprintError} when it is something else (a FIFO, a device) or cannot be read.
 */
async function filePart(path: string, budget: PinBudget = new PinBudget()): Promise<string | undefined> {
  let info: Stats;
  try {
    info = await fileReads.stat(path);
  } catch (error) {
    if (['ENOENT', 'ENOTDIR', 'ELOOP'].includes(codeOf(error) ?? '')) return undefined;
    throw new TrustFingerprintError(path, `cannot be read (${(error as Error).message})`);
  }
  if (info.isDirectory()) return undefined;
  if (!info.isFile()) throw new TrustFingerprintError(path, `is ${kindOf(info)}, not a file`);
  budget.part(path);
  let fd: number;
  try {
    // Non-blocking (see FileReads.open): a FIFO opened otherwise would wait for a writer, forever.
    fd = await fileReads.open(path);
  } catch (error) {
    throw new TrustFingerprintError(path, `cannot be read (${(error as Error).message})`);
  }
  try {
    // The file opened is the one judged: it may have been swapped for a FIFO since the stat above.
    const opened = await fileReads.fstat(fd);
    if (!opened.isFile()) throw new TrustFingerprintError(path, `is ${kindOf(opened)}, not a file`);
    let position = 0;
    const hash = await hashOpen(path, async (buffer) => {
      const bytesRead = await fileReads.read(fd, buffer, 0, buffer.length, position);
      position += bytesRead;
      return bytesRead;
    }, budget, opened.size);
    return (opened.mode & 0o111) !== 0 ? `${hash} +x` : hash;
  } catch (error) {
    if (error instanceof TrustFingerprintError) throw error;
    throw new TrustFingerprintError(path, `cannot be read (${(error as Error).message})`);
  } finally {
    await fileReads.close(fd).catch(() => undefined);
  }
}

/**
 * Every file under `dir` (recursively), by path relative to `base`, into `into`. A link to a file is pinned by the
 * file's content; a link to a folder by where it points and by every file in that folder, named through the link, so
 * editing what it points to is a change like any other. A link back into a folder being walked (a cycle) is pinned
 * by where it points only, and a folder reached again through such a link as `folder (cycle)`. `chain` holds the
 * real paths of the folders being walked, `dir`'s last.
 *
 * @throws {@link TrustFingerprintError} for an entry that is not a file, a folder or a link to one, for a folder that
 * cannot be listed, and past {@link TRUST_PIN_LIMITS}.
 */
async function folderParts(dir: string, base: string, into: Record<string, string>, budget: PinBudget, chain: readonly string[]): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await fileReads.entries(dir);
  } catch (error) {
    if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return;
    throw new TrustFingerprintError(dir, `cannot be listed (${(error as Error).message})`);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const name = relative(base, path).split(sep).join('/');
    if (entry.isDirectory()) {
      // Reached through a link, a plain folder can be one already being walked: the cycle closes here.
      const real = join(chain[chain.length - 1]!, entry.name);
      if (chain.includes(real)) into[name] = 'folder (cycle)';
      else await folderParts(path, base, into, budget, [...chain, real]);
    } else if (entry.isSymbolicLink()) {
      const target = await fileReads.readlink(path).catch(() => '');
      const real = await fileReads.realpath(path).catch(() => undefined);
      const info = real === undefined ? undefined : await fileReads.stat(real).catch(() => undefined);
      if (info?.isDirectory() === true) {
        budget.part(path);
        if (chain.includes(real!)) {
          into[name] = `link ${target} (cycle)`;
        } else {
          into[name] = `link ${target}`;
          await folderParts(path, base, into, budget, [...chain, real!]);
        }
      } else {
        into[name] = (await filePart(path, budget)) ?? `missing ${target}`;
      }
    } else if (entry.isFile()) {
      const part = await filePart(path, budget);
      if (part !== undefined) into[name] = part;
    } else {
      const info = await fileReads.stat(path).catch(() => undefined);
      throw new TrustFingerprintError(path, `is ${info === undefined ? 'not a regular file' : kindOf(info)}, not a file`);
    }
  }
}

/** {@link folderParts} from the top: the real path of `dir` starts the chain. */
async function folderTreeParts(dir: string, base: string, into: Record<string, string>, budget: PinBudget): Promise<void> {
  const real = await fileReads.realpath(dir).catch(() => undefined);
  if (real === undefined) return;
  await folderParts(dir, base, into, budget, [real]);
}

function fingerprintOf(base: Omit<TrustFingerprint, 'sha256'>): TrustFingerprint {
  const { unpinned, ...pinned } = base;
  const fingerprint = { ...pinned, files: Object.freeze(base.files), sha256: sha256(canonicalJson({ kind: base.kind, files: base.files })) };
  return Object.freeze(unpinned === undefined || unpinned.length === 0 ? fingerprint : { ...fingerprint, unpinned: Object.freeze([...unpinned]) });
}

/**
 * The fingerprint of a HOOK.md hook: its HOOK.md (frontmatter and body) and every file under its `scripts/` folder —
 * the entry that runs (`scripts/run`, `run.sh` or `run.py`, whichever {@link resolveScriptEntry} picks) and whatever
 * it may call beside it — with each file's execute bit. A link under `scripts/` is followed: to a file, that file's
 * content is pinned; to a folder, every file in it (see the security model for cycles and limits). Files outside the
 * hook folder that a script calls by their own path are not pinned.
 *
 * @throws {@link TrustFingerprintError} when a part cannot be read as a file (a FIFO, a device, a link to one), or the
 * hook holds more than {@link TRUST_PIN_LIMITS}.
 *
 * @internal
 */
export async function hookMdFingerprint(manifest: HookManifest): Promise<TrustFingerprint> {
  const budget = new PinBudget();
  const files: Record<string, string> = {};
  files['HOOK.md'] = (await filePart(manifest.file, budget)) ?? 'missing';
  await folderTreeParts(join(manifest.dir, 'scripts'), manifest.dir, files, budget);
  return fingerprintOf({ path: manifest.file, kind: 'HOOK.md', name: manifest.name, files });
}

/**
 * The fingerprint of a config file's hook: its entry (`origin.definition`: the handler as written, with its event and
 * matcher, as canonical JSON — not the whole file, so editing another setting or another hook leaves it trusted) and
 * every project file its command names, such as `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh` or
 * `./scripts/lint.sh`, and every file of a project folder it runs as a program (`node .claude/guard`), by real path;
 * the files its `env` names too (`BASH_ENV`). What it names that stays unpinned is listed in `unpinned` (see the
 * security model for how they are found).
 *
 * @throws {@link TrustFingerprintError} when a file it names cannot be read as a file, or there is more than
 * {@link TRUST_PIN_LIMITS} to pin.
 *
 * @internal
 */
export async function configHookFingerprint(hook: ConfigTrustSubject): Promise<TrustFingerprint> {
  const { origin } = hook;
  const definition = origin.definition ?? { event: hook.origin.field, matcher: origin.matcher, command: hook.command };
  const files: Record<string, string> = { [ENTRY_PART]: sha256(canonicalJson(definition)) };
  let unpinned: readonly string[] | undefined;
  if (hook.command !== undefined && hook.projectDir !== undefined) {
    const projectDir = hook.projectDir;
    const realProject = await fileReads.realpath(projectDir).catch(() => projectDir);
    const env = Object.entries(hook.env ?? {}).map(([key, value]) => `${key}=${value}`);
    const named = await commandReferences(hook.command, projectDir, hook.cwd ?? projectDir, env);
    // Parts are named relative to the project, as the user knows them; a file a link leads out to, by its own path.
    const partName = (path: string): string => {
      const rel = relative(realProject, path).split(sep).join('/');
      return rel.startsWith('../') || rel === '..' ? path : rel.startsWith('#') ? `./${rel}` : rel;
    };
    const budget = new PinBudget();
    for (const path of named.files) {
      const part = await filePart(path, budget);
      if (part !== undefined) files[partName(path)] = part;
    }
    for (const folder of named.folders) {
      const inside: Record<string, string> = {};
      await folderTreeParts(folder, folder, inside, budget);
      for (const [name, part] of Object.entries(inside)) files[`${partName(folder)}/${name}`] = part;
    }
    unpinned = named.unpinned;
  }
  return fingerprintOf({ path: origin.file, field: origin.field, kind: origin.kind, name: hook.name, files, unpinned });
}

/**
 * The fingerprint of a module of in-process hooks (`agent-hooks.config.mjs`, `.js`, `.mts` or `.ts`, which
 * `agent-hooks bridge` imports from a project): the SHA-256 of the module's own text, with its execute bit, as the
 * part named after the file. Only that file is pinned: the project files it imports (a helper module beside it, a
 * JSON file it reads) and its packages are not, so editing them leaves the module trusted. Its name in listings is
 * `agent-hooks.config.mjs (in-process hooks module)`.
 *
 * @throws {@link TrustFingerprintError} when the module is not a regular file (a FIFO, a device) or cannot be read.
 *
 * ```ts
 * const fingerprint = await configModuleFingerprint(join(projectDir, 'agent-hooks.config.mjs'));
 * if (!(await TrustStore.forUser().isTrusted(fingerprint))) console.warn('not trusted yet');
 * ```
 *
 * @internal
 */
export async function configModuleFingerprint(file: string): Promise<TrustFingerprint> {
  const path = resolve(file);
  const name = basename(path);
  const files: Record<string, string> = { [name]: (await filePart(path)) ?? 'missing' };
  return fingerprintOf({ path, kind: CONFIG_MODULE_KIND, name: `${name} (in-process hooks module)`, files });
}

/**
 * The fingerprint of any hook that trust applies to: a HOOK.md hook ({@link ScriptHook}, or anything with its
 * `manifest`) or a config file's hook (anything with an `origin`).
 *
 * ```ts
 * const { trustChecks } = await discoverHooks({ projectDir });
 * const fingerprint = await trustFingerprint(trustChecks[0]!.hook);
 * ```
 */
export function trustFingerprint(hook: HookMdTrustSubject | ConfigTrustSubject): Promise<TrustFingerprint> {
  return 'manifest' in hook ? hookMdFingerprint(hook.manifest) : configHookFingerprint(hook);
}
