/**
 * The other half of a dialect: an outcome of our stack, written back as the answer a hook of that agent gives —
 * what `agent-hooks bridge` prints when Claude Code, Copilot, VS Code, Gemini CLI, Cursor or Codex runs it as their
 * hook.
 *
 * @module
 */
import type { AnyHookContext, HookOutcome } from '../core/index.js';
import { CLAUDE_SPECIFIC_FIELDS } from '../dialects/claude.js';
import { codexAnswer } from '../dialects/codex.js';
import { geminiModelAnswer } from '../dialects/gemini-model-answer.js';
import { replacedResult, rewrittenArgs, type BridgeAnswer } from '../dialects/outcome-changes.js';

export type { BridgeAnswer } from '../dialects/outcome-changes.js';

/** The agents the bridge answers. */
export type BridgeAgent = 'claude' | 'copilot' | 'vscode' | 'gemini' | 'cursor' | 'codex';

/**
 * Every agent the bridge answers.
 *
 * @internal
 */
export const BRIDGE_AGENTS: readonly BridgeAgent[] = Object.freeze(['claude', 'copilot', 'vscode', 'gemini', 'cursor', 'codex']);

/**
 * The field of each agent's answer that its user sees, where the bridge puts a message for the user (a hook's
 * `systemMessage`, the bridge's own notices): `systemMessage` for Claude Code, VS Code, Gemini CLI (which prints it
 * as `Hook system message: …`) and Codex; `user_message` for Cursor. Copilot's answers have no such field:
 * `undefined`.
 *
 * @internal
 */
export const USER_MESSAGE_FIELD: Readonly<Record<BridgeAgent, string | undefined>> = Object.freeze({
  claude: 'systemMessage',
  vscode: 'systemMessage',
  gemini: 'systemMessage',
  codex: 'systemMessage',
  cursor: 'user_message',
  copilot: undefined,
});

const json = (value: Record<string, unknown>): BridgeAnswer => ({ exitCode: 0, stdout: `${JSON.stringify(value)}\n`, stderr: '' });
const nothing: BridgeAnswer = Object.freeze({ exitCode: 0, stdout: '', stderr: '' });

/** Drops undefined fields and empty objects, so an answer carries only what was decided. */
function compact(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    if (item !== null && typeof item === 'object' && !Array.isArray(item) && Object.keys(item).length === 0) continue;
    out[key] = item;
  }
  return out;
}

const joined = (items: readonly string[]): string | undefined => (items.length === 0 ? undefined : items.join('\n\n'));

