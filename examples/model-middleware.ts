/**
 * Hooks around the model call. A Hook class on BeforeModel wraps the call itself, as an onion: what it does before
 * `next()` happens before the model is called, and after `await next()` the outcome's context carries the model's
 * answer. Here one middleware times every call, one retries a model that fails, one answers from a cache instead of
 * the model; BeforeToolSelection keeps the model to read-only tools, and AfterModel redacts the answer.
 */
import { z } from 'zod';
import { AgentBuilder, HookOutcome, ScriptedModel, defineTool, type AnyHookContext, type Hook, type NextFn } from 'agent-hooks';

/** Times each model call: the time spent inside `next()` is the call (and the hooks after this one). */
class ModelTimingHook implements Hook {
  readonly name = 'ModelTimingHook';
  readonly events = ['BeforeModel'] as const;
  readonly priority = 100; // outermost: it times the retries too
  readonly calls: string[] = [];

  async handle(ctx: AnyHookContext, next: NextFn): Promise<HookOutcome> {
    const started = performance.now();
    const outcome = await next();
    const answered = outcome.context?.event === 'BeforeModel' ? outcome.context.response : undefined;
    const prompt = ctx.state.messages.filter((m) => m.role === 'user').at(-1)?.content;
    this.calls.push(`${JSON.stringify(prompt)}: ${(performance.now() - started).toFixed(1)} ms → ${JSON.stringify(answered?.text ?? '')}`);
    return outcome;
  }
}

/** Makes the call again when the model throws: `next()` may run once, so the retries go through `ctx.callModel()`. */
class ModelRetryHook implements Hook {
  readonly name = 'ModelRetryHook';
  readonly events = ['BeforeModel'] as const;
  readonly priority = 50;
  retries = 0;

  constructor(private readonly maxRetries = 2) {}

  async handle(ctx: AnyHookContext, next: NextFn): Promise<HookOutcome> {
    try {
      return await next();
    } catch (error) {
      if (ctx.event !== 'BeforeModel') throw error;
      for (let attempt = 1; ; attempt++) {
        this.retries++;
        try {
          // The answer goes on as the model's own: AfterModel sees it with `synthetic` false.
          return HookOutcome.proceed(ctx.withResponse(await ctx.callModel()));
        } catch (again) {
          if (attempt >= this.maxRetries) throw again;
        }
      }
    }
  }
}

// A model that fails once with a 503, then answers; the third question is answered from the cache.
let failed = false;
const model = new ScriptedModel((request, call) => {
  if (!failed) {
    failed = true;
    throw new Error('503 Service Unavailable');
  }
  const tools = request.tools.map((t) => t.name).join(', ');
  return call === 1
    ? { text: `I may use: ${tools}.`, toolCalls: [{ name: 'read_file', args: { path: 'config.json' } }] }
    : 'The token is sk-live-1234567890; the config says debug=false.';
});
const cache = new Map([['What is the capital of France?', 'Paris.']]);
const readFile = defineTool({ name: 'read_file', description: 'Reads a file', input: z.object({ path: z.string() }), execute: () => '{"debug": false}' });
const deleteFile = defineTool({ name: 'delete_file', description: 'Deletes a file', input: z.object({ path: z.string() }), execute: () => 'deleted' });

const timing = new ModelTimingHook();
const retry = new ModelRetryHook();
const agent = AgentBuilder.new()
  .withModel(model)
  .withTools(readFile, deleteFile)
  .withModelSettings({ temperature: 0.2 })
  .withHook(timing)
  .withHook(retry)
  // Answer from the cache instead of the model: a string from BeforeModel is the answer.
  .onBeforeModel((ctx) => cache.get(ctx.request.messages.at(-1)?.content ?? ''), { priority: 200 })
  // Deterministic answers for this agent, whatever it was built with.
  .onBeforeModel((ctx) => ctx.withSettings({ temperature: 0 }))
  // Read-only tools: the model is offered these alone.
  .onBeforeToolSelection(() => ['read_file'])
  // Redact secrets from the answer before it enters the conversation.
  .onAfterModel((ctx) => ctx.response.text.replace(/sk-live-\w+/g, '[redacted]'))
  .build();

const session = agent.session();
const first = await session.run('Check the config.');
const second = await session.run('What is the capital of France?');
await session.close();

console.log(`first run   ${first.status}: ${first.text}`);
console.log(`second run  ${second.status}: ${second.text} (from the cache)`);
console.log(`model calls ${model.callCount} (one failed, ${retry.retries} retry), temperature ${model.requests.at(-1)?.settings?.temperature}`);
console.log(`tools shown ${model.requests.at(-1)?.tools.map((t) => t.name).join(', ')}`);
for (const line of timing.calls) console.log(`timed       ${line}`);
