// Internal: not exported from the package.
/**
 * What `agent.resume()` checks before anything runs: that the snapshot is one, of a version this package reads, of
 * an agent built like this one, and that the decisions decide exactly its pending requests.
 *
 * @module
 */
import type { z } from 'zod';
import { lazyValue } from '../../core/internal/lazy-module.js';
import { nodeCrypto } from '../../core/internal/node-crypto.js';
import { safeParseOf, zod } from '../../core/internal/zod-module.js';
import { decisionKind, type ApprovalDecision, type ApprovalDecisions, type ApprovalResponse } from '../approval.js';
import { ResumeError } from '../resume-error.js';
import type { AgentConfig } from '../run/index.js';
import { RUN_SNAPSHOT_FORMAT, RUN_SNAPSHOT_VERSION, type AgentShapeJson, type PendingApproval, type ReviewedCallJson, type RunFrameJson, type RunSnapshot } from '../run-snapshot.js';
import { subagentInput } from './subagent-input.js';

/** The shape of an agent: its tools (with a digest of each input schema), hooks and subagents. */
export function agentShape(config: AgentConfig): AgentShapeJson {
  const tools = config.definitions
    .filter((d) => config.tools.has(d.name))
    .map((d) => ({ name: d.name, schema: nodeCrypto().createHash('sha256').update(JSON.stringify(d.inputSchema ?? null)).digest('hex').slice(0, 16) }));
  const hooks = config.stack.all().map((e) => ({ name: e.name, priority: e.priority, events: e.events === undefined ? '*' : [...e.events].sort().join(',') }));
  const subagents = [...config.subagents.values()].map((s) => ({ name: s.def.name, shape: agentShape(s.config) }));
  return { ...(config.name !== undefined ? { name: config.name } : {}), tools, hooks, subagents };
}

/**
 * The schema of a run snapshot, made on the first snapshot read: zod builds (and compiles) its checks as it is
 * defined, and a process that imports the package but resumes no run has no use for them.
 */
const snapshotSchema = lazyValue(() => {
  const z = zod();
  const json = z.unknown();
  const record = z.record(z.string(), json);
  const call = z.object({ id: z.string(), name: z.string().min(1), args: record });
  const usage = z.object({ inputTokens: z.number().optional(), outputTokens: z.number().optional(), totalTokens: z.number().optional() });
  const error = z.object({ name: z.string(), message: z.string(), by: z.enum(['hook', 'permission', 'approver']).optional() });
  const execution = z.object({ toolCall: call, isError: z.boolean(), result: json.optional(), error: error.optional(), durationMs: z.number().optional() });
  const message = z.object({
    role: z.enum(['system', 'user', 'assistant', 'tool']),
    content: z.string(),
    toolCalls: z.array(call).optional(),
    toolCallId: z.string().optional(),
    name: z.string().optional(),
  });
  const step = z.object({ index: z.number().int(), text: z.string(), toolCalls: z.array(call), executions: z.array(execution), usage: usage.optional() });
  const state = z.object({
    agentId: z.string(),
    parentAgentId: z.string().optional(),
    sessionId: z.string().optional(),
    stepCount: z.number().int().nonnegative(),
    messages: z.array(message),
    steps: z.array(step),
    metadata: record,
  });
  const decision = z.union([
    z.object({ approved: z.boolean(), reason: z.string().optional(), stopRun: z.boolean().optional(), updatedInput: record.optional() }),
    z.object({ respond: json }).refine((d) => 'respond' in d, { message: 'a response needs its respond' }),
  ]);
  const kinds = z.array(z.enum(['approve', 'edit', 'reject', 'respond']));
  const reviewed = z.object({
    kind: z.enum(['run', 'fail', 'refuse', 'ask']),
    call,
    message: z.string().optional(),
    by: z.enum(['hook', 'permission']).optional(),
    reason: z.string().optional(),
    requestId: z.string().optional(),
    decision: decision.optional(),
    reviewed: z.boolean().optional(),
  });
  const frame: z.ZodType<RunFrameJson> = z.lazy(() =>
    z.object({
      prompt: z.string(),
      state,
      metadata: record,
      pendingContext: z.array(z.string()),
      systemMessages: z.array(z.string()),
      usage: usage.optional(),
      text: z.string(),
      stopBlocks: z.number().int().nonnegative(),
      rejectedStop: z.string().optional(),
      childRuns: z.number().int().nonnegative(),
      elapsedMs: z.number().nonnegative(),
      subagent: z.object({ name: z.string(), type: z.string() }).optional(),
      nextStep: z.number().int().nonnegative().optional(),
      at: z
        .object({
          stepIndex: z.number().int().nonnegative(),
          response: z.object({
            text: z.string(),
            toolCalls: z.array(call),
            usage: usage.optional(),
            synthetic: z.boolean().optional(),
            offered: z.array(z.string()).optional(),
          }),
          executions: z.array(execution),
          callIndex: z.number().int().nonnegative(),
          phase: z.enum(['approval', 'subagent']),
          call,
          reason: z.string().optional(),
          requestId: z.string().optional(),
          child: frame.optional(),
          startedAt: z.number().optional(),
          review: z.array(reviewed).optional(),
        })
        .refine((at) => at.callIndex < at.response.toolCalls.length && at.executions.length <= at.callIndex, {
          message: 'callIndex must name one of the step’s tool calls, after the executions kept',
        })
        .refine((at) => (at.phase === 'approval' ? at.requestId !== undefined : at.child !== undefined), {
          message: 'an approval needs its requestId, a subagent phase its child frame',
        })
        .optional(),
    }).refine((f) => (f.at === undefined) !== (f.nextStep === undefined), {
      message: 'a run frame has either its position (at) or, between two steps, the step it goes on with (nextStep)',
    }),
  ) as z.ZodType<RunFrameJson>;
  const shape: z.ZodType<AgentShapeJson> = z.lazy(() =>
    z.object({
      name: z.string().optional(),
      tools: z.array(z.object({ name: z.string(), schema: z.string() })),
      hooks: z.array(z.object({ name: z.string(), priority: z.number(), events: z.string() })),
      subagents: z.array(z.object({ name: z.string(), shape })),
    }),
  ) as z.ZodType<AgentShapeJson>;
  return z.object({
    format: z.literal(RUN_SNAPSHOT_FORMAT),
    version: z.number().int().positive(),
    id: z.string().min(1),
    interruptId: z.string().min(1),
    createdAt: z.string(),
    pending: z.array(
      z.object({ id: z.string().min(1), toolCall: call, reason: z.string(), agentId: z.string(), subagentPath: z.array(z.string()), allowed: kinds.optional() }),
    ),
    agent: shape,
    session: z.object({ id: z.string() }).optional(),
    run: frame,
    signature: z.string().optional(),
  });
});

