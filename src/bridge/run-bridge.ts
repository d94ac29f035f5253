/**
 * One bridged hook call: another agent's payload in, our stack's decision out, in that agent's own answer format.
 *
 * @module
 */
import { agentProfile } from '../agents/registry.js';
import type { AnyHookContext, HookNote, HookOutcome, HookStack } from '../core/index.js';
import type { BridgeAgent, BridgeAnswer } from './bridge-answer.js';
import { runBridgeWith } from './run-wire.js';

/** What {@link runBridge} needs. */
export interface BridgeOptions {
  /** The agent that runs the bridge as its hook. */
  readonly agent: BridgeAgent;
  /** What the agent wrote to stdin. */
  readonly input: string;
  /**
   * `input` already parsed, when the caller has parsed it (serve reads the payload's `cwd` first): it is then not
   * parsed again. It must be `JSON.parse(input)`'s value, and is not changed.
   */
  readonly payload?: unknown;
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
  return runBridgeWith(agentProfile(options.agent), options);
}
