/**
 * How big the randomised and load tests run. `npm test` runs them small, so a contributor waits minutes rather than a
 * quarter of an hour; `npm run test:slow` (and CI) runs them at full size, with `AGENT_HOOKS_TEST_SIZE=full`.
 */

/** Whether this run is the full-size one. */
export const FULL_SIZE = process.env.AGENT_HOOKS_TEST_SIZE === 'full';

/**
 * The number of cases for a property test or a load: `full` in the full-size run, else `quick` (a tenth of `full`,
 * at least one, unless given).
 */
export function sized(full: number, quick = Math.max(1, Math.ceil(full / 10))): number {
  return FULL_SIZE ? full : Math.min(quick, full);
}
