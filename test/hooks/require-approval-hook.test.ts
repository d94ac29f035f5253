import { describe, expect, it } from 'vitest';
import {
  AgentBuilder,
  HookOutcome,
  HookStack,
  InputPatternMatcher,
  RequireApprovalHook,
  ScriptedModel,
  ToolCall,
  ToolHookContext,
  type ApprovalRequest,
  type ToolBlockedInfo,
} from 'agent-hooks';
import { callsStep, echoTool, toolMessages } from '../agent/support.js';

const pre = (tool: string, args: Record<string, unknown> = {}) => ToolHookContext.beforeToolUse(ToolCall.create(tool, args));

describe('RequireApprovalHook', () => {
  it('asks for matching tools with the reason given, and lets the others go on', async () => {
    const stack = new HookStack().with(new RequireApprovalHook({ matcher: 'bash|write_*', reason: (ctx) => `Run ${ctx.toolCall.name}?` }));
    expect((await stack.process(pre('bash'))).toString()).toBe('ask: Run bash?');
    expect((await stack.process(pre('write_file'))).toString()).toBe('ask: Run write_file?');
    expect((await stack.process(pre('read_file'))).toString()).toBe('proceed');
    const plain = new HookStack().with(new RequireApprovalHook({ matcher: /^deploy$/ }));
    expect((await plain.process(pre('deploy'))).toString()).toBe('ask: deploy needs approval');
  });

  it('lets later hooks run: a later block wins, a later allow does not skip the approval, and a rewrite is kept', async () => {
    const ask = new RequireApprovalHook({ matcher: '*', reason: 'check first' });
    const blocked = await new HookStack().with(ask, 10).with(() => HookOutcome.block('never')).process(pre('bash'));
    expect(blocked.toString()).toBe('block: never');
    const allowed = await new HookStack().with(ask, 10).with(() => HookOutcome.allow()).process(pre('bash'));
    expect(allowed.toString()).toBe('ask: check first');
    const rewritten = await new HookStack()
      .with(ask, 10)
      .with((ctx, next) => (ctx.event === 'PreToolUse' ? next(ctx.withArgs({ command: 'ls' })) : next(ctx)))
      .process(pre('bash', { command: 'ls -R' }));
    expect([rewritten.type, rewritten.context?.event === 'PreToolUse' && rewritten.context.toolCall.args]).toEqual(['ask', { command: 'ls' }]);
  });

  it('takes any matcher, such as one over the input', async () => {
    const stack = new HookStack().with(new RequireApprovalHook({ matcher: new InputPatternMatcher(/--force/, { field: 'command' }) }));
    expect((await stack.process(pre('bash', { command: 'git push --force' }))).type).toBe('ask');
    expect((await stack.process(pre('bash', { command: 'git push' }))).type).toBe('proceed');
  });

  it('hands the decision to the agent’s approver: approved calls run, refused ones are reported', async () => {
    const echo = echoTool();
    const other = echoTool('other');
    const model = new ScriptedModel([callsStep(['echo', { text: 'yes' }], ['echo', { text: 'no' }], ['other', { text: 'free' }]), 'Done.']);
    const requests: ApprovalRequest[] = [];
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(echo.tool, other.tool)
      .withHook(new RequireApprovalHook({ matcher: 'echo', reason: (ctx) => `echo ${String(ctx.toolCall.args.text)}?` }))
      .withApprover((request) => {
        requests.push(request);
        return request.toolCall.args.text === 'yes' ? true : { approved: false, reason: 'the user said no' };
      })
      .build();
    const blocked: ToolBlockedInfo[] = [];
    agent.events.on('tool:blocked', (b) => blocked.push(b));
    const result = await agent.run('Go');

    expect(requests.map((r) => r.reason)).toEqual(['echo yes?', 'echo no?']);
    expect(echo.execute).toHaveBeenCalledTimes(1);
    expect(other.execute).toHaveBeenCalledTimes(1);
    expect(toolMessages(result.messages).map((m) => m.content)).toEqual(['echo: yes', 'Tool call refused: the user said no', 'echo: free']);
    expect(blocked.map((b) => b.by)).toEqual(['approver']);
  });

  it('refuses the call when the agent has no approver', async () => {
    const echo = echoTool();
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([callsStep(['echo', { text: 'x' }]), 'Done.']))
      .withTools(echo.tool)
      .withHook(new RequireApprovalHook({ matcher: 'echo' }))
      .build();
    const result = await agent.run('Go');
    expect(echo.execute).not.toHaveBeenCalled();
    expect(toolMessages(result.messages)[0]!.content).toBe('Tool call refused: approval needed (echo needs approval) and this agent has no approver');
  });

  it('needs a matcher', () => {
    expect(() => new RequireApprovalHook({} as never)).toThrow(/needs a matcher/);
    expect(() => new RequireApprovalHook({ matcher: '*', reason: 42 as never })).toThrow(/reason must be a string/);
  });
});
