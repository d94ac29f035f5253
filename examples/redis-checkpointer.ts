/**
 * Approvals kept in Redis: `RedisCheckpointer` on a node-redis client you make (and close). The approver decides some
 * calls at once and leaves others for later (`{ interrupt: true }`): staging deploys go, production ones wait, their
 * run saved in Redis under its id. Any process that reaches the same Redis can then resume it by that id, once: `take`
 * is one GETDEL. Here the reviewer refuses; the model is told why, and PermissionDenied fires.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 npx tsx examples/redis-checkpointer.ts
 *
 * (Redis 6.2 or later; `redis-server --port 6379`, or `docker run -p 6379:6379 redis`.)
 */
import { createClient } from 'redis';
import { z } from 'zod';
import { AgentBuilder, RequireApprovalHook, ScriptedModel, defineTool } from 'agent-hooks';
import { RedisCheckpointer } from 'agent-hooks/redis';

const url = process.env['REDIS_URL'];
if (url === undefined) {
  console.log('REDIS_URL is not set: start Redis (redis-server, or docker run -p 6379:6379 redis) and run with REDIS_URL=redis://127.0.0.1:6379.');
  process.exit(1);
}

// Your client, your connection: the checkpointer opens none of its own. node-redis wants an error listener.
const redis = await createClient({ url })
  .on('error', (error: Error) => console.error(`redis: ${error.message}`))
  .connect();

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploys the app',
  input: z.object({ env: z.enum(['staging', 'production']) }),
  execute: ({ env }) => `deployed to ${env}`,
});

// The model answers from the conversation: once both deploys have an answer, it sums them up.
const model = new ScriptedModel((request) => {
  const answers = request.messages.filter((m) => m.role === 'tool');
  if (answers.length === 2) return `Staging is live; production was refused (${answers[1]!.content.replace('Tool call refused: ', '')}).`;
  return { toolCalls: [{ name: 'deploy', args: { env: 'staging' } }, { name: 'deploy', args: { env: 'production' } }] };
});

// Keys `example:run:<id>`; the default prefix is `agent-hooks:run:`.
const checkpointer = new RedisCheckpointer(redis, { prefix: 'example:run:' });
const agent = AgentBuilder.new()
  .withModel(model)
  .withTools(deploy)
  .withHook(new RequireApprovalHook({ matcher: 'deploy', reason: (ctx) => `Deploy to ${ctx.toolCall.arg('env')}?` }))
  // Staging is approved on the spot; production waits for a person.
  .withApprover(({ toolCall, reason }) => {
    const later = toolCall.arg('env') === 'production';
    console.log(`approver: ${reason} → ${later ? 'later' : 'yes'}`);
    return later ? { interrupt: true } : true;
  })
  .onPermissionDenied((ctx) => console.log(`PermissionDenied hook: ${ctx.toolCall.name} ${JSON.stringify(ctx.toolCall.args)}: ${ctx.permissionReason}`))
  .withCheckpointer(checkpointer)
  .build();

try {
  const result = await agent.run('Deploy to staging and production', { checkpointId: 'friday-release' });
  console.log(`run: ${result.status}`);
  for (const message of result.messages.filter((m) => m.role === 'tool')) console.log(`  tool result: ${message.content}`);
  for (const request of result.interruption?.pending ?? []) console.log(`  pending: ${request.toolCall.name} ${JSON.stringify(request.toolCall.args)}: ${request.reason}`);
  console.log(`in Redis: ${(await checkpointer.list()).join(', ')} (key ${(await redis.keys('example:run:*')).join(', ')})`);

  // Later — any process that reaches the same Redis — the reviewer says no.
  const saved = await checkpointer.load('friday-release');
  const [pending] = saved!.pending;
  const resumed = await agent.resume('friday-release', { [pending!.id]: { approved: false, reason: 'no production deploys on Fridays' } });
  const told = resumed.messages.find((m) => m.role === 'tool' && m.toolCallId === pending!.toolCall.id);
  console.log(`the model was told: ${told?.content}`);
  console.log(`resumed: ${resumed.status}: ${resumed.text}`);
  console.log(`in Redis: ${JSON.stringify(await checkpointer.list())}`);
} finally {
  redis.destroy();
}
