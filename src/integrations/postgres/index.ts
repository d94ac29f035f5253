/**
 * `agent-hooks/postgres` — {@link PostgresCheckpointer}: interrupted runs kept in a Postgres table, through a `pg` pool
 * you make. Needs the optional peer dependency `pg`; the main entry point never loads this one.
 *
 * @module
 */
export * from './postgres-checkpointer.js';
