// Internal: not exported from the package.

const EMPTY_RECORD: Readonly<Record<string, unknown>> = Object.freeze({});
const EMPTY_LIST: readonly never[] = Object.freeze([]);

// Frozen inputs are shared as they are, so every value derived from another keeps the same objects until one changes.

/** A frozen shallow copy of `record`, or `record` itself when already frozen; empty when absent. */
export const frozenRecord = <T extends Readonly<Record<string, unknown>>>(record: T | undefined): T =>
  record === undefined ? (EMPTY_RECORD as T) : Object.isFrozen(record) ? record : Object.freeze({ ...record });

/** A frozen copy of `list`, or `list` itself when already frozen; empty when absent. */
export const frozenList = <T>(list: readonly T[] | undefined): readonly T[] =>
  list === undefined ? EMPTY_LIST : Object.isFrozen(list) ? list : Object.freeze([...list]);
