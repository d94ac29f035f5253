/**
 * Loading one hook folder: frontmatter, validation, and (optionally) a check that something can run.
 *
 * @module
 */
import { basename, resolve } from 'node:path';
import { resolveScriptEntry } from './entry.js';
import { parseFrontmatter } from './frontmatter.js';
import type { DiscoveryCache } from './internal/discovery-cache.js';
import { knownManifest, noHookFile, readHookFile } from './internal/known-manifest.js';
import { deferringRegexSafety } from './internal/regex-safety.js';
import type { HookManifest, HookSource } from './manifest.js';
import type { HookProblem } from './problem.js';

/**
 * Options of {@link loadManifest}.
 *
 * @internal
 */
export interface LoadManifestOptions {
  /** The level the folder belongs to. Default `'project'`. */
  readonly source?: HookSource | undefined;
  /**
   * Whether to look for the script entry now, so that a missing or non-executable script is reported at load time
   * rather than when the hook first fires. Only file metadata is read. Default true.
   */
  readonly checkEntry?: boolean | undefined;
  /**
   * Compile the matcher regexes for their syntax only, leaving out the analysis that refuses a regex able to
   * backtrack catastrophically (and the `unknown-tool` warning, which tests the regex), for a caller that decides
   * first whether the hook may run at all: a {@link ScriptHook} built from the manifest makes that analysis then, and
   * throws on such a regex. Default false.
   */
  readonly deferRegexSafety?: boolean | undefined;
  /**
   * Whether the hook may run on the call it is loaded for, judged from its raw frontmatter (or a cached manifest):
   * `false` leaves it out before its entry is looked for, its frontmatter validated or anything of it analysed.
   */
  readonly mayRun?: ((data: unknown) => boolean) | undefined;
  /** Frontmatters validated before, by earlier processes (see `DiscoveryCache`). */
  readonly cache?: DiscoveryCache | undefined;
}

/**
 * What loading one hook folder gave.
 *
 * @internal
 */
export interface ManifestLoad {
  /** The manifest, or `undefined` when an error prevents loading the hook. */
  readonly manifest: HookManifest | undefined;
  /** Every problem found, errors and warnings. */
  readonly problems: readonly HookProblem[];
  /** Bytes read from disk (the frontmatter, in whole chunks; never the body or the script). */
  readonly bytesRead: number;
  /** Whether the folder holds a HOOK.md at all; discovery passes over folders that do not. */
  readonly found: boolean;
}

/**
 * Loads the hook in folder `dir`: reads its HOOK.md frontmatter (not the body), validates it, and checks its script
 * entry. Problems of all three stages are reported together, so one run shows everything that needs fixing. Never
 * throws.
 *
 * @internal
 */
export async function loadManifest(dir: string, options: LoadManifestOptions = {}): Promise<ManifestLoad> {
  const folder = resolve(dir);
  const found = await readHookFile(folder);
  const { file, read } = found;
  if (noHookFile(found)) {
    return { manifest: undefined, problems: read.ok ? [] : read.problems, bytesRead: read.bytesRead, found: false };
  }
  const name = basename(folder);
  const { place, known } = knownManifest(found, folder, { source: options.source, deferRegexSafety: options.deferRegexSafety === true, cache: options.cache });
  if (known !== undefined) {
    if (options.mayRun?.(known) === false) return { manifest: undefined, problems: [], bytesRead: read.bytesRead, found: true };
    const resolved = options.checkEntry === false ? undefined : await resolveScriptEntry(folder);
    if (resolved === undefined || resolved.ok) return { manifest: known, problems: [], bytesRead: read.bytesRead, found: true };
    return { manifest: undefined, problems: [{ ...resolved.problem, hookName: resolved.problem.hookName ?? name }], bytesRead: read.bytesRead, found: true };
  }
  const parsed = read.ok ? parseFrontmatter(read, file) : read;
  // A hook that cannot run on this call costs no entry lookup, validation or analysis: it is not loaded at all.
  if (parsed.ok && options.mayRun?.(parsed.data) === false) return { manifest: undefined, problems: [], bytesRead: read.bytesRead, found: true };
  const entry = options.checkEntry === false ? undefined : resolveScriptEntry(folder);
  const problems: HookProblem[] = [];
  let manifest: HookManifest | undefined;
  problems.push(...parsed.problems);
  if (parsed.ok) {
    // Validation's schemas (zod) load only when a frontmatter is validated: a call that finds every hook in the
    // discovery cache, or none that can match, never needs them.
    const { validateFrontmatter } = await import('./validate.js');
    const location = { file, dir: folder, source: options.source, bodyOffset: parsed.bodyOffset };
    const validation =
      options.deferRegexSafety === true
        ? deferringRegexSafety(() => validateFrontmatter(parsed.data, location))
        : validateFrontmatter(parsed.data, location);
    problems.push(...validation.problems);
    manifest = validation.manifest;
    if (manifest !== undefined && problems.length === 0 && read.ok) options.cache?.set(read.text, place!, manifest);
  }
  const resolved = await entry;
  if (resolved !== undefined && !resolved.ok) problems.push(resolved.problem);
  if (problems.some((p) => p.severity === 'error')) manifest = undefined;
  // The spec makes the folder name the hook's name, so it identifies the hook even when the frontmatter cannot.
  return {
    manifest,
    problems: problems.map((p) => (p.hookName === undefined ? { ...p, hookName: name } : p)),
    bytesRead: read.bytesRead,
    found: true,
  };
}
