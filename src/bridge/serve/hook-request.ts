/**
 * One HTTP hook request: the body an agent POSTs, dispatched through the stack as the command bridge dispatches its
 * stdin, and the status and body to answer with.
 *
 * @module
 */
import { AGENT_PROFILES, agentProfile } from '../../agents/registry.js';
import { HookOutcome, HookStack, type HookNote } from '../../core/index.js';
import { messageOf } from '../../core/internal/message-of.js';
import { isRecord } from '../../dialects/wire-output.js';
import type { BridgeAgent } from '../bridge-answer.js';
import { FAIL_CLOSED_EVENTS } from '../install-http-bridge.js';
import { runBridge } from '../run-bridge.js';
import { otherProject } from './request-project.js';
import { serveNoticeTurn, type ServeNotices } from './serve-notices.js';

/**
 * The agents that call hooks over HTTP, by the name their route takes (`POST /hooks/claude`): Claude Code's
 * `type: "http"` hooks.
 *
 * @internal
 */
export const HTTP_HOOK_AGENTS: readonly BridgeAgent[] = Object.freeze(AGENT_PROFILES.filter((profile) => profile.httpHooks).map((profile) => profile.id));

/**
 * What a hook request came to.
 *
 * @internal
 */
export interface HookHttpAnswer {
  /**
   * The HTTP status: 200 with the agent's answer, 400 for a body that cannot be read, 421 for another project's request
   * on an event that guards nothing, 500 when a hook threw.
   */
  readonly status: number;
  /** The body: the agent's JSON answer (`{}` when the hooks have nothing to say), or `{"error": …}`. */
  readonly body: string;
  /** The event as the agent named it, once known. */
  readonly event?: string | undefined;
  /** The tool of a tool event. */
  readonly tool?: string | undefined;
  /** The merged outcome's type (`proceed`, `block`, `stop`, `ask`), when the hooks ran. */
  readonly decision?: string | undefined;
  /** Why the request was answered without running hooks, or failed (for the log). */
  readonly note?: string | undefined;
  /** What hooks reported on the way. */
  readonly notes: readonly HookNote[];
}

/**
 * What {@link answerHookRequest} needs.
 *
 * @internal
 */
export interface HookRequest {
  /** The agent whose dialect the body and the answer are in. */
  readonly agent: BridgeAgent;
  /** The request's body, as sent. */
  readonly body: string;
  /** The event named by the route (`/hooks/claude/PreToolUse`): it must agree with the body's, when that names one. */
  readonly event?: string | undefined;
  /** The hooks to dispatch through. */
  readonly stack: HookStack;
  /** Aborted when the client goes away or the request's time is up: running hooks are stopped, their processes killed. */
  readonly signal?: AbortSignal | undefined;
  /**
   * The project served, as a real path: a request whose `cwd` is not in it is refused (see {@link answerHookRequest}).
   * Without it, every request is answered.
   */
  readonly project?: string | undefined;
  /** What the agent's user is told of the load `stack` came from, once per session; without it, nothing. */
  readonly notices?: ServeNotices | undefined;
}

const errorBody = (message: string): string => JSON.stringify({ error: message });

/** The event a Claude-shaped payload names. */
function namedEvent(payload: Record<string, unknown>): unknown {
  return payload.hook_event_name ?? payload.hookEventName;
}

/**
 * Dispatches one hook request through `stack` with the command bridge's reading and answer writing (see
 * `runBridge`), and says how to answer it over HTTP:
 *
 * - **200** with the agent's JSON answer (`{}` when the hooks have nothing to say);
 * - **200** `{}` for an event this version does not know: no hook can be registered on it, so nothing is guarded, and
 *   a newer agent's new event must not fail (the note is logged);
 * - **400** for a body that is not a JSON object, names no event, or lacks what its event needs (the command bridge's
 *   exit 1);
 * - **500** when a hook threw (its exit 1).
 *
 * A request for another project than {@link HookRequest.project} (its `cwd` outside it, missing, relative, or not a
 * folder) runs no hook and is never answered as an allow: on the events whose hooks guard something (PreToolUse,
 * PermissionRequest, UserPromptSubmit) with **200** and the refusal a blocking hook would give (Claude Code refuses
 * the call, the permission or the prompt, and shows the reason) — a failed request would let the action go on unless
 * the entry says `"onFailure": "block"` —; on the others with **421**, which Claude Code reports as a failed hook.
 *
 * Async hooks are not waited for: the server drains them after the answer, and on shutdown.
 *
 * @internal
 */
