/**
 * One process of the two-process proof on Postgres: the same agent, built the same way in each, keeps its interrupted
 * runs in a Postgres table, and its deploy tool writes a row of its own to a `deploys` table — what "the tool ran"
 * means, counted by the database rather than by either process.
 *
 *   node --import tsx postgres-proof-process.ts <url> interrupt <id>   process A: runs to the approval, saved in Postgres
 *   node --import tsx postgres-proof-process.ts <url> resume <id> [C]  process B (or C): resumes it by id, approved
 */
import pg from 'pg';
import { z } from 'zod';
import { AgentBuilder, RequireApprovalHook, ScriptedModel, defineTool } from 'agent-hooks';
import { PostgresCheckpointer } from 'agent-hooks/postgres';

const [url, command, id, name = command === 'interrupt' ? 'A' : 'B'] = process.argv.slice(2) as [string, 'interrupt' | 'resume', string, string?];
const pool = new pg.Pool({ connectionString: url });
pool.on('error', () => {});
const say = (line: string) => console.log(`process ${name} (pid ${process.pid}): ${line}`);

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploys the app',
  input: z.object({ env: z.enum(['staging', 'production']) }),
  execute: async ({ env }) => {
    await pool.query('INSERT INTO deploys (env, pid) VALUES ($1, $2)', [env, process.pid]);
    return `deployed to ${env}`;
  },
});
const model = new ScriptedModel((request) =>
  request.messages.some((m) => m.role === 'tool') ? 'Production is deployed.' : { toolCalls: [{ name: 'deploy', args: { env: 'production' } }] },
);
const checkpointer = new PostgresCheckpointer(pool, { table: 'proof_runs' });
const agent = AgentBuilder.new()
  .withModel(model)
  .withTools(deploy)
  .withHook(new RequireApprovalHook({ matcher: 'deploy', reason: (ctx) => `Deploy to ${String(ctx.toolCall.arg('env'))}?` }))
  .withApprovalInterrupts()
  .withCheckpointer(checkpointer)
  .build();

try {
  await pool.query('CREATE TABLE IF NOT EXISTS deploys (env text NOT NULL, pid integer NOT NULL)');
  if (command === 'interrupt') {
    const result = await agent.run('Deploy to production', { checkpointId: id });
    const [request] = result.interruption?.pending ?? [];
    say(`run ${result.status} at ${request?.toolCall.name} ${JSON.stringify(request?.toolCall.args)}: ${request?.reason}`);
  } else {
    const saved = await checkpointer.load(id);
    say(`loaded '${id}' from Postgres: ${saved === undefined ? 'nothing' : `${saved.pending.length} request waiting, ${saved.pending[0]!.id}`}`);
    const result = await agent.resume(id, Object.fromEntries((saved?.pending ?? []).map((p) => [p.id, true])));
    say(`run ${result.status}: ${result.text}`);
  }
} catch (error) {
  const e = error as { name: string; code?: string; message: string };
  say(`${e.name}${e.code === undefined ? '' : ` (${e.code})`}: ${e.message}`);
}
const rows = (await pool.query('SELECT id FROM proof_runs ORDER BY id')).rows.map((r: { id: string }) => r.id);
const deploys = (await pool.query('SELECT env, pid FROM deploys')).rows.map((r: { env: string; pid: number }) => `${r.env} by pid ${r.pid}`);
say(`table "proof_runs" holds [${rows.join(', ')}]; table "deploys" holds [${deploys.join(', ')}]`);
await pool.end();
