/**
 * `ai/test` as the AI SDK 7 project of the suite sees it (see vitest.config.ts): AI SDK 7's own test helpers, with
 * its `MockLanguageModelV4` under the name the tests use, so that every AI SDK test also runs against a model of
 * language model specification v4, as providers of AI SDK 7 are.
 */
export * from 'ai-7/test';
export { MockLanguageModelV4 as MockLanguageModelV3 } from 'ai-7/test';
