/**
 * In-process hooks run against a timeout: a hook that never settles ends by itself, its signal is aborted, and its
 * `timeout` failure follows the `onHookError` policy — through the real agent loop, and a real child process for what
 * holds the process.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentBuilder,
  HookError,
  HookOutcome,
  ScriptedModel,
  type AnyHookContext,
  type Hook,
  type HookErrorInfo,
  type HookErrorPolicy,
  type HookScope,
  type NextFn,
} from 'agent-hooks';
import { tempDir, writeExecutable } from '../support/script-fixture.js';
import { hookTimeoutChild as child } from './hook-timeout-child.js';
import { callStep, collectWarnings, echoTool, recordEvents, toolMessages } from './support.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A PreToolUse callback that never settles, and what it was handed. */
function hanging() {
  const seen: { signal?: AbortSignal | undefined; aborted: boolean; reason?: unknown } = { aborted: false };
  const callback = (_ctx: unknown, scope: HookScope) =>
    new Promise<void>(() => {
      seen.signal = scope.signal;
      scope.signal?.addEventListener('abort', () => {
        seen.aborted = true;
        seen.reason = scope.signal?.reason;
      });
    });
  return { callback, seen };
}

/** An agent that calls `echo` once, with a PreToolUse callback named `stuck` that never settles, and a later one. */
function setup(options: { policy?: HookErrorPolicy; hookTimeout?: number; timeout?: number }) {
  const echo = echoTool();
  const model = new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']);
  const builder = AgentBuilder.new().withModel(model).withTools(echo.tool);
  builder.withOptions({ onHookError: options.policy, hookTimeout: options.hookTimeout });
  const rec = recordEvents(builder);
  const { callback, seen } = hanging();
  const later: string[] = [];
  builder
    .onBeforeToolUse(callback, { name: 'stuck', priority: 10, timeout: options.timeout })
    .onBeforeToolUse((ctx) => void later.push(ctx.toolCall.name), { name: 'later' });
  const agent = builder.build();
  const warnings = collectWarnings(agent);
  return { echo, model, rec, agent, seen, later, warnings };
}

/** Runs `agent`, resolving with its result or its error, and how long it took. */
async function settle(agent: { run(prompt: string): Promise<unknown> }) {
  const started = performance.now();
  const outcome = await agent.run('Go').then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  );
  return { ...outcome, ms: performance.now() - started };
}

