/**
 * A Checkpointer of your own, on Redis: five methods over a key/value store, with `take` on GETDEL so that of two
 * processes resuming one run, one gets it. A FakeRedis stands in for a real client here. The approver decides some
 * calls at once and leaves others for later (`{ interrupt: true }`): staging deploys go, production ones wait. The
 * waiting one is then resumed by its id and refused; the model is told why, and PermissionDenied fires.
 */
import { z } from 'zod';
import { AgentBuilder, RequireApprovalHook, ScriptedModel, defineTool, type Checkpointer, type RunSnapshot } from 'agent-hooks';

/** What the checkpointer needs of a Redis client: these calls of node-redis v4 (`createClient()` from `redis`). */
interface RedisLike {
  set(key: string, value: string): Promise<unknown>;
  get(key: string): Promise<string | null>;
  getDel(key: string): Promise<string | null>;
  del(key: string): Promise<number>;
  scanIterator(options: { MATCH: string }): AsyncIterable<string>;
}

/** Stands in for `await createClient({ url }).connect()` from the `redis` package: a Map, with Redis's answers. */
class FakeRedis implements RedisLike {
  private readonly data = new Map<string, string>();
  async set(key: string, value: string): Promise<string> {
    this.data.set(key, value);
    return 'OK';
  }
  async get(key: string): Promise<string | null> {
    return this.data.get(key) ?? null;
  }
  async getDel(key: string): Promise<string | null> {
    const value = this.data.get(key) ?? null;
    this.data.delete(key);
    return value;
  }
  async del(key: string): Promise<number> {
    return this.data.delete(key) ? 1 : 0;
  }
  async *scanIterator({ MATCH }: { MATCH: string }): AsyncIterable<string> {
    const pattern = new RegExp(`^${MATCH.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
    for (const key of this.data.keys()) if (pattern.test(key)) yield key;
  }
}

/** Keeps each snapshot as JSON text under `agent-hooks:run:<id>`. */
class RedisCheckpointer implements Checkpointer {
  constructor(
    private readonly redis: RedisLike,
    private readonly prefix = 'agent-hooks:run:',
  ) {}

  async save(snapshot: RunSnapshot): Promise<void> {
    await this.redis.set(this.prefix + snapshot.id, JSON.stringify(snapshot));
  }

  async load(id: string): Promise<RunSnapshot | undefined> {
    return parse(await this.redis.get(this.prefix + id));
  }

  /** One GETDEL: Redis reads and deletes atomically, so of concurrent takers one gets the snapshot. */
  async take(id: string): Promise<RunSnapshot | undefined> {
    return parse(await this.redis.getDel(this.prefix + id));
  }

  async delete(id: string): Promise<boolean> {
    return (await this.redis.del(this.prefix + id)) > 0;
  }

  async list(): Promise<readonly string[]> {
    const ids: string[] = [];
    for await (const key of this.redis.scanIterator({ MATCH: `${this.prefix}*` })) ids.push(key.slice(this.prefix.length));
    return ids.sort();
  }
}

const parse = (text: string | null): RunSnapshot | undefined => (text === null ? undefined : (JSON.parse(text) as RunSnapshot));

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

const checkpointer = new RedisCheckpointer(new FakeRedis());
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

const result = await agent.run('Deploy to staging and production', { checkpointId: 'friday-release' });
console.log(`run: ${result.status}`);
for (const message of result.messages.filter((m) => m.role === 'tool')) console.log(`  tool result: ${message.content}`);
for (const request of result.interruption?.pending ?? []) console.log(`  pending: ${request.toolCall.name} ${JSON.stringify(request.toolCall.args)}: ${request.reason}`);
console.log(`in Redis: ${(await checkpointer.list()).join(', ')}`);

// Later — any process that reaches the same Redis — the reviewer says no.
const [pending] = result.interruption!.pending;
const resumed = await agent.resume('friday-release', { [pending!.id]: { approved: false, reason: 'no production deploys on Fridays' } });
const told = resumed.messages.find((m) => m.role === 'tool' && m.toolCallId === pending!.toolCall.id);
console.log(`the model was told: ${told?.content}`);
console.log(`resumed: ${resumed.status}: ${resumed.text}`);
console.log(`in Redis: ${JSON.stringify(await checkpointer.list())}`);
