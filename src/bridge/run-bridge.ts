/**
 * One bridged hook call: another agent's payload in, our stack's decision out, in that agent's own answer format.
 *
 * @module
 */
import type { AnyHookContext, HookNote, HookOutcome, HookStack } from '../core/index.js';
import { messageOf } from '../core/internal/message-of.js';
import { drainAll } from '../script/script-hook.js';
import { bridgeAnswer, USER_MESSAGE_FIELD, type BridgeAgent, type BridgeAnswer } from './bridge-answer.js';
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
  /**
   * A message for the user, asked for once the payload is read (so that it may depend on the session): written in
   * the agent's user-facing field (`systemMessage`; Cursor's `user_message`) after what the hooks say, or — for an agent whose
   * answers have none (Copilot) — on stderr of an answer that exits 0. `undefined` from it: nothing to say.
   */
  readonly notice?: ((ctx: AnyHookContext) => string | undefined) | undefined;
  /**
   * Whether to wait for the stack's async hooks before resolving (default `true`). A process that answers an agent
   * passes `false`, writes the answer, and only then waits for them (see `drainAfterAnswer`): an async hook must
   * never hold back the answer past the agent's own timeout. Their notes are added to {@link BridgeResult.notes} as
   * they come.
   */
  readonly drainAsync?: boolean | undefined;
}

/** What a bridged call came to: the answer to print, and what led to it. */
export interface BridgeResult extends BridgeAnswer {
  /** The context dispatched; absent when the input could not be read. */
  readonly ctx?: AnyHookContext | undefined;
  /** The merged outcome; absent when the input could not be read or a hook threw. */
  readonly outcome?: HookOutcome | undefined;
  /** What hooks reported on the way (failures they failed open or closed on, ignored output). */
  readonly notes: readonly HookNote[];
  /**
   * Where the {@link BridgeOptions.notice | notice} went: into the `answer`, or on `stderr`. Absent when there was
   * none, or when this answer had no room for it (an event whose answer the agent does not read, such as Codex's
   * SessionEnd; Cursor's stop, which takes only a follow-up): then it is still to be given.
   */
  readonly notice?: 'answer' | 'stderr' | undefined;
}

/**
 * Reads `input` as `agent`'s hook payload, dispatches it through `stack`, waits for async hooks (unless
 * {@link BridgeOptions.drainAsync} is `false`), and returns the answer the agent reads. Input that cannot be read, or a hook that throws, gives exit 1 with the reason on stderr:
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
    if (options.drainAsync !== false) await drainAll(options.stack);
  }
  const notice = options.notice?.(ctx);
  if (notice === undefined) return { ...bridgeAnswer(options.agent, outcome, ctx, eventName), ctx, outcome, notes };
  const field = USER_MESSAGE_FIELD[options.agent];
  if (field === undefined) {
    const answer = bridgeAnswer(options.agent, outcome, ctx, eventName);
    // On a failing exit stderr is the reason the agent acts on: the notice must not become part of it.
    if (answer.exitCode !== 0) return { ...answer, ctx, outcome, notes };
    return { ...answer, stderr: `${answer.stderr}agent-hooks: ${notice}\n`, ctx, outcome, notes, notice: 'stderr' };
  }
  const answer = bridgeAnswer(options.agent, outcome.withSystemMessage(notice), ctx, eventName);
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
