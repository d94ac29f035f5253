/**
 * Gemini CLI's PreCompress as its binary fires it.
 *
 * @module
 * @internal
 */
import { CompactHookContext, HookOutcome, type AnyHookContext, type HookScope, type NextFn } from '../../core/index.js';
import type { ConfigHook } from '../../config/config-source.js';

/** Above every other hook's: Gemini CLI fires PreCompress before the BeforeModel hooks of the same model call. */
const OUTERMOST = Number.MAX_SAFE_INTEGER;

/**
 * A Gemini settings file's PreCompress hook as Gemini CLI 0.61.0 fires it: before every model call, with `trigger:
 * "auto"`, whether or not the conversation is then compressed (Gemini CLI asks its compressor on every turn, and the
 * hook fires at the asking). Our run loop fires PreCompact only on a real compaction; so the hook runs instead as the
 * outermost BeforeModel hook, before the others — once per model call, a compacting one included. Gemini CLI acts on
 * nothing a PreCompress hook answers but its `systemMessage`, which is kept.
 *
 * @internal
 */
export function compressOnEveryCall(hook: ConfigHook): ConfigHook {
  return {
    name: hook.name,
    events: ['BeforeModel'],
    matcher: undefined,
    origin: hook.origin,
    priority: OUTERMOST,
    timeoutMs: hook.timeoutMs,
    timeout: hook.timeout,
    async handle(ctx: AnyHookContext, next: NextFn, scope: HookScope): Promise<HookOutcome> {
      const compress = CompactHookContext.before({ state: ctx.state, metadata: ctx.metadata, trigger: 'auto', messagesBefore: ctx.state.messages });
      const answer = await hook.handle(compress, (c) => HookOutcome.proceed(c ?? compress), scope);
      const rest = await next(ctx);
      return answer.systemMessages.length === 0 ? rest : HookOutcome.merge(HookOutcome.proceed(undefined, { systemMessage: [...answer.systemMessages] }), rest);
    },
  };
}
