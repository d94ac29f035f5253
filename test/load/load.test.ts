/**
 * A hundred concurrent agent runs (twenty in `npm test`) built from one AgentBuilder, each with ten callbacks on every event and HOOK.md
 * script hooks, twenty tool-calling steps each: every run gets its own outcome, no run sees another's metadata, and
 * no more script processes are alive at once than the pool allows — counted from the scripts' own log, not from the
 * pool.
 *
 * Two script hooks on every event would be some 18,000 processes per configuration, over a minute on two CPUs; here
 * they sit on PreToolUse (a blocker and a rewriter: forty processes a run) and UserPromptSubmit (an echo of the run's
 * metadata, which the model checks, and an observer). `npm run bench -- load` runs the full configuration.
 */
import { describe, expect, it } from 'vitest';
import { ProcessPool, defaultMaxConcurrent } from 'agent-hooks';
import { runId, runLoad, stepText, type LoadReport } from './load-scenario.js';
import { sized } from '../support/size.js';

// A hundred runs in the full-size suite (`npm run test:slow`), twenty in `npm test`.
const RUNS = sized(100, 20);
const STEPS = 20;
// A bound against a hang, not a speed test: some 70 s alone on 2 CPUs, and up to twice that beside the rest of the suite.
const LOAD_TIMEOUT_MS = 300_000;
const BLOCK_EVERY = 5;
const SCRIPT_EVENTS = ['PreToolUse', 'UserPromptSubmit'] as const;

/** The checks every configuration must pass. */
function expectCorrect(report: LoadReport): void {
  // No hook failed, timed out or was skipped: every one of them decided.
  expect(report.warnings).toEqual([]);
  expect(report.crossTalk).toEqual([]);
  expect(report.runs).toHaveLength(RUNS);
  for (const { index, result } of report.runs) {
    const id = runId(index);
    expect(result).toMatchObject({ status: 'completed', stopReason: 'no_tool_calls', text: `${id} done` });
    expect(result.steps).toHaveLength(STEPS + 1);
    expect(result.metadata.owner).toBe(id);
    const tools = result.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    const expected = Array.from({ length: STEPS }, (_, step) =>
      stepText(index, step, BLOCK_EVERY).startsWith('block-me') ? `Tool call blocked by a hook: blocked for ${id}` : `echo: ${id} via script`,
    );
    expect(tools).toEqual(expected);
  }
  // Two processes per PreToolUse (no call is refused before both have run but the blocked ones: the blocker runs
  // first and ends the chain) and two per UserPromptSubmit.
  const blockedRuns = Math.ceil(RUNS / BLOCK_EVERY);
  expect(report.processes).toBe(RUNS * (2 * STEPS + 2) - blockedRuns);
}

describe('100 concurrent agent runs with script hooks', () => {
  it('with a pool of 4: every run gets its own result, and at most 4 script processes are alive at once', async () => {
    const pool = new ProcessPool({ maxConcurrent: 4 });
    const report = await runLoad({ runs: RUNS, steps: STEPS, callbacksPerEvent: 10, scriptEvents: SCRIPT_EVENTS, processPool: pool, blockEvery: BLOCK_EVERY });
    expectCorrect(report);
    expect(report.maxAlive).toBeLessThanOrEqual(4);
    // The bound is reached (the runs do overlap), and the pool's own counters agree with the log.
    expect(report.maxAlive).toBeGreaterThan(1);
    expect(pool.peak).toBe(4);
    expect(pool.stats()).toMatchObject({ active: 0, queued: 0 });
  }, LOAD_TIMEOUT_MS);

  it('with the default pool: the shared, process-wide bound of four per CPU holds', async () => {
    const report = await runLoad({ runs: RUNS, steps: STEPS, callbacksPerEvent: 10, scriptEvents: SCRIPT_EVENTS, blockEvery: BLOCK_EVERY });
    expectCorrect(report);
    expect(report.maxAlive).toBeLessThanOrEqual(defaultMaxConcurrent());
    expect(ProcessPool.shared.peak).toBeLessThanOrEqual(defaultMaxConcurrent());
    expect(ProcessPool.shared.stats()).toMatchObject({ active: 0, queued: 0 });
  }, LOAD_TIMEOUT_MS);
});
