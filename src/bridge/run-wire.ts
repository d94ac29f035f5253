/**
 * One bridged call by a wire the caller has loaded: what `runBridge` does with the agent's profile, and what a bridged
 * call of the executable does with its own agent's wire only.
 *
 * @module
 * @internal
 */
import type { AgentWire } from '../agents/agent-wire.js';
import type { AnyHookContext, HookNote, HookOutcome } from '../core/index.js';
import { messageOf } from '../core/internal/message-of.js';
import type { BridgeAnswer } from '../dialects/outcome-changes.js';
import { drainAll } from '../script/script-hook.js';
import type { BridgeOptions, BridgeResult } from './run-bridge.js';
import { BridgeInputError, readWirePayload } from './wire-payload.js';

/**
 * `runBridge`, answering by `wire`, the wire of `options.agent`.
 *
 * @internal
 */
export async function runBridgeWith(wire: AgentWire, options: BridgeOptions): Promise<BridgeResult> {
  const notes: HookNote[] = [];
  const failed = (message: string, ctx?: AnyHookContext): BridgeResult => ({ exitCode: 1, stdout: '', stderr: `agent-hooks bridge: ${message}\n`, ctx, notes });
  let payload: unknown = options.payload;
  if (payload === undefined) {
    try {
      payload = JSON.parse(options.input);
    } catch (error) {
      return failed(`the hook input is not JSON (${messageOf(error)}).`);
    }
  }
  let read;
  try {
    read = readWirePayload(options.agent, wire, payload, options.event);
  } catch (error) {
    if (error instanceof BridgeInputError) return failed(error.message);
    throw error;
  }
  const { ctx, eventName } = read;
  let outcome: HookOutcome;
  try {
    outcome = await options.stack.process(ctx, undefined, { signal: options.signal, onNote: (note) => notes.push(note) });
  } catch (error) {
    return failed(`a hook failed on ${eventName}: ${messageOf(error)}`, ctx);
  } finally {
    if (options.drainAsync !== false) await drainAll(options.stack);
  }
  const notice = options.notice?.(ctx);
  if (notice === undefined) return { ...wire.answer(outcome, ctx, eventName), ctx, outcome, notes };
  const field = wire.userMessageField;
  if (field === undefined) {
    const answer = wire.answer(outcome, ctx, eventName);
    // On a failing exit stderr is the reason the agent acts on: the notice must not become part of it.
    if (answer.exitCode !== 0) return { ...answer, ctx, outcome, notes };
    return { ...answer, stderr: `${answer.stderr}agent-hooks: ${notice}\n`, ctx, outcome, notes, notice: 'stderr' };
  }
  const answer = wire.answer(outcome.withSystemMessage(notice), ctx, eventName);
  return { ...answer, ctx, outcome, notes, notice: carries(answer, field, notice) ? 'answer' : undefined };
}

/** Whether `answer` holds `notice` in its `field`: some answers leave the user's message out (see each writer). */
function carries(answer: BridgeAnswer, field: string, notice: string): boolean {
  if (answer.exitCode !== 0 || answer.stdout === '') return false;
  try {
    const body = JSON.parse(answer.stdout) as Record<string, unknown>;
    const shown = body[field];
    return typeof shown === 'string' && shown.includes(notice);
  } catch {
    return false;
  }
}
