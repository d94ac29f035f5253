/**
 * A review service for interrupted runs, on node:http alone: reviewers list the requests that wait and decide them —
 * approve, edit the input, refuse, or respond in place of the tool — and the run goes on. The agent reviews whole
 * batches (`withApprovalInterrupts({ batch: true })`), so the four calls of its step wait together; its `deploy` tool
 * allows approve and reject only (`approval: { allowed }`), so an edited deploy is refused before anything runs.
 *
 *   GET  /requests                → [{ run, id, tool, args, reason, allowed }]: every pending request of every run
 *   POST /runs/<run>/decisions    → body { "<request id>": true | false | { approved, reason?, updatedInput? } | { respond } }
 *                                   resumes the run: { status, text, pending }; a refused resume is
 *                                   { code, message } with 400 (the decisions), 404 (no such run) or 409 (resumed already)
 *
 * Send reviewers the pending requests, never the snapshot: the snapshot stays in the checkpointer, and a reviewer's
 * answer reaches the run only as a decision. Put this behind your own authentication: whoever reaches it decides.
 *
 * Run directly, it starts a run, serves on a free port, and plays the reviewer with fetch.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { AgentBuilder, MemoryCheckpointer, RequireApprovalHook, ResumeError, ScriptedModel, defineTool, type Agent, type ApprovalDecisions, type Checkpointer } from 'agent-hooks';

/** What the agent's tools really did: a test counts the side effects here. */
export const effects: string[] = [];

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploys the app',
  input: z.object({ env: z.enum(['staging', 'production']) }),
  execute: ({ env }) => {
    effects.push(`deploy ${env}`);
    return `deployed to ${env}`;
  },
  // A deploy is approved or refused as it is: no edited target, no answer in its place.
  approval: { allowed: ['approve', 'reject'] },
});

const notify = defineTool({
  name: 'notify',
  description: 'Posts to the team channel',
  input: z.object({ channel: z.string(), text: z.string() }),
  execute: ({ channel, text }) => {
    effects.push(`notify ${channel}: ${text}`);
    return `posted to ${channel}`;
  },
});

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks up the on-call engineer',
  input: z.object({ team: z.string() }),
  execute: ({ team }) => {
    effects.push(`lookup ${team}`);
    return `on call for ${team}: (from the pager)`;
  },
});

/** The agent: one step of four calls that all need approval, then a summary of what came back. */
export function buildAgent(checkpointer: Checkpointer): Agent {
  return AgentBuilder.new()
    .withModel(
      new ScriptedModel((request) => {
        const results = request.messages.filter((m) => m.role === 'tool').map((m) => m.content);
        if (results.length > 0) return `Done: ${results.join(' | ')}`;
        return {
          toolCalls: [
            { name: 'deploy', args: { env: 'production' }, id: 'c1' },
            { name: 'notify', args: { channel: '#general', text: 'Deploying now' }, id: 'c2' },
            { name: 'deploy', args: { env: 'staging' }, id: 'c3' },
            { name: 'lookup', args: { team: 'payments' }, id: 'c4' },
          ],
        };
      }),
    )
    .withTools(deploy, notify, lookup)
    .withHook(new RequireApprovalHook({ matcher: '*', reason: (ctx) => `${ctx.toolCall.name} needs a reviewer` }))
    .withApprovalInterrupts({ batch: true })
    .withCheckpointer(checkpointer)
    .build();
}

/** The review service over `agent`'s interrupted runs, kept in `checkpointer`. */
export function reviewServer(agent: Agent, checkpointer: Checkpointer): Server {
  return createServer((req, res) => {
    handle(agent, checkpointer, req, res).catch((error: unknown) => send(res, 500, { code: 'error', message: String(error) }));
  });
}

async function handle(agent: Agent, checkpointer: Checkpointer, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://review.invalid');
  if (req.method === 'GET' && url.pathname === '/requests') {
    const requests = [];
    for (const run of await checkpointer.list()) {
      const snapshot = await checkpointer.load(run);
      for (const p of snapshot?.pending ?? []) {
        requests.push({ run, id: p.id, tool: p.toolCall.name, args: p.toolCall.args, reason: p.reason, allowed: p.allowed, subagentPath: p.subagentPath });
      }
    }
    return send(res, 200, requests);
  }
  const decide = /^\/runs\/([^/]+)\/decisions$/.exec(url.pathname);
  if (req.method === 'POST' && decide !== null) {
    let decisions: ApprovalDecisions;
    try {
      decisions = JSON.parse(await body(req)) as ApprovalDecisions;
    } catch {
      return send(res, 400, { code: 'invalid-json', message: 'The body must be JSON: { "<request id>": decision }.' });
    }
    try {
      const result = await agent.resume(decodeURIComponent(decide[1]!), decisions);
      return send(res, 200, { status: result.status, text: result.text, pending: result.interruption?.pending ?? [] });
    } catch (error) {
      if (!(error instanceof ResumeError)) throw error;
      const status = error.code === 'not-found' ? 404 : error.code === 'already-resumed' ? 409 : 400;
      return send(res, status, { code: error.code, message: error.message });
    }
  }
  send(res, 404, { code: 'no-route', message: `No ${req.method} ${url.pathname}: GET /requests, POST /runs/<run>/decisions.` });
}

function send(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    // A review is a few decisions: a larger body is not one.
    if (text.length > 1_000_000) throw new Error('body too large');
  }
  return text;
}

async function main(): Promise<void> {
  const checkpointer = new MemoryCheckpointer();
  const agent = buildAgent(checkpointer);
  const first = await agent.run('Ship the release', { checkpointId: 'release-7' });
  console.log(`run: ${first.status}, ${first.interruption?.pending.length} requests wait, nothing ran (${effects.length} effects)`);

  const server = reviewServer(agent, checkpointer).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const requests = (await (await fetch(`${base}/requests`)).json()) as { run: string; id: string; tool: string; args: unknown; allowed: string[] }[];
    for (const r of requests) console.log(`  ${r.tool} ${JSON.stringify(r.args)} (allowed: ${r.allowed.join(', ')})`);
    const [prod, post, staging, oncall] = requests;
    const decideWith = (decisions: unknown) => fetch(`${base}/runs/release-7/decisions`, { method: 'POST', body: JSON.stringify(decisions) });

    // An edited deploy: deploy allows approve and reject only, so nothing runs and the run still waits.
    const refused = await decideWith({ [prod!.id]: { approved: true, updatedInput: { env: 'staging' } }, [post!.id]: true, [staging!.id]: true, [oncall!.id]: true });
    console.log(`edit a deploy: ${refused.status} ${((await refused.json()) as { code: string }).code}`);

    const decided = await decideWith({
      [prod!.id]: { approved: false, reason: 'production is frozen until Monday' },
      [post!.id]: { approved: true, updatedInput: { channel: '#releases', text: 'Deploying to staging' } },
      [staging!.id]: true,
      [oncall!.id]: { respond: 'on call for payments: Dana' },
    });
    const result = (await decided.json()) as { status: string; text: string };
    console.log(`decide: ${decided.status} ${result.status}\n  ${result.text}`);
    console.log(`effects: ${effects.join('; ')}`);
    const again = await decideWith({ [prod!.id]: true });
    console.log(`decide again: ${again.status} ${((await again.json()) as { code: string }).code}`);
  } finally {
    server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
