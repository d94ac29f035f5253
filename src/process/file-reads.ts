/**
 * The file reads of loading a project's hooks — discovery, a HOOK.md's frontmatter and body, a script's entry, its trust
 * fingerprint, the trust store, a process group's `/proc` entries — made one way for the whole process.
 *
 * By default they are asynchronous, so that a server or an agent running hooks never waits on a disk. They use
 * `node:fs`'s callbacks, promised by hand: `node:fs/promises` costs a process 1 to 2 ms to load, and its `FileHandle`
 * an object with a finalizer per file (discovery opens a thousand HOOK.md files in a large project; measured, handles
 * made those reads twice as slow).
 *
 * {@link useBlockingFiles} makes them blocking calls, answered as settled promises. It is for a process whose one job is
 * one bridged hook call (`dist/bridge.cjs`), while it loads the call's hooks: nothing else waits while a file is read
 * then, and no hook process of ours is running yet, whose timeout a blocked read would hold. There, the call's chain
 * of some twenty awaited reads, each a trip through libuv's thread pool and back, and loading `node:fs/promises` cost
 * 2 to 9 ms of a 60 to 95 ms call (docs/performance.md). A FIFO put in a file's place still cannot hang the call: files
 * are opened with `O_NONBLOCK` in both modes, so it answers at once (nothing to read, or `EAGAIN`) instead of waiting
 * for a writer. A regular file reads the same either way.
 *
 * @module
 * @internal
 */
import type { Dirent, Stats } from 'node:fs';
import { nodeFs } from '../core/internal/node-fs.js';

const { access, accessSync, close, closeSync, constants, fstat, fstatSync, open, openSync, read, readdir, readdirSync, readFile, readFileSync, readlink, readlinkSync, readSync, realpath, realpathSync, stat, statSync } = nodeFs;

/** The reads, each answering a promise; see the module's description. @internal */
export interface FileReads {
  /** The names in a directory. */
  readonly readdir: (path: string) => Promise<string[]>;
  /** The entries of a directory, with their types (`readdir` with `withFileTypes`). */
  readonly entries: (path: string) => Promise<Dirent[]>;
  /** A whole file, decoded; opened as {@link FileReads.open} opens one. */
  readonly readFile: (path: string, encoding: BufferEncoding) => Promise<string>;
  /** What a path names, links followed. */
  readonly stat: (path: string) => Promise<Stats>;
  /** Rejects when the path cannot be reached with `mode` (`F_OK` by default). */
  readonly access: (path: string, mode?: number) => Promise<void>;
  /**
   * The path with every link resolved, by the system's `realpath(3)` as `node:fs/promises` does: `lib/..` is the
   * parent of where the link `lib` leads, as the shell reads it, not the folder `lib` is in.
   */
  readonly realpath: (path: string) => Promise<string>;
  /** A link's target, as written. */
  readonly readlink: (path: string) => Promise<string>;
  /**
   * Opens a file to read, non-blocking (`O_RDONLY | O_NONBLOCK`); its descriptor. A FIFO put in a file's place opens at
   * once and reads as empty (or fails with `EAGAIN`) instead of waiting for a writer; a regular file reads the same
   * either way. Check what was opened with {@link FileReads.fstat}.
   */
  readonly open: (path: string) => Promise<number>;
  /** What an open file is. */
  readonly fstat: (fd: number) => Promise<Stats>;
  /** Reads into `buffer` from `position` (`null`: from where the last read ended); the bytes read, 0 at the end of the file. */
  readonly read: (fd: number, buffer: Buffer, offset: number, length: number, position: number | null) => Promise<number>;
  /** Closes a descriptor {@link FileReads.open} gave. */
  readonly close: (fd: number) => Promise<void>;
}

type Callback<T> = (error: NodeJS.ErrnoException | null, value: T) => void;

const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** `call`'s callback as a promise: by hand, as `node:util`'s `promisify` loads some thirty of Node's modules. */
const promised = <T>(call: (done: Callback<T>) => void): Promise<T> =>
  new Promise<T>((resolve, reject) => call((error, value) => (error ? reject(error) : resolve(value))));

const asynchronous: FileReads = {
  readdir: (path) => promised<string[]>((done) => readdir(path, done)),
  entries: (path) => promised<Dirent[]>((done) => readdir(path, { withFileTypes: true }, done)),
  readFile: async (path, encoding) => {
    const fd = await promised<number>((done) => open(path, READ_FLAGS, done));
    try {
      return await promised<string>((done) => readFile(fd, encoding, done));
    } finally {
      await promised<void>((done) => close(fd, (error) => done(error, undefined)));
    }
  },
  stat: (path) => promised<Stats>((done) => stat(path, done)),
  access: (path, mode) => promised<void>((done) => access(path, mode, (error) => done(error, undefined))),
  realpath: (path) => promised<string>((done) => realpath.native(path, done)),
  readlink: (path) => promised<string>((done) => readlink(path, done)),
  open: (path) => promised<number>((done) => open(path, READ_FLAGS, done)),
  fstat: (fd) => promised<Stats>((done) => fstat(fd, done)),
  read: (fd, buffer, offset, length, position) => promised<number>((done) => read(fd, buffer, offset, length, position, done)),
  close: (fd) => promised<void>((done) => close(fd, (error) => done(error, undefined))),
};

/** `call`'s value, or what it threw, as a settled promise. */
function settled<T>(call: () => T): Promise<T> {
  try {
    return Promise.resolve(call());
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

const blocking: FileReads = {
  readdir: (path) => settled(() => readdirSync(path)),
  entries: (path) => settled(() => readdirSync(path, { withFileTypes: true })),
  readFile: (path, encoding) =>
    settled(() => {
      const fd = openSync(path, READ_FLAGS);
      try {
        return readFileSync(fd, encoding);
      } finally {
        closeSync(fd);
      }
    }),
  stat: (path) => settled(() => statSync(path)),
  access: (path, mode) => settled(() => accessSync(path, mode)),
  realpath: (path) => settled(() => realpathSync.native(path)),
  readlink: (path) => settled(() => readlinkSync(path)),
  open: (path) => settled(() => openSync(path, READ_FLAGS)),
  fstat: (fd) => settled(() => fstatSync(fd)),
  read: (fd, buffer, offset, length, position) => settled(() => readSync(fd, buffer, offset, length, position)),
  close: (fd) => settled(() => closeSync(fd)),
};

/**
 * The reads in use: asynchronous, or blocking after {@link useBlockingFiles}, which swaps this object's functions in
 * place, so a module may import it once and call through it.
 *
 * @internal
 */
export const fileReads: FileReads = { ...asynchronous };

/**
 * Makes every read of {@link fileReads} in this process a blocking one (see the module's description); with `false`,
 * asynchronous again. Only a process that makes one bridged call and exits may turn it on, and only until the first
 * hook may run: anywhere else it would make every hook load wait on the disk with the whole process.
 *
 * @internal
 */
export function useBlockingFiles(on = true): void {
  Object.assign(fileReads, on ? blocking : asynchronous);
}
