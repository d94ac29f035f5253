// Internal: not exported from the package.
/*
 * A hook folder's frontmatter as discovery reads it, and the manifest the discovery cache holds for it: the part of
 * loading a hook that needs neither the frontmatter parser nor validation, shared by `loadManifest` and the bridge's
 * first stage, which runs a hook alone only when its manifest is known so.
 */
import { join } from 'node:path';
import { readFrontmatter, type FrontmatterBlock, type FrontmatterFailure } from '../frontmatter.js';
import type { HookManifest, HookSource } from '../manifest.js';
import type { DiscoveryCache, FrontmatterPlace } from './discovery-cache.js';

/** A hook folder's frontmatter, read from the file discovery takes. */
export interface HookFileRead {
  /** The file: `HOOK.md`, or the lowercase `hook.md` when there is no `HOOK.md`. */
  readonly file: string;
  /** What reading it gave. */
  readonly read: FrontmatterBlock | FrontmatterFailure;
}

const missing = (read: FrontmatterBlock | FrontmatterFailure): boolean => !read.ok && read.problems.some((p) => p.code === 'missing-file');

/** Reads the frontmatter of the hook in `folder` (resolved): its HOOK.md, else — as the reference runtime does — its hook.md. */
export async function readHookFile(folder: string): Promise<HookFileRead> {
  const file = join(folder, 'HOOK.md');
  const read = await readFrontmatter(file);
  if (missing(read)) {
    const lower = await readFrontmatter(join(folder, 'hook.md'));
    if (lower.ok || !missing(lower)) return { file: join(folder, 'hook.md'), read: lower };
  }
  return { file, read };
}

/** Whether the folder holds no hook file at all: discovery passes over it. */
export const noHookFile = (found: HookFileRead): boolean => missing(found.read);

/**
 * Where a frontmatter read was found, and the manifest `cache` holds for it (validated with no problem, byte for byte
 * the same text at the same place), when it does.
 */
export function knownManifest(
  found: HookFileRead,
  folder: string,
  options: { readonly source: HookSource | undefined; readonly deferRegexSafety: boolean; readonly cache: DiscoveryCache | undefined },
): { readonly place: FrontmatterPlace | undefined; readonly known: HookManifest | undefined } {
  const { read, file } = found;
  if (!read.ok) return { place: undefined, known: undefined };
  const place: FrontmatterPlace = { file, dir: folder, source: options.source, bodyOffset: read.bodyOffset, deferRegexSafety: options.deferRegexSafety };
  return { place, known: options.cache?.get(read.text, place) };
}
