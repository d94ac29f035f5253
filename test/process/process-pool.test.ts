import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentBuilder,
  CommandHook,
  HookStack,
  ProcessPool,
  ScriptHook,
  ScriptedModel,
  ToolCall,
  ToolHookContext,
  defaultMaxConcurrent,
  discoverHooks,
  hookMdDialect,
  loadAllHookConfigs,
  type ScriptExit,
} from 'agent-hooks';
import { tempDir, writeHook } from '../support/script-fixture.js';
import { writeFile, mkdir } from 'node:fs/promises';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function root(): Promise<string> {
  const { dir, cleanup } = await tempDir('agent-hooks-pool-');
  cleanups.push(cleanup);
  return dir;
}

const ctx = () => ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'ls' }));

/** Resolves on the next turns of the event loop, so queued promise callbacks have run. */
const settle = () => new Promise((r) => setTimeout(r, 10));

/** Waits until `check` holds, polling. */
async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function exits(hook: ScriptHook | CommandHook): ScriptExit[] {
  const list: ScriptExit[] = [];
  hook.emitter.on('exit', (exit) => list.push(exit));
  return list;
}

describe('ProcessPool, the scheduling', () => {
  it('defaults to four slots per CPU, shared process-wide', () => {
    expect(defaultMaxConcurrent()).toBe(availableParallelism() * 4);
    expect(new ProcessPool().maxConcurrent).toBe(defaultMaxConcurrent());
    expect(ProcessPool.shared).toBe(ProcessPool.shared);
    expect(ProcessPool.shared.maxConcurrent).toBe(defaultMaxConcurrent());
    expect(ProcessPool.from(undefined)).toBe(ProcessPool.shared);
    const pool = new ProcessPool({ maxConcurrent: 3 });
    expect(ProcessPool.from(pool)).toBe(pool);
    expect(ProcessPool.from({ maxConcurrent: 2 }).maxConcurrent).toBe(2);
    expect(new ProcessPool({ maxConcurrent: Infinity }).maxConcurrent).toBe(Infinity);
  });

  it('rejects a bound that is not a positive integer, naming the option', () => {
    for (const bad of [0, -1, 1.5, NaN, '4' as unknown as number]) {
      expect(() => new ProcessPool({ maxConcurrent: bad })).toThrow(/processPool\.maxConcurrent must be a positive integer/);
    }
    expect(() => ProcessPool.from(4 as never)).toThrow(/processPool must be a ProcessPool or \{ maxConcurrent: number \}/);
  });

  it('grants slots up to the bound, queues the rest, and counts active, queued and peak', async () => {
    const pool = new ProcessPool({ maxConcurrent: 2 });
    const a = await pool.acquire();
    const b = await pool.acquire();
    let third: (() => void) | undefined;
    void pool.acquire().then((release) => (third = release));
    await settle();
    expect(third).toBeUndefined();
    expect(pool.stats()).toEqual({ maxConcurrent: 2, active: 2, queued: 1, peak: 2 });
    a();
    a(); // a second release gives back nothing more
    await settle();
    expect(third).toBeDefined();
    expect(pool.stats()).toEqual({ maxConcurrent: 2, active: 2, queued: 0, peak: 2 });
    b();
    third!();
    expect(pool.active).toBe(0);
    expect(pool.peak).toBe(2);
    pool.resetPeak();
    expect(pool.peak).toBe(0);
  });

  it('hands slots on in arrival order (FIFO)', async () => {
    const pool = new ProcessPool({ maxConcurrent: 1 });
    const first = await pool.acquire();
    const order: number[] = [];
    const runs = [1, 2, 3, 4, 5].map((n) => pool.run(async () => void order.push(n)));
    first();
    await Promise.all(runs);
    expect(order).toEqual([1, 2, 3, 4, 5]);
  });

  it('takes a run whose signal aborts out of the queue at once, without running it', async () => {
    const pool = new ProcessPool({ maxConcurrent: 1 });
    const holder = await pool.acquire();
    const controller = new AbortController();
    let ran = false;
    const queued = pool.run(() => void (ran = true), controller.signal);
    const behind = pool.run(() => 'next');
    await settle();
    expect(pool.queued).toBe(2);
    controller.abort(new Error('cancelled'));
    await expect(queued).rejects.toThrow('cancelled');
    expect(pool.queued).toBe(1);
    holder();
    await expect(behind).resolves.toBe('next');
    expect(ran).toBe(false);
    expect(pool.stats()).toMatchObject({ active: 0, queued: 0 });
    await expect(pool.acquire(AbortSignal.abort(new Error('before')))).rejects.toThrow('before');
    expect(pool.active).toBe(0);
  });

  it('gives the slot back when the task throws or rejects', async () => {
    const pool = new ProcessPool({ maxConcurrent: 1 });
    await expect(pool.run(() => { throw new Error('sync'); })).rejects.toThrow('sync');
    await expect(pool.run(() => Promise.reject(new Error('async')))).rejects.toThrow('async');
    expect(pool.active).toBe(0);
    await expect(pool.run(() => 'ok')).resolves.toBe('ok');
  });
});