export async function answerHookRequest(request: HookRequest): Promise<HookHttpAnswer> {
  let payload: unknown;
  try {
    payload = JSON.parse(request.body);
  } catch (error) {
    return { status: 400, body: errorBody(`The hook input is not JSON (${messageOf(error)}).`), note: 'not JSON', notes: [] };
  }
  if (!isRecord(payload)) return { status: 400, body: errorBody('The hook input must be a JSON object.'), note: 'not an object', notes: [] };
  const named = namedEvent(payload);
  const event = typeof named === 'string' && named !== '' ? named : request.event;
  if (request.event !== undefined && typeof named === 'string' && named !== '' && named !== request.event) {
    return { status: 400, body: errorBody(`The route names the event ${request.event}, the body ${named}.`), event, note: 'event mismatch', notes: [] };
  }
  const tool = typeof payload.tool_name === 'string' ? payload.tool_name : undefined;
  if (request.project !== undefined) {
    const refused = await otherProject(payload.cwd, request.project);
    if (refused !== undefined) return refuseOtherProject(request, event, tool, refused);
  }
  if (event !== undefined && agentProfile(request.agent).eventOf(event) === undefined) {
    return { status: 200, body: '{}', event, tool, note: `unknown event ${JSON.stringify(event)}: no hook can run on it, answered with nothing to say`, notes: [] };
  }
  const once = serveNoticeTurn(request.notices, request.agent, request.stack);
  const result = await runBridge({ agent: request.agent, input: request.body, payload, event: request.event, stack: request.stack, signal: request.signal, notice: once.notice, drainAsync: false });
  once.given(result);
  const reason = result.stderr.replace(/^agent-hooks bridge: /, '').trim();
  if (result.exitCode !== 0) {
    // No context: the payload could not be read. A context: a hook threw on it.
    return result.ctx === undefined
      ? { status: 400, body: errorBody(reason), event, tool, note: reason, notes: result.notes }
      : { status: 500, body: errorBody(reason), event, tool, note: reason, notes: result.notes };
  }
  const body = result.stdout.trim();
  return { status: 200, body: body === '' ? '{}' : body, event, tool, decision: result.outcome?.type, notes: result.notes };
}

/**
 * The answer to a request for another project: the refusal a blocking hook would give on a guard event, 421 on the
 * others (where a refusal would keep the agent from stopping, or means nothing).
 */
async function refuseOtherProject(request: HookRequest, event: string | undefined, tool: string | undefined, reason: string): Promise<HookHttpAnswer> {
  const note = `another project: ${reason}`;
  const canonical = event === undefined ? undefined : agentProfile(request.agent).eventOf(event);
  const guards = event !== undefined && (FAIL_CLOSED_EVENTS.has(event) || (canonical !== undefined && FAIL_CLOSED_EVENTS.has(canonical)));
  if (!guards) return { status: 421, body: errorBody(reason), event, tool, note, notes: [] };
  const refusing = new HookStack().with(() => HookOutcome.block(`agent-hooks serve: ${reason}`));
  const result = await runBridge({ agent: request.agent, input: request.body, event: request.event, stack: refusing, signal: request.signal, drainAsync: false });
  const body = result.stdout.trim();
  // A body the bridge cannot read gets no refusal written: it is answered 421 all the same, never 200 {}.
  if (result.exitCode !== 0 || body === '') return { status: 421, body: errorBody(reason), event, tool, note, notes: [] };
  return { status: 200, body, event, tool, decision: 'block', note, notes: [] };
}
