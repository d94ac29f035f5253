import { conformance } from './conformance.js';

// A Map of one process: no other process reaches it, and it has no server to restart nor connection to drop.
conformance({ name: 'MemoryCheckpointer', shared: false, databaseIds: false, fresh: async () => ({ kind: 'memory' }) });
