import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { createAgent, createMiddleware, tool } from 'langchain';
import { AgentBuilder, HookOutcome, ScriptedModel, defineTool, type ScriptedStep } from 'agent-hooks';
import { LoopHooks, langchainMiddleware } from 'agent-hooks/langchain';
import { tempDir } from '../support/script-fixture.js';
import { writeProjectHooks } from './ai-sdk-support.js';

// The projects here are the tests' own: they opt in with trust: 'all' (trust itself is tested in test/script/trust.test.ts).

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A chat model playing `answers` in order, recording the messages of each call. */
class ScriptedChatModel extends BaseChatModel {
  readonly calls: BaseMessage[][] = [];
  constructor(private readonly answers: AIMessage[]) {
    super({});
  }
  _llmType(): string {
    return 'scripted';
  }
  override bindTools(): this {
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.calls.push([...messages]);
    const message = this.answers.shift() ?? new AIMessage('Done.');
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

/** One model turn of the shared script: a bash call, or a final text. */
type Turn = { readonly shell: string; readonly id: string } | { readonly text: string };

/** The script both agents play: a refused command, a rewritten one, a stop the gate refuses once, then the end. */
const SCRIPT: readonly Turn[] = [{ shell: 'rm -rf build', id: 'call-rm' }, { shell: 'echo original > out.txt', id: 'call-echo' }, { text: 'All done.' }, { text: 'finished' }];

const asLangChain = (turns: readonly Turn[]): AIMessage[] =>
  turns.map((t) => ('shell' in t ? new AIMessage({ content: '', tool_calls: [{ name: 'bash', args: { command: t.shell }, id: t.id, type: 'tool_call' }] }) : new AIMessage(t.text)));

const asOurs = (turns: readonly Turn[]): ScriptedStep[] => turns.map((t) => ('shell' in t ? { toolCalls: [{ name: 'bash', args: { command: t.shell }, id: t.id }] } : t.text));

/**
 * The stack both agents run: a HOOK.md guard (refuses `rm -rf` by exit 2, rewrites `echo original`) and a callback
 * stop gate that refuses the first stop.
 */
async function sharedHooks(): Promise<AgentBuilder> {
  const { dir, cleanup } = await tempDir('agent-hooks-langchain-');
  cleanups.push(cleanup);
  await writeProjectHooks(dir, {
    guard: {
      frontmatter: 'trigger: pre-tool-call\nmatcher:\n  tool: Shell',
      script: [
        'input=$(cat)',
        'case "$input" in',
        `  *'rm -rf'*) echo 'GUARD-DENY: rm -rf is refused' >&2; exit 2;;`,
        `  *'echo original'*) echo '{"modified_input":{"command":"echo rewritten > out.txt"}}';;`,
        'esac',
      ].join('\n'),
    },
  });
  return AgentBuilder.new()
    .withHooksFrom({ projectDir: dir, trust: 'all', userDir: false })
    .onStop((ctx) => (ctx.stopHookActive ? undefined : HookOutcome.block('CALLBACK-STOP: say the word finished first')));
}

function bashTool() {
  const ran: string[] = [];
  const bash = tool(
    async ({ command }: { command: string }) => {
      ran.push(command);
      return `ran ${command}`;
    },
    { name: 'bash', description: 'Runs a shell command', schema: z.object({ command: z.string() }) },
  );
  return { bash, ran };
}

/** Each message as `type: text`, its text blocks joined by a blank line. */
const contents = (messages: readonly BaseMessage[]): string[] =>
  messages.map((m) => `${m.getType()}: ${typeof m.content === 'string' ? m.content : m.content.map((b) => (b.type === 'text' ? String(b.text) : `[${b.type}]`)).join('\n\n')}`);

describe('langchainMiddleware in a createAgent run', () => {
  it('a HOOK.md hook and a callback in one stack deny a call, rewrite one and gate the stop; events come in our agent’s order', async () => {
    const builder = await sharedHooks();
    const hooks = new LoopHooks(builder);
    const seen: string[] = [];
    hooks.events.on('event', (ctx) => void seen.push(ctx.event));
    const model = new ScriptedChatModel(asLangChain(SCRIPT));
    const { bash, ran } = bashTool();

    const agent = createAgent({ model, tools: [bash], middleware: [langchainMiddleware(hooks)] });
    const result = await agent.invoke({ messages: [new HumanMessage('Clean the build folder, then write out.txt.')] });
    await hooks.drain();

    // What ran: the rewritten command only.
    expect(ran).toEqual(['echo rewritten > out.txt']);
    // What the model received: the refusal as the refused call's tool message, then the gate's reason.
    expect(model.calls).toHaveLength(4);
    const refusal = model.calls[1]!.find((m): m is ToolMessage => ToolMessage.isInstance(m) && m.tool_call_id === 'call-rm');
    expect(refusal?.content).toBe('Tool call blocked by a hook: GUARD-DENY: rm -rf is refused');
    expect(refusal?.status).toBe('error');
    expect(contents(model.calls[2]!)).toContain('tool: ran echo rewritten > out.txt');
    expect(contents(model.calls[2]!).join('\n')).not.toContain('CALLBACK-STOP');
    expect(contents(model.calls[3]!).at(-1)).toBe('human: CALLBACK-STOP: say the word finished first');
    expect(contents(result.messages).at(-1)).toBe('ai: finished');

    // The same stack and script in our own agent: the same events, in the same order.
    const ours: string[] = [];
    const agentBash = defineTool({ name: 'bash', description: 'Runs a shell command', input: z.object({ command: z.string() }), execute: ({ command }) => `ran ${command}` });
    const own = builder.withModel(new ScriptedModel(asOurs(SCRIPT))).withTools(agentBash).build();
    // PostToolBatch, which our agent fires once a step's calls have resolved, the middleware does not fire yet.
    own.events.on('event', (ctx) => void (ctx.event === 'PostToolBatch' || ours.push(ctx.event)));
    // A session, as the middleware's lifetime is one: SessionStart at its first run.
    await own.session().run('Clean the build folder, then write out.txt.');
    expect(seen).toEqual(ours);
    const model3 = ['BeforeModel', 'BeforeToolSelection', 'AfterModel'];
    expect(seen).toEqual([
      'SessionStart', 'ExecutionStart', 'UserPromptSubmit',
      'BeforeStep', ...model3, 'PreToolUse', 'AfterStep',
      'BeforeStep', ...model3, 'PreToolUse', 'PostToolUse', 'AfterStep',
      'BeforeStep', ...model3, 'AfterStep', 'Stop',
      'BeforeStep', ...model3, 'AfterStep', 'Stop',
      'AfterStop', 'AfterAgent', 'ExecutionEnd',
    ]);
  });

  it('a stop from a tool hook ends the run: the model is not called again', async () => {
    const model = new ScriptedChatModel(asLangChain([{ shell: 'deploy', id: 'c1' }, { text: 'never' }]));
    const { bash, ran } = bashTool();
    const hooks = new LoopHooks(AgentBuilder.new().onBeforeToolUse(() => HookOutcome.stop('Deploys are frozen')));
    const ends: string[] = [];
    hooks.events.on('event', (ctx) => void ends.push(ctx.event === 'ExecutionEnd' ? `${ctx.status}: ${ctx.reason}` : ctx.event));

    const agent = createAgent({ model, tools: [bash], middleware: [langchainMiddleware(hooks)] });
    const result = await agent.invoke({ messages: [new HumanMessage('Deploy')] });

    expect(ran).toEqual([]);
    expect(model.calls).toHaveLength(1);
    expect(hooks.stopReason).toBe('Deploys are frozen');
    expect(contents(result.messages).slice(-2)).toEqual(['tool: Not run: the run was stopped.', 'ai: ']);
    // Our agent halts the same way: no AfterStep for the step the stop cut short.
    expect(ends).toEqual([
      'SessionStart', 'ExecutionStart', 'UserPromptSubmit',
      'BeforeStep', 'BeforeModel', 'BeforeToolSelection', 'AfterModel', 'PreToolUse',
      'AfterStop', 'AfterAgent', 'stopped: Deploys are frozen',
    ]);
  });

  it('a blocked prompt ends the invocation with the reason; a rewritten prompt replaces the user’s message', async () => {
    const blocked = new ScriptedChatModel([]);
    const refuse = AgentBuilder.new().onUserPromptSubmit((ctx) => (ctx.prompt.includes('password') ? HookOutcome.block('No secrets in prompts') : undefined));
    const out = await createAgent({ model: blocked, tools: [], middleware: [langchainMiddleware(refuse)] }).invoke({ messages: [new HumanMessage('my password is hunter2')] });
    expect(blocked.calls).toHaveLength(0);
    expect(contents(out.messages).at(-1)).toBe('ai: Prompt blocked by a hook: No secrets in prompts');

    const model = new ScriptedChatModel([new AIMessage('ok')]);
    const rewrite = AgentBuilder.new().onUserPromptSubmit((ctx) => ctx.withPrompt(ctx.prompt.replace('hunter2', '[redacted]')));
    await createAgent({ model, tools: [], middleware: [langchainMiddleware(rewrite)] }).invoke({ messages: [new HumanMessage({ content: 'my password is hunter2', id: 'm1' })] });
    expect(contents(model.calls[0]!)).toEqual(['human: my password is [redacted]']);
  });

  it('additional context reaches the next model call in its system message; PostToolUse replaces a result', async () => {
    const model = new ScriptedChatModel(asLangChain([{ shell: 'cat .env', id: 'c1' }, { text: 'ok' }]));
    const { bash } = bashTool();
    const builder = AgentBuilder.new()
      .onSessionStart(() => HookOutcome.proceed().withAdditionalContext('PROJECT-RULES'))
      .onAfterToolUse((ctx) => HookOutcome.proceed(ctx.withExecution(ctx.execution!.withResult('[redacted]'))).withAdditionalContext('POST-CONTEXT'));

    await createAgent({ model, tools: [bash], systemPrompt: 'You are careful.', middleware: [langchainMiddleware(builder)] }).invoke({ messages: [new HumanMessage('show env')] });

    expect(contents(model.calls[0]!)[0]).toBe('system: You are careful.\n\nPROJECT-RULES');
    expect(contents(model.calls[1]!)[0]).toBe('system: You are careful.\n\nPOST-CONTEXT');
    expect(contents(model.calls[1]!)).toContain('tool: [redacted]');
  });

  it('runs with other middleware: ours first sees the model’s calls before theirs, and has the last word after', async () => {
    const order: string[] = [];
    const other = createMiddleware({
      name: 'Other',
      beforeModel: () => void order.push('other beforeModel'),
      afterModel: () => void order.push('other afterModel'),
    });
    const hooks = new LoopHooks(AgentBuilder.new().onBeforeStep(() => void order.push('BeforeStep')).onStop(() => void order.push('Stop')));
    const model = new ScriptedChatModel([new AIMessage('hi')]);
    await createAgent({ model, tools: [], middleware: [langchainMiddleware(hooks), other] }).invoke({ messages: [new HumanMessage('hello')] });
    expect(order).toEqual(['other beforeModel', 'BeforeStep', 'other afterModel', 'Stop']);
  });
});
