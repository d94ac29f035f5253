import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  AgentBuilder,
  BeforeToolHook,
  HookOutcome,
  HookStack,
  ToolExecution,
  ToolHookContext,
  type AnyHookContext,
} from 'agent-hooks';
import { LoopHooks, withHooks } from 'agent-hooks/ai-sdk';
import { tempDir } from '../support/script-fixture.js';
import { errorText, mockModel, textAnswer, toolCallAnswer, toolResults, writeProjectHooks } from './ai-sdk-support.js';

// The projects here are the tests' own: they opt in with trust: 'all' (trust itself is tested in test/script/trust.test.ts).

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function project(hooks: Record<string, { frontmatter: string; script: string }>): Promise<string> {
  const { dir, cleanup } = await tempDir('agent-hooks-ai-sdk-');
  cleanups.push(cleanup);
  return writeProjectHooks(dir, hooks);
}

/** The AI SDK tools of the tests; each `execute` is a spy. */
function sdkTools() {
  const bash = vi.fn(async ({ command }: { command: string }) => `ran ${command}`);
  const read = vi.fn(async ({ path }: { path: string }) => `contents of ${path}`);
  return {
    bash,
    read,
    tools: {
      bash: tool({ description: 'Runs a shell command', inputSchema: z.object({ command: z.string() }), execute: bash }),
      read_file: tool({ description: 'Reads a file', inputSchema: z.object({ path: z.string() }), execute: read }),
    },
  };
}