/** `value` as a run snapshot, or a {@link ResumeError} saying which field is wrong. */
export function readSnapshot(value: unknown): RunSnapshot {
  if (typeof value === 'string') {
    throw new ResumeError('invalid-snapshot', 'agent.resume() takes the snapshot as an object (JSON.parse the text first), or a checkpoint id with a checkpointer.');
  }
  const version = (value as { version?: unknown } | null)?.version;
  if ((value as { format?: unknown } | null)?.format === RUN_SNAPSHOT_FORMAT && typeof version === 'number' && version > RUN_SNAPSHOT_VERSION) {
    throw new ResumeError(
      'newer-version',
      `This run snapshot has format version ${version}, written by a newer agent-hooks; this one reads versions up to ${RUN_SNAPSHOT_VERSION}. Resume it with the version that wrote it, or a later one.`,
    );
  }
  const parsed = safeParseOf(snapshotSchema(), value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.length > 0 ? issue.path.join('.') : '(the snapshot itself)';
    throw new ResumeError('invalid-snapshot', `Not a run snapshot: ${path}: ${issue.message}. Give agent.resume() the \`snapshot\` of an interrupted run's result (result.interruption.snapshot), parsed from its JSON as it was.`);
  }
  const snapshot = parsed.data as RunSnapshot;
  checkPending(snapshot);
  return snapshot;
}

/**
 * Throws unless the pending request is the call the run stopped at: what a reviewer is shown is what a resume runs.
 * A run stops at one call, inside the subagents' runs it is nested in.
 */
