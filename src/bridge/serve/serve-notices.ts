/**
 * What `agent-hooks serve` tells the agent's user, as the command bridge tells it: the hooks its load skipped, once
 * per agent session, in the answer's user-facing field.
 *
 * @module
 */
import type { HookStack } from '../../core/index.js';
import type { BridgeAgent } from '../bridge-answer.js';
import { noticeOncePerSession, type SessionNoticeTurn, type SessionNotices } from '../session-notices.js';

/**
 * Where a server's notices come from, and where it records that a session was told.
 *
 * @internal
 */
export interface ServeNotices {
  /** The notice of the load `stack` came from (see `ReloadingStack.noticeOf`); `undefined`: nothing to tell. */
  readonly of: (stack: HookStack) => string | undefined;
  /** The sessions told: the command bridge's file, so that the served line and its fallback tell a session once. */
  readonly sessions: SessionNotices;
}

/**
 * How one request tells `agent`'s user the notice of `stack`'s load, once per session; with no `notices`, nothing.
 *
 * @internal
 */
export function serveNoticeTurn(notices: ServeNotices | undefined, agent: BridgeAgent, stack: HookStack): SessionNoticeTurn {
  if (notices === undefined) return { notice: undefined, given: () => undefined };
  return noticeOncePerSession(notices.sessions, agent, notices.of(stack));
}
