/**
 * The HTTP review example, driven over real HTTP: a reviewer lists the pending requests of a batch, a decision the tool
 * does not allow is refused before anything runs, and approve, edit, refuse and respond resume the run with exactly
 * the side effects they allow.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryCheckpointer } from 'agent-hooks';
import { buildAgent, effects, reviewServer } from '../../examples/approval-review-server.js';

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
  effects.length = 0;
});

async function serve() {
  const checkpointer = new MemoryCheckpointer();
  const agent = buildAgent(checkpointer);
  const server = reviewServer(agent, checkpointer).listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { agent, checkpointer, base };
}

type Pending = { run: string; id: string; tool: string; args: Record<string, unknown>; reason: string; allowed: string[] };

describe('the HTTP review example', () => {
  it('lists a batch’s requests, refuses a disallowed decision, and resumes with approve, edit, refuse and respond', async () => {
    const { agent, checkpointer, base } = await serve();
    const first = await agent.run('Ship the release', { checkpointId: 'release-7' });
    expect(first.status).toBe('interrupted');

    const listed = await fetch(`${base}/requests`);
    expect(listed.status).toBe(200);
    const requests = (await listed.json()) as Pending[];
    expect(requests.map((r) => [r.run, r.tool, r.args, r.allowed])).toEqual([
      ['release-7', 'deploy', { env: 'production' }, ['approve', 'reject']],
      ['release-7', 'notify', { channel: '#general', text: 'Deploying now' }, ['approve', 'edit', 'reject', 'respond']],
      ['release-7', 'deploy', { env: 'staging' }, ['approve', 'reject']],
      ['release-7', 'lookup', { team: 'payments' }, ['approve', 'edit', 'reject', 'respond']],
    ]);
    const [prod, post, staging, oncall] = requests as [Pending, Pending, Pending, Pending];
    const decide = (decisions: unknown) => fetch(`${base}/runs/release-7/decisions`, { method: 'POST', body: JSON.stringify(decisions) });

    // deploy allows approve and reject: an edit is refused, nothing runs, and the run still waits.
    const refused = await decide({ [prod.id]: { approved: true, updatedInput: { env: 'staging' } }, [post.id]: true, [staging.id]: true, [oncall.id]: true });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'invalid-decision', message: expect.stringContaining('deploy allows approve, reject only') });
    expect(effects).toEqual([]);
    expect(await checkpointer.list()).toEqual(['release-7']);

    const bad = await fetch(`${base}/runs/release-7/decisions`, { method: 'POST', body: '{not json' });
    expect(bad.status).toBe(400);

    const decided = await decide({
      [prod.id]: { approved: false, reason: 'production is frozen until Monday' },
      [post.id]: { approved: true, updatedInput: { channel: '#releases', text: 'Deploying to staging' } },
      [staging.id]: true,
      [oncall.id]: { respond: 'on call for payments: Dana' },
    });
    expect(decided.status).toBe(200);
    expect(await decided.json()).toEqual({
      status: 'completed',
      text: 'Done: Tool call refused: production is frozen until Monday | posted to #releases | deployed to staging | on call for payments: Dana',
      pending: [],
    });
    // The refused deploy and the answered lookup did not run; the edited post ran with the reviewer's input.
    expect(effects).toEqual(['notify #releases: Deploying to staging', 'deploy staging']);

    const again = await decide({ [prod.id]: true });
    expect(again.status).toBe(404);
    expect(((await again.json()) as { code: string }).code).toBe('not-found');
    expect(await (await fetch(`${base}/requests`)).json()).toEqual([]);
    expect(effects).toHaveLength(2);
  });
});
