/**
 * A tool a BeforeToolSelection hook took out of a step's selection does not run in a framework's loop either: the
 * framework looks a call up in its full tool set, so the tool wrapper refuses a call the step's model call did not
 * offer, as our agent does (ToolNotOfferedError, before PreToolUse), and the model is told why.
 */
import { generateText, stepCountIs, streamText, tool as aiTool, wrapLanguageModel } from 'ai';
import { Agent, Runner, Usage, tool as openaiTool, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { createAgent, tool as langchainTool } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ToolCall, ToolNotOfferedError, type HookEventName } from 'agent-hooks';
import { LoopHooks, hooksMiddleware, withHooks as withAiSdkHooks } from 'agent-hooks/ai-sdk';
import { withHooks as withOpenAiHooks, withModelHooks } from 'agent-hooks/openai-agents';
import { langchainMiddleware } from 'agent-hooks/langchain';
import { mockModel, mockStreamingModel, textAnswer, toolCallAnswer, toolResults } from './ai-sdk-support.js';

const NOT_OFFERED = "Tool 'bash' was not offered this step, so it was not run. Offered tools: read.";
const NONE_OFFERED = "Tool 'bash' was not offered this step, so it was not run. Offered tools: (none).";
const RM = { command: 'rm -rf /' };

/** Hooks that narrow the tools as `select` says, and record PreToolUse, PostToolUseFailure and its error. */
function narrowing(select: 'read' | 'none' | 'first-step-read') {
  const events: HookEventName[] = [];
  const failures: unknown[] = [];
  const builder = AgentBuilder.new()
    .onBeforeToolSelection((ctx) =>
      select === 'none' ? ctx.withToolConfig({ mode: 'none' }) : select === 'read' || ctx.stepIndex === 0 ? ctx.allowTools('read') : undefined,
    )
    .onBeforeToolUse((ctx) => void events.push(ctx.event))
    .onToolFailure((ctx) => {
      events.push(ctx.event);
      failures.push(ctx.error);
    });
  return { hooks: new LoopHooks(builder), events, failures };
}

