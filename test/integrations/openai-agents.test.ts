import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Agent, Runner, Usage, tool, webSearchTool, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';
import { AgentBuilder, HookOutcome, HookStack, BeforeToolHook, ToolHookContext, type AnyHookContext } from 'agent-hooks';
import { LoopHooks, withHooks } from 'agent-hooks/openai-agents';
import { tempDir } from '../support/script-fixture.js';
import { writeProjectHooks } from './ai-sdk-support.js';

// The projects here are the tests' own: they opt in with trust: 'all' (trust itself is tested in test/script/trust.test.ts).

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A model playing `answers` in order, recording each request. */
function scriptedModel(...answers: ModelResponse[]): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    async getResponse(request) {
      requests.push(request);
      const answer = answers.shift();
      if (answer === undefined) throw new Error('no more scripted answers');
      return answer;
    },
    async *getStreamedResponse() {
      throw new Error('not scripted');
    },
  };
}

const callAnswer = (name: string, args: Record<string, unknown>, callId = 'call-1'): ModelResponse => ({
  usage: new Usage(),
  output: [{ type: 'function_call', callId, name, arguments: JSON.stringify(args), status: 'completed' }],
});

const textAnswer = (text: string): ModelResponse => ({
  usage: new Usage(),
  output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] }],
});

const outputText = (output: unknown): string =>
  typeof output === 'string' ? output : (output as { type?: string; text?: string }).type === 'text' ? String((output as { text: string }).text) : JSON.stringify(output);

/** What the model was told each call returned, as `callId: output`. */
const toolOutputs = (request: ModelRequest | undefined): string[] =>
  (Array.isArray(request?.input) ? request.input : []).flatMap((item) =>
    item.type === 'function_call_result' ? [`${item.callId}: ${outputText(item.output)}`] : [],
  );

function bashTool() {
  const execute = vi.fn(async ({ command }: { command: string }) => `ran ${command}`);
  return { execute, bash: tool({ name: 'bash', description: 'Runs a shell command', parameters: z.object({ command: z.string() }), execute }) };
}

// Tracing would export spans to OpenAI: every run here keeps it off.
const runner = () => new Runner({ tracingDisabled: true });

describe('withHooks around OpenAI Agents SDK tools, in a real run', () => {
  it('a PreToolUse callback blocks bash: the tool never runs, and the next model call sees the refusal', async () => {
    const { bash, execute } = bashTool();
    const model = scriptedModel(callAnswer('bash', { command: 'rm -rf /' }, 'call-rm'), textAnswer('I will not.'));
    const seen: AnyHookContext[] = [];
    const builder = AgentBuilder.new().onBeforeToolUse(
      (ctx) => {
        seen.push(ctx);
        if (String(ctx.toolCall.arg('command')).includes('rm -rf')) return HookOutcome.block('Destructive command refused');
      },
      { matcher: 'bash' },
    );
    const agent = new Agent({ name: 'ops', model, tools: withHooks([bash], builder) });

    const result = await runner().run(agent, 'Clean up');

    expect(result.finalOutput).toBe('I will not.');
    expect(execute).not.toHaveBeenCalled();
    expect(toolOutputs(model.requests[1])).toEqual(['call-rm: Tool call blocked by a hook: Destructive command refused']);
    expect(seen[0]).toBeInstanceOf(ToolHookContext);
    expect((seen[0] as ToolHookContext).toolCall.id).toBe('call-rm');
  });

  it('a HOOK.md script hook rewrites the input, which the tool validates and receives', async () => {
    const { dir, cleanup } = await tempDir('agent-hooks-openai-');
    cleanups.push(cleanup);
    await writeProjectHooks(dir, {
      sandbox: { frontmatter: 'trigger: before_tool', script: `cat > /dev/null; echo '{"decision":"allow","modified_input":{"command":"ls sandbox"}}'` },
    });
    const { bash, execute } = bashTool();
    const model = scriptedModel(callAnswer('bash', { command: 'ls' }), textAnswer('Listed.'));
    const hooks = new LoopHooks(AgentBuilder.new().withHooksFrom({ projectDir: dir, trust: 'all', userDir: false }));

    await runner().run(new Agent({ name: 'ops', model, tools: withHooks([bash], hooks) }), 'List');

    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute.mock.calls[0]![0]).toEqual({ command: 'ls sandbox' });
    expect(toolOutputs(model.requests[1])).toEqual(['call-1: ran ls sandbox']);
  });

  it('a PostToolUse hook replaces the result; the tool’s own error text is what PostToolUse sees when it fails', async () => {
    const failing = tool({
      name: 'fail',
      description: 'Fails',
      parameters: z.object({}),
      execute: async (): Promise<string> => {
        throw new Error('disk on fire');
      },
    });
    const { bash } = bashTool();
    const results: unknown[] = [];
    const builder = AgentBuilder.new()
      .onAfterToolUse((ctx) => void results.push(ctx.execution!.result))
      .onAfterToolUse((ctx) => ctx.execution!.withResult('[redacted]'), { matcher: 'bash' });
    const model = scriptedModel(callAnswer('bash', { command: 'cat .env' }, 'c1'), callAnswer('fail', {}, 'c2'), textAnswer('ok'));

    await runner().run(new Agent({ name: 'ops', model, tools: withHooks([bash, failing], builder) }), 'go');

    expect(toolOutputs(model.requests[2])).toEqual(['c1: [redacted]', expect.stringMatching(/^c2: An error occurred while running the tool/)]);
    // PostToolUse sees the text the tool's errorFunction made of the error, which the model reads: the SDK's default
    // adds the error's message up to 0.19, not from 0.20 on.
    expect(`c2: ${String(results[1])}`).toBe(toolOutputs(model.requests[2])[1]);
  });

  it('fires PostToolUseFailure for a tool defined with errorFunction: null, whose error fails the run as the SDK does', async () => {
    const failing = tool({
      name: 'fail',
      description: 'Fails',
      parameters: z.object({}),
      errorFunction: null,
      execute: async (): Promise<string> => {
        throw new Error('disk on fire');
      },
    });
    const failures: string[] = [];
    const builder = AgentBuilder.new().onToolFailure((ctx) => void failures.push(ctx.errorMessage!));
    const model = scriptedModel(callAnswer('fail', {}), textAnswer('never'));

    await expect(runner().run(new Agent({ name: 'ops', model, tools: withHooks([failing], builder) }), 'go')).rejects.toThrow(/disk on fire/);
    expect(failures).toEqual(['disk on fire']);
  });

  it('refuses a call a hook asked about when there is no approver, and leaves hosted tools unchanged', async () => {
    const { bash, execute } = bashTool();
    const search = webSearchTool();
    const stack = new HookStack().with(new BeforeToolHook(() => HookOutcome.ask('network access'), { matcher: 'bash' }));
    const model = scriptedModel(callAnswer('bash', { command: 'curl x' }), textAnswer('ok'));

    const tools = withHooks([bash, search], stack);
    expect(tools[1]).toBe(search);
    await runner().run(new Agent({ name: 'ops', model, tools: [tools[0]!] }), 'go');

    expect(execute).not.toHaveBeenCalled();
    expect(toolOutputs(model.requests[1])).toEqual(['call-1: Tool call refused: approval needed (network access) and no approver was given']);
  });
});
