/**
 * A child process of the cross-process test of step checkpoints: builds an agent whose deploy tool appends a line to
 * `<dir>/deploys.log` (a real side effect) and whose runs are kept in a FileCheckpointer in `<dir>/checkpoints`; runs
 * it to its interruption, or resumes the run kept under `release` — with `fail`, its model fails at the step after
 * the deploy — and writes what happened as JSON.
 *
 *   node --import tsx resume-checkpoint-process.ts run <dir> <out.json>
 *   node --import tsx resume-checkpoint-process.ts resume <dir> <decisions.json> <out.json> [fail]
 */
import { appendFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { AgentBuilder, FileCheckpointer, RequireApprovalHook, ScriptedModel, defineTool, type ModelRequest, type RunResult } from 'agent-hooks';

const [command, dir, ...rest] = process.argv.slice(2);
const fail = rest.includes('fail');
const deploy = defineTool({
  name: 'deploy',
  description: 'Deploys',
  input: z.object({ env: z.string() }),
  execute: ({ env }) => {
    appendFileSync(join(dir!, 'deploys.log'), `${env} by ${process.pid}\n`);
    return `deployed to ${env}`;
  },
});
const model = new ScriptedModel((request: ModelRequest) => {
  const step = request.messages.filter((m) => m.role === 'assistant').length;
  if (step === 0) return { text: 'deploying', toolCalls: [{ name: 'deploy', args: { env: 'production' }, id: 'c1' }] };
  if (fail) throw new Error('the model provider answered 503');
  return 'released';
});
const agent = AgentBuilder.new()
  .withModel(model)
  .withTools(deploy)
  .withHook(new RequireApprovalHook({ matcher: 'deploy' }))
  .withApprovalInterrupts()
  .withCheckpointer(new FileCheckpointer(join(dir!, 'checkpoints')))
  .build();

let out: unknown;
try {
  let result: RunResult;
  if (command === 'run') result = await agent.run('Ship it', { checkpointId: 'release' });
  else result = await agent.resume('release', JSON.parse(await readFile(rest[0]!, 'utf8')));
  out = { status: result.status, text: result.text, pending: result.interruption?.pending.map((p) => p.id) ?? [] };
} catch (error) {
  out = { error: `${(error as Error).name}: ${(error as Error).message}` };
}
await writeFile(command === 'run' ? rest[0]! : rest[1]!, JSON.stringify(out));
