/**
 * What the OpenAI Agents SDK 0.20 project of the suite runs on a Node older than 22 (see vitest.config.ts): its
 * tests, skipped by name, with the reason. 0.20 depends on `openai` 7, which needs Node 22.
 */
import { it } from 'vitest';
import { OPENAI_AGENTS_TESTS } from './sdk-projects.js';

for (const file of OPENAI_AGENTS_TESTS) {
  it.skip(`${file} on @openai/agents 0.20: needs Node >= 22 (openai 7), this is Node ${process.versions.node}`, () => {});
}
