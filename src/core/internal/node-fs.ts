// Internal: not exported from the package.
import { requireHere } from './lazy-module.js';

/**
 * `node:fs`, required rather than imported. An ES `import` of one of Node's modules reads every one of its exports,
 * and `node:fs`'s `promises` loads `fs/promises`, with Node's readline and streams behind it: on Node 24, importing
 * `node:fs` and `node:fs/promises` costs a process about 4 ms over requiring `node:fs`, which every process that
 * imports the package paid whether or not it read a file. The package's modules take `node:fs` from here, and
 * `node:fs/promises` from {@link fsPromises} when they first call it (`test/cli/bridge-loads.test.ts` fails when
 * the import loads it).
 */
export const nodeFs: typeof import('node:fs') = requireHere()('node:fs');

/** `node:fs/promises`, loaded on the first call: the same module `import 'node:fs/promises'` gives. */
export const fsPromises = (): typeof import('node:fs/promises') => nodeFs.promises;