/** Claude Code's answer (and VS Code's, which reads the same fields). */
function claudeAnswer(outcome: HookOutcome, ctx: AnyHookContext, eventName: string, vscode: boolean): BridgeAnswer {
  const systemMessage = outcome.systemMessage;
  const additionalContext = joined(outcome.additionalContext);
  if (outcome.type === 'stop') {
    // On a permission request Claude Code's own way to stop is a deny that interrupts: the call is refused too.
    const interrupt = ctx.event === 'PermissionRequest' && !vscode ? { hookEventName: eventName, decision: { behavior: 'deny', message: outcome.reason, interrupt: true } } : undefined;
    return json(compact({ continue: false, stopReason: outcome.reason, systemMessage, hookSpecificOutput: interrupt }));
  }
  const tool = ctx.event === 'PreToolUse' || ctx.event === 'PermissionRequest';
  if (tool) {
    const args = rewrittenArgs(outcome, ctx);
    const decision =
      outcome.type === 'block' ? 'deny' : outcome.type === 'ask' ? 'ask' : outcome.granted ? 'allow' : undefined;
    if (ctx.event === 'PermissionRequest' && !vscode) {
      const behavior = decision === 'deny' ? 'deny' : decision === 'allow' ? 'allow' : undefined;
      const specific = compact({
        hookEventName: eventName,
        decision:
          behavior === undefined
            ? undefined
            : compact({
                behavior,
                message: behavior === 'deny' ? outcome.reason : undefined,
                updatedInput: args,
                // Permission updates a Claude Code hook granted with the call go back for Claude Code to apply.
                updatedPermissions: behavior === 'allow' && outcome.context?.event === 'PermissionRequest' ? outcome.context.updatedPermissions : undefined,
              }),
        additionalContext,
      });
      return Object.keys(specific).length > 1 || systemMessage ? json(compact({ systemMessage, hookSpecificOutput: specific })) : nothing;
    }
    const specific = compact({
      hookEventName: eventName,
      permissionDecision: decision,
      permissionDecisionReason: decision === 'deny' || decision === 'ask' ? outcome.reason : undefined,
      updatedInput: args,
      additionalContext,
    });
    return Object.keys(specific).length > 1 || systemMessage ? json(compact({ systemMessage, hookSpecificOutput: specific })) : nothing;
  }
  const result = replacedResult(outcome, ctx);
  // Claude Code reads each field on its own events only, and refuses a whole answer whose event takes no
  // hookSpecificOutput; on Stop its additionalContext would keep the agent working, which a proceed here does not.
  const reads = (field: string): boolean =>
    vscode || ((CLAUDE_SPECIFIC_FIELDS[ctx.event] ?? []).includes(field) && !(field === 'additionalContext' && (ctx.event === 'Stop' || ctx.event === 'SubagentStop')));
  const retry = outcome.context?.event === 'PermissionDenied' && outcome.context.retry;
  const specific = compact({
    hookEventName: eventName,
    additionalContext: reads('additionalContext') ? additionalContext : undefined,
    // Claude Code reads updatedToolOutput for every tool (updatedMCPToolOutput for MCP tools only); VS Code the latter.
    ...(result !== undefined ? { [vscode ? 'updatedMCPToolOutput' : 'updatedToolOutput']: result.value } : {}),
    retry: retry && reads('retry') ? true : undefined,
  });
  const block = outcome.type === 'block' ? { decision: 'block', reason: outcome.reason } : {};
  const body = compact({ ...block, systemMessage, hookSpecificOutput: Object.keys(specific).length > 1 ? specific : undefined });
  return Object.keys(body).length === 0 ? nothing : json(body);
}

/** Copilot's camelCase answer. */
function copilotAnswer(outcome: HookOutcome, ctx: AnyHookContext): BridgeAnswer {
  const additionalContext = joined(outcome.additionalContext);
  if (outcome.type === 'stop') {
    // Copilot has no "stop everything" answer; a deny (or a block of the stop gate) is the nearest it honours.
    return { exitCode: 2, stdout: '', stderr: `${outcome.reason ?? 'stopped by a hook'}\n` };
  }
  switch (ctx.event) {
    case 'PreToolUse':
    case 'PermissionRequest': {
      const decision = outcome.type === 'block' ? 'deny' : outcome.type === 'ask' ? 'ask' : outcome.granted ? 'allow' : undefined;
      const body = compact({
        permissionDecision: decision,
        permissionDecisionReason: decision === 'deny' || decision === 'ask' ? outcome.reason : undefined,
        modifiedArgs: rewrittenArgs(outcome, ctx),
        additionalContext,
      });
      return Object.keys(body).length === 0 ? nothing : json(body);
    }
    case 'Stop':
    case 'SubagentStop':
      return outcome.type === 'block' ? json({ decision: 'block', reason: outcome.reason }) : nothing;
    case 'PostToolUse': {
      const result = replacedResult(outcome, ctx);
      if (outcome.type === 'block') return { exitCode: 2, stdout: '', stderr: `${outcome.reason ?? 'rejected by a hook'}\n` };
      const body = compact({ ...(result !== undefined ? { modifiedResult: result.value } : {}), additionalContext });
      return Object.keys(body).length === 0 ? nothing : json(body);
    }
    default:
      if (outcome.type === 'block') return { exitCode: 2, stdout: '', stderr: `${outcome.reason ?? 'blocked by a hook'}\n` };
      return additionalContext === undefined ? nothing : json({ additionalContext });
  }
}

