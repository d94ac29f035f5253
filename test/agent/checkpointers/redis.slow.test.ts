import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisCheckpointer } from 'agent-hooks/redis';
import { startRedis, type RedisServer } from '../../support/servers/redis-server.js';
import { conformance } from './conformance.js';

let server: RedisServer;
let n = 0;
beforeAll(async () => {
  server = await startRedis();
}, 60_000);
afterAll(() => server?.close());

conformance({
  name: 'RedisCheckpointer',
  shared: true,
  databaseIds: true,
  fresh: async () => ({ kind: 'redis', url: server.url, prefix: `test-${n++}:run:` }),
  restart: async () => {
    await server.stop();
    await server.start();
  },
  // Writes are paused, so the take's GETDEL waits in the server; then its connection is killed (CLIENT KILL).
  async dropDuringTake(config, id) {
    if (config.kind !== 'redis') throw new Error('not a Redis config');
    const admin = await createClient({ url: config.url }).on('error', () => {}).connect();
    const client = await createClient({ url: config.url }).on('error', () => {}).connect();
    try {
      const clientId = await client.clientId();
      await admin.sendCommand(['CLIENT', 'PAUSE', '20000', 'WRITE']);
      const taking = new RedisCheckpointer(client, { prefix: config.prefix }).take(id).then(() => 'taken', (error: unknown) => error);
      for (let i = 0; i < 200; i++) {
        const line = String(await admin.sendCommand(['CLIENT', 'LIST', 'ID', String(clientId)]));
        if (line.includes('cmd=getdel') || line.includes('flags=P')) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await admin.sendCommand(['CLIENT', 'KILL', 'ID', String(clientId)]);
      return await taking;
    } finally {
      await admin.sendCommand(['CLIENT', 'UNPAUSE']);
      client.destroy();
      admin.destroy();
    }
  },
});

describe('RedisCheckpointer', () => {
  it('refuses a key prefix with a glob character or a space, and keeps its keys under the one it is given', async () => {
    const client = await createClient({ url: server.url }).on('error', () => {}).connect();
    try {
      expect(() => new RedisCheckpointer(client, { prefix: 'runs:*' })).toThrow(/key prefix of 1 to 100 letters, digits and :_.- \(no glob character\); got "runs:\*"/);
      expect(() => new RedisCheckpointer(client, { prefix: 'my runs:' })).toThrow(/key prefix/);
      expect(() => new RedisCheckpointer({} as never)).toThrow(/needs a node-redis client/);
      const checkpointer = new RedisCheckpointer(client, { prefix: 'app-1:runs:' });
      expect(checkpointer.prefix).toBe('app-1:runs:');
      // Another prefix's keys, even one that starts the same, are not its own.
      await client.set('app-1:runs-other', 'x');
      expect(await checkpointer.list()).toEqual([]);
    } finally {
      client.destroy();
    }
  });

  it('with a closed client, each method is a CheckpointerError naming the prefix, the operation and the id', async () => {
    const client = await createClient({ url: server.url }).on('error', () => {}).connect();
    client.destroy();
    const checkpointer = new RedisCheckpointer(client);
    const error: unknown = await checkpointer.take('run-1').catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^RedisCheckpointer \(keys agent-hooks:run:\*\) could not take snapshot "run-1": The client is closed\. The snapshot was not taken, unless/);
    await expect(checkpointer.list()).rejects.toThrow(/could not list the saved ids: The client is closed/);
  });
});
