/**
 * One bridged hook call: another agent's payload in, our stack's decision out, in that agent's own answer format.
 *
 * @module
 */
import type { AnyHookContext, HookNote, HookOutcome, HookStack } from '../core/index.js';
import { messageOf } from '../core/internal/message-of.js';
import { drainAll } from '../script/script-hook.js';
import { bridgeAnswer, type BridgeAgent, type BridgeAnswer } from './bridge-answer.js';
import { BridgeInputError, readBridgePayload } from './bridge-payload.js';

/** What {@link runBridge} needs. */
export interface BridgeOptions {
  /** The agent that runs the bridge as its hook. */
  readonly agent: BridgeAgent;
  /** What the agent wrote to stdin. */
  readonly input: string;
  /** The event, when the payload does not name it (Copilot), or to override it. */
  readonly event?: string | undefined;
  /** The hooks to dispatch through. */
  readonly stack: HookStack;
  /** Cancels the dispatch. */
  readonly signal?: AbortSignal | undefined;
}

/** What a bridged call came to: the answer to print, and what led to it. */
export interface BridgeResult extends BridgeAnswer {
  /** The context dispatched; absent when the input could not be read. */
  readonly ctx?: AnyHookContext | undefined;
  /** The merged outcome; absent when the input could not be read or a hook threw. */
  readonly outcome?: HookOutcome | undefined;
  /** What hooks reported on the way (failures they failed open or closed on, ignored output). */
  readonly notes: readonly HookNote[];
}

/**
 * Reads `input` as `agent`'s hook payload, dispatches it through `stack`, waits for async hooks, and returns the
 * answer the agent reads. Input that cannot be read, or a hook that throws, gives exit 1 with the reason on stderr:
 * every agent treats that as a failed hook (Claude Code, Gemini CLI, Cursor and Codex go on; Copilot denies a tool
 * call).
 */
export async function runBridge(options: BridgeOptions): Promise<BridgeResult> {
  const notes: HookNote[] = [];
  const failed = (message: string, ctx?: AnyHookContext): BridgeResult => ({ exitCode: 1, stdout: '', stderr: `agent-hooks bridge: ${message}\n`, ctx, notes });
  let payload: unknown;
  try {
    payload = JSON.parse(options.input);
  } catch (error) {
    return failed(`the hook input is not JSON (${messageOf(error)}).`);
  }
  let read;
  try {
    read = readBridgePayload(options.agent, payload, options.event);
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
    await drainAll(options.stack);
  }
  return { ...bridgeAnswer(options.agent, outcome, ctx, eventName), ctx, outcome, notes };
}
