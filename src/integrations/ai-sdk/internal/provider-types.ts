/**
 * The AI SDK's provider types (specification v3) a middleware works with, as `ai` exports them.
 *
 * @module
 * @internal
 */
import type { LanguageModelMiddleware } from 'ai';

type WrapGenerate = NonNullable<LanguageModelMiddleware['wrapGenerate']>;

/** What a provider's `doGenerate` resolves with. */
export type GenerateResult = Awaited<ReturnType<WrapGenerate>>;
/** What a provider's `doStream` resolves with. */
export type StreamResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapStream']>>>;
/** A part of a provider's stream. */
export type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;
/** The parameters of one provider call. */
export type CallOptions = Parameters<WrapGenerate>[0]['params'];
/** The model a middleware wraps. */
export type ProviderModel = Parameters<WrapGenerate>[0]['model'];
/** Token usage as a provider reports it. */
export type ProviderUsage = GenerateResult['usage'];
/** A part of a provider's answer. */
export type ProviderContent = GenerateResult['content'][number];
/** A provider's finish reason. */
export type ProviderFinishReason = GenerateResult['finishReason'];
/** A message of a provider prompt. */
export type PromptMessage = CallOptions['prompt'][number];
/** A tool as a provider is offered it: a function tool, or one the provider defines and runs. */
export type ProviderTool = NonNullable<CallOptions['tools']>[number];
/** How a provider may choose tools. */
export type ProviderToolChoice = NonNullable<CallOptions['toolChoice']>;
