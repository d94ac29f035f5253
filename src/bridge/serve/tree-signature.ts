/**
 * A cheap signature of files and folders: what changes when any of them, or anything inside them, is added, removed,
 * replaced or written.
 *
 * @module
 */
import { fsPromises } from '../../core/internal/node-fs.js';
import { join } from 'node:path';

/** The most entries one signature walks: a hooks folder is small; a huge one is not walked whole every second. */
const MAX_ENTRIES = 20_000;

/**
 * The signature of `paths`: for each, and everything below a folder among them, its kind, size, inode, mode and
 * modification and change times — or that it is missing. Links are followed as the trust fingerprint follows them:
 * a link is recorded with where it points and the metadata of what it points to, and a link to a folder is walked
 * like the folder itself (a folder already being walked, reached again through a link, only as a cycle). So a script
 * that is a link to a project file changes the signature when that file is written, and a hooks folder that is itself
 * a link (a dotfiles manager's) is watched whole. The change time is there because a write can put the modification
 * time back (`touch -d`), never the change time. Reads metadata only, never contents: the trust check of the load
 * that follows a change reads those.
 *
 * @internal
 */
export async function treeSignature(paths: readonly string[]): Promise<string> {
  const parts: string[] = [];
  let budget = MAX_ENTRIES;
  const visit = async (path: string, chain: readonly string[]): Promise<void> => {
    if (budget-- <= 0) {
      if (budget === -1) parts.push(`(more than ${MAX_ENTRIES} entries: the rest is not watched)`);
      return;
    }
    let own;
    try {
      own = await fsPromises().lstat(path);
    } catch {
      parts.push(`${path}:-`);
      return;
    }
    let info = own;
    let link = '';
    if (own.isSymbolicLink()) {
      link = `->${await fsPromises().readlink(path).catch(() => '?')}:${own.ino}:`;
      try {
        info = await fsPromises().stat(path);
      } catch {
        parts.push(`${path}:l:${link}-`);
        return;
      }
    }
    parts.push(`${path}:${info.isDirectory() ? 'd' : info.isFile() ? 'f' : 'o'}:${link}${info.size}:${info.ino}:${info.mtimeMs}:${info.ctimeMs}:${info.mode}`);
    if (!info.isDirectory()) return;
    const real = await fsPromises().realpath(path).catch(() => undefined);
    if (real === undefined) return;
    if (chain.includes(real)) {
      parts.push(`${path}:cycle`);
      return;
    }
    let names: string[];
    try {
      names = await fsPromises().readdir(path);
    } catch {
      return;
    }
    names.sort();
    for (const name of names) await visit(join(path, name), [...chain, real]);
  };
  for (const path of paths) await visit(path, []);
  return parts.join('\n');
}
