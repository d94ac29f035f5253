// Internal: not exported from the package.
import { lazyModule } from '../../core/internal/lazy-module.js';

/**
 * `node:child_process`, loaded with the first hook process rather than with the package: it brings `net`, `dgram` and
 * the stream and pipe bindings along (1 to 3 ms of a start on Node 24), which a process that imports the package and
 * runs no script hook never needs.
 */
export const childProcess = lazyModule<typeof import('node:child_process')>('node:child_process');
