/**
 * The test files that run again on a second supported major of an SDK, installed under an alias (see
 * vitest.config.ts).
 */

/** The AI SDK's tests, run again on `ai-7` (AI SDK 7). */
export const AI_SDK_TESTS = ['test/integrations/ai-sdk*.test.ts', 'test/integrations/offered-tools.test.ts', 'test/integrations/untrusted-project-hooks.test.ts'];

/** The OpenAI Agents SDK's tests, run again on `openai-agents-0.20`. */
export const OPENAI_AGENTS_TESTS = ['test/integrations/openai-agents*.test.ts', 'test/integrations/offered-tools.test.ts'];

/** The Node major that `openai` 7 (under `@openai/agents` 0.20) needs. */
export const OPENAI_7_NODE = 22;
