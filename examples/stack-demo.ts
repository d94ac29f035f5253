/**
 * The kernel in one screen: a HookStack built from callbacks, a reusable Hook class and matchers, and what it decides
 * for a few tool calls and a stop.
 *
 * Run it with `npx tsx examples/stack-demo.ts`.
 */
import {
  AgentState,
  BeforeToolHook,
  CompositeMatcher,
  HookOutcome,
  HookStack,
  InputPatternMatcher,
  StopHook,
  StopHookContext,
  ToolCall,
  ToolHookContext,
  ToolNameMatcher,
  type AnyHookContext,
  type Hook,
  type HookEventName,
  type NextFn,
} from 'agent-hooks';

/** A reusable Hook class: at most `limit` tool calls per agent, counted across dispatches. */
class RateLimitHook implements Hook {
  readonly events: readonly HookEventName[] = ['PreToolUse'];
  private readonly calls = new Map<string, number>();

  constructor(private readonly limit: number) {}

  handle(ctx: AnyHookContext, next: NextFn) {
    const count = (this.calls.get(ctx.state.agentId) ?? 0) + 1;
    this.calls.set(ctx.state.agentId, count);
    if (count > this.limit) return HookOutcome.stop(`Rate limit: more than ${this.limit} tool calls`);
    return next(ctx);
  }
}

const stack = new HookStack()
  // Security first: refuse destructive shell commands (a callback with a composite matcher).
  .with(
    new BeforeToolHook(() => HookOutcome.block('Destructive command refused'), {
      name: 'block-rm-rf',
      matcher: CompositeMatcher.and(new ToolNameMatcher('bash|shell'), new InputPatternMatcher(/rm\s+-rf/, { field: 'command' })),
    }),
    100,
  )
  // Rewrite: every write goes to the sandbox (returning a ToolCall rewrites the call).
  .with(
    new BeforeToolHook((ctx) => ctx.toolCall.withArg('path', `sandbox/${String(ctx.toolCall.args.path)}`), {
      name: 'sandbox-writes',
      matcher: 'write_*',
    }),
    50,
  )
  // Ask a human before anything touches the network.
  .with(new BeforeToolHook(() => HookOutcome.ask('Network access needs approval'), { name: 'ask-network', matcher: '/^(curl|fetch)$/' }), 50)
  .with(new RateLimitHook(4), 10)
  // Quality gate: keep the agent working until it says the tests pass.
  .with(
    new StopHook((ctx) => {
      if (!ctx.stopHookActive && !ctx.finalMessage?.includes('tests pass')) return HookOutcome.block('Run the tests before stopping');
    }, { name: 'tests-gate' }),
  );

const state = AgentState.create({ agentId: 'demo-agent' });
const calls = [
  ToolCall.create('bash', { command: 'ls -la' }),
  ToolCall.create('bash', { command: 'rm -rf /' }),
  ToolCall.create('write_file', { path: 'notes.md', content: 'hello' }),
  ToolCall.create('curl', { url: 'https://example.com' }),
  ToolCall.create('read_file', { path: 'README.md' }),
  ToolCall.create('read_file', { path: 'package.json' }),
];

console.log(`HookStack with ${stack.count} hooks`);
console.log(`Hooks that can run on PreToolUse for bash: ${stack.hooksFor('PreToolUse', 'bash').map((h) => `${h.name} (${h.priority})`).join(' → ')}\n`);

for (const call of calls) {
  const outcome = await stack.process(ToolHookContext.beforeToolUse(call, { state }));
  const finalCall = outcome.context && 'toolCall' in outcome.context ? outcome.context.toolCall : call;
  const changed = JSON.stringify(finalCall.args) !== JSON.stringify(call.args) ? `  args → ${JSON.stringify(finalCall.args)}` : '';
  console.log(`PreToolUse ${call.name.padEnd(10)} ${JSON.stringify(call.args).padEnd(44)} ${outcome.toString()}${changed}`);
}

for (const [finalMessage, continuationCount] of [['Done.', 0], ['Done, tests pass.', 1]] as const) {
  const ctx = StopHookContext.stop({ stopReason: 'no_tool_calls', finalMessage, continuationCount, state });
  const outcome = await stack.process(ctx);
  console.log(`Stop       ${JSON.stringify(finalMessage).padEnd(55)} ${outcome.toString()}`);
}
