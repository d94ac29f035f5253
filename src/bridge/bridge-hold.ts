/**
 * The bridge bound to the agent that runs it: when the agent gives up on it — a signal at the agent's own hook
 * timeout, or the agent gone altogether — the bridge stops dispatching and takes every hook process it started with
 * it. Apart from the rest of the bridge's lifetime (`bridge-lifetime.ts`), which waits for the stack's async hooks, so
 * that a call the first stage runs alone holds it without loading the stack.
 *
 * @module
 */
import { guardAgainstOrphans, killLiveProcessGroups } from '../process/live-groups.js';

/**
 * The signals an agent (or a terminal) ends its hook with, and that the bridge answers by cleaning up.
 *
 * @internal
 */
export const BRIDGE_END_SIGNALS: readonly NodeJS.Signals[] = Object.freeze(['SIGTERM', 'SIGINT', 'SIGHUP']);

/** How often the bridge checks that its parent, the agent, is still there. */
const PARENT_POLL_MS = 500;

/**
 * What {@link holdBridgeLifetime} needs.
 *
 * @internal
 */
export interface BridgeLifetimeOptions {
  /** Aborted when the bridge must end: the dispatch stops, and running hooks are killed. */
  readonly controller: AbortController;
  /** Told why the bridge is ending (a line for stderr). */
  readonly onEnd?: ((reason: string) => void) | undefined;
  /** Ends the process once the hooks are gone (default: `process.exit`). */
  readonly exit?: ((code: number) => void) | undefined;
  /**
   * The code to end with, asked when the end begins (default 1): once the answer is written, the answer's own, so
   * that an agent that still reads it reads it as it was meant.
   */
  readonly exitCode?: (() => number) | undefined;
  /**
   * Whether the parent going away ends the bridge (default `true`). `false` for a call the agent made as it exited
   * (`bridge --detached`): the agent is gone by design, and the hooks run to their end, each within its own timeout.
   */
  readonly followParent?: boolean | undefined;
}

/**
 * Binds the bridge to the agent that runs it, until the returned function is called:
 *
 * - **SIGTERM, SIGINT, SIGHUP**: the agent's hook timeout (Gemini CLI, Codex, Copilot and Claude Code kill their hook
 *   when it passes) or a closed terminal. The dispatch is aborted, every hook's process group gets SIGTERM and, 200 ms
 *   later, SIGKILL, and the bridge exits 1 — the agent no longer reads its answer (or, once the answer is written and
 *   only async hooks are left, with the answer's own code: see {@link BridgeLifetimeOptions.exitCode}).
 * - **The parent gone** (the bridge re-parented, as when the agent itself was killed): the same — unless the call
 *   was made as the agent exited ({@link BridgeLifetimeOptions.followParent}).
 * - **SIGKILL**, which no handler sees: every hook running longer than a second has a watchdog (see
 *   {@link guardAgainstOrphans}) that kills its group once the bridge is gone.
 *
 * Standard input closing is no reason to end: the bridge reads the whole payload before it dispatches, so the end of
 * stdin is how every agent says "that is all", not "give up".
 *
 * @internal
 */
export function holdBridgeLifetime(options: BridgeLifetimeOptions): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const exitCode = options.exitCode ?? (() => 1);
  let ending = false;
  const end = (reason: string): void => {
    if (ending) return;
    ending = true;
    // Taken now: an answer the cancelled dispatch comes to afterwards is one the agent has already given up on.
    const code = exitCode();
    options.onEnd?.(reason);
    options.controller.abort(new Error(reason));
    void killLiveProcessGroups().finally(() => exit(code));
  };
  const handlers = BRIDGE_END_SIGNALS.map((signal) => {
    const handler = () => end(`${signal} received: stopping the hooks and exiting.`);
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  const parent = process.ppid;
  const poll =
    options.followParent === false
      ? undefined
      : setInterval(() => {
          if (process.ppid !== parent) end(`the agent that started the bridge (pid ${parent}) is gone: stopping the hooks and exiting.`);
        }, PARENT_POLL_MS);
  poll?.unref();
  const unguard = guardAgainstOrphans();
  return () => {
    unguard();
    clearInterval(poll);
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}
