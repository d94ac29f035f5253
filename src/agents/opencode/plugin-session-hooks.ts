/**
 * OpenCode's session as our session and prompt events:
 *
 * - `chat.message` — a user message, before OpenCode saves it and sends it to the model — is UserPromptSubmit, and,
 *   for the first message of a session this plugin sees, SessionStart before it. OpenCode's `session.created` is a bus
 *   event whose answer nobody reads and that can arrive after the first message: the first message is where a
 *   session's context can still reach the model. Context from either is added to the message as a synthetic text part
 *   (OpenCode's own way of adding text the user did not type); a rewritten prompt replaces the user's text; a block or
 *   a stop throws, which rejects the message: the model is not asked, and OpenCode reports an "Unexpected server
 *   error", so the reason is also said as a warning.
 * - `event` `session.idle` (the agent is done and waits) is Stop, and `session.deleted` SessionEnd: both observers
 *   here, since OpenCode reads no answer to an event. A Stop hook's block cannot keep OpenCode working: it is said as
 *   a warning, naming the hook's reason.
 *
 * @module
 * @internal
 */
import { PromptHookContext, SessionHookContext, StopHookContext, type AnyHookContext, type HookOutcome, type HookStack } from '../../core/index.js';
import type { OpenCodeChatInput, OpenCodeChatOutput, OpenCodeEvent, OpenCodePart } from './plugin-api.js';
import type { PluginWarn } from './plugin-log.js';
import { notesTo, stateOf } from './plugin-tool-hooks.js';

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The user's own text parts (not OpenCode's synthetic ones). */
const typed = (parts: readonly OpenCodePart[]): OpenCodePart[] => parts.filter((p) => p.type === 'text' && p.synthetic !== true && typeof p.text === 'string');

/** A synthetic text part holding `text`, after `after` in the message (OpenCode orders parts by id). */
function syntheticPart(output: OpenCodeChatOutput, text: string, n: number): OpenCodePart {
  const last = output.parts[output.parts.length - 1];
  const base = typeof last?.['id'] === 'string' ? last['id'] : `prt_${Date.now().toString(16)}`;
  return { id: `${base}${String(n).padStart(2, '0')}`, messageID: output.message.id, sessionID: output.message.sessionID, type: 'text', text, synthetic: true };
}

/** The session an event is about: `sessionID`, or the id of the session `info` it carries (`session.deleted`). */
function sessionOf(event: OpenCodeEvent): string | undefined {
  const { sessionID, info } = event.properties ?? {};
  if (typeof sessionID === 'string') return sessionID;
  const id = typeof info === 'object' && info !== null ? (info as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/**
 * `chat.message` and `event`, over `stack`.
 *
 * @internal
 */
export function sessionHooks(stack: HookStack, warn: PluginWarn) {
  const started = new Set<string>();
  const options = notesTo(warn);
  const refuse = (what: string, outcome: HookOutcome): never => {
    const reason = outcome.reason ?? `agent-hooks refused this ${what} (${outcome.type}).`;
    // OpenCode shows a throw from chat.message only as "Unexpected server error" (the reason goes to its log): said here.
    warn(`agent-hooks: this ${what} was rejected: ${reason}`);
    throw new Error(reason);
  };
  const observe = async (ctx: AnyHookContext, what: string): Promise<HookOutcome | undefined> => {
    try {
      return await stack.process(ctx, undefined, options);
    } catch (error) {
      warn(`agent-hooks: the ${ctx.event} hooks failed at ${what}: ${messageOf(error)}`);
      return undefined;
    }
  };
  return {
    async 'chat.message'(input: OpenCodeChatInput, output: OpenCodeChatOutput): Promise<void> {
      const sessionID = input.sessionID ?? output.message.sessionID;
      const added: string[] = [];
      if (!started.has(sessionID)) {
        started.add(sessionID);
        const start = await observe(SessionHookContext.onStart({ state: stateOf(sessionID), source: 'startup' }), 'the start of this session');
        if (start !== undefined && (start.type === 'block' || start.type === 'stop')) refuse('session', start);
        added.push(...(start?.additionalContext ?? []));
      }
      const mine = typed(output.parts);
      const prompt = mine.map((p) => p.text).join('\n');
      let outcome: HookOutcome;
      try {
        outcome = await stack.process(PromptHookContext.onSubmit(prompt, { state: stateOf(sessionID) }), undefined, options);
      } catch (error) {
        const message = `agent-hooks could not check this prompt, so it was rejected: ${messageOf(error)}`;
        warn(`agent-hooks: ${message}`);
        throw new Error(message);
      }
      if (outcome.type === 'block' || outcome.type === 'stop') refuse('prompt', outcome);
      const rewritten = (outcome.context as PromptHookContext | undefined)?.prompt;
      if (rewritten !== undefined && rewritten !== prompt && mine.length > 0) {
        mine[0]!.text = rewritten;
        output.parts = output.parts.filter((p) => !mine.slice(1).includes(p));
      }
      added.push(...outcome.additionalContext);
      added.forEach((text, i) => output.parts.push(syntheticPart(output, text, i)));
    },

    async event({ event }: { readonly event: OpenCodeEvent }): Promise<void> {
      const sessionID = sessionOf(event);
      if (event.type === 'session.idle') {
        const outcome = await observe(StopHookContext.stop({ state: stateOf(sessionID), stopReason: 'no_tool_calls' }), 'the end of a turn');
        if (outcome !== undefined && outcome.type !== 'proceed') {
          warn(`agent-hooks: a Stop hook asked OpenCode to keep working (${outcome.reason ?? outcome.type}), but OpenCode reads no answer to session.idle: the session stopped.`);
        }
      } else if (event.type === 'session.deleted') {
        await observe(SessionHookContext.onEnd({ state: stateOf(sessionID), reason: 'deleted' }), 'the end of this session');
        if (sessionID !== undefined) started.delete(sessionID);
      }
    },
  };
}
