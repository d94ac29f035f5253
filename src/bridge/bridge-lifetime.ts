/**
 * The bridge's lifetime: when the agent gives up on it — a signal at the agent's own hook timeout, or the agent
 * gone altogether — the bridge stops dispatching and takes every hook process it started with it.
 *
 * @module
 */
import type { HookStack } from '../core/index.js';
import { killLiveProcessGroups } from '../process/live-groups.js';
import { drainAll } from '../script/script-hook.js';

export { BRIDGE_END_SIGNALS, holdBridgeLifetime, type BridgeLifetimeOptions } from './bridge-hold.js';

/**
 * How long the bridge lets async hooks run on once its answer is written: 2 seconds. Agents read a hook's answer when
 * its process ends, so this time is added to the call the answer is about, and it must end well within the agent's
 * own hook timeout — 30 s at the least by default, part of it already spent on the synchronous hooks — or the agent
 * kills the bridge and treats it as a hook that failed, whatever it answered. Two seconds is enough for what async
 * hooks are for (a log line, a notification, a metrics post); those still running then are stopped with their
 * process groups.
 *
 * @internal
 */
export const BRIDGE_ASYNC_DRAIN_MS = 2000;

/**
 * Waits for the async hooks of `stack` after the answer has been written, for at most `boundMs`; then cancels the
 * runs still going through `controller` and ends their process groups. Resolves `true` when every one finished by
 * itself. Until it resolves, `holdBridgeLifetime` still ends them all if the agent gives up on the bridge.
 *
 * @internal
 */
export async function drainAfterAnswer(stack: HookStack, controller: AbortController, boundMs: number = BRIDGE_ASYNC_DRAIN_MS): Promise<boolean> {
  const drained = drainAll(stack);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), boundMs);
  });
  const finished = await Promise.race([drained.then(() => true as const), bound]);
  clearTimeout(timer);
  if (finished) return true;
  controller.abort(new Error(`async hooks were still running ${boundMs} ms after the answer`));
  await killLiveProcessGroups();
  await drained;
  return false;
}

