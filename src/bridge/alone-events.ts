/**
 * The events on which the bridge's first stage runs a call's one hook itself (see `first-stage-run.ts`): a tool call
 * before it runs, and after it has run. A module of its own, so that the first stage knows them without loading the run.
 *
 * @module
 * @internal
 */

/**
 * The canonical events whose one hook the first stage runs alone.
 *
 * @internal
 */
export const ALONE_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'PostToolUse']);