describe('withHooks around AI SDK tools, in a real generateText loop', () => {
  it('a PreToolUse callback blocks bash: execute never runs, and the second model call sees the refusal', async () => {
    const { tools, bash } = sdkTools();
    const model = mockModel(toolCallAnswer('bash', { command: 'rm -rf /' }, 'call-rm'), textAnswer('I will not do that.'));
    const seen: AnyHookContext[] = [];
    const builder = AgentBuilder.new().onBeforeToolUse(
      (ctx) => {
        seen.push(ctx);
        if (String(ctx.toolCall.arg('command')).includes('rm -rf')) return HookOutcome.block('Destructive command refused');
      },
      { matcher: 'bash' },
    );

    const result = await generateText({ model, tools: withHooks(tools, builder), stopWhen: stepCountIs(5), prompt: 'Clean up' });

    expect(bash).not.toHaveBeenCalled();
    expect(result.text).toBe('I will not do that.');
    expect(toolResults(model.doGenerateCalls[1]!.prompt)).toEqual(['bash: Tool call blocked by a hook: Destructive command refused']);
    // Our own context class, with the SDK's call id and the conversation so far.
    const ctx = seen[0]!;
    expect(ctx).toBeInstanceOf(ToolHookContext);
    expect(ctx.event).toBe('PreToolUse');
    expect((ctx as ToolHookContext).toolCall.id).toBe('call-rm');
    expect(ctx.state.messages[0]).toEqual({ role: 'user', content: 'Clean up' });
  });

  it('lets calls the matcher does not match run untouched', async () => {
    const { tools, read } = sdkTools();
    const model = mockModel(toolCallAnswer('read_file', { path: 'a.txt' }), textAnswer('Read it.'));
    const stack = new HookStack().with(new BeforeToolHook(() => HookOutcome.block('never'), { matcher: 'bash' }));
    await generateText({ model, tools: withHooks(tools, stack), stopWhen: stepCountIs(5), prompt: 'Read a.txt' });
    expect(read).toHaveBeenCalledWith({ path: 'a.txt' }, expect.objectContaining({ toolCallId: 'call-1' }));
    expect(toolResults(model.doGenerateCalls[1]!.prompt)).toEqual(['read_file: contents of a.txt']);
  });

  it('a HOOK.md script hook rewrites the input, and execute receives the rewrite', async () => {
    const dir = await project({
      sandbox: {
        frontmatter: 'trigger: pre-tool-call\nmatcher:\n  tool: ^read_file$',
        script: `cat > /dev/null; echo '{"decision":"allow","modified_input":{"path":"sandbox/a.txt"}}'`,
      },
    });
    const { tools, read } = sdkTools();
    const model = mockModel(toolCallAnswer('read_file', { path: 'a.txt' }), textAnswer('Done.'));
    const hooks = new LoopHooks(AgentBuilder.new().withHooksFrom({ projectDir: dir, trust: 'all', userDir: false }));

    await generateText({ model, tools: withHooks(tools, hooks), stopWhen: stepCountIs(5), prompt: 'Read a.txt' });

    expect(read).toHaveBeenCalledTimes(1);
    expect(read.mock.calls[0]![0]).toEqual({ path: 'sandbox/a.txt' });
    expect(toolResults(model.doGenerateCalls[1]!.prompt)).toEqual(['read_file: contents of sandbox/a.txt']);
    expect((await hooks.ready()).problems).toEqual([]);
  });

  it('validates a rewritten input against the tool schema: an invalid one is a tool failure, and execute never runs', async () => {
    const { tools, bash } = sdkTools();
    const model = mockModel(toolCallAnswer('bash', { command: 'ls' }), textAnswer('Oh.'));
    const failures: ToolHookContext[] = [];
    const builder = AgentBuilder.new()
      .onBeforeToolUse((ctx) => ctx.toolCall.withArgs({ command: 42 }))
      .onToolFailure((ctx) => void failures.push(ctx));

    await generateText({ model, tools: withHooks(tools, builder), stopWhen: stepCountIs(5), prompt: 'List' });

    expect(bash).not.toHaveBeenCalled();
    expect(failures).toHaveLength(1);
    expect(failures[0]!.errorMessage).toMatch(/Invalid input for tool 'bash' after a hook rewrote it/);
    const prompt = model.doGenerateCalls[1]!.prompt;
    const result = prompt.flatMap((m) => (m.role === 'tool' ? m.content : []))[0];
    expect(result).toMatchObject({ type: 'tool-result', output: { type: 'error-text' } });
  });

  it('a PostToolUse hook replaces the result the model sees, and a PostToolUse block rejects it', async () => {
    const { tools } = sdkTools();
    const model = mockModel(toolCallAnswer('read_file', { path: 'secret.env' }, 'c1'), toolCallAnswer('bash', { command: 'ls' }, 'c2'), textAnswer('ok'));
    const builder = AgentBuilder.new()
      .onAfterToolUse((ctx) => ctx.execution!.withResult('[redacted]'), { matcher: 'read_file' })
      .onAfterToolUse(() => HookOutcome.block('output too long'), { matcher: 'bash' });

    await generateText({ model, tools: withHooks(tools, builder), stopWhen: stepCountIs(5), prompt: 'go' });

    expect(toolResults(model.doGenerateCalls[2]!.prompt)).toEqual(['read_file: [redacted]', 'bash: Tool result rejected by a hook: output too long']);
  });

  it('fires PostToolUseFailure when execute throws; the SDK tells the model, unless a hook replaces the failure', async () => {
    const failing = tool({
      description: 'Fails',
      inputSchema: z.object({ n: z.number() }),
      execute: async ({ n }): Promise<string> => {
        throw new Error(`disk ${n} on fire`);
      },
    });
    const model = mockModel(toolCallAnswer('fail', { n: 1 }, 'c1'), toolCallAnswer('fail', { n: 2 }, 'c2'), textAnswer('ok'));
    const seen: string[] = [];
    const builder = AgentBuilder.new().onToolFailure((ctx) => {
      seen.push(ctx.errorMessage!);
      if (ctx.toolCall.arg('n') === 2) return ToolExecution.success(ctx.toolCall, 'recovered');
    });

    await generateText({ model, tools: withHooks({ fail: failing }, builder), stopWhen: stepCountIs(5), prompt: 'go' });

    expect(seen).toEqual(['disk 1 on fire', 'disk 2 on fire']);
    const results = model.doGenerateCalls[2]!.prompt.flatMap((m) => (m.role === 'tool' ? m.content : []));
    expect(results[0]).toMatchObject({ toolCallId: 'c1', output: { type: 'error-text' } });
    expect(errorText((results[0] as { output: { value: unknown } }).output.value)).toBe('disk 1 on fire');
    expect(results[1]).toMatchObject({ toolCallId: 'c2', output: { type: 'text', value: 'recovered' } });
  });

  it('refuses a call a hook asked about when there is no approver, and runs it when the approver says yes', async () => {
    const ask = () => new HookStack().with(new BeforeToolHook(() => HookOutcome.ask('network access'), { matcher: 'bash' }));
    const events: string[] = [];
    const record = new HookStack()
      .with((ctx: AnyHookContext, next) => (events.push(ctx.event), next(ctx)))
      .concat(ask());

    const refused = sdkTools();
    const model1 = mockModel(toolCallAnswer('bash', { command: 'curl x' }), textAnswer('ok'));
    await generateText({ model: model1, tools: withHooks(refused.tools, record), stopWhen: stepCountIs(5), prompt: 'go' });
    expect(refused.bash).not.toHaveBeenCalled();
    expect(toolResults(model1.doGenerateCalls[1]!.prompt)).toEqual(['bash: Tool call refused: approval needed (network access) and no approver was given']);
    expect(events).toEqual(['PreToolUse', 'PermissionRequest', 'Notification']);

    const approved = sdkTools();
    const approver = vi.fn(() => true);
    const model2 = mockModel(toolCallAnswer('bash', { command: 'curl x' }), textAnswer('ok'));
    await generateText({ model: model2, tools: withHooks(approved.tools, ask(), { approver }), stopWhen: stepCountIs(5), prompt: 'go' });
    expect(approver).toHaveBeenCalledWith(expect.objectContaining({ reason: 'network access' }));
    expect(approved.bash).toHaveBeenCalledWith({ command: 'curl x' }, expect.anything());
  });

  it('carries metadata from one event to the next, and answers every call after a stop without running it', async () => {
    const { tools, bash, read } = sdkTools();
    const model = mockModel(toolCallAnswer('read_file', { path: 'a' }, 'c1'), toolCallAnswer('bash', { command: 'ls' }, 'c2'), textAnswer('ok'));
    let readBack: unknown;
    const builder = AgentBuilder.new()
      .onBeforeToolUse((ctx) => ctx.withMetadata('first', ctx.toolCall.name), { matcher: 'read_file' })
      .onAfterToolUse((ctx) => {
        readBack = ctx.get('first');
        return HookOutcome.stop('budget exhausted');
      });
    const hooks = new LoopHooks(builder);

    await generateText({ model, tools: withHooks(tools, hooks), stopWhen: [stepCountIs(5), () => hooks.stopReason !== undefined], prompt: 'go' });

    expect(readBack).toBe('read_file');
    expect(hooks.stopReason).toBe('budget exhausted');
    expect(read).toHaveBeenCalledTimes(1);
    expect(bash).not.toHaveBeenCalled();
    // The stop condition ended the loop after the step whose hook stopped.
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('answers a streaming tool with its last value, which PostToolUse sees', async () => {
    const progress = tool({
      description: 'Streams progress',
      inputSchema: jsonSchema<{ steps: number }>({ type: 'object', properties: { steps: { type: 'number' } }, required: ['steps'] }),
      async *execute({ steps }) {
        for (let i = 1; i <= steps; i++) yield `${i}/${steps}`;
      },
    });
    const seen: unknown[] = [];
    const builder = AgentBuilder.new().onAfterToolUse((ctx) => void seen.push(ctx.execution!.result));
    const model = mockModel(toolCallAnswer('progress', { steps: 3 }), textAnswer('ok'));
    await generateText({ model, tools: withHooks({ progress }, builder), stopWhen: stepCountIs(5), prompt: 'go' });
    expect(seen).toEqual(['3/3']);
    expect(toolResults(model.doGenerateCalls[1]!.prompt)).toEqual(['progress: 3/3']);
  });

  it('returns tools without execute unchanged', () => {
    const clientSide = tool({ description: 'Asks the user', inputSchema: z.object({ question: z.string() }) });
    const wrapped = withHooks({ ask: clientSide }, new HookStack());
    expect(wrapped.ask).toBe(clientSide);
  });

  it('hands async script hooks to drain(), which waits for them', async () => {
    // The hook cannot finish before the test opens its gate, so a tool call that waited for it would time out.
    const dir = await project({
      audit: {
        frontmatter: 'trigger: post-tool-call\nasync: true\ntimeout: 10000',
        script: 'cat > /dev/null; cd "$AGENT_HOOKS_PROJECT_DIR"; while [ ! -f gate ]; do sleep 0.01; done; echo logged >> audit.log',
      },
    });
    const { tools } = sdkTools();
    const hooks = new LoopHooks(AgentBuilder.new().withHooksFrom({ projectDir: dir, trust: 'all', userDir: false }));
    const model = mockModel(toolCallAnswer('bash', { command: 'ls' }), textAnswer('ok'));

    await generateText({ model, tools: withHooks(tools, hooks), stopWhen: stepCountIs(5), prompt: 'go' });
    await expect(readFile(join(dir, 'audit.log'), 'utf8')).rejects.toThrow();
    await writeFile(join(dir, 'gate'), '');
    await hooks.drain();
    expect(await readFile(join(dir, 'audit.log'), 'utf8')).toBe('logged\n');
  });

  it('reports a script hook that fails open as a warning on its events', async () => {
    const dir = await project({ broken: { frontmatter: 'trigger: pre-tool-call', script: 'cat > /dev/null; exit 1' } });
    const { tools, bash } = sdkTools();
    const hooks = new LoopHooks(AgentBuilder.new().withHooksFrom({ projectDir: dir, trust: 'all', userDir: false }));
    const warnings: string[] = [];
    hooks.events.on('warning', (w) => warnings.push(`${w.code} ${w.hookName}`));
    const model = mockModel(toolCallAnswer('bash', { command: 'ls' }), textAnswer('ok'));
    await generateText({ model, tools: withHooks(tools, hooks), stopWhen: stepCountIs(5), prompt: 'go' });
    expect(bash).toHaveBeenCalledTimes(1);
    expect(warnings).toEqual([expect.stringMatching(/ broken$/)]);
  });
});