describe('an in-process hook that never settles', () => {
  it("'fail' (the default): run() settles within the agent's hookTimeout, rejecting with a timeout HookError naming the hook; its signal is aborted", async () => {
    const { agent, echo, rec, seen } = setup({ hookTimeout: 100 });
    const { error, ms } = await settle(agent);

    expect(error).toBeInstanceOf(HookError);
    expect(error).toMatchObject({ code: 'timeout', hookName: 'stuck', event: 'PreToolUse' });
    expect((error as Error).message).toContain("Hook 'stuck' (priority 10) timed out after 100 ms on PreToolUse");
    expect(ms).toBeGreaterThanOrEqual(90);
    expect(ms).toBeLessThan(5_000);
    expect(seen.signal).toBeInstanceOf(AbortSignal);
    expect(seen.aborted).toBe(true);
    expect(seen.reason).toBe(error);
    expect(echo.execute).not.toHaveBeenCalled();
    expect(rec.events.slice(-2)).toEqual(['AgentFailed', 'ExecutionEnd']);
  });

  it("'ignore': the call goes on with a timeout warning; the later hook and the tool run", async () => {
    const { agent, echo, seen, later, warnings } = setup({ policy: 'ignore', hookTimeout: 100 });
    const { result, error } = await settle(agent);

    expect(error).toBeUndefined();
    expect(result).toMatchObject({ status: 'completed', text: 'Done.' });
    expect(later).toEqual(['echo']);
    expect(echo.execute).toHaveBeenCalledTimes(1);
    expect(seen.aborted).toBe(true);
    const timeouts = warnings.filter((w) => w.code === 'timeout');
    expect(timeouts).toHaveLength(1);
    expect(timeouts[0]).toMatchObject({ hookName: 'stuck', event: 'PreToolUse' });
    expect(timeouts[0]!.message).toMatch(/timed out after 100 ms.*ignored/);
  });

  it("'block': the call is refused with a reason naming the hook and the timeout, with a timeout warning; the run goes on", async () => {
    const { agent, echo, model, seen, later, warnings } = setup({ policy: 'block', hookTimeout: 100 });
    const { result } = await settle(agent);

    expect(result).toMatchObject({ status: 'completed', text: 'Done.' });
    expect(echo.execute).not.toHaveBeenCalled();
    expect(later).toEqual([]);
    expect(seen.aborted).toBe(true);
    const told = toolMessages(model.requests[1]!)[0]!.content;
    expect(told).toContain("Hook 'stuck' (priority 10) timed out after 100 ms");
    expect(warnings.filter((w) => w.code === 'timeout').map((w) => w.hookName)).toEqual(['stuck']);
  });

  it('the hook:error event says timeout', async () => {
    const { agent } = setup({ hookTimeout: 100 });
    const infos: HookErrorInfo[] = [];
    agent.events.on('hook:error', (info) => void infos.push(info));
    await settle(agent);

    expect(infos).toHaveLength(1);
    expect(infos[0]).toMatchObject({ hookName: 'stuck', event: 'PreToolUse', error: { code: 'timeout', hookName: 'stuck' } });
  });

  it("a registration's timeout overrides the agent's: 80 ms under a default of an hour", async () => {
    const { agent, seen } = setup({ hookTimeout: 3_600_000, timeout: 80 });
    const { error, ms } = await settle(agent);

    expect(error).toMatchObject({ code: 'timeout', hookName: 'stuck' });
    expect((error as Error).message).toContain('timed out after 80 ms');
    expect(ms).toBeLessThan(5_000);
    expect(seen.aborted).toBe(true);
  });
});

