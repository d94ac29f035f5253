/**
 * Vitest global setup: builds the `agent-hooks` executable once, before any test file of the run starts, rather than
 * in whichever file asks first while the others wait on its lock.
 */
import { ensureCliBuilt } from './build.js';

export default async function setup(): Promise<void> {
  await ensureCliBuilt();
}
