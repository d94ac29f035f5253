/**
 * The Vercel AI SDK with agent-hooks: one set of hooks guards our agent running on an AI SDK model, and a
 * `generateText` loop of your own. Both run on a scripted mock model (no key, no network); with OPENAI_API_KEY set,
 * the loop also runs against OpenAI (OPENAI_MODEL, default gpt-4.1-mini).
 *
 * Run it with `npx tsx examples/ai-sdk.ts`.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { AgentBuilder, HookOutcome, defineTool } from 'agent-hooks';
import { LoopHooks, aiSdkModel, hooksMiddleware, withHooks } from 'agent-hooks/ai-sdk';

/** The hooks, written once: refuse `rm -rf`, keep every command in the sandbox, and trace what happens. */
function withGuards(builder: AgentBuilder): AgentBuilder {
  return builder
    .onBeforeToolUse(
      (ctx) => {
        if (String(ctx.toolCall.arg('command')).includes('rm -rf')) return HookOutcome.block('Destructive command refused');
      },
      { matcher: 'bash', priority: 100, name: 'block-rm-rf' },
    )
    .onBeforeToolUse((ctx) => ctx.toolCall.withArg('command', `cd sandbox && ${String(ctx.toolCall.arg('command'))}`), { matcher: 'bash', name: 'sandbox' })
    .onAfterToolUse((ctx) => console.log(`  PostToolUse  ${ctx.toolCall.id} ${ctx.toolName} → ${String(ctx.execution?.result)}`))
    .onBeforeStep((ctx) => console.log(`  BeforeStep   step ${ctx.stepNumber}`))
    .onAfterStep((ctx) => console.log(`  AfterStep    step ${ctx.stepNumber}: ${ctx.step?.toolCalls.length ?? 0} tool call(s), ${ctx.step?.usage?.totalTokens ?? 0} tokens`));
}

/** Pretends to run a shell command: nothing is executed. */
const pretend = (command: string) => `(pretend) ${command}: ok`;

/** A mock model that lists the files, tries to delete the build folder, then sums up. */
function scriptedModel(): MockLanguageModelV3 {
  const usage = (input: number, output: number) => ({
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  });
  const call = (id: string, command: string) => ({
    content: [{ type: 'tool-call' as const, toolCallId: id, toolName: 'bash', input: JSON.stringify({ command }) }],
    finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
    usage: usage(40, 12),
    warnings: [],
  });
  return new MockLanguageModelV3({
    doGenerate: [
      call('call_ls', 'ls'),
      call('call_rm', 'rm -rf build'),
      { content: [{ type: 'text', text: 'Listed the files; deleting build was refused.' }], finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(90, 9), warnings: [] },
    ],
  });
}

const prompt = 'List the files, then delete the build folder.';

// 1. Our agent, on an AI SDK model: every lifecycle event fires, as on any other model.
console.log('Our agent on aiSdkModel(model):');
const agent = withGuards(AgentBuilder.new())
  .withModel(aiSdkModel(scriptedModel()))
  .withTools(defineTool({ name: 'bash', description: 'Runs a shell command', input: z.object({ command: z.string() }), execute: ({ command }) => pretend(command) }))
  .build();
agent.events.on('tool:blocked', ({ toolCall, reason }) => console.log(`  blocked      ${toolCall.id} ${toolCall.name}: ${reason}`));
const result = await agent.run(prompt);
console.log(`  → ${result.status}: ${result.text} (${result.usage?.totalTokens} tokens)`);

// 2. Your own generateText loop: the same hooks around the AI SDK tools (withHooks) and the model calls (hooksMiddleware).
async function ownLoop(label: string, model: Parameters<typeof wrapLanguageModel>[0]['model']): Promise<void> {
  console.log(`\nYour own generateText loop (${label}):`);
  const hooks = new LoopHooks(withGuards(AgentBuilder.new()));
  hooks.events.on('tool:blocked', ({ toolCall, reason }) => console.log(`  blocked      ${toolCall.id} ${toolCall.name}: ${reason}`));
  const bash = tool({ description: 'Runs a shell command', inputSchema: z.object({ command: z.string() }), execute: async ({ command }) => pretend(command) });
  const { text, steps } = await generateText({
    model: wrapLanguageModel({ model, middleware: hooksMiddleware(hooks) }),
    tools: withHooks({ bash }, hooks),
    stopWhen: [stepCountIs(6), () => hooks.stopReason !== undefined],
    prompt,
  });
  await hooks.drain();
  console.log(`  → ${steps.length} steps: ${text}`);
}

await ownLoop('scripted mock model', scriptedModel());

const apiKey = process.env['OPENAI_API_KEY'];
if (apiKey === undefined || apiKey === '') {
  console.log('\nOPENAI_API_KEY is not set: skipped the run against a real model. Set it to run the loop against OpenAI.');
} else {
  const modelId = process.env['OPENAI_MODEL'] ?? 'gpt-4.1-mini';
  await ownLoop(`OpenAI ${modelId}`, createOpenAI({ apiKey })(modelId));
}
