/**
 * A reusable Hook class: it carries its own events, matcher, priority and options, so one line registers it in any
 * agent or stack. This one keeps secrets out of what the model sees: it rewrites a tool's result before later hooks
 * and the model get it, and counts what it removed.
 */
import { z } from 'zod';
import {
  AgentBuilder,
  HookStack,
  Matcher,
  ScriptedModel,
  ToolCall,
  ToolExecution,
  ToolHookContext,
  defineTool,
  type AnyHookContext,
  type Hook,
  type NextFn,
} from 'agent-hooks';

class RedactSecretsHook implements Hook {
  readonly name = 'RedactSecretsHook';
  readonly events = ['PostToolUse'] as const; // the stack runs it for these events only…
  readonly matcher = Matcher.from('read_file|bash'); // …and these tools only
  readonly priority = 100; // used when the registration names none
  redacted = 0;

  constructor(private readonly patterns: readonly RegExp[] = [/sk-[A-Za-z0-9]{20,}/g, /AKIA[0-9A-Z]{16}/g]) {}

  handle(ctx: AnyHookContext, next: NextFn) {
    if (ctx.event !== 'PostToolUse' || typeof ctx.execution?.result !== 'string') return next();
    let text = ctx.execution.result;
    for (const pattern of this.patterns) text = text.replace(pattern, () => (this.redacted++, '[redacted]'));
    // What goes to next() is what later hooks, and then the model, see.
    return next(text === ctx.execution.result ? ctx : ctx.withResult(text));
  }
}

// 1. In an agent.
const files: Record<string, string> = { '.env': 'OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwx\nDEBUG=1', 'README.md': '# Demo' };
const readFile = defineTool({
  name: 'read_file',
  description: 'Reads a file',
  input: z.object({ path: z.string() }),
  execute: ({ path }) => files[path] ?? `no such file: ${path}`,
});
const model = new ScriptedModel([{ toolCalls: [{ name: 'read_file', args: { path: '.env' } }, { name: 'read_file', args: { path: 'README.md' } }] }, 'Read both.']);
const redact = new RedactSecretsHook();

const agent = AgentBuilder.new()
  .withModel(model)
  .withTools(readFile)
  .withHook(redact)
  .onAfterToolUse((ctx) => console.log(`later hook sees   ${ctx.toolCall.args['path']}: ${JSON.stringify(ctx.execution?.result)}`), { priority: -100 })
  .build();
await agent.run('Read .env and README.md');
const seen = model.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
console.log(`the model sees    ${JSON.stringify(seen)}`);
console.log(`redacted ${redact.redacted} secret(s)`);

// 2. The same class in a bare stack, outside any agent.
const stack = new HookStack().with(new RedactSecretsHook([/hunter2/g]));
const call = ToolCall.create('bash', { command: 'cat password.txt' });
const outcome = await stack.process(ToolHookContext.afterToolUse(ToolExecution.success(call, 'password: hunter2')));
console.log(`in a HookStack    ${outcome} → ${JSON.stringify(outcome.context?.event === 'PostToolUse' ? outcome.context.execution?.result : undefined)}`);
