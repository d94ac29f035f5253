/**
 * The Claude Agent SDK's `query()` with our hooks, running the Claude Code binary the SDK installs for this platform
 * (its optional dependency) against a mock Anthropic Messages API on 127.0.0.1: nothing leaves the machine.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { query, type Options, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import {
  AgentBuilder,
  HookError,
  HookEvent,
  HookOutcome,
  ScriptedModel,
  UntrustedHooksError,
  defineTool,
  type AgentWarning,
  type HookErrorPolicy,
  type ScriptedStep,
  type WithHooksFromOptions,
} from 'agent-hooks';
import { HOOK_FAILED_REFUSAL, LoopHooks, claudeAgentHooks } from 'agent-hooks/claude-agent-sdk';
import { anthropicApi } from '../agents/mock/anthropic.js';
import { startMockServer, type MockServer, type Turn } from '../agents/support/mock-server.js';
import { tempDir } from '../support/script-fixture.js';
import { writeProjectHooks } from './ai-sdk-support.js';

// The projects here are the tests' own: they opt in with trust: 'all' (trust itself is tested in test/script/trust.test.ts).

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** The script: a refused command, a rewritten one, a stop the gate refuses once, then the end. */
const SCRIPT: readonly Turn[] = [{ shell: 'rm -rf build' }, { shell: 'echo original > out.txt' }, { text: 'All done.' }, { text: 'finished' }];

/** A project with the HOOK.md guard (refuses `rm -rf` by exit 2, rewrites `echo original`), and a HOME of its own. */
async function project(): Promise<{ dir: string; home: string }> {
  const { dir: root, cleanup } = await tempDir('agent-hooks-claude-sdk-');
  cleanups.push(cleanup);
  const dir = join(root, 'project');
  const home = join(root, 'home');
  mkdirSync(join(dir, 'build'), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(dir, 'build', 'keep.txt'), 'keep');
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
  return { dir, home };
}

/** Runs `query()` in `dir` against `mock` with `extra` options; returns the SDK's messages. */
async function run(dir: string, home: string, mock: MockServer, prompt: string, extra: Options): Promise<SDKMessage[]> {
  const messages: SDKMessage[] = [];
  const stderr: string[] = [];
  for await (const message of query({
    prompt,
    options: {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        ANTHROPIC_BASE_URL: mock.url,
        ANTHROPIC_API_KEY: 'test',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
      },
      // Headless, nobody to ask: Bash is allowed, so the hooks' decisions are the only refusals.
      allowedTools: ['Bash'],
      settingSources: [],
      stderr: (text) => void stderr.push(text),
      ...extra,
    },
  })) {
    messages.push(message);
  }
  return messages;
}

/** What the model was sent in its `n`-th main-loop request, as text. */
const seenAt = (mock: MockServer, n: number): string => JSON.stringify(mock.mainRequests()[n]?.body ?? null);

/** What the model was sent from its `n`-th main-loop request on, as text. */
const seenFrom = (mock: MockServer, n: number): string => mock.mainRequests().slice(n).map((r) => JSON.stringify(r.body)).join('\n');

