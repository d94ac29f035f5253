import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { conformance } from './conformance.js';

let root: string;
let n = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'agent-hooks-file-store-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

// Files: other processes reach them; there is no server to restart nor connection to drop.
conformance({ name: 'FileCheckpointer', shared: true, databaseIds: false, fresh: async () => ({ kind: 'file', directory: join(root, `store-${n++}`) }) });
