/**
 * `POST /bridge/<agent>` of `agent-hooks serve`: the route of the agents whose hooks can only be commands. Their
 * line (see `servedBridgeLine`) posts the payload (through bash, or with curl) and prints what comes back, so the
 * answer carries what the command bridge would print — stdout, stderr and the exit code — in one body a POSIX shell
 * splits with builtins.
 *
 * @module
 */
import { fsPromises } from '../../core/internal/node-fs.js';
import { BRIDGE_AGENTS, type BridgeAgent } from '../bridge-answer.js';
import type { HookStack } from '../../core/index.js';
import { runBridge } from '../run-bridge.js';
import { BRIDGE_FRAME } from './bridge-frame.js';
import type { HookHttpAnswer } from './hook-request.js';
import { serveNoticeTurn, type ServeNotices } from './serve-notices.js';

export { BRIDGE_FRAME, BRIDGE_PROJECT_HEADER } from './bridge-frame.js';

/**
 * The route's agent and event, or `undefined` when `path` is not `/bridge/<agent>[/<event>]` for an agent the bridge
 * knows.
 *
 * @internal
 */
export function bridgeRouteOf(path: string): { readonly agent: BridgeAgent; readonly event?: string | undefined } | undefined {
  const match = /^\/bridge\/([^/]+)(?:\/([^/]+))?$/.exec(path);
  const agent = match === null ? undefined : decodeURIComponent(match[1]!);
  if (agent === undefined || !(BRIDGE_AGENTS as readonly string[]).includes(agent)) return undefined;
  return { agent: agent as BridgeAgent, event: match![2] === undefined ? undefined : decodeURIComponent(match![2]) };
}

/**
 * What {@link answerBridgeRequest} needs.
 *
 * @internal
 */
export interface BridgeRouteRequest {
  readonly agent: BridgeAgent;
  /** The payload, as the agent wrote it to the line's stdin. */
  readonly body: string;
  /** The event of the route (`/bridge/copilot/preToolUse`), for the payloads that name none. */
  readonly event?: string | undefined;
  /** The project the line names ({@link BRIDGE_PROJECT_HEADER}). */
  readonly from: string | undefined;
  /** The project served, as a real path; without it, every request is answered. */
  readonly project?: string | undefined;
  readonly stack: HookStack;
  readonly signal?: AbortSignal | undefined;
  /** What the agent's user is told of the load `stack` came from, once per session; without it, nothing. */
  readonly notices?: ServeNotices | undefined;
}

/**
 * Dispatches the payload through `runBridge`, as `agent-hooks bridge --from <agent>` does, and frames what that
 * command would print (see {@link BRIDGE_FRAME}) in a 200 — a refusal and a failed hook included, which the command
 * bridge reports by its exit code. A request whose project is not the one served gets 421 and runs nothing: the line
 * then runs the command bridge, which loads that project's hooks.
 *
 * @internal
 */
export async function answerBridgeRequest(request: BridgeRouteRequest): Promise<HookHttpAnswer> {
  if (request.project !== undefined) {
    const from = request.from === undefined || request.from === '' ? undefined : await fsPromises().realpath(request.from).catch(() => undefined);
    if (from !== request.project) {
      const note = `the request names the project ${JSON.stringify(request.from ?? '')}, not ${request.project}: the line runs the command bridge instead`;
      return { status: 421, body: JSON.stringify({ error: `This server serves ${request.project} only, not ${request.from ?? 'a request that names no project'}.` }), note, notes: [] };
    }
  }
  const once = serveNoticeTurn(request.notices, request.agent, request.stack);
  const result = await runBridge({ agent: request.agent, input: request.body, event: request.event, stack: request.stack, signal: request.signal, notice: once.notice, drainAsync: false });
  once.given(result);
  // As `bridge --from` prints them: the hooks' notes, the answer, the reason — each written as a line.
  const line = (text: string): string => (text === '' ? '' : `${text.trimEnd()}\n`);
  const stdout = line(result.stdout);
  const stderr = `${result.notes.map((note) => `agent-hooks: ${note.message}\n`).join('')}${line(result.stderr)}`.replaceAll(BRIDGE_FRAME.separator, '@@ agent-hooks-stdout @@');
  const ctx = result.ctx;
  return {
    status: 200,
    body: `${BRIDGE_FRAME.exit}${result.exitCode};${stderr}${BRIDGE_FRAME.separator}${stdout}${BRIDGE_FRAME.end}`,
    event: ctx?.event,
    tool: ctx !== undefined && 'toolCall' in ctx ? ctx.toolCall.name : undefined,
    decision: result.outcome?.type,
    note: result.exitCode === 0 ? undefined : `exit ${result.exitCode}: ${result.stderr.trim()}`,
    notes: result.notes,
  };
}