/** Gemini CLI's answer. */
function geminiAnswer(outcome: HookOutcome, ctx: AnyHookContext, eventName: string): BridgeAnswer {
  const systemMessage = outcome.systemMessage;
  if (ctx.event === 'BeforeModel' || ctx.event === 'BeforeToolSelection' || ctx.event === 'AfterModel') {
    const body = geminiModelAnswer(outcome, ctx, eventName);
    return body === undefined ? nothing : json(body);
  }
  if (outcome.type === 'stop') return json(compact({ continue: false, stopReason: outcome.reason, systemMessage }));
  const args = rewrittenArgs(outcome, ctx);
  const decision = outcome.type === 'block' || outcome.type === 'ask' ? 'deny' : outcome.granted ? 'allow' : undefined;
  const specific = compact({ hookEventName: eventName, additionalContext: joined(outcome.additionalContext), tool_input: args });
  const body = compact({
    decision,
    reason: decision === 'deny' ? outcome.reason : undefined,
    systemMessage,
    hookSpecificOutput: Object.keys(specific).length > 1 ? specific : undefined,
  });
  return Object.keys(body).length === 0 ? nothing : json(body);
}

/** Cursor's answer. */
function cursorAnswer(outcome: HookOutcome, ctx: AnyHookContext): BridgeAnswer {
  const userMessage = outcome.systemMessage;
  if (ctx.event === 'Stop' || ctx.event === 'SubagentStop') {
    return outcome.type === 'block' ? json({ followup_message: outcome.reason }) : nothing;
  }
  if (outcome.type === 'stop' || (outcome.type === 'block' && ctx.event === 'UserPromptSubmit')) {
    return json(compact({ continue: false, user_message: userMessage ?? outcome.reason, agent_message: outcome.reason }));
  }
  const tool = ctx.event === 'PreToolUse' || ctx.event === 'PermissionRequest';
  // Only a tool call can wait for approval; elsewhere an ask has nothing to say.
  const permission =
    outcome.type === 'block' ? 'deny' : outcome.type === 'ask' ? (tool ? 'ask' : undefined) : outcome.granted && tool ? 'allow' : undefined;
  const body = compact({
    permission: permission ?? (rewrittenArgs(outcome, ctx) !== undefined ? 'allow' : undefined),
    user_message: userMessage,
    agent_message: permission === 'deny' || permission === 'ask' ? outcome.reason : undefined,
    updated_input: rewrittenArgs(outcome, ctx),
  });
  return Object.keys(body).length === 0 ? nothing : json(body);
}

/**
 * The answer a hook of `agent` gives for `outcome`, the merged outcome of dispatching `ctx` (which that agent calls
 * `eventName`). Decisions are written as JSON on stdout with exit 0 wherever the agent reads one; exit 2 with the
 * reason on stderr only where it reads nothing else (Copilot's events other than preToolUse and agentStop).
 *
 * - a block on a tool call: Claude Code and VS Code `permissionDecision: "deny"`, Copilot `permissionDecision:
 *   "deny"`, Gemini `decision: "deny"`, Cursor `permission: "deny"`, Codex `permissionDecision: "deny"` (also for
 *   a stop and an ask, which Codex refuses there) — each with the reason;
 * - a block of a stop gate: `decision: "block"` + `reason` (Claude Code, VS Code, Copilot), `decision: "deny"`
 *   (Gemini's AfterAgent retry), `followup_message` (Cursor);
 * - Gemini CLI's model events: a rewritten request (`llm_request`), an answer given instead of the model
 *   (`decision: "deny"` with `llm_response`), a tool selection (`toolConfig`), a rewritten answer (`llm_response`) —
 *   see `geminiModelAnswer`;
 * - a stop: `continue: false` + `stopReason`;
 * - a rewritten input: `updatedInput`, `modifiedArgs`, `tool_input`, `updated_input`; for Codex `updatedInput` with
 *   `permissionDecision: "allow"`, the only form it takes (see {@link codexAnswer});
 * - additional context and system messages in the agent's own fields.
 *
 * @internal
 */
export function bridgeAnswer(agent: BridgeAgent, outcome: HookOutcome, ctx: AnyHookContext, eventName: string): BridgeAnswer {
  switch (agent) {
    case 'claude':
      return claudeAnswer(outcome, ctx, eventName, false);
    case 'vscode':
      return claudeAnswer(outcome, ctx, eventName, true);
    case 'copilot':
      return copilotAnswer(outcome, ctx);
    case 'gemini':
      return geminiAnswer(outcome, ctx, eventName);
    case 'cursor':
      return cursorAnswer(outcome, ctx);
    case 'codex':
      // Codex reads answers by strict per-event schemas: see codexAnswer for what each outcome becomes.
      return codexAnswer(outcome, ctx, eventName);
  }
}
