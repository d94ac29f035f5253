/**
 * A provider's stream that stops when the call's abort signal does.
 *
 * @module
 * @internal
 */
import type { LanguageModelV3 } from './incremental-prompt.js';

/**
 * `stream`, read through a reader that is cancelled as soon as `signal` aborts: the provider's own stream stops there,
 * whether or not the provider watches the signal, and whatever the AI SDK still holds of it (`streamText` tees its
 * stream, and a cancelled branch leaves the other reading).
 */
export function cancelledOnAbort<T>(stream: ReadableStream<T>, signal: AbortSignal | undefined): ReadableStream<T> {
  if (signal === undefined) return stream;
  const reader = stream.getReader();
  const onAbort = () => void reader.cancel(signal.reason).catch(() => {});
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  const release = () => signal.removeEventListener('abort', onAbort);
  return new ReadableStream<T>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
}

/** `model`, whose streams stop when their call's abort signal does (see {@link cancelledOnAbort}). */
export function stoppingStreams(model: LanguageModelV3): LanguageModelV3 {
  return {
    // The model's own version (v3 or v4): AI SDK 7 would adapt a model declared v3 as an older one.
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    get supportedUrls() {
      return model.supportedUrls;
    },
    doGenerate: (options) => model.doGenerate(options),
    doStream: async (options) => {
      const result = await model.doStream(options);
      return { ...result, stream: cancelledOnAbort(result.stream, options.abortSignal) };
    },
  };
}
