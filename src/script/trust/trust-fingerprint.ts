/**
 * What trust pins of a hook: its definition and the files it runs, each by its SHA-256.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import type { Dirent, Stats } from 'node:fs';
import { readdir, readFile, readlink, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import type { CommandHookOrigin } from '../command-hook.js';
import type { HookManifest } from '../manifest.js';
import { commandProjectFiles } from './internal/command-files.js';

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
   * {@link CONFIG_MODULE_KIND} for a module of in-process hooks.
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
}

/** The part of a config hook's fingerprint that is its entry. */
export const ENTRY_PART = '#entry';

/** The kind of a config module's fingerprint: `agent-hooks.config.*`, the in-process hooks `agent-hooks bridge` imports. */
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
}

/** A HOOK.md hook as trust sees it: anything with its name and manifest, such as a {@link ScriptHook}. */
export interface HookMdTrustSubject {
  /** The hook's name. */
  readonly name: string;
  /** The hook's manifest: where its HOOK.md and folder are. */
  readonly manifest: HookManifest;
}

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/**
 * JSON with the keys of every object sorted, so that the same value always gives the same text whatever order a file
 * writes its keys in; `undefined` members are left out, as `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(v).sort()) sorted[key] = (v as Record<string, unknown>)[key];
    return sorted;
  });
}

/** A file's part value: its hash, marked when it is executable (that decides how, and whether, it runs). */
async function filePart(path: string, info?: Stats): Promise<string | undefined> {
  const s = info ?? (await stat(path).catch(() => undefined));
  if (s === undefined || !s.isFile()) return undefined;
  const hash = sha256(await readFile(path));
  return (s.mode & 0o111) !== 0 ? `${hash} +x` : hash;
}

/** Every file under `dir` (recursively, following file symlinks but not folder ones), by path relative to `base`. */
async function folderParts(dir: string, base: string, into: Record<string, string>): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const name = relative(base, path).split(sep).join('/');
    if (entry.isDirectory()) {
      await folderParts(path, base, into);
    } else if (entry.isSymbolicLink()) {
      const target = await stat(path).catch(() => undefined);
      // A linked folder is pinned by where it points, so a link loop cannot make hashing endless.
      if (target?.isDirectory()) into[name] = `link ${await readlink(path)}`;
      else into[name] = (await filePart(path, target)) ?? `missing ${await readlink(path).catch(() => '')}`;
    } else if (entry.isFile()) {
      const part = await filePart(path);
      if (part !== undefined) into[name] = part;
    }
  }
}

function fingerprintOf(base: Omit<TrustFingerprint, 'sha256'>): TrustFingerprint {
  return Object.freeze({ ...base, files: Object.freeze(base.files), sha256: sha256(canonicalJson({ kind: base.kind, files: base.files })) });
}

/**
 * The fingerprint of a HOOK.md hook: its HOOK.md (frontmatter and body) and every file under its `scripts/` folder —
 * the entry that runs (`scripts/run`, `run.sh` or `run.py`, whichever {@link resolveScriptEntry} picks) and whatever
 * it may call beside it — with each file's execute bit. Files outside the hook folder that a script calls are not
 * pinned.
 */
export async function hookMdFingerprint(manifest: HookManifest): Promise<TrustFingerprint> {
  const files: Record<string, string> = {};
  files['HOOK.md'] = (await filePart(manifest.file)) ?? 'missing';
  await folderParts(join(manifest.dir, 'scripts'), manifest.dir, files);
  return fingerprintOf({ path: manifest.file, kind: 'HOOK.md', name: manifest.name, files });
}

/**
 * The fingerprint of a config file's hook: its entry (`origin.definition`: the handler as written, with its event and
 * matcher, as canonical JSON — not the whole file, so editing another setting or another hook leaves it trusted) and
 * every project file its command names, such as `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh` or
 * `./scripts/lint.sh` (see the README's security model for how they are found).
 */
export async function configHookFingerprint(hook: ConfigTrustSubject): Promise<TrustFingerprint> {
  const { origin } = hook;
  const definition = origin.definition ?? { event: hook.origin.field, matcher: origin.matcher, command: hook.command };
  const files: Record<string, string> = { [ENTRY_PART]: sha256(canonicalJson(definition)) };
  if (hook.command !== undefined && hook.projectDir !== undefined) {
    for (const path of await commandProjectFiles(hook.command, hook.projectDir, hook.cwd ?? hook.projectDir)) {
      const rel = relative(hook.projectDir, path).split(sep).join('/');
      const part = await filePart(path);
      if (part !== undefined) files[rel.startsWith('#') ? `./${rel}` : rel] = part;
    }
  }
  return fingerprintOf({ path: origin.file, field: origin.field, kind: origin.kind, name: hook.name, files });
}

/**
 * The fingerprint of a module of in-process hooks (`agent-hooks.config.mjs`, `.js`, `.mts` or `.ts`, which
 * `agent-hooks bridge` imports from a project): the SHA-256 of the module's own text, with its execute bit, as the
 * part named after the file. Only that file is pinned: the project files it imports (a helper module beside it, a
 * JSON file it reads) and its packages are not, so editing them leaves the module trusted. Its name in listings is
 * `agent-hooks.config.mjs (in-process hooks module)`.
 *
 * ```ts
 * const fingerprint = await configModuleFingerprint(join(projectDir, 'agent-hooks.config.mjs'));
 * if (!(await TrustStore.forUser().isTrusted(fingerprint))) console.warn('not trusted yet');
 * ```
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
