/**
 * A cheap signature of files and folders: what changes when any of them, or anything inside them, is added, removed,
 * replaced or written.
 *
 * @module
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The most entries one signature walks: a hooks folder is small; a huge one is not walked whole every second. */
const MAX_ENTRIES = 20_000;

/**
 * The signature of `paths`: for each, and everything below a folder among them (links not followed), its kind, size,
 * inode and modification time — or that it is missing. Reads metadata only, never contents: the trust check of the
 * load that follows a change reads those.
 *
 * @internal
 */
export async function treeSignature(paths: readonly string[]): Promise<string> {
  const parts: string[] = [];
  let budget = MAX_ENTRIES;
  const visit = async (path: string): Promise<void> => {
    if (budget-- <= 0) return;
    let info;
    try {
      info = await lstat(path);
    } catch {
      parts.push(`${path}:-`);
      return;
    }
    parts.push(`${path}:${info.isDirectory() ? 'd' : info.isSymbolicLink() ? 'l' : 'f'}:${info.size}:${info.ino}:${info.mtimeMs}:${info.mode}`);
    if (!info.isDirectory()) return;
    let names: string[];
    try {
      names = await readdir(path);
    } catch {
      return;
    }
    names.sort();
    for (const name of names) await visit(join(path, name));
  };
  for (const path of paths) await visit(path);
  return parts.join('\n');
}
