/**
 * The README's guard (a HOOK.md that refuses `rm -rf`, and its script) in a fresh project, loaded through
 * `withHooksFrom` into a framework's loop: until the user trusts it, it does not run — and the integration says so on
 * stderr once per `LoopHooks`, as our agent does (unless `stderrNotice: false`), or, with `strict: true`, the
 * framework's call rejects before any model call or tool runs. Real files, a real trust store in a temporary home, the
 * real SDK packages.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateText, stepCountIs, streamText, tool as aiTool, wrapLanguageModel } from 'ai';
import { Agent, Runner, Usage, tool as openaiTool, type Model, type ModelRequest } from '@openai/agents';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { createAgent, tool as langchainTool } from 'langchain';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, TrustStore, UntrustedHooksError, loadAllHookConfigs, type AgentWarning, type WithHooksFromOptions } from 'agent-hooks';
import { LoopHooks, hooksMiddleware, withHooks as withAiSdkHooks } from 'agent-hooks/ai-sdk';
import { withHooks as withOpenAiHooks, withModelHooks } from 'agent-hooks/openai-agents';
import { langchainMiddleware } from 'agent-hooks/langchain';
import { tempDir, writeExecutable } from '../support/script-fixture.js';
import { mockModel, textAnswer, toolCallAnswer, toolResults } from './ai-sdk-support.js';

/** The README's HOOK.md, as a newcomer copies it. */
const HOOK_MD = `---
name: no-recursive-delete
description: Refuses rm -rf.
trigger: pre-tool-call
matcher:
  tool: Shell          # the shell of every agent: Bash, bash, run_shell_command, …
  pattern: rm\\s+-rf
---
`;
const SCRIPT = '#!/bin/sh\necho "rm -rf is refused" >&2\nexit 2\n';
const RM = { command: 'rm -rf /' };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A fresh project with the README's guard, and a home of its own (its trust store starts empty). */
async function freshProject() {
  const { dir, cleanup } = await tempDir('agent-hooks-untrusted-frameworks-');
  cleanups.push(cleanup);
  const project = join(dir, 'project');
  const home = join(dir, 'home');
  const hookDir = join(project, '.agents', 'hooks', 'no-recursive-delete');
  await mkdir(join(hookDir, 'scripts'), { recursive: true });
  await mkdir(home, { recursive: true });
  await writeFile(join(hookDir, 'HOOK.md'), HOOK_MD);
  await writeExecutable(join(hookDir, 'scripts', 'run'), SCRIPT);
  const hostEnv = { HOME: home };
  const sources: WithHooksFromOptions = { projectDir: project, homeDir: home, hostEnv, userDir: false };
  const trust = async () => {
    const { trustChecks } = await loadAllHookConfigs(project, { homeDir: home, hostEnv, userDir: false });
    await TrustStore.forUser({ hostEnv }).trust(trustChecks.map((c) => c.fingerprint));
  };
  return { project, sources, trust, hookMd: join(hookDir, 'HOOK.md') };
}

