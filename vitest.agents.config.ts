import { defineConfig } from 'vitest/config';

// The end-to-end suite against the real agent CLIs (`npm run test:agents`): each agent's file runs its headless
// sessions; two files at a time, as the machine has two cores and each agent is a heavy process. The agents run the
// built executable and plugin: dist/ is made anew first when the sources are newer, so a stale build never answers.
export default defineConfig({
  test: {
    include: ['test/agents/**/*.test.ts'],
    globalSetup: ['test/support/build-once.ts'],
    testTimeout: 60_000,
    hookTimeout: 150_000,
    maxWorkers: 2,
    env: { AGENT_HOOKS_CACHE_DIR: 'off' },
  },
});