function checkPending(snapshot: RunSnapshot): void {
  if (snapshot.run.at === undefined) {
    // A checkpoint kept between two steps: nothing waits, and the run goes on with its next step.
    if (snapshot.pending.length > 0) {
      throw new ResumeError('invalid-snapshot', `Not a run snapshot as a run wrote it: a checkpoint between steps (run.nextStep) has no pending requests, and this one has ${snapshot.pending.length}. Give agent.resume() the snapshot unchanged.`);
    }
    return;
  }
  const path: string[] = [];
  let frame = snapshot.run;
  let at = frame.at!;
  while (at.phase === 'subagent') {
    path.push(at.call.name);
    frame = at.child!;
    if (frame.at === undefined) throw new ResumeError('invalid-snapshot', `Not a run snapshot: run.at.child of subagent ${at.call.name} has no position (at).`);
    at = frame.at;
  }
  if (at.review !== undefined) return checkBatchPending(snapshot, at.review, frame.state.agentId, path);
  const request = snapshot.pending[0];
  const same =
    snapshot.pending.length === 1 &&
    request !== undefined &&
    request.id === at.requestId &&
    request.agentId === frame.state.agentId &&
    JSON.stringify(request.subagentPath) === JSON.stringify(path) &&
    request.toolCall.id === at.call.id &&
    request.toolCall.name === at.call.name &&
    JSON.stringify(request.toolCall.args) === JSON.stringify(at.call.args);
  if (!same) {
    throw new ResumeError(
      'invalid-snapshot',
      `Not a run snapshot as a run wrote it: its pending request is not the call the run stopped at (pending ${request === undefined ? 'none' : JSON.stringify(request.toolCall)}, stopped at ${JSON.stringify(at.call)}). Give agent.resume() the snapshot unchanged.`,
    );
  }
}

/** Throws unless the pending requests are the requests of the reviewed batch the run stopped at, in order. */
function checkBatchPending(snapshot: RunSnapshot, review: readonly ReviewedCallJson[], agentId: string, path: readonly string[]): void {
  const asks = review.filter((r) => r.kind === 'ask' && r.requestId !== undefined);
  const same =
    asks.length === snapshot.pending.length &&
    asks.every((r, i) => {
      const request = snapshot.pending[i]!;
      return (
        request.id === r.requestId &&
        request.agentId === agentId &&
        JSON.stringify(request.subagentPath) === JSON.stringify(path) &&
        JSON.stringify(request.toolCall) === JSON.stringify(r.call)
      );
    });
  if (!same) {
    throw new ResumeError(
      'invalid-snapshot',
      `Not a run snapshot as a run wrote it: its pending requests are not the calls of the batch the run stopped at (pending ${snapshot.pending.map((p) => p.id).join(', ')}, waiting ${asks.map((r) => r.requestId).join(', ')}). Give agent.resume() the snapshot unchanged.`,
    );
  }
}

/** Throws when the snapshot's agent had other tools, hooks or subagents than `config`'s. */
export function checkShape(snapshot: RunSnapshot, config: AgentConfig): void {
  const differences: string[] = [];
  compareShapes(snapshot.agent, agentShape(config), '', differences);
  if (differences.length > 0) {
    throw new ResumeError(
      'other-agent',
      `This snapshot is of another agent: ${differences.join('; ')}. Resume it on an agent built as the one that was interrupted (same tools, subagents and hooks, in the same order).`,
    );
  }
}

function compareShapes(was: AgentShapeJson, is: AgentShapeJson, where: string, out: string[]): void {
  const at = where === '' ? '' : ` of subagent ${where}`;
  const tools = (s: AgentShapeJson) => s.tools.map((t) => `${t.name}`).join(', ') || 'none';
  if (tools(was) !== tools(is)) out.push(`tools${at}: the snapshot's [${tools(was)}], this agent's [${tools(is)}]`);
  else {
    for (const [i, t] of was.tools.entries()) {
      if (t.schema !== is.tools[i]!.schema) out.push(`the input schema of tool ${t.name}${at} changed`);
    }
  }
  const hooks = (s: AgentShapeJson) => s.hooks.map((h) => `${h.name} (${h.events}, priority ${h.priority})`).join(', ') || 'none';
  if (hooks(was) !== hooks(is)) out.push(`hooks${at}: the snapshot's [${hooks(was)}], this agent's [${hooks(is)}]`);
  const subs = (s: AgentShapeJson) => s.subagents.map((x) => x.name).join(', ') || 'none';
  if (subs(was) !== subs(is)) out.push(`subagents${at}: the snapshot's [${subs(was)}], this agent's [${subs(is)}]`);
  else for (const [i, s] of was.subagents.entries()) compareShapes(s.shape, is.subagents[i]!.shape, where === '' ? s.name : `${where}/${s.name}`, out);
}

/**
 * Throws unless `decisions` decide exactly the snapshot's pending requests, each with a decision of the right form,
 * and an edited input the tool's schema takes.
 */
