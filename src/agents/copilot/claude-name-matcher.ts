/**
 * The tool matcher of a hook under a PascalCase event in Copilot CLI's files, which matches Claude Code's name of the
 * tool as well as Copilot's.
 *
 * @module
 * @internal
 */
import { CallableMatcher, type AnyHookContext, type HookMatcher } from '../../core/index.js';
import { TOOL_VOCABULARY } from '../../core/tool-vocabulary.js';

/** Claude Code's names for a tool Copilot calls `name` (`bash` is `Bash`); none for a tool it has no name for. */
function claudeNamesOf(name: string): readonly string[] {
  return TOOL_VOCABULARY.find((e) => e.names.copilot?.includes(name))?.names.claude ?? [];
}

/**
 * `matcher` (Copilot's anchored regex), also tried against Claude Code's name of the called tool: under a PascalCase
 * event, Copilot CLI 1.0.102 runs a hook whose matcher is `Bash` on its `bash` tool (and one whose matcher is `bash`
 * too), so a Claude Code-style guard written that way guards there — and must guard here.
 *
 * @internal
 */
export function orClaudeToolName(matcher: HookMatcher): HookMatcher {
  return new CallableMatcher(function copilotOrClaudeToolName(ctx: AnyHookContext) {
    if (matcher.matches(ctx)) return true;
    if (!('toolCall' in ctx) || ctx.toolCall === undefined) return false;
    const call = ctx.toolCall;
    return claudeNamesOf(call.name).some((name) => matcher.matches((ctx as Extract<AnyHookContext, { withToolCall: unknown }>).withToolCall(call.withName(name)) as AnyHookContext));
  });
}