let stderr: MockInstance<typeof process.stderr.write>;
beforeEach(() => {
  stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => stderr.mockRestore());
const notices = () => stderr.mock.calls.map((c) => String(c[0])).filter((line) => line.startsWith('agent-hooks:'));

/** What `promise` rejected with; `undefined` when it resolved. */
const rejection = (promise: PromiseLike<unknown>): Promise<unknown> =>
  Promise.resolve(promise).then(
    () => undefined,
    (e: unknown) => e,
  );

/** A `generateText` loop whose model asks for `rm -rf /`, with the middleware and a shell that records what it ran. */
function aiSdkLoop(hooks: LoopHooks) {
  const ran: string[] = [];
  const bash = aiTool({ description: 'Runs a shell command', inputSchema: z.object({ command: z.string() }), execute: ({ command }) => (ran.push(command), 'ok') });
  const model = mockModel(toolCallAnswer('bash', RM, 'c1'), textAnswer('Done.'), toolCallAnswer('bash', RM, 'c2'), textAnswer('Done.'));
  const call = () => generateText({ model: wrapLanguageModel({ model, middleware: hooksMiddleware(hooks) }), tools: withAiSdkHooks({ bash }, hooks), stopWhen: stepCountIs(5), prompt: 'Clean up' });
  return { ran, model, call };
}

describe('AI SDK: an untrusted project guard', () => {
  it('is said once per LoopHooks on stderr — the hook, its file and the command to trust it — not once per call', async () => {
    const { sources, project, hookMd } = await freshProject();
    const hooks = new LoopHooks(AgentBuilder.new().withHooksFrom(sources));
    const { ran, call } = aiSdkLoop(hooks);
    await call();
    await call();
    expect(ran).toEqual(['rm -rf /', 'rm -rf /']);
    const said = notices();
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("'no-recursive-delete'");
    expect(said[0]).toContain(hookMd);
    expect(said[0]).toContain('not trusted yet');
    expect(said[0]).toContain(`run 'npx agent-hooks trust' in ${project}`);
    expect(said[0]!.trimEnd().split('\n')).toHaveLength(1);
  });

  it('is said by the tools alone too (withHooks without the middleware), at their first call', async () => {
    const { sources } = await freshProject();
    const ran: string[] = [];
    const bash = aiTool({ description: 'Runs', inputSchema: z.object({ command: z.string() }), execute: ({ command }) => (ran.push(command), 'ok') });
    await generateText({ model: mockModel(toolCallAnswer('bash', RM), textAnswer('Done.')), tools: withAiSdkHooks({ bash }, AgentBuilder.new().withHooksFrom(sources)), stopWhen: stepCountIs(5), prompt: 'Clean up' });
    expect(ran).toEqual(['rm -rf /']);
    expect(notices()).toEqual([expect.stringContaining("'no-recursive-delete'")]);
  });

  it('is left off stderr with stderrNotice: false, and still reaches the warning events and ready()', async () => {
    const { sources } = await freshProject();
    const hooks = new LoopHooks(AgentBuilder.new().withHooksFrom({ ...sources, stderrNotice: false }));
    const warnings: AgentWarning[] = [];
    hooks.events.on('warning', (w) => warnings.push(w));
    expect((await hooks.ready()).problems.map((p) => p.code)).toEqual(['untrusted-hook']);
    await aiSdkLoop(hooks).call();
    expect(notices()).toEqual([]);
    expect(warnings.map((w) => w.code)).toEqual(['hook-problem:untrusted-hook']);
  });

  it('with strict: true, generateText and streamText reject with UntrustedHooksError before the model is called or a tool runs', async () => {
    const { sources, project } = await freshProject();
    const hooks = new LoopHooks(AgentBuilder.new().withHooksFrom({ ...sources, strict: true }));
    await expect(hooks.ready()).rejects.toBeInstanceOf(UntrustedHooksError);
    const warnings: AgentWarning[] = [];
    hooks.events.on('warning', (w) => warnings.push(w));
    const { ran, model, call } = aiSdkLoop(hooks);
    const error = await rejection(call());
    expect(error).toBeInstanceOf(UntrustedHooksError);
    expect((error as Error).message).toContain("'no-recursive-delete'");
    expect((error as Error).message).toContain(`'npx agent-hooks trust' in ${project}`);

    // streamText ends on an `error` part holding it (its `text` rejects with the SDK's NoOutputGeneratedError).
    const errors: unknown[] = [];
    const streamed = streamText({ model: wrapLanguageModel({ model, middleware: hooksMiddleware(hooks) }), prompt: 'Clean up', onError: ({ error }) => void errors.push(error) });
    await rejection(streamed.text);
    expect(errors).toEqual([expect.any(UntrustedHooksError)]);
    expect(model.doGenerateCalls).toEqual([]);
    expect(model.doStreamCalls).toEqual([]);
    expect(ran).toEqual([]);
    expect(hooks.failure).toBeInstanceOf(UntrustedHooksError);
    expect(warnings).toEqual([expect.objectContaining({ code: 'hook-failed', message: expect.stringContaining('(the hook sources did not load: the run was ended)') })]);
  });

  it('once trusted, runs and blocks the call, and nothing is said on stderr (strict: true too)', async () => {
    for (const strict of [false, true]) {
      const { sources, trust } = await freshProject();
      await trust();
      const { ran, model, call } = aiSdkLoop(new LoopHooks(AgentBuilder.new().withHooksFrom({ ...sources, strict })));
      await call();
      expect(ran).toEqual([]);
      expect(toolResults(model.doGenerateCalls[1]!.prompt)).toEqual([expect.stringContaining('rm -rf is refused')]);
    }
    expect(notices()).toEqual([]);
  });
});

describe('OpenAI Agents SDK: an untrusted project guard', () => {
  /** A model that asks for `rm -rf /`, then is done; it records each request. */
  function deletingModel(): Model & { requests: ModelRequest[] } {
    const requests: ModelRequest[] = [];
    return {
      requests,
      async getResponse(request) {
        requests.push(request);
        const usage = new Usage({ requests: 1, inputTokens: 10, outputTokens: 2, totalTokens: 12 });
        return requests.length === 1
          ? { usage, output: [{ type: 'function_call', callId: 'c1', name: 'bash', arguments: JSON.stringify(RM), status: 'completed' }] }
          : { usage, output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.' }] }] };
      },
      // eslint-disable-next-line require-yield
      async *getStreamedResponse() {
        throw new Error('not streamed here');
      },
    };
  }
  const agentWith = (hooks: LoopHooks) => {
    const ran: string[] = [];
    const bash = openaiTool({ name: 'bash', description: 'Runs', parameters: z.object({ command: z.string() }), execute: ({ command }) => (ran.push(command), 'ok') });
    const model = deletingModel();
    const agent = new Agent({ name: 'ops', model: withModelHooks(model, hooks), tools: withOpenAiHooks([bash], hooks) });
    return { ran, model, run: () => new Runner({ tracingDisabled: true }).run(agent, 'Clean up') };
  };

  it('is said once on stderr', async () => {
    const { sources } = await freshProject();
    const { ran, run } = agentWith(new LoopHooks(AgentBuilder.new().withHooksFrom(sources)));
    await run();
    expect(ran).toEqual(['rm -rf /']);
    expect(notices()).toEqual([expect.stringContaining("'no-recursive-delete'")]);
  });

  it('with strict: true, run rejects with UntrustedHooksError before the model is called or a tool runs', async () => {
    const { sources } = await freshProject();
    const { ran, model, run } = agentWith(new LoopHooks(AgentBuilder.new().withHooksFrom({ ...sources, strict: true })));
    expect(await rejection(run())).toBeInstanceOf(UntrustedHooksError);
    expect(model.requests).toEqual([]);
    expect(ran).toEqual([]);
  });
});

describe('LangChain: an untrusted project guard', () => {
  /** A chat model that asks for `rm -rf /`, then is done. */
  class DeletingChatModel extends BaseChatModel {
    readonly calls: BaseMessage[][] = [];
    constructor() {
      super({});
    }
    _llmType(): string {
      return 'deleting';
    }
    override bindTools(): this {
      return this;
    }
    async _generate(messages: BaseMessage[]): Promise<ChatResult> {
      this.calls.push([...messages]);
      const message = this.calls.length === 1 ? new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'bash', args: RM, type: 'tool_call' }] }) : new AIMessage('Done.');
      return { generations: [{ text: '', message }] };
    }
  }
  const agentWith = (hooks: LoopHooks) => {
    const ran: string[] = [];
    const bash = langchainTool(async ({ command }: { command: string }) => (ran.push(command), 'ok'), { name: 'bash', description: 'Runs', schema: z.object({ command: z.string() }) });
    const model = new DeletingChatModel();
    const agent = createAgent({ model, tools: [bash], middleware: [langchainMiddleware(hooks)] });
    return { ran, model, invoke: () => agent.invoke({ messages: [new HumanMessage('Clean up')] }) };
  };

  it('is said once on stderr, for two invocations', async () => {
    const { sources } = await freshProject();
    const { ran, invoke } = agentWith(new LoopHooks(AgentBuilder.new().withHooksFrom(sources)));
    await invoke();
    await invoke();
    expect(ran).toEqual(['rm -rf /']);
    expect(notices()).toEqual([expect.stringContaining("'no-recursive-delete'")]);
  });

  it('with strict: true, invoke rejects with UntrustedHooksError before the model is called or a tool runs', async () => {
    const { sources } = await freshProject();
    const { ran, model, invoke } = agentWith(new LoopHooks(AgentBuilder.new().withHooksFrom({ ...sources, strict: true })));
    const error = await rejection(invoke());
    expect(error).toBeInstanceOf(UntrustedHooksError);
    expect(model.calls).toEqual([]);
    expect(ran).toEqual([]);
  });
});
