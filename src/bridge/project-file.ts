/**
 * A config file inside a project, read and replaced without following symbolic links: a repository can ship
 * `.claude/settings.json` (or its backup, or `.claude` itself) as a link to the user's own `~/.claude/settings.json`,
 * and writing through it would change every project's settings.
 *
 * @module
 */
import { nodeFs, fsPromises } from '../core/internal/node-fs.js';
import { dirname, join } from 'node:path';
import { InstallBridgeError } from './install-bridge-error.js';
import { nodeCrypto } from '../core/internal/node-crypto.js';

const { constants } = nodeFs;

/** A project file as it was read: its text and permissions, both `undefined` when it does not exist. */
export interface ProjectFile {
  /** The absolute path. */
  readonly file: string;
  /** The contents, or `undefined` when there is no such file. */
  readonly text: string | undefined;
  /** The permission bits, or `undefined` when there is no such file. */
  readonly mode: number | undefined;
}

const linkRefused = (path: string, target: string): InstallBridgeError =>
  new InstallBridgeError(
    `${path} is a symbolic link (to ${target}); nothing was changed. agent-hooks does not read or write an agent's config through a link, ` +
      "because a repository can point one at a file outside the project, such as your own ~/.claude/settings.json. Replace the link with the file it stands for, or edit that file yourself.",
  );

/**
 * Reads `path` (`/`-separated, relative to `projectDir`), refusing when the file or any folder on the way to it below
 * `projectDir` is a symbolic link, or is not a file (a folder).
 *
 * @throws {@link InstallBridgeError} naming the link and where it points.
 */
export async function readProjectFile(projectDir: string, path: string): Promise<ProjectFile> {
  const parts = path.split('/');
  const file = join(projectDir, ...parts);
  let at = projectDir;
  for (const [i, part] of parts.entries()) {
    at = join(at, part);
    let stats;
    try {
      stats = await fsPromises().lstat(at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file, text: undefined, mode: undefined };
      throw error;
    }
    if (stats.isSymbolicLink()) throw linkRefused(at, await fsPromises().readlink(at).catch(() => 'somewhere unreadable'));
    const last = i === parts.length - 1;
    if (!last && !stats.isDirectory()) throw new InstallBridgeError(`${at} is not a folder, so ${file} cannot be written; nothing was changed.`);
    if (last && !stats.isFile()) throw new InstallBridgeError(`${file} is not a regular file; nothing was changed.`);
  }
  // O_NOFOLLOW: a link put in its place since the look above is refused too, not followed.
  const handle = await fsPromises().open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const text = await handle.readFile('utf8');
    return { file, text, mode: (await handle.stat()).mode & 0o777 };
  } finally {
    await handle.close();
  }
}

/** Writes `text` to a new temporary file beside `target` and renames it over `target`, which is never opened. */
async function writeByRename(target: string, text: string, mode: number | undefined): Promise<void> {
  const temporary = `${target}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`;
  // 'wx' creates the file or fails: never opens an existing one, nor a link planted under that name.
  const handle = await fsPromises().open(temporary, 'wx', mode ?? 0o666);
  try {
    if (mode !== undefined) await handle.chmod(mode);
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
  try {
    await fsPromises().rename(temporary, target);
  } catch (error) {
    await fsPromises().unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/**
 * Replaces `previous.file` with `text`: the old contents first go to `FILE.bak` (a link found there is replaced, not
 * written through), then the new file is written to a temporary file and renamed over the old one, so an agent never
 * reads half a file. The permissions of the old file are kept. Returns the backup's path, or `undefined` when there
 * was no file before.
 */
export async function replaceProjectFile(previous: ProjectFile, text: string): Promise<string | undefined> {
  await fsPromises().mkdir(dirname(previous.file), { recursive: true });
  let backup: string | undefined;
  if (previous.text !== undefined) {
    backup = `${previous.file}.bak`;
    await writeByRename(backup, previous.text, previous.mode);
  }
  await writeByRename(previous.file, text, previous.mode);
  return backup;
}