describe('the timeout of one hook', () => {
  it("a registration's longer timeout overrides a short default: a callback taking 150 ms under hookTimeout 50 is not cut", async () => {
    const echo = echoTool();
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']))
      .withTools(echo.tool)
      .withOptions({ hookTimeout: 50 })
      .onBeforeToolUse(() => sleep(150), { name: 'slow-but-allowed', timeout: 2_000 })
      .onAfterToolUse(() => sleep(150), { name: 'unlimited', timeout: Infinity })
      .build();
    const warnings = collectWarnings(agent);

    await expect(agent.run('Go')).resolves.toMatchObject({ status: 'completed' });
    expect(echo.execute).toHaveBeenCalledTimes(1);
    expect(warnings).toEqual([]);
  });

  it('a fast hook is not affected: its answer counts, its signal is never aborted, nothing is reported', async () => {
    const echo = echoTool();
    const signals: AbortSignal[] = [];
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([callStep('echo', { text: 'hi' }), callStep('echo', { text: 'rm' }), 'Done.']))
      .withTools(echo.tool)
      .withOptions({ hookTimeout: 1_000 })
      .onBeforeToolUse(async (ctx, { signal }) => {
        signals.push(signal!);
        await sleep(5);
        if (ctx.toolCall.arg('text') === 'rm') return HookOutcome.block('no rm');
      })
      .build();
    const warnings = collectWarnings(agent);
    const errors: unknown[] = [];
    agent.events.on('hook:error', (info) => void errors.push(info));

    const result = await agent.run('Go');
    await sleep(1_100);

    expect(result.status).toBe('completed');
    expect(echo.execute).toHaveBeenCalledTimes(1);
    expect(signals).toHaveLength(2);
    expect(signals.every((s) => !s.aborted)).toBe(true);
    expect(warnings).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('rejects a timeout that is not a positive number of milliseconds, naming where', () => {
    const builder = AgentBuilder.new();
    expect(() => builder.withOptions({ hookTimeout: 0 })).toThrow(/hookTimeout.*positive number of milliseconds.*got 0/);
    expect(() => builder.withOptions({ hookTimeout: Number.NaN })).toThrow(RangeError);
    expect(() => builder.onBeforeToolUse(() => undefined, { timeout: -5 })).toThrow(/addHook\('PreToolUse', …, \{ timeout \}\).*got -5/);
    expect(() => builder.withHook({ handle: (c, n) => n(c) }, { timeout: '60' as unknown as number })).toThrow(/withHook.*got 60/);
    expect(() => builder.withOptions({ hookTimeout: 2 ** 31 })).toThrow(/at most 2147483647/);
  });
});

describe('Hook classes', () => {
  /** A Hook class that never settles, declaring its own timeout. */
  class StuckHook implements Hook {
    readonly events = ['PreToolUse'] as const;
    signal: AbortSignal | undefined;
    constructor(readonly timeout?: number) {}
    handle(_ctx: AnyHookContext, _next: NextFn, scope: HookScope) {
      this.signal = scope.signal;
      return new Promise<HookOutcome>(() => {});
    }
  }

  const build = (hook: Hook, options: { timeout?: number; policy?: HookErrorPolicy; hookTimeout?: number } = {}) => {
    const echo = echoTool();
    const model = new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']);
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(echo.tool)
      .withOptions({ onHookError: options.policy, hookTimeout: options.hookTimeout ?? 3_600_000 })
      .withHook(hook, { timeout: options.timeout })
      .build();
    return { agent, echo, model, warnings: collectWarnings(agent) };
  };

  it("a Hook class's own timeout applies, and its scope.signal is aborted", async () => {
    const hook = new StuckHook(80);
    const { agent, echo } = build(hook);
    const { error, ms } = await settle(agent);

    expect(error).toMatchObject({ code: 'timeout', hookName: 'StuckHook', event: 'PreToolUse' });
    expect((error as Error).message).toContain('timed out after 80 ms');
    expect(ms).toBeLessThan(5_000);
    expect(hook.signal?.aborted).toBe(true);
    expect(echo.execute).not.toHaveBeenCalled();
  });

  it("withHook(hook, { timeout }) overrides the class's own", async () => {
    const hook = new StuckHook(3_600_000);
    const { agent } = build(hook, { timeout: 60, policy: 'ignore' });
    const { result } = await settle(agent);

    expect(result).toMatchObject({ status: 'completed' });
    expect(hook.signal?.aborted).toBe(true);
  });

  it('the agent default applies to a class that declares none', async () => {
    const hook = new StuckHook();
    const { agent, model } = build(hook, { hookTimeout: 70, policy: 'block' });
    await settle(agent);

    expect(toolMessages(model.requests[1]!)[0]!.content).toContain("Hook 'StuckHook' (priority 0) timed out after 70 ms");
    expect(hook.signal?.aborted).toBe(true);
  });

  it('time spent inside next() is not the hook\'s: a hook around a slower later hook is not cut', async () => {
    const echo = echoTool();
    class AroundHook implements Hook {
      readonly events = ['PreToolUse'] as const;
      readonly timeout = 100;
      async handle(ctx: AnyHookContext, next: NextFn) {
        const outcome = await next(ctx);
        await sleep(20);
        return outcome;
      }
    }
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']))
      .withTools(echo.tool)
      .withHook(new AroundHook(), { priority: 10 })
      .onBeforeToolUse(() => sleep(300), { name: 'slower', timeout: 2_000 })
      .build();

    await expect(agent.run('Go')).resolves.toMatchObject({ status: 'completed' });
    expect(echo.execute).toHaveBeenCalledTimes(1);
  });

  it('a hook that timed out can no longer act: its late next() runs nothing', async () => {
    const echo = echoTool();
    const later: string[] = [];
    let late: unknown;
    class LateHook implements Hook {
      readonly events = ['PreToolUse'] as const;
      readonly timeout = 50;
      async handle(ctx: AnyHookContext, next: NextFn) {
        await sleep(200);
        try {
          return await next(ctx);
        } catch (error) {
          late = error;
          throw error;
        }
      }
    }
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']))
      .withTools(echo.tool)
      .withOptions({ onHookError: 'ignore' })
      .withHook(new LateHook(), { priority: 10 })
      .onBeforeToolUse((ctx) => void later.push(ctx.toolCall.name), { name: 'later' })
      .build();

    await expect(agent.run('Go')).resolves.toMatchObject({ status: 'completed' });
    await sleep(300);
    expect(later).toEqual(['echo']);
    expect(echo.execute).toHaveBeenCalledTimes(1);
    expect(late).toMatchObject({ name: 'HookError', hookName: 'LateHook' });
    expect((late as Error).message).toContain('called next() after it timed out');
  });
});

describe('script hooks keep their own timeout', () => {
  it('a HOOK.md hook sleeping 400 ms (its timeout 5000) is not cut by an agent hookTimeout of 100', async () => {
    const { dir, cleanup } = await tempDir('agent-hooks-timeout-');
    cleanups.push(cleanup);
    const folder = join(dir, '.agents', 'hooks', 'slow-script');
    await mkdir(join(folder, 'scripts'), { recursive: true });
    await writeFile(join(folder, 'HOOK.md'), '---\nname: slow-script\ndescription: sleeps, then allows\ntrigger: pre-tool-call\ntimeout: 5000\n---\n# slow\n');
    await writeExecutable(join(folder, 'scripts', 'run'), '#!/bin/sh\ncat > /dev/null\nsleep 0.4\nexit 0\n');
    const echo = echoTool();
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']))
      .withTools(echo.tool)
      .withOptions({ hookTimeout: 100 })
      .withHooksFrom({ projectDir: dir, trust: 'all', userDir: false })
      .build();
    const warnings = collectWarnings(agent);

    await expect(agent.run('Go')).resolves.toMatchObject({ status: 'completed' });
    expect(echo.execute).toHaveBeenCalledTimes(1);
    expect(warnings.filter((w) => w.code === 'timeout')).toEqual([]);
  });
});

describe('config hooks keep their own timeout', () => {
  it("Claude Code command hooks sleeping 400 ms, run side by side as one group, are not cut by an agent hookTimeout of 100", async () => {
    const { dir, cleanup } = await tempDir('agent-hooks-timeout-');
    cleanups.push(cleanup);
    await mkdir(join(dir, '.claude'), { recursive: true });
    // Two commands (Claude Code runs identical ones once), 5 s each.
    const sleepers = ['0.4', '0.41'].map((s) => ({ type: 'command', command: `cat > /dev/null; sleep ${s}; exit 0`, timeout: 5 }));
    await writeFile(join(dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'echo', hooks: sleepers }] } }));
    const echo = echoTool();
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']))
      .withTools(echo.tool)
      .withOptions({ hookTimeout: 100 })
      .withHooksFrom({ projectDir: dir, trust: 'all', userDir: false, claude: true, parallel: true })
      .build();
    const warnings = collectWarnings(agent);

    await expect(agent.run('Go')).resolves.toMatchObject({ status: 'completed' });
    expect(agent.hooks.all().map((e) => e.name)).toEqual([expect.stringMatching(/^parallel: /)]);
    expect(echo.execute).toHaveBeenCalledTimes(1);
    expect(warnings.filter((w) => w.code === 'timeout')).toEqual([]);
  });
});

describe('what holds the process', () => {
  it('a hook that never settles: the run ends at the timeout, the hook is aborted, and the process exits by itself', () => {
    const { out } = child('hang', '300');
    expect(out).toMatchObject({ error: { code: 'timeout', hookName: 'never-settles' }, aborted: true });
    expect(out['ms']).toBeGreaterThanOrEqual(290);
    expect(out['ms']).toBeLessThan(10_000);
  }, 60_000);

  it('a fast hook under the 60 s default: the process exits as soon as the run is done, not when the timer would fire', () => {
    const { out, ms } = child('fast');
    expect(out).toMatchObject({ status: 'completed', aborted: false });
    expect(ms).toBeLessThan(30_000);
  }, 60_000);
});
