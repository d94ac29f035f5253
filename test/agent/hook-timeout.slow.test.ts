/**
 * The agent-wide default hook timeout, waited out for real (about a minute): a hook that never settles ends the run
 * by itself. In `npm run test:slow`; test/agent/hook-timeout.test.ts has the rest, with short timeouts.
 */
import { describe, expect, it } from 'vitest';
import { hookTimeoutChild as child } from './hook-timeout-child.js';

describe('what holds the process', () => {
  it('a hook that never settles under the 60 s default ends the run by itself', () => {
    const { out } = child('hang');
    expect(out).toMatchObject({ error: { code: 'timeout', hookName: 'never-settles' }, aborted: true });
    expect(out['ms']).toBeGreaterThanOrEqual(59_000);
  }, 90_000);
});
