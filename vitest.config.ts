import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { AI_SDK_TESTS, OPENAI_7_NODE, OPENAI_AGENTS_TESTS } from './test/sdk-versions/sdk-projects.js';

/**
 * The suites, by folder and name, so a new test file lands in the right one without an edit here:
 * - `npm test` (this config): every test under test/ but the slow ones, with the fuzz (`*.fuzz.test.ts`) and load
 *   tests small;
 * - `npm run test:slow` (vitest.slow.config.ts): the packaging tests (each builds and installs the package anew), the
 *   files named `*.slow.test.ts` (such as the bridge first stage's differential test, which starts the command line
 *   from source twice for every case), and the fuzz and load tests again at full size;
 * - `npm run test:agents` (vitest.agents.config.ts): the real agent CLIs.
 */
export const SLOW_ONLY = ['test/package/**', 'test/**/*.slow.test.ts'];
/** Run small by `npm test` and at full size by `npm run test:slow` (see test/support/size.ts). */
export const SIZED = ['test/**/*.fuzz.test.ts', 'test/load/**/*.test.ts'];
/**
 * Files that need a module graph of their own (they replace a module with `vi.mock`): the others share one per worker
 * (`isolate: false`), which spares each file loading the sources and the SDKs anew — most of the suite's time. A file
 * that changes process-wide state (an environment variable, a listener) restores it before it ends.
 */
export const ISOLATED = ['test/**/*.isolated.test.ts'];
/**
 * Never in these suites: the real agents' suite has its own command and config (vitest.agents.config.ts);
 * test/sdk-versions/ holds what the SDK projects below run in place of a test that cannot run here.
 */
const NEVER = ['test/agents/**', 'test/sdk-versions/**', '**/node_modules/**'];

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const nodeMajor = Number(process.versions.node.split('.')[0]);

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
      'agent-hooks/postgres': fileURLToPath(new URL('./src/integrations/postgres/index.ts', import.meta.url)),
      'agent-hooks/redis': fileURLToPath(new URL('./src/integrations/redis/index.ts', import.meta.url)),
      'agent-hooks/sqlite': fileURLToPath(new URL('./src/integrations/sqlite/index.ts', import.meta.url)),
      'agent-hooks/opencode': fileURLToPath(new URL('./src/agents/opencode/index.ts', import.meta.url)),
      'agent-hooks': fileURLToPath(new URL('./src/index.ts', import.meta.url)),
    },
  },
  test: {
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...NEVER, ...SLOW_ONLY, ...ISOLATED], isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED, exclude: [...NEVER, ...SLOW_ONLY] } },
      {
        // The AI SDK's tests again on AI SDK 7 (`ai-7`), with its models of specification v4: our code and the
        // tests import `ai`, which is AI SDK 6 in the other projects.
        extends: true,
        resolve: {
          alias: [
            { find: /^ai\/test$/, replacement: here('./test/sdk-versions/ai-7-test.ts') },
            { find: /^ai$/, replacement: 'ai-7' },
          ],
        },
        test: { name: 'ai 7', include: AI_SDK_TESTS, isolate: false },
      },
      {
        // The OpenAI Agents SDK's tests again on its 0.20 (`openai-agents-0.20`), which needs Node 22 (through
        // `openai` 7): on an older Node, that project's test files say they are skipped, and why.
        extends: true,
        resolve: { alias: [{ find: /^@openai\/agents$/, replacement: 'openai-agents-0.20' }] },
        test: {
          name: 'openai-agents 0.20',
          include: nodeMajor >= OPENAI_7_NODE ? OPENAI_AGENTS_TESTS : ['test/sdk-versions/openai-agents-0.20-on-old-node.test.ts'],
          isolate: false,
        },
      },
    ],
    testTimeout: 30_000,
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine, where most files wait
    // on child processes rather than the CPU, so two overlap well there; on a bigger machine the default stands.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The command-line tests run dist/cli.js: built here once, before any test file starts, when the sources are newer.
    globalSetup: ['test/support/build-once.ts'],
    // Tests (and the CLIs they start) must not read or fill the user's cache of regex verdicts.
    env: { AGENT_HOOKS_CACHE_DIR: 'off' },
  },
});
