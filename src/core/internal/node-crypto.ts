// Internal: not exported from the package.
import { lazyModule } from './lazy-module.js';

/**
 * `node:crypto`, loaded on first use: on Node 24 it loads some twenty of Node's internal modules, about a fifth of a
 * bare start, and a bridged hook call — which starts a process per tool call — needs none of it (it hashes with
 * `sha256.ts`, and draws its random tags from `/dev/urandom`).
 */
export const nodeCrypto = lazyModule<typeof import('node:crypto')>('node:crypto');
