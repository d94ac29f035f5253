import { execFileSync, spawn } from 'node:child_process';
import { constants, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fileReads, useBlockingFiles } from '../../src/process/file-reads.js';

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'agent-hooks-files-'));
  mkdirSync(join(root, 'dir', 'sub'), { recursive: true });
  writeFileSync(join(root, 'dir', 'a.txt'), 'héllo\n');
  writeFileSync(join(root, 'dir', 'b.bin'), Buffer.from([0, 1, 2, 255]));
  symlinkSync('a.txt', join(root, 'dir', 'link'));
  mkdirSync(join(root, 'dir', 'deep', 'inner'), { recursive: true });
  symlinkSync(join('deep', 'inner'), join(root, 'dir', 'up'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

afterEach(() => useBlockingFiles(false));

/** What every read answers on the fixture tree, errors by their code and message. */
async function everyRead(): Promise<unknown> {
  const settle = <T>(promise: Promise<T>): Promise<unknown> => promise.then((value) => ({ value }), (error: NodeJS.ErrnoException) => ({ code: error.code, message: error.message }));
  const dir = join(root, 'dir');
  const fd = await fileReads.open(join(dir, 'a.txt'));
  const buffer = Buffer.alloc(16);
  const firstRead = await fileReads.read(fd, buffer, 0, 3, 0);
  const nextRead = await fileReads.read(fd, buffer, 3, 16 - 3, null);
  const stat = await fileReads.fstat(fd);
  await fileReads.close(fd);
  return {
    names: (await fileReads.readdir(dir)).sort(),
    entries: (await fileReads.entries(dir)).sort((a, b) => a.name.localeCompare(b.name)).map((entry) => [entry.name, entry.isFile(), entry.isDirectory(), entry.isSymbolicLink()]),
    text: await fileReads.readFile(join(dir, 'a.txt'), 'utf8'),
    bytes: await fileReads.readFile(join(dir, 'b.bin'), 'latin1'),
    stat: [(await fileReads.stat(join(dir, 'link'))).size, (await fileReads.stat(dir)).isDirectory()],
    access: await fileReads.access(join(dir, 'a.txt'), constants.R_OK),
    realpath: await fileReads.realpath(join(dir, 'link')),
    // As the system resolves it (`path.join` would drop `up/..`): the parent of where `up` leads.
    parent: await fileReads.realpath(`${dir}/up/..`),
    readlink: await fileReads.readlink(join(dir, 'link')),
    opened: [firstRead, nextRead, buffer.toString('utf8', 0, firstRead + nextRead), stat.size],
    missing: await Promise.all([
      settle(fileReads.readdir(join(dir, 'nope'))),
      settle(fileReads.entries(join(dir, 'a.txt'))),
      settle(fileReads.readFile(join(dir, 'nope'), 'utf8')),
      settle(fileReads.stat(join(dir, 'nope'))),
      settle(fileReads.access(join(dir, 'nope'))),
      settle(fileReads.realpath(join(dir, 'nope'))),
      settle(fileReads.readlink(join(dir, 'a.txt'))),
      settle(fileReads.open(join(dir, 'nope'))),
      settle(fileReads.fstat(999_999)),
      settle(fileReads.close(999_999)),
    ]),
  };
}

describe('fileReads', () => {
  it('answers the same, values and errors alike, asynchronous and blocking', async () => {
    const asynchronous = await everyRead();
    useBlockingFiles();
    const blocking = await everyRead();
    expect(blocking).toEqual(asynchronous);
    expect((asynchronous as { parent: string }).parent).toBe(join(realpathSync.native(root), 'dir', 'deep'));
    // The errors are the file system's, with their codes: callers tell a missing file from an unreadable one by them.
    expect((asynchronous as { missing: { code?: string }[] }).missing.map((m) => m.code)).toEqual(['ENOENT', 'ENOTDIR', 'ENOENT', 'ENOENT', 'ENOENT', 'ENOENT', 'EINVAL', 'ENOENT', 'EBADF', 'EBADF']);
  });

  it('answers a blocking read as a settled promise: a throw is a rejection, never an exception at the call', async () => {
    useBlockingFiles();
    let threw = false;
    let promise: Promise<string> | undefined;
    try {
      promise = fileReads.readFile(join(root, 'nope'), 'utf8');
    } catch {
      threw = true;
    }
    expect(threw).toBe(false);
    await expect(promise).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reads any bytes the same way in both modes, whole or in chunks', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200_000 }), fc.integer({ min: 1, max: 70_000 }), async (bytes, chunk) => {
        const file = join(root, 'property.bin');
        writeFileSync(file, bytes);
        const read = async (): Promise<string[]> => {
          const whole = await fileReads.readFile(file, 'latin1');
          const fd = await fileReads.open(file);
          const parts: Buffer[] = [];
          try {
            for (let position = 0; ; ) {
              const buffer = Buffer.alloc(chunk);
              const n = await fileReads.read(fd, buffer, 0, chunk, position);
              if (n === 0) break;
              parts.push(buffer.subarray(0, n));
              position += n;
            }
          } finally {
            await fileReads.close(fd);
          }
          return [whole, Buffer.concat(parts).toString('latin1')];
        };
        const asynchronous = await read();
        useBlockingFiles();
        const blocking = await read();
        useBlockingFiles(false);
        const expected = Buffer.from(bytes).toString('latin1');
        expect(asynchronous).toEqual([expected, expected]);
        expect(blocking).toEqual(asynchronous);
      }),
      { numRuns: 40 },
    );
  });

  // A read that waited on a FIFO would hold the whole process when blocking, and a thread of the pool otherwise (vitest's
  // timeout too, in the first case): a writer comes late instead, so a read that waited for one fails on what it
  // read rather than hanging the suite.
  it.skipIf(process.platform === 'win32').each(['asynchronous', 'blocking'])('never waits on a FIFO (%s): it opens at once and reads as empty without a writer', async (mode) => {
    const fifo = join(root, `fifo-${mode}`);
    execFileSync('mkfifo', [fifo]);
    const late = spawn('/bin/sh', ['-c', `sleep 2; echo late > '${fifo}'; echo late > '${fifo}'`], { stdio: 'ignore' });
    try {
      useBlockingFiles(mode === 'blocking');
      expect(await fileReads.readFile(fifo, 'utf8')).toBe('');
      const fd = await fileReads.open(fifo);
      try {
        expect((await fileReads.fstat(fd)).isFIFO()).toBe(true);
        expect(await fileReads.read(fd, Buffer.alloc(8), 0, 8, null)).toBe(0);
      } finally {
        await fileReads.close(fd);
      }
    } finally {
      late.kill('SIGKILL');
    }
  });
});
