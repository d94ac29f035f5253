/**
 * Standard input, read whole: an agent writes a hook's payload there and closes it.
 *
 * @module
 * @internal
 */
import { nodeFs } from '../core/internal/node-fs.js';

const { read } = nodeFs;

/** How much is read at a time. */
const CHUNK = 64 * 1024;

/**
 * The whole of standard input, as UTF-8. It is read from file descriptor 0 itself, off the main thread (so a signal is
 * still handled meanwhile): `process.stdin`, a stream over a socket or a pipe, loads Node's net and stream modules
 * first, some 10 ms of a bridged call that otherwise costs little more than Node's start. A descriptor its writer
 * made non-blocking (`EAGAIN`) is read through `process.stdin` after all; a closed one reads as nothing.
 *
 * @internal
 */
export function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const buffer = Buffer.allocUnsafe(CHUNK);
    const next = (): void => {
      read(0, buffer, 0, CHUNK, null, (error, bytes) => {
        if (error === null && bytes > 0) {
          chunks.push(Buffer.from(buffer.subarray(0, bytes)));
          next();
        } else if (error === null || error.code === 'EOF' || error.code === 'EBADF') {
          resolve(Buffer.concat(chunks).toString('utf8'));
        } else if (error.code === 'EAGAIN' || error.code === 'EWOULDBLOCK') {
          readStream(chunks).then(resolve, reject);
        } else {
          reject(error);
        }
      });
    };
    next();
  });
}

/** The rest of standard input through `process.stdin`, after what `read` already had. */
async function readStream(chunks: Buffer[]): Promise<string> {
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