export function checkDecisions(snapshot: RunSnapshot, decisions: ApprovalDecisions, config: AgentConfig): void {
  if (decisions === null || typeof decisions !== 'object' || Array.isArray(decisions)) {
    throw new ResumeError('invalid-decision', `agent.resume() needs the decisions as an object keyed by request id, e.g. { '${snapshot.pending[0]!.id}': { approved: true } }.`);
  }
  const pending = new Map(snapshot.pending.map((p) => [p.id, p]));
  for (const id of Object.keys(decisions)) {
    // A checkpoint between two steps is what a resume leaves while it carries the run on: the requests the caller
    // decides were those of the snapshot it resumed, decided already. (Of two processes resuming one id at once, the
    // one that looked the snapshot up before the other took it reads this checkpoint when it looks again.)
    if (snapshot.run.nextStep !== undefined) {
      throw new ResumeError(
        'already-resumed',
        `The interrupted run '${snapshot.id}' was resumed already: what is saved under its id is a checkpoint between two of its steps, which waits for no decision (request '${id}' was decided when it was resumed). To go on from that checkpoint, resume it with no decisions: agent.resume('${snapshot.id}', {}).`,
      );
    }
    if (!pending.has(id)) {
      throw new ResumeError('unknown-request', `There is no pending request '${id}' in this snapshot; its requests are: ${[...pending.keys()].join(', ')}.`);
    }
  }
  for (const request of snapshot.pending) {
    const answer = decisions[request.id];
    if (answer === undefined) {
      throw new ResumeError('missing-decision', `Request '${request.id}' (${request.toolCall.name}: ${request.reason}) has no decision; give one for every pending request.`);
    }
    checkDecision(request, answer, toolConfig(config, request.subagentPath));
  }
}

function checkDecision(request: PendingApproval, answer: boolean | ApprovalDecision | ApprovalResponse, config: AgentConfig): void {
  const where = `The decision for request '${request.id}' (${request.toolCall.name})`;
  if (typeof answer !== 'boolean') {
    if (answer === null || typeof answer !== 'object' || (!('respond' in answer) && typeof answer.approved !== 'boolean')) {
      throw new ResumeError('invalid-decision', `${where} is not one: give true/false, { approved: boolean, reason?, updatedInput?, stopRun? } or { respond: result }.`);
    }
    if ('respond' in answer && 'approved' in answer) throw new ResumeError('invalid-decision', `${where} both decides (approved) and responds in place of the tool (respond); give one.`);
  }
  // What the tool allows is this agent's (the one that runs the call), not what the snapshot says.
  const name = request.toolCall.name;
  const allowed = config.tools.get(name)?.approval?.allowed;
  const kind = decisionKind(answer);
  if (allowed !== undefined && !allowed.includes(kind)) {
    throw new ResumeError('invalid-decision', `${where} is ${kind}, and ${name} allows ${allowed.join(', ')} only (defineTool({ approval: { allowed } })). Decide it again with one of those.`);
  }
  if (typeof answer === 'boolean') return;
  if ('respond' in answer) {
    if (answer.respond === undefined || JSON.stringify(answer.respond) === undefined) throw new ResumeError('invalid-decision', `${where}: respond must be the call's result as plain JSON (a string, number, object, …), got ${typeof answer.respond}.`);
    return;
  }
  if (answer.reason !== undefined && typeof answer.reason !== 'string') throw new ResumeError('invalid-decision', `${where}: reason must be a string.`);
  if (answer.stopRun === true && answer.approved) throw new ResumeError('invalid-decision', `${where} approves the call and stops the run; stopRun goes with a refusal.`);
  if (answer.updatedInput === undefined) return;
  if (!answer.approved) throw new ResumeError('invalid-decision', `${where} refuses the call and edits its input; edit only an approved call.`);
  const input = answer.updatedInput;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new ResumeError('invalid-decision', `${where}: updatedInput must be an object.`);
  const schema = config.tools.get(request.toolCall.name)?.input ?? (config.subagents.has(request.toolCall.name) ? subagentInput() : undefined);
  const parsed = schema === undefined ? undefined : safeParseOf(schema, input);
  if (parsed !== undefined && !parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ResumeError('invalid-decision', `${where}: updatedInput is not an input ${request.toolCall.name} takes: ${issue.path.join('.') || '(input)'}: ${issue.message}.`);
  }
}

/** The configuration of the (sub)agent a request belongs to. */
function toolConfig(config: AgentConfig, path: readonly string[]): AgentConfig {
  let current = config;
  for (const name of path) current = current.subagents.get(name)?.config ?? current;
  return current;
}
