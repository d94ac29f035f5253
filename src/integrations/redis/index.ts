/**
 * `agent-hooks/redis` — {@link RedisCheckpointer}: interrupted runs kept in Redis, through a node-redis client you
 * make. Needs the optional peer dependency `redis`; the main entry point never loads this one.
 *
 * @module
 */
export * from './redis-checkpointer.js';
