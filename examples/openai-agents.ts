/**
 * The OpenAI Agents SDK with agent-hooks: the hooks written for our agent guard the SDK's own run loop — its function
 * tools (`withHooks`) and its model's calls (`withModelHooks`). Here a tool hook refuses a destructive command, a
 * BeforeToolSelection hook keeps the model away from `deploy`, and an AfterModel hook redacts a secret from the
 * answer before the SDK sees it. The model is a scripted `Model` (no key, no network).
 *
 * Run it with `npx tsx examples/openai-agents.ts`.
 */
import { Agent, Runner, Usage, tool, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';
import { z } from 'zod';
import { AgentBuilder, HookOutcome } from 'agent-hooks';
import { LoopHooks, withHooks, withModelHooks } from 'agent-hooks/openai-agents';

/** The hooks, written once for any agent. */
const guards = AgentBuilder.new()
  .onBeforeToolUse((ctx) => {
    if (String(ctx.toolCall.arg('command')).includes('rm -rf')) return HookOutcome.block('Destructive command refused');
  }, { matcher: 'bash', name: 'block-rm-rf' })
  .onBeforeToolSelection((ctx) => ctx.removeTools('deploy'), { name: 'no-deploys' })
  .onAfterModel((ctx) => (ctx.response.text.includes('sk-') ? ctx.response.text.replace(/sk-\w+/g, '[redacted]') : undefined), { name: 'redact-keys' });

/** A model playing a script: a destructive command, a harmless one, then an answer that leaks a key. */
function scriptedModel(): Model & { tools: string[][] } {
  const call = (callId: string, command: string): ModelResponse => ({
    usage: new Usage({ requests: 1, inputTokens: 40, outputTokens: 12, totalTokens: 52 }),
    output: [{ type: 'function_call', callId, name: 'bash', arguments: JSON.stringify({ command }), status: 'completed' }],
  });
  const script: ModelResponse[] = [
    call('call_rm', 'rm -rf build'),
    call('call_ls', 'ls'),
    {
      usage: new Usage({ requests: 1, inputTokens: 90, outputTokens: 9, totalTokens: 99 }),
      output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Listed the files with key sk-live123; rm was refused.' }] }],
    },
  ];
  const tools: string[][] = [];
  return {
    tools,
    async getResponse(request: ModelRequest) {
      tools.push(request.tools.map((t) => t.name));
      return script.shift()!;
    },
    async *getStreamedResponse() {
      throw new Error('This example does not stream.');
    },
  };
}

/** Pretends to run a shell command: nothing is executed. */
const bash = tool({ name: 'bash', description: 'Runs a shell command', parameters: z.object({ command: z.string() }), execute: async ({ command }) => `(pretend) ${command}: ok` });
const deploy = tool({ name: 'deploy', description: 'Deploys to production', parameters: z.object({}), execute: async () => 'deployed' });

const hooks = new LoopHooks(guards);
const trace: string[] = [];
hooks.events.on('event', (ctx) => void trace.push(ctx.event));
hooks.events.on('tool:blocked', ({ toolCall, reason }) => console.log(`Blocked ${toolCall.id} ${toolCall.name}: ${reason}`));
const model = scriptedModel();
const agent = new Agent({ name: 'ops', model: withModelHooks(model, hooks), tools: withHooks([bash, deploy], hooks) });

// Tracing would export spans to OpenAI: this run keeps it off.
const result = await new Runner({ tracingDisabled: true }).run(agent, 'Clean up the build folder, then list the files.');
await hooks.drain();

console.log(`Final output: ${String(result.finalOutput)}`);
console.log(`Tools the model was offered: ${model.tools.map((names) => names.join(', ')).join(' | ')}`);
console.log(`Tokens, as the SDK counted them: ${result.state.usage.totalTokens}`);
console.log(`Our events, in the order they fired (AfterStep when the answer is in, before the SDK runs its tools):\n  ${trace.join(' → ')}`);
