/**
 * Copilot CLI's permissionRequest as its binary fires it.
 *
 * @module
 * @internal
 */
import { HookOutcome, ToolHookContext, type AnyHookContext, type HookScope, type NextFn } from '../../core/index.js';
import type { ConfigHook } from '../../config/config-source.js';

/** Above every other hook's: it sees what all the PreToolUse hooks decided before it asks for the permission. */
const OUTERMOST = Number.MAX_SAFE_INTEGER;

/**
 * A Copilot file's permissionRequest hook as Copilot CLI 1.0.102 fires it: on every tool call its preToolUse hooks
 * let through, whether or not anything asked for approval — with every tool allowed (`COPILOT_ALLOW_ALL`) too. Our run
 * loop fires PermissionRequest only when a hook asks; so that a Copilot permission guard guards here as it does there,
 * the hook also runs as the outermost PreToolUse hook, after the others let the call through. When a PreToolUse hook
 * asks, it is left to the loop's PermissionRequest, so it runs once per call either way.
 *
 * @internal
 */
export function permissionOnEveryCall(hook: ConfigHook): ConfigHook {
  return {
    name: hook.name,
    events: ['PreToolUse'],
    matcher: hook.matcher,
    origin: hook.origin,
    priority: OUTERMOST,
    timeoutMs: hook.timeoutMs,
    timeout: hook.timeout,
    async handle(ctx: AnyHookContext, next: NextFn, scope: HookScope): Promise<HookOutcome> {
      const decided = await next(ctx);
      if (ctx.event !== 'PreToolUse' || decided.type !== 'proceed') return decided;
      const before = decided.context?.event === 'PreToolUse' ? decided.context : ctx;
      const request = ToolHookContext.permissionRequest(before.toolCall, { state: before.state, metadata: before.metadata });
      const answer = await hook.handle(request, (c) => HookOutcome.proceed(c ?? request), scope);
      if (answer.type !== 'proceed') return answer;
      const edited = answer.context?.event === 'PermissionRequest' && answer.context.toolCall !== request.toolCall ? before.withArgs(answer.context.toolCall.args) : before;
      const extras = { additionalContext: answer.additionalContext, systemMessage: answer.systemMessages };
      const granted = answer.granted ? HookOutcome.allow(edited, extras) : HookOutcome.proceed(edited, extras);
      return HookOutcome.merge(decided, granted);
    },
  };
}