describe('AI SDK (hooksMiddleware and withHooks): a call to a tool the hooks removed', () => {
  const tools = (ran: string[]) => ({
    bash: aiTool({ description: 'Runs a shell command', inputSchema: z.object({ command: z.string() }), execute: ({ command }) => (ran.push(command), `ran ${command}`) }),
    read: aiTool({ description: 'Reads a file', inputSchema: z.object({ path: z.string() }), execute: ({ path }) => `contents of ${path}` }),
  });

  it('generateText: the tool never runs, the model is told, and the events are those of our agent (PostToolUseFailure, no PreToolUse)', async () => {
    const ran: string[] = [];
    const { hooks, events, failures } = narrowing('read');
    const model = mockModel(toolCallAnswer('bash', RM), textAnswer('Done.'));
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: hooksMiddleware(hooks) }),
      tools: withAiSdkHooks(tools(ran), hooks),
      stopWhen: stepCountIs(5),
      prompt: 'Clean up',
    });
    expect(ran).toEqual([]);
    expect(model.doGenerateCalls[0]!.tools?.map((t) => t.name)).toEqual(['read']);
    expect(toolResults(model.doGenerateCalls[1]!.prompt)).toEqual([`bash: ${NOT_OFFERED}`]);
    expect(result.text).toBe('Done.');
    expect(events).toContain('PostToolUseFailure');
    expect(events).not.toContain('PreToolUse');
    expect(failures).toEqual([expect.any(ToolNotOfferedError)]);
  });

  it('generateText under tool-choice mode none: no tool is offered, and the call is refused', async () => {
    const ran: string[] = [];
    const { hooks } = narrowing('none');
    const model = mockModel(toolCallAnswer('bash', RM), textAnswer('Done.'));
    await generateText({ model: wrapLanguageModel({ model, middleware: hooksMiddleware(hooks) }), tools: withAiSdkHooks(tools(ran), hooks), stopWhen: stepCountIs(5), prompt: 'Talk' });
    expect(ran).toEqual([]);
    expect(model.doGenerateCalls[0]!.tools).toBeUndefined();
    expect(toolResults(model.doGenerateCalls[1]!.prompt)).toEqual([`bash: ${NONE_OFFERED}`]);
  });

  it('streamText (the provider stream passing through live): the tool never runs, the model is told', async () => {
    const ran: string[] = [];
    const { hooks } = narrowing('read');
    const model = mockStreamingModel([toolCallAnswer('bash', RM), textAnswer('Done.')]);
    const result = streamText({ model: wrapLanguageModel({ model, middleware: hooksMiddleware(hooks) }), tools: withAiSdkHooks(tools(ran), hooks), stopWhen: stepCountIs(5), prompt: 'Clean up' });
    expect(await result.text).toBe('Done.');
    expect(ran).toEqual([]);
    expect(toolResults(model.doStreamCalls[1]!.prompt)).toEqual([`bash: ${NOT_OFFERED}`]);
  });

  it('generateText: a call an AfterModel hook writes into the answer, or a BeforeModel hook answers with, is refused too', async () => {
    const rm = { name: 'bash', args: RM, id: 'c1' };
    const rewrites = {
      AfterModel: AgentBuilder.new()
        .onBeforeToolSelection((ctx) => ctx.allowTools('read'))
        .onAfterModel((ctx) => (ctx.stepIndex === 0 ? ctx.withToolCalls([rm]) : undefined)),
      BeforeModel: AgentBuilder.new().onBeforeModel((ctx) =>
        ctx.stepIndex === 0 ? ctx.withTools(ctx.request.tools.filter((t) => t.name === 'read')).withResponse({ text: '', toolCalls: [rm] }) : undefined,
      ),
    };
    for (const builder of Object.values(rewrites)) {
      const ran: string[] = [];
      const hooks = new LoopHooks(builder);
      const model = mockModel(textAnswer('Nothing to do.'), textAnswer('Done.'));
      await generateText({ model: wrapLanguageModel({ model, middleware: hooksMiddleware(hooks) }), tools: withAiSdkHooks(tools(ran), hooks), stopWhen: stepCountIs(5), prompt: 'go' });
      expect(ran).toEqual([]);
      expect(toolResults(model.doGenerateCalls.at(-1)!.prompt)).toEqual([`bash: ${NOT_OFFERED}`]);
    }
  });

  it('generateText: a PreToolUse hook cannot rename an offered call to a tool the step did not offer', async () => {
    const ran: string[] = [];
    const read: string[] = [];
    const hooks = new LoopHooks(
      AgentBuilder.new()
        .onBeforeToolSelection((ctx) => ctx.allowTools('read'))
        .onBeforeToolUse((ctx) => ctx.withToolCall(new ToolCall('bash', RM, ctx.toolCall.id))),
    );
    const model = mockModel(toolCallAnswer('read', { path: 'a.txt' }), textAnswer('Done.'));
    const readTool = aiTool({ description: 'Reads a file', inputSchema: z.object({ path: z.string() }), execute: ({ path }) => (read.push(path), `contents of ${path}`) });
    await generateText({
      model: wrapLanguageModel({ model, middleware: hooksMiddleware(hooks) }),
      tools: withAiSdkHooks({ ...tools(ran), read: readTool }, hooks),
      stopWhen: stepCountIs(5),
      prompt: 'go',
    });
    expect(ran).toEqual([]);
    expect(read).toEqual([]);
    expect(toolResults(model.doGenerateCalls[1]!.prompt)).toEqual([`read: ${NOT_OFFERED}`]);
  });

  it('each step is checked against its own selection: bash offered again at the next step runs', async () => {
    const ran: string[] = [];
    const { hooks } = narrowing('first-step-read');
    const model = mockModel(toolCallAnswer('bash', RM, 'c1'), toolCallAnswer('bash', { command: 'ls' }, 'c2'), textAnswer('Done.'));
    await generateText({ model: wrapLanguageModel({ model, middleware: hooksMiddleware(hooks) }), tools: withAiSdkHooks(tools(ran), hooks), stopWhen: stepCountIs(5), prompt: 'go' });
    expect(ran).toEqual(['ls']);
    expect(toolResults(model.doGenerateCalls[2]!.prompt)).toEqual([`bash: ${NOT_OFFERED}`, 'bash: ran ls']);
  });
});

