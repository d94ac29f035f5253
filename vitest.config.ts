import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Examples and tests import the package by its public name, as users do.
    alias: {
      // Subpaths first: an alias also matches the ids under it.
      'agent-hooks/ai-sdk': fileURLToPath(new URL('./src/integrations/ai-sdk/index.ts', import.meta.url)),
      'agent-hooks/openai-agents': fileURLToPath(new URL('./src/integrations/openai-agents/index.ts', import.meta.url)),
      'agent-hooks/claude-agent-sdk': fileURLToPath(new URL('./src/integrations/claude-agent-sdk/index.ts', import.meta.url)),
      'agent-hooks/langchain': fileURLToPath(new URL('./src/integrations/langchain/index.ts', import.meta.url)),
      'agent-hooks/otel': fileURLToPath(new URL('./src/integrations/otel/index.ts', import.meta.url)),
      'agent-hooks': fileURLToPath(new URL('./src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // The real agents' suite has its own command and config (vitest.agents.config.ts).
    exclude: ['test/agents/**', '**/node_modules/**'],
    testTimeout: 30_000,
    // Tests (and the CLIs they start) must not read or fill the user's cache of regex verdicts.
    env: { AGENT_HOOKS_CACHE_DIR: 'off' },
  },
});