describe('claudeAgentHooks in a query() of the Claude Agent SDK', () => {
  it('a HOOK.md hook and a callback in one stack deny a Bash call, rewrite one and gate the stop; events come in our agent’s order', async () => {
    const { dir, home } = await project();
    const builder = AgentBuilder.new()
      .withHooksFrom({ projectDir: dir, trust: 'all', userDir: false })
      .onStop((ctx) => (ctx.stopHookActive ? undefined : HookOutcome.block('CALLBACK-STOP: say the word finished first')));
    const hooks = new LoopHooks(builder);
    const seen: string[] = [];
    hooks.events.on('event', (ctx) => void seen.push(ctx.event));
    const mock = await startMockServer(anthropicApi(), SCRIPT);
    cleanups.push(() => mock.close());

    const messages = await run(dir, home, mock, 'Clean the build folder, then write out.txt.', claudeAgentHooks(hooks));
    await hooks.drain();

    const result = messages.find((m) => m.type === 'result');
    expect(result?.subtype).toBe('success');
    expect(mock.remaining()).toBe(0);
    // What ran: not the refused command; the rewritten one.
    expect(existsSync(join(dir, 'build', 'keep.txt'))).toBe(true);
    expect(readFileSync(join(dir, 'out.txt'), 'utf8').trim()).toBe('rewritten');
    // What the model received: the guard's reason after the refused call, the gate's reason after the first stop.
    expect(seenAt(mock, 0)).not.toContain('GUARD-DENY');
    expect(seenFrom(mock, 1)).toContain('GUARD-DENY: rm -rf is refused');
    expect(seenAt(mock, 2)).not.toContain('CALLBACK-STOP');
    expect(seenFrom(mock, 3)).toContain('CALLBACK-STOP: say the word finished first');

    // Our agent on the same script and stack: Claude Code fires the events it has, in our agent's order.
    const ours: string[] = [];
    const bash = defineTool({ name: 'Bash', description: 'Runs a shell command', input: z.object({ command: z.string() }), execute: ({ command }) => `ran ${command}` });
    const script = SCRIPT.map((t): ScriptedStep => ('shell' in t ? { toolCalls: [{ name: 'Bash', args: { command: t.shell } }] } : t.text));
    const own = builder.withModel(new ScriptedModel(script)).withTools(bash).build();
    own.events.on('event', (ctx) => void ours.push(ctx.event));
    await own.run('Clean the build folder, then write out.txt.');
    const claudeHas = (event: string) => HookEvent.toDialect(event as never, 'claude') !== undefined;
    expect(seen).toEqual(ours.filter(claudeHas));
    // The SDK fires PostToolBatch once each answer's calls have resolved, where our agent does.
    expect(seen).toEqual(['UserPromptSubmit', 'PreToolUse', 'PostToolBatch', 'PreToolUse', 'PostToolUse', 'PostToolBatch', 'Stop', 'Stop']);
  }, 90_000);

  it('a stop ends the query with its reason; additional context reaches the model', async () => {
    const { dir, home } = await project();
    const builder = AgentBuilder.new()
      .onUserPromptSubmit(() => HookOutcome.proceed().withAdditionalContext('PROMPT-CONTEXT'))
      .onAfterToolUse(() => HookOutcome.stop('HALT: enough for today'));
    const hooks = new LoopHooks(builder);
    const mock = await startMockServer(anthropicApi(), [{ shell: 'touch a.txt' }, { shell: 'touch b.txt' }, { text: 'Done.' }]);
    cleanups.push(() => mock.close());

    const messages = await run(dir, home, mock, 'Create a.txt and b.txt.', claudeAgentHooks(hooks));

    expect(seenFrom(mock, 0)).toContain('PROMPT-CONTEXT');
    expect(existsSync(join(dir, 'a.txt'))).toBe(true);
    expect(existsSync(join(dir, 'b.txt'))).toBe(false);
    expect(mock.mainRequests()).toHaveLength(1);
    expect(hooks.stopReason).toBe('HALT: enough for today');
    expect(messages.find((m) => m.type === 'result')).toBeDefined();
  }, 90_000);
});