describe('ProcessPool with script hooks (real processes)', () => {
  it('starts a hook\'s timeout when its process spawns, not while it waits for a slot', async () => {
    const dir = await root();
    const pool = new ProcessPool({ maxConcurrent: 1 });
    const slow = new ScriptHook(await writeHook(dir, 'slow', 'cat > /dev/null; sleep 0.8'), { projectDir: dir, processPool: pool });
    // Waits some 800 ms in the queue, far past its 300 ms timeout, and still must not time out.
    const quick = new ScriptHook(await writeHook(dir, 'quick', 'cat > /dev/null; echo \'{"decision":"deny","reason":"quick ran"}\'', { timeout: 300 }), {
      projectDir: dir,
      processPool: pool,
    });
    const quickExits = exits(quick);
    const slowRun = new HookStack().with(slow, 0).process(ctx());
    await until(() => pool.active === 1, 'the slow hook to take the slot');
    const quickRun = new HookStack().with(quick, 0).process(ctx());
    await until(() => pool.queued === 1, 'the quick hook to queue');
    const outcome = await quickRun;
    await slowRun;
    expect(quickExits[0]).toMatchObject({ timedOut: false, exitCode: 0 });
    expect(outcome.isBlocked()).toBe(true);
    expect(outcome.reason).toBe('quick ran');
    expect(pool.peak).toBe(1);
  });

  it('never spawns a run cancelled while it waits for a slot', async () => {
    const dir = await root();
    const pool = new ProcessPool({ maxConcurrent: 1 });
    const marker = join(dir, 'spawned');
    const slow = new ScriptHook(await writeHook(dir, 'slow', 'cat > /dev/null; sleep 0.5'), { projectDir: dir, processPool: pool });
    const marking = new ScriptHook(await writeHook(dir, 'marking', `cat > /dev/null; touch "${marker}"`), { projectDir: dir, processPool: pool });
    const markingExits = exits(marking);
    const slowRun = new HookStack().with(slow, 0).process(ctx());
    await until(() => pool.active === 1, 'the slow hook to take the slot');
    const controller = new AbortController();
    const cancelled = new HookStack().with(marking, 0).process(ctx(), undefined, { signal: controller.signal });
    await until(() => pool.queued === 1, 'the marking hook to queue');
    controller.abort();
    await until(() => pool.queued === 0, 'the queue to drop the cancelled run');
    expect(pool.active).toBe(1);
    await cancelled;
    await slowRun;
    expect(markingExits).toHaveLength(1);
    expect(markingExits[0]).toMatchObject({ aborted: true, pid: undefined });
    expect(existsSync(marker)).toBe(false);
    expect(pool.stats()).toMatchObject({ active: 0, queued: 0 });
  });

  it('gives the slot back when a process fails to spawn', async () => {
    const dir = await root();
    const pool = new ProcessPool({ maxConcurrent: 1 });
    const spec = { event: 'PreToolUse', eventName: 'PreToolUse', matcher: undefined, dialect: hookMdDialect, timeoutMs: 5000, projectDir: dir } as const;
    const origin = { kind: 'claude', level: 'project', file: join(dir, 'settings.json'), field: 'hooks' } as const;
    // A working directory that does not exist: the spawn itself fails (ENOENT).
    const broken = new CommandHook({ ...spec, name: 'broken', command: 'exit 0', cwd: join(dir, 'missing'), origin, processPool: pool });
    const fine = new CommandHook({ ...spec, name: 'fine', command: 'cat > /dev/null; echo ok', origin, processPool: pool });
    const brokenExits = exits(broken);
    const fineExits = exits(fine);
    await new HookStack().with(broken, 0).process(ctx());
    expect(brokenExits[0]?.spawnError?.code).toBe('ENOENT');
    expect(pool.active).toBe(0);
    await new HookStack().with(fine, 0).process(ctx());
    expect(fineExits[0]).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
    expect(pool.stats()).toMatchObject({ active: 0, queued: 0, peak: 1 });
  });

  it('lets async hooks take slots too: a sync hook waits for a running async one', async () => {
    const dir = await root();
    const pool = new ProcessPool({ maxConcurrent: 1 });
    const log = join(dir, 'order.log');
    const background = new ScriptHook(await writeHook(dir, 'background', `cat > /dev/null; sleep 0.4; echo background >> "${log}"`, { async: true }), {
      projectDir: dir,
      processPool: pool,
    });
    const gate = new ScriptHook(await writeHook(dir, 'gate', `cat > /dev/null; echo gate >> "${log}"`), { projectDir: dir, processPool: pool });
    await new HookStack().with(background, 0).process(ctx());
    await until(() => pool.active === 1, 'the async hook to take the slot');
    await new HookStack().with(gate, 0).process(ctx());
    await background.drain();
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual(['background', 'gate']);
    expect(pool.peak).toBe(1);
  });

  it('is shared by default, and one per load when a loader is given a size', async () => {
    const dir = await root();
    const a = new ScriptHook(await writeHook(dir, 'a', 'exit 0'), { projectDir: dir });
    const b = new ScriptHook(await writeHook(dir, 'b', 'exit 0'), { projectDir: dir });
    expect(a.processPool).toBe(ProcessPool.shared);
    expect(b.processPool).toBe(ProcessPool.shared);

    const project = join(dir, 'project');
    for (const name of ['one', 'two']) {
      await mkdir(join(project, '.agents', 'hooks', name), { recursive: true });
      await writeHook(join(project, '.agents', 'hooks'), name, 'exit 0');
    }
    await mkdir(join(project, '.claude'), { recursive: true });
    await writeFile(
      join(project, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] } }),
    );
    const discovered = await discoverHooks({ projectDir: project, userDir: false, trust: 'all', processPool: { maxConcurrent: 3 } });
    expect(discovered.hooks).toHaveLength(2);
    expect(discovered.hooks[0]!.processPool.maxConcurrent).toBe(3);
    expect(discovered.hooks[1]!.processPool).toBe(discovered.hooks[0]!.processPool);

    const all = await loadAllHookConfigs(project, { userDir: false, trust: 'all', homeDir: false, processPool: { maxConcurrent: 2 } });
    const pools = new Set(all.hooks.map((h) => (h as ScriptHook | CommandHook).processPool));
    expect(all.hooks).toHaveLength(3);
    expect(pools.size).toBe(1);
    expect([...pools][0]!.maxConcurrent).toBe(2);

    const pool = new ProcessPool({ maxConcurrent: 5 });
    const model = new ScriptedModel(['done']);
    const fromSource = AgentBuilder.new().withModel(model).withHooksFrom({ projectDir: project, userDir: false, trust: 'all', processPool: pool }).build();
    await fromSource.ready();
    expect(fromSource.hooks.all().every((e) => (e.hook as ScriptHook).processPool === pool)).toBe(true);

    const builder = AgentBuilder.new().withModel(model).withOptions({ processPool: { maxConcurrent: 6 } }).withHooksFrom({ projectDir: project, userDir: false, trust: 'all' });
    const first = builder.build();
    const second = builder.build();
    await Promise.all([first.ready(), second.ready()]);
    const poolOf = (agent: typeof first) => (agent.hooks.all()[0]!.hook as ScriptHook).processPool;
    expect(poolOf(first).maxConcurrent).toBe(6);
    // Every agent the builder builds shares the one bound.
    expect(poolOf(second)).toBe(poolOf(first));
  });
});
