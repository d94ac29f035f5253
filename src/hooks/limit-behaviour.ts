/**
 * What a limit does when it is reached.
 *
 * @module
 */

/**
 * What a hook does when its limit is reached or its rule is broken:
 * - `'block'` — refuse this one tool call; the model is told why and the run goes on;
 * - `'stop'` — halt the whole run with the reason.
 */
export type LimitBehaviour = 'block' | 'stop';
