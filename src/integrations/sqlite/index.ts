/**
 * `agent-hooks/sqlite` — {@link SqliteCheckpointer}: interrupted runs kept in a SQLite table, through a database you
 * open with `better-sqlite3` (or `node:sqlite`). Needs the optional peer dependency `better-sqlite3` when you use it;
 * the main entry point never loads this one.
 *
 * @module
 */
export * from './sqlite-checkpointer.js';
