/**
 * What a command agent's served line and `POST /bridge/<agent>` agree on, apart from both: the line is written by
 * `--install`, which must not load what answering needs.
 *
 * @module
 * @internal
 */

/**
 * How the body of a `/bridge/<agent>` answer is framed: `agent-hooks-exit:<code>;`, the bridge's stderr, the
 * separator, its stdout, then `.` — the shell's `$(…)` strips trailing newlines, and the dot keeps the stdout's own.
 * The stderr never holds the separator (it is broken up when it would), so the first one ends it whatever the stdout
 * holds.
 *
 * @internal
 */
export const BRIDGE_FRAME = { exit: 'agent-hooks-exit:', end: '.', separator: '@@agent-hooks-stdout@@' } as const;

/**
 * The header the line names its project in: the folder the command bridge would load the hooks of (the agent's
 * project variable, else the hook's working folder).
 *
 * @internal
 */
export const BRIDGE_PROJECT_HEADER = 'x-agent-hooks-project';