describe('OpenAI Agents SDK (withModelHooks and withHooks): a call to a tool the hooks removed', () => {
  /** A model that calls bash first, whatever it is offered, then answers; it records each request. */
  function deletingModel(): Model & { requests: ModelRequest[] } {
    const requests: ModelRequest[] = [];
    const usage = () => new Usage({ requests: 1, inputTokens: 10, outputTokens: 2, totalTokens: 12 });
    const answers: ModelResponse['output'][] = [
      [{ type: 'function_call', callId: 'c1', name: 'bash', arguments: JSON.stringify(RM), status: 'completed' }],
      [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.' }] }],
    ];
    return {
      requests,
      async getResponse(request) {
        requests.push(request);
        return { usage: usage(), output: answers.shift() ?? answers[1]! };
      },
      // eslint-disable-next-line require-yield
      async *getStreamedResponse() {
        throw new Error('not streamed here');
      },
    };
  }

  it('Runner.run: the tool never runs, the run goes on, and the model is told', async () => {
    const ran: string[] = [];
    const { hooks, events, failures } = narrowing('read');
    const bash = openaiTool({ name: 'bash', description: 'Runs a shell command', parameters: z.object({ command: z.string() }), execute: ({ command }) => (ran.push(command), `ran ${command}`) });
    const read = openaiTool({ name: 'read', description: 'Reads a file', parameters: z.object({ path: z.string() }), execute: ({ path }) => `contents of ${path}` });
    const model = deletingModel();
    const agent = new Agent({ name: 'ops', model: withModelHooks(model, hooks), tools: withOpenAiHooks([bash, read], hooks) });
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'Clean up');
    expect(ran).toEqual([]);
    expect(model.requests[0]!.tools.map((t) => t.name)).toEqual(['read']);
    const outputs = (model.requests[1]!.input as { type?: string; output?: unknown }[]).filter((i) => i.type === 'function_call_result').map((i) => i.output);
    expect(outputs).toEqual([{ type: 'text', text: `Error: ${NOT_OFFERED}` }]);
    expect(result.finalOutput).toBe('Done.');
    expect(events).toContain('PostToolUseFailure');
    expect(events).not.toContain('PreToolUse');
    expect(failures).toEqual([expect.any(ToolNotOfferedError)]);
  });
});

describe('LangChain (langchainMiddleware): a call to a tool the hooks removed', () => {
  /** A chat model that calls bash first, whatever it is bound to, then answers; it records the tools bound. */
  class DeletingChatModel extends BaseChatModel {
    readonly bound: string[][] = [];
    readonly calls: BaseMessage[][] = [];
    private boundNames: string[] = [];
    private readonly answers = [new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'bash', args: RM, type: 'tool_call' }] }), new AIMessage('Done.')];
    constructor() {
      super({});
    }
    _llmType(): string {
      return 'deleting';
    }
    override bindTools(tools: { name?: string; function?: { name: string } }[]): this {
      this.boundNames = tools.map((t) => t.name ?? t.function?.name ?? '?');
      return this;
    }
    async _generate(messages: BaseMessage[]): Promise<ChatResult> {
      this.calls.push([...messages]);
      this.bound.push(this.boundNames);
      const message = this.answers.shift() ?? new AIMessage('Done.');
      return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
    }
  }

  it('createAgent: the tool never runs, and the model is told with an error ToolMessage', async () => {
    const ran: string[] = [];
    const { hooks, events, failures } = narrowing('read');
    const bash = langchainTool(async ({ command }: { command: string }) => (ran.push(command), `ran ${command}`), { name: 'bash', description: 'Runs a shell command', schema: z.object({ command: z.string() }) });
    const read = langchainTool(async ({ path }: { path: string }) => `contents of ${path}`, { name: 'read', description: 'Reads a file', schema: z.object({ path: z.string() }) });
    const model = new DeletingChatModel();
    const result = await createAgent({ model, tools: [bash, read], middleware: [langchainMiddleware(hooks)] }).invoke({ messages: [new HumanMessage('Clean up')] });
    expect(ran).toEqual([]);
    expect(model.bound[0]).toEqual(['read']);
    const refusal = result.messages.find((m) => ToolMessage.isInstance(m));
    expect(refusal).toMatchObject({ content: `Error: ${NOT_OFFERED}`, status: 'error', tool_call_id: 'c1' });
    expect(model.calls[1]!.some((m) => ToolMessage.isInstance(m) && m.content === `Error: ${NOT_OFFERED}`)).toBe(true);
    expect(String(result.messages.at(-1)!.content)).toBe('Done.');
    expect(events).toContain('PostToolUseFailure');
    expect(events).not.toContain('PreToolUse');
    expect(failures).toEqual([expect.any(ToolNotOfferedError)]);
  });
});
