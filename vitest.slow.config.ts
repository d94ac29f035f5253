import { defineConfig } from 'vitest/config';
import unit, { SIZED, SLOW_ONLY } from './vitest.config.js';

// `npm run test:slow`: what `npm test` leaves out or runs small (see vitest.config.ts), at full size. Spread rather
// than mergeConfig, which would append these lists to the unit suite's instead of replacing them.
export default defineConfig({
  ...unit,
  test: {
    ...unit.test,
    projects: undefined,
    include: [...SLOW_ONLY, ...SIZED],
    exclude: ['test/agents/**', '**/node_modules/**'],
    env: { ...unit.test?.env, AGENT_HOOKS_TEST_SIZE: 'full' },
  },
});
