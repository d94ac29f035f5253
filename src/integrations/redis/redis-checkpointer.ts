/**
 * A checkpointer on Redis, through a node-redis client the caller made.
 *
 * @module
 */
import type { Checkpointer } from '../../agent/checkpointer.js';
import { CheckpointerError, type CheckpointerOperation } from '../../agent/checkpointer-error.js';
import type { RunSnapshot } from '../../agent/run-snapshot.js';
import { savedId, snapshotText } from '../../agent/internal/snapshot-text.js';
import { assertStorableId, isStorableId, parseStoredSnapshot } from '../../agent/internal/stored-snapshot.js';

/**
 * What the checkpointer needs of a Redis connection: `sendCommand([...])`, as a node-redis (`redis` 5) client from
 * `createClient()` has it, connected.
 */
export interface RedisCommandClient {
  /** Sends one command, its name and arguments as strings, and resolves with Redis's reply. */
  sendCommand(args: string[]): Promise<unknown>;
}

/** How a {@link RedisCheckpointer} names its keys. */
export interface RedisCheckpointerOptions {
  /**
   * What every key starts with, before the snapshot's id; default `agent-hooks:run:`. Letters, digits and `:_.-` only
   * (no glob character: `list` scans for `<prefix>*`).
   */
  readonly prefix?: string;
}

/** The default key prefix. */
const PREFIX = 'agent-hooks:run:';

const PREFIX_PATTERN = /^[A-Za-z0-9:_.-]{1,100}$/;

/**
 * Keeps each snapshot as a Redis string, `<prefix><id>`, through a node-redis client that you make, connect and
 * close: the checkpointer opens no connection of its own.
 *
 * - `save` is `SET`; `take` is one `GETDEL` (Redis 6.2 or later): of concurrent takers, in any process, one gets it.
 * - Keys are the prefix and the id as they are (up to 1,024 bytes of UTF-8; no NUL, no unpaired surrogate: such an id
 *   is refused at `save`). `list` scans `<prefix>*` (`SCAN`, never `KEYS`) and sorts the ids.
 * - A snapshot survives a restart of Redis only as far as Redis persists it: turn on the append-only file
 *   (`appendonly yes`) for snapshots that must not be lost.
 * - A failed command (a dropped connection, a closed client) is a {@link CheckpointerError} naming the prefix, the
 *   operation and the id; a `take` that fails deletes nothing unless Redis had run the `GETDEL` when the connection
 *   dropped.
 *
 * ```ts
 * import { createClient } from 'redis';
 * import { RedisCheckpointer } from 'agent-hooks/redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).on('error', (e) => console.error(e)).connect();
 * const checkpointer = new RedisCheckpointer(redis);
 * // … and `redis.destroy()` (or `close()`) when the process is done.
 * ```
 */
export class RedisCheckpointer implements Checkpointer {
  /** What every key starts with. */
  readonly prefix: string;
  private readonly redis: RedisCommandClient;

  /** A checkpointer keeping its keys under `options.prefix`, through `redis` (a connected node-redis client). */
  constructor(redis: RedisCommandClient, options: RedisCheckpointerOptions = {}) {
    if (redis === null || typeof redis !== 'object' || typeof (redis as Partial<RedisCommandClient>).sendCommand !== 'function') {
      throw new TypeError("RedisCheckpointer needs a node-redis client (an object with a sendCommand method): new RedisCheckpointer(await createClient({ url }).connect()).");
    }
    const prefix = options.prefix ?? PREFIX;
    if (typeof prefix !== 'string' || !PREFIX_PATTERN.test(prefix)) {
      throw new TypeError(`RedisCheckpointer needs a key prefix of 1 to 100 letters, digits and :_.- (no glob character); got ${JSON.stringify(prefix) ?? String(prefix)}.`);
    }
    this.redis = redis;
    this.prefix = prefix;
  }

  /** Saves `snapshot` under its `id`, replacing what was saved there (`SET`). */
  async save(snapshot: RunSnapshot): Promise<void> {
    const id = savedId(snapshot, 'RedisCheckpointer');
    assertStorableId(id, 'RedisCheckpointer');
    await this.send('save', id, ['SET', this.prefix + id, snapshotText(snapshot, id)]);
  }

  /** The snapshot saved under `id`, or `undefined` (`GET`). */
  async load(id: string): Promise<RunSnapshot | undefined> {
    if (!isStorableId(id)) return undefined;
    return this.parse(await this.send('load', id, ['GET', this.prefix + id]), id);
  }

  /** Removes the snapshot saved under `id` and returns it, in one `GETDEL`: of concurrent callers, one gets it. */
  async take(id: string): Promise<RunSnapshot | undefined> {
    if (!isStorableId(id)) return undefined;
    return this.parse(await this.send('take', id, ['GETDEL', this.prefix + id]), id);
  }

  /** Drops the snapshot saved under `id`; resolves `true` when there was one (`DEL`). */
  async delete(id: string): Promise<boolean> {
    if (!isStorableId(id)) return false;
    return Number(await this.send('delete', id, ['DEL', this.prefix + id])) > 0;
  }

  /** The ids of the saved snapshots, sorted (`SCAN` over `<prefix>*`). */
  async list(): Promise<readonly string[]> {
    const ids = new Set<string>();
    let cursor = '0';
    do {
      const reply = (await this.send('list', undefined, ['SCAN', cursor, 'MATCH', `${this.prefix}*`, 'COUNT', '1000'])) as [unknown, unknown[]];
      cursor = String(reply[0]);
      // SCAN may give a key twice: the set keeps it once.
      for (const key of reply[1]) ids.add(String(key).slice(this.prefix.length));
    } while (cursor !== '0');
    return [...ids].sort();
  }

  private get where(): string {
    return `RedisCheckpointer (keys ${this.prefix}*)`;
  }

  private parse(reply: unknown, id: string): RunSnapshot | undefined {
    return reply === null || reply === undefined ? undefined : parseStoredSnapshot(typeof reply === 'string' ? reply : String(reply), id, this.where);
  }

  /** Sends one command; a failure of the connection or the server is a CheckpointerError. */
  private async send(operation: CheckpointerOperation, id: string | undefined, args: string[]): Promise<unknown> {
    try {
      return await this.redis.sendCommand(args);
    } catch (error) {
      throw new CheckpointerError({ store: this.where, operation, ...(id === undefined ? {} : { id }), cause: error });
    }
  }
}