describe('a hook that throws, in a query() of the Claude Agent SDK', () => {
  /** A LoopHooks whose `buggy` hook on `event` throws, under `policy` (unset: the default); with its warnings and failures. */
  const failing = (event: 'UserPromptSubmit' | 'PreToolUse' | 'PostToolUse' | 'Stop', policy?: HookErrorPolicy) => {
    const builder = AgentBuilder.new().addHook(event, () => {
      throw new Error('guard crashed');
    }, { name: 'buggy' });
    if (policy !== undefined) builder.withOptions({ onHookError: policy });
    const failed: unknown[] = [];
    builder.onAgentFailed((ctx) => void failed.push(ctx.error));
    const hooks = new LoopHooks(builder);
    const warnings: AgentWarning[] = [];
    hooks.events.on('warning', (w) => void warnings.push(w));
    return { hooks, warnings, failed };
  };

  // What ran before the hook failed: whether Bash did, and how many times the model was asked.
  const before = { UserPromptSubmit: [false, 0], PreToolUse: [false, 1], PostToolUse: [true, 1], Stop: [true, 2] } as const;

  it.each(['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'] as const)("%s under 'fail': the query rejects, Claude is not asked again, and the model never sees the error", async (event) => {
    const { dir, home } = await project();
    const { hooks, warnings, failed } = failing(event);
    const mock = await startMockServer(anthropicApi(), [{ shell: 'touch a.txt' }, { text: 'Done.' }]);
    cleanups.push(() => mock.close());

    const ended = await run(dir, home, mock, 'Create a.txt.', claudeAgentHooks(hooks)).then(
      (messages) => ({ messages, error: undefined }),
      (error: unknown) => ({ messages: [], error }),
    );

    expect(ended.error).toBeInstanceOf(Error);
    expect(hooks.failure).toBeInstanceOf(HookError);
    expect(hooks.failure).toMatchObject({ hookName: 'buggy', event });
    expect(warnings).toEqual([expect.objectContaining({ code: 'hook-failed', event, hookName: 'buggy' })]);
    expect(failed).toEqual([hooks.failure]);
    expect(existsSync(join(dir, 'a.txt'))).toBe(before[event][0]);
    expect(mock.mainRequests()).toHaveLength(before[event][1]);
    expect(seenFrom(mock, 0)).not.toContain('guard crashed');
  }, 90_000);

  it("PreToolUse under 'block': the call is refused with the error as the reason, and the query goes on to success", async () => {
    const { dir, home } = await project();
    const { hooks, warnings } = failing('PreToolUse', 'block');
    const mock = await startMockServer(anthropicApi(), [{ shell: 'touch a.txt' }, { text: 'Done.' }]);
    cleanups.push(() => mock.close());

    const messages = await run(dir, home, mock, 'Create a.txt.', claudeAgentHooks(hooks));

    expect(existsSync(join(dir, 'a.txt'))).toBe(false);
    expect(seenFrom(mock, 1)).toContain("Hook 'buggy' failed on PreToolUse: guard crashed");
    expect(seenFrom(mock, 1)).not.toContain('claude-agent-sdk.test');
    expect(messages.find((m) => m.type === 'result')).toMatchObject({ subtype: 'success', is_error: false });
    expect(hooks.failure).toBeUndefined();
    expect(warnings).toEqual([]);
  }, 90_000);

  it("'fail' answers a deny the model is told nothing of the error by, then aborts the query's controller (yours, when given)", async () => {
    const { hooks } = failing('PreToolUse');
    const mine = new AbortController();
    const options = claudeAgentHooks(hooks, { abortController: mine });
    const input = { session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: '/work', hook_event_name: 'PreToolUse' as const, tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1' };

    const answer = await options.hooks.PreToolUse![0]!.hooks[0]!(input, 'toolu_1', { signal: new AbortController().signal });

    expect(options.abortController).toBe(mine);
    expect(answer).toEqual({
      continue: false,
      stopReason: "Hook 'buggy' (priority 0) failed on PreToolUse: guard crashed",
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: HOOK_FAILED_REFUSAL },
    });
    // Not before the answer is written: an aborted query drops it.
    expect(mine.signal.aborted).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(mine.signal.aborted).toBe(true);
    expect(mine.signal.reason).toBe(hooks.failure);
  });

  it("PreToolUse under 'ignore': the hook is skipped with a hook-error warning, and the call runs", async () => {
    const { hooks, warnings } = failing('PreToolUse', 'ignore');
    const { hooks: callbacks } = claudeAgentHooks(hooks);
    const input = { session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: '/work', hook_event_name: 'PreToolUse' as const, tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1' };

    const answer = await callbacks.PreToolUse![0]!.hooks[0]!(input, 'toolu_1', { signal: new AbortController().signal });

    expect(answer).toEqual({});
    expect(warnings).toEqual([expect.objectContaining({ code: 'hook-error', event: 'PreToolUse', hookName: 'buggy' })]);
    expect(hooks.failure).toBeUndefined();
  });
});

describe('an untrusted project guard, in a query() of the Claude Agent SDK', () => {
  /** A project whose guard refuses `rm -rf` (exit 2) and is not trusted: its trust store, in `home`, is empty. */
  async function untrusted() {
    const { dir, home } = await project();
    const sources: WithHooksFromOptions = { projectDir: dir, homeDir: home, hostEnv: { HOME: home }, userDir: false };
    return { dir, home, sources };
  }
  const notices = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map((c) => String(c[0])).filter((line) => line.startsWith('agent-hooks:'));

  it('does not run, and is said once on stderr, as our agent says it', async () => {
    const { dir, home, sources } = await untrusted();
    const mock = await startMockServer(anthropicApi(), [{ shell: 'rm -rf build' }, { text: 'Done.' }]);
    cleanups.push(() => mock.close());
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const messages = await run(dir, home, mock, 'Clean the build folder.', claudeAgentHooks(AgentBuilder.new().withHooksFrom(sources)));
      expect(messages.find((m) => m.type === 'result')?.subtype).toBe('success');
      expect(existsSync(join(dir, 'build'))).toBe(false);
      expect(notices(stderr)).toEqual([expect.stringContaining(`'guard'`)]);
      expect(notices(stderr)[0]).toContain(`run 'npx agent-hooks trust' in ${dir}`);
    } finally {
      stderr.mockRestore();
    }
  }, 90_000);

  it('with strict: true, the query rejects before Claude is asked or a tool runs; hooks.failure is the UntrustedHooksError', async () => {
    const { dir, home, sources } = await untrusted();
    const mock = await startMockServer(anthropicApi(), [{ shell: 'rm -rf build' }, { text: 'Done.' }]);
    cleanups.push(() => mock.close());
    const hooks = new LoopHooks(AgentBuilder.new().withHooksFrom({ ...sources, strict: true }));

    const error = await run(dir, home, mock, 'Clean the build folder.', claudeAgentHooks(hooks)).then(
      () => undefined,
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(Error);
    expect(hooks.failure).toBeInstanceOf(UntrustedHooksError);
    expect(mock.mainRequests()).toHaveLength(0);
    expect(existsSync(join(dir, 'build', 'keep.txt'))).toBe(true);
  }, 90_000);
});

describe('the callbacks and canUseTool, called as the SDK calls them', () => {
  const signal = new AbortController().signal;
  const base = { session_id: 'session-1', transcript_path: '/tmp/t.jsonl', cwd: '/work' };
  const preToolUse = (command: string) => ({ ...base, hook_event_name: 'PreToolUse' as const, tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_1' });

  it('maps an ask, a rewrite, a post-tool result and a failing hook to Claude Code’s fields; metadata carries across events', async () => {
    const builder = AgentBuilder.new()
      .onBeforeToolUse((ctx) => (String(ctx.toolCall.arg('command')).startsWith('deploy') ? HookOutcome.ask('Deploys need a human') : undefined))
      .onBeforeToolUse((ctx) => ctx.withToolCall(ctx.toolCall.withArg('command', `${String(ctx.toolCall.arg('command'))} --dry-run`)).withMetadata('seen', 'yes'), { matcher: 'Bash' })
      .onAfterToolUse((ctx) => HookOutcome.proceed(ctx.withExecution(ctx.execution!.withResult(`[${String(ctx.get('seen'))}] redacted`))))
      .onUserPromptSubmit(() => {
        throw new Error('prompt checker crashed');
      });
    const { hooks } = claudeAgentHooks(builder);
    const call = (input: object) => hooks[(input as { hook_event_name: 'PreToolUse' }).hook_event_name]![0]!.hooks[0]!(input as never, 'toolu_1', { signal });

    expect(await call(preToolUse('deploy prod'))).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'Deploys need a human' } });
    expect(await call(preToolUse('ls'))).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'ls --dry-run' } } });
    expect(await call({ ...base, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'cat .env' }, tool_response: 'SECRET=1', tool_use_id: 'toolu_2' })).toMatchObject({
      // On Bash, Claude Code replaces the output only when it is given as Bash's output object (a string is ignored).
      hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { stdout: '[yes] redacted', stderr: '', interrupted: false, isImage: false } },
    });
    expect(await call({ ...base, hook_event_name: 'UserPromptSubmit', prompt: 'hi' })).toEqual({ continue: false, stopReason: "Hook 'UserPromptSubmit callback' (priority 0) failed on UserPromptSubmit: prompt checker crashed" });
    expect(Object.keys(hooks).sort()).toEqual([
      'Notification',
      'PermissionDenied',
      'PermissionRequest',
      'PostCompact',
      'PostToolBatch',
      'PostToolUse',
      'PostToolUseFailure',
      'PreCompact',
      'PreToolUse',
      'SessionEnd',
      'SessionStart',
      'Stop',
      'StopFailure',
      'SubagentStart',
      'SubagentStop',
      'UserPromptSubmit',
    ]);
  });

  it('returns a canUseTool only with an approver, which decides the calls Claude Code wants approved', async () => {
    expect(claudeAgentHooks(AgentBuilder.new()).canUseTool).toBeUndefined();
    const asked: string[] = [];
    const { canUseTool } = claudeAgentHooks(AgentBuilder.new(), {
      approver: ({ toolCall, reason }) => (asked.push(`${toolCall.name} ${String(toolCall.arg('command'))}: ${reason}`), toolCall.arg('command') === 'ls' ? true : { approved: false, reason: 'not today', stopRun: true }),
    });
    const options = { signal, toolUseID: 'toolu_9', requestId: 'r1', decisionReason: 'Deploys need a human' };
    expect(await canUseTool!('Bash', { command: 'ls' }, options)).toEqual({ behavior: 'allow', updatedInput: { command: 'ls' }, toolUseID: 'toolu_9' });
    expect(await canUseTool!('Bash', { command: 'deploy' }, options)).toEqual({ behavior: 'deny', message: 'Tool call refused: not today', interrupt: true, toolUseID: 'toolu_9' });
    expect(asked).toEqual(['Bash ls: Deploys need a human', 'Bash deploy: Deploys need a human']);
  });
});
