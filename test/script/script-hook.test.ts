import { appendFileSync, existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AgentState,
  CallableHook,
  HookOutcome,
  HookStack,
  StopHookContext,
  ToolCall,
  ToolHookContext,
  type AnyHookContext,
  type DispatchOptions,
  type HookNote,
  type Terminal,
} from 'agent-hooks';
import { drainAll, ScriptHook, type ScriptExit, type ScriptHookOptions } from '../../src/script/script-hook.js';
import { isRunning, readPid, tempDir, writeHook, type ManifestOverrides } from '../support/script-fixture.js';

let root: string;
let projectDir: string;
let cleanup: () => Promise<void>;
let seq = 0;
beforeAll(async () => {
  ({ dir: root, cleanup } = await tempDir());
  projectDir = join(root, 'project');
  await mkdir(projectDir);
});
afterAll(() => cleanup());

const pre = (name = 'Shell', args: Record<string, unknown> = { command: 'ls' }) =>
  ToolHookContext.beforeToolUse(ToolCall.create(name, args, 'call_7'), {
    state: AgentState.create({ sessionId: 'sess-42', metadata: { run: 'r1' } }),
  });

/** A ScriptHook over a fresh hook folder whose scripts/run is `script`. */
async function scriptHook(script: string | undefined, overrides: ManifestOverrides = {}, options: Partial<ScriptHookOptions> = {}): Promise<ScriptHook> {
  const name = overrides.name ?? `hook-${++seq}`;
  const manifest = await writeHook(join(root, 'hooks'), name, script, { ...overrides, name });
  return new ScriptHook(manifest, { projectDir, ...options });
}

const stackOf = (...hooks: ScriptHook[]) => new HookStack().withAll(hooks.map((hook) => ({ hook, priority: hook.priority })));

/** Dispatches `ctx` through `hooks`, collecting notes; the terminal records the context it received. */
async function dispatch(hooks: ScriptHook | ScriptHook[] | HookStack, ctx: AnyHookContext = pre(), options: DispatchOptions = {}) {
  const stack = hooks instanceof HookStack ? hooks : stackOf(...(Array.isArray(hooks) ? hooks : [hooks]));
  const notes: HookNote[] = [];
  let reached: AnyHookContext | undefined;
  const terminal: Terminal = (c) => {
    reached = c;
    return HookOutcome.proceed(c);
  };
  const outcome = await stack.process(ctx, terminal, { ...options, onNote: (note) => notes.push(note) });
  return { outcome, notes, reached: () => reached };
}

describe('ScriptHook: what the script answers', () => {
  it('exit 0 without output proceeds to the terminal', async () => {
    const { outcome, notes, reached } = await dispatch(await scriptHook('cat > /dev/null; exit 0'));
    expect(outcome.type).toBe('proceed');
    expect(outcome.granted).toBe(false);
    expect(reached()?.event).toBe('PreToolUse');
    expect(notes).toEqual([]);
  });

  it('decision allow grants; deny and block refuse with the reason; the terminal is not reached', async () => {
    const allow = await dispatch(await scriptHook(`echo '{"decision":"allow"}'`));
    expect(allow.outcome.type).toBe('proceed');
    expect(allow.outcome.granted).toBe(true);
    expect(allow.reached()).toBeDefined();

    const deny = await dispatch(await scriptHook(`echo '{"decision":"deny","reason":"No writes to /etc"}'`));
    expect(deny.outcome.type).toBe('block');
    expect(deny.outcome.reason).toBe('No writes to /etc');
    expect(deny.reached()).toBeUndefined();

    const block = await dispatch(await scriptHook(`echo '{"decision":"block"}'`, { name: 'blocker' }));
    expect(block.outcome.type).toBe('block');
    expect(block.outcome.reason).toBe("blocked by hook 'blocker'");
  });

  it('decision ask lets later hooks run and merges with them; a later block still wins', async () => {
    const asker = await scriptHook(`echo '{"decision":"ask","reason":"Deploy to prod?"}'`, { priority: 200 });
    const seen: string[] = [];
    const later = new CallableHook((ctx, next) => {
      seen.push(ctx.event);
      return next(ctx);
    });
    const asked = await dispatch(stackOf(asker).with(later, 1));
    expect(asked.outcome.type).toBe('ask');
    expect(asked.outcome.reason).toBe('Deploy to prod?');
    expect(seen).toEqual(['PreToolUse']);
    expect(asked.reached()).toBeDefined();

    const blocked = await dispatch(stackOf(asker).with(() => HookOutcome.block('never'), 1));
    expect(blocked.outcome.type).toBe('block');
    expect(blocked.outcome.reason).toBe('never');
  });

  it('modified_input reaches later hooks and the terminal', async () => {
    const rewrite = await scriptHook(`echo '{"modified_input":{"command":"ls -la","safe":true}}'`, { priority: 300 });
    const seenByLater: unknown[] = [];
    const stack = stackOf(rewrite).with((ctx, next) => {
      if (ctx.event === 'PreToolUse') seenByLater.push(ctx.toolCall.args);
      return next(ctx);
    }, 1);
    const { outcome, reached } = await dispatch(stack);
    expect(seenByLater).toEqual([{ command: 'ls -la', safe: true }]);
    expect((reached() as ToolHookContext).toolCall.args).toEqual({ command: 'ls -la', safe: true });
    expect((outcome.context as ToolHookContext).toolCall.args).toEqual({ command: 'ls -la', safe: true });
  });

  it('additional_context and system_message are kept in front of what later hooks add', async () => {
    const first = await scriptHook(`echo '{"additional_context":["from script","twice"],"system_message":"Checked"}'`, { priority: 300 });
    const stack = stackOf(first).with(() => HookOutcome.proceed(undefined, { additionalContext: 'from callback' }), 1);
    const { outcome } = await dispatch(stack);
    expect(outcome.type).toBe('proceed');
    expect(outcome.additionalContext).toEqual(['from script', 'twice', 'from callback']);
    expect(outcome.systemMessages).toEqual(['Checked']);
  });

  it('continue: false with stop_reason stops the run; nothing after it runs', async () => {
    const stopper = await scriptHook(`echo '{"continue":false,"stop_reason":"Budget exhausted"}'`, { priority: 300 });
    let laterRan = false;
    const stack = stackOf(stopper).with((ctx, next) => {
      laterRan = true;
      return next(ctx);
    }, 1);
    const { outcome, reached } = await dispatch(stack);
    expect(outcome.type).toBe('stop');
    expect(outcome.reason).toBe('Budget exhausted');
    expect(laterRan).toBe(false);
    expect(reached()).toBeUndefined();
  });

  it('exit 2 blocks with stderr as the reason, or with a reason naming the hook', async () => {
    const withReason = await dispatch(await scriptHook(`echo "Dangerous command blocked: rm -rf /" >&2; exit 2`));
    expect(withReason.outcome.type).toBe('block');
    expect(withReason.outcome.reason).toBe('Dangerous command blocked: rm -rf /');
    expect(withReason.notes).toEqual([]);

    const silent = await dispatch(await scriptHook('exit 2', { name: 'silent-guard' }));
    expect(silent.outcome.type).toBe('block');
    expect(silent.outcome.reason).toBe("blocked by hook 'silent-guard' (exit 2)");
  });

  it('exit 1, exit 127, a missing interpreter, a signal and invalid JSON fail open with a warning note', async () => {
    const cases: [string, string, string][] = [
      ['echo "lint crashed" >&2; exit 1', 'exit-code', 'exited with code 1: lint crashed'],
      ['no-such-command-xyz --check', 'spawn-error', 'interpreter or command not found'],
      ['#!/no/such/interpreter\necho hi\n', 'spawn-error', 'interpreter on its #! line was not found'],
      ['kill -KILL $$', 'signal', 'killed by SIGKILL'],
      ['echo "all good"', 'invalid-output', 'not JSON'],
    ];
    for (const [script, code, text] of cases) {
      const hook = await scriptHook(script);
      const { outcome, notes, reached } = await dispatch(hook);
      expect(outcome.type, script).toBe('proceed');
      expect(reached(), script).toBeDefined();
      expect(notes, script).toHaveLength(1);
      expect(notes[0], script).toMatchObject({ level: 'warning', code, hookName: hook.name, event: 'PreToolUse' });
      expect(notes[0]!.message, script).toContain(`Hook '${hook.name}'`);
      expect(notes[0]!.message, script).toContain(text);
    }
  });

  it('notes also reach the hook’s own emitter, and every process exit is reported there', async () => {
    const hook = await scriptHook('echo oops >&2; exit 3');
    const notes: HookNote[] = [];
    const exits: ScriptExit[] = [];
    hook.emitter.on('note', (note) => notes.push(note));
    hook.emitter.on('exit', (exit) => exits.push(exit));
    hook.emitter.on('exit', () => {
      throw new Error('a broken listener');
    });
    const result = await dispatch(hook);
    expect(result.notes).toEqual(notes);
    expect(notes[0]!.data).toMatchObject({ exitCode: 3, stderr: 'oops\n' });
    expect(exits).toEqual([
      expect.objectContaining({ hookName: hook.name, event: 'PreToolUse', eventName: 'pre-tool-call', exitCode: 3, stderr: 'oops\n', async: false }),
    ]);
    expect(exits[0]!.durationMs).toBeGreaterThan(0);
  });

  it('non-UTF-8 output never throws', async () => {
    const stdout = await dispatch(await scriptHook(`printf '\\377\\376{'`));
    expect(stdout.outcome.type).toBe('proceed');
    expect(stdout.notes[0]!.code).toBe('invalid-output');
    const stderr = await dispatch(await scriptHook(`printf 'bad \\377 byte' >&2; exit 2`));
    expect(stderr.outcome.reason).toBe('bad \uFFFD byte');
  });

  it('a hook folder without a script fails open, with the loader’s problem', async () => {
    const { outcome, notes } = await dispatch(await scriptHook(undefined));
    expect(outcome.type).toBe('proceed');
    expect(notes[0]).toMatchObject({ level: 'warning', code: 'no-entry' });
    expect(notes[0]!.message).toContain('scripts/run');
  });

  it('an event that cannot be sent as JSON fails this run, not the dispatch, spawns nothing, and refuses the call', async () => {
    const marker = join(root, 'bigint-marker');
    const { outcome, notes } = await dispatch(await scriptHook(`touch "${marker}"`), pre('Shell', { count: 10n }));
    // The guard never saw the call: failing open must not mean running what it could not check.
    expect(outcome.type).toBe('block');
    expect(outcome.reason).toContain('could not be sent the event as JSON');
    expect(notes[0]).toMatchObject({ level: 'warning', code: 'invalid-input' });
    expect(existsSync(marker)).toBe(false);
  });
});

describe('ScriptHook: failing closed', () => {
  it('per hook (metadata.failClosed) turns exit 1, a missing script or a timeout into a block naming the hook', async () => {
    const crash = await dispatch(await scriptHook('exit 1', { name: 'strict-guard', metadata: { failClosed: true } }));
    expect(crash.outcome.type).toBe('block');
    expect(crash.outcome.reason).toContain("Hook 'strict-guard' exited with code 1");
    expect(crash.notes[0]).toMatchObject({ level: 'warning', code: 'exit-code' });
    expect(crash.notes[0]!.message).toContain('failing closed');

    const missing = await dispatch(await scriptHook(undefined, { metadata: { failClosed: true } }));
    expect(missing.outcome.type).toBe('block');

    const slow = await dispatch(await scriptHook('sleep 10', { timeout: 150, metadata: { failClosed: true } }));
    expect(slow.outcome.type).toBe('block');
    expect(slow.outcome.reason).toContain('timed out after 150 ms');
  });

  it('globally (options.failClosed), which a hook cannot turn off', async () => {
    const global = await dispatch(await scriptHook('exit 1', {}, { failClosed: true }));
    expect(global.outcome.type).toBe('block');
    const optOut = await dispatch(await scriptHook('exit 1', { metadata: { failClosed: false } }, { failClosed: true }));
    expect(optOut.outcome.type).toBe('block');
    const exit0 = await dispatch(await scriptHook('exit 0', {}, { failClosed: true }));
    expect(exit0.outcome.type).toBe('proceed');
  });
});

describe('ScriptHook: what the script receives', () => {
  const echo = (file: string) =>
    `cat > "${file}"; printf '%s\\n%s\\n%s\\n%s\\n%s\\n' "$AGENT_HOOKS_PROJECT_DIR" "$AGENT_HOOKS_EVENT" "$AGENT_HOOKS_HOOK_NAME" "$EXTRA_VAR" "$(pwd)" > "${file}.env"`;

  it('gets the event as JSON on stdin, the AGENT_HOOKS_* variables and the options’ env, in the project directory', async () => {
    const file = join(root, 'payload-new.json');
    const hook = await scriptHook(echo(file), { triggerName: 'pre-tool-call', name: 'echo-new' }, { env: { EXTRA_VAR: 'extra' } });
    await dispatch(hook, pre('Shell', { command: 'git status' }));
    const payload = JSON.parse(await readFile(file, 'utf8'));
    expect(payload).toMatchObject({
      event_type: 'pre-tool-call',
      session_id: 'sess-42',
      work_dir: projectDir,
      context: { run: 'r1' },
      tool_name: 'Shell',
      tool_input: { command: 'git status' },
      tool_use_id: 'call_7',
    });
    expect(Date.parse(payload.timestamp)).not.toBeNaN();
    const env = (await readFile(`${file}.env`, 'utf8')).split('\n');
    expect(env.slice(0, 5)).toEqual([projectDir, 'pre-tool-call', 'echo-new', 'extra', projectDir]);
  });

  it('names the event in the family the trigger was written in', async () => {
    for (const [triggerName, expected] of [
      ['before_tool', 'before_tool'],
      ['pre-tool-call', 'pre-tool-call'],
      ['PreToolUse', 'pre-tool-call'],
    ]) {
      const file = join(root, `payload-${triggerName}.json`);
      await dispatch(await scriptHook(echo(file), { triggerName }));
      expect(JSON.parse(await readFile(file, 'utf8')).event_type).toBe(expected);
      expect((await readFile(`${file}.env`, 'utf8')).split('\n')[1]).toBe(expected);
    }
  });

  it('gets the stop fields on a before_stop quality gate', async () => {
    const file = join(root, 'payload-stop.json');
    const hook = await scriptHook(echo(file), { triggerName: 'before_stop' });
    await dispatch(hook, StopHookContext.stop({ stopReason: 'no_tool_calls', stepCount: 5, finalMessage: 'Done.' }));
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
      event_type: 'before_stop',
      stop_reason: 'no_tool_calls',
      step_count: 5,
      final_message: { role: 'assistant', content: 'Done.' },
    });
  });

  it('reads the HOOK.md body only when asked, and keeps it', async () => {
    const hook = await scriptHook('exit 0', { name: 'with-body' });
    expect(await hook.body()).toBe('# with-body\n\nThe body of with-body.\n');
    expect(hook.body()).toBe(hook.body());
  });
});

describe('ScriptHook: bounded processes', () => {
  it('a timeout kills the script and a grandchild that ignores SIGTERM, within timeout + grace + 1 s, and fails open', async () => {
    const pidFile = join(root, 'hanging-grandchild.pid');
    const hook = await scriptHook(`sh -c 'trap "" TERM; echo $$ > "${pidFile}"; sleep 30' & sleep 30`, { timeout: 300 }, { killGraceMs: 500 });
    const started = performance.now();
    const { outcome, notes } = await dispatch(hook);
    const elapsed = performance.now() - started;
    expect(outcome.type).toBe('proceed');
    expect(notes[0]).toMatchObject({ code: 'timeout', level: 'warning' });
    expect(notes[0]!.message).toContain('timed out after 300 ms');
    expect(elapsed).toBeLessThan(300 + 500 + 1000);
    expect(await isRunning(await readPid(pidFile))).toBe(false);
  });

  it('a 50 MB flood on stdout is cut at the cap, killed and reported, quickly', async () => {
    const hook = await scriptHook('yes | head -c 50000000');
    const exits: ScriptExit[] = [];
    hook.emitter.on('exit', (exit) => exits.push(exit));
    const started = performance.now();
    const { outcome, notes } = await dispatch(hook);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(outcome.type).toBe('proceed');
    expect(notes[0]).toMatchObject({ code: 'output-overflow' });
    expect(notes[0]!.message).toContain('more than 1048576 bytes to stdout');
    expect(exits[0]!.stdout.length).toBeLessThanOrEqual(1024 * 1024);
  });

  it('a script that never reads a large payload (EPIPE) does not crash anything', async () => {
    const { outcome, notes } = await dispatch(await scriptHook('exit 0'), pre('Write', { content: 'x'.repeat(4 * 1024 * 1024) }));
    expect(outcome.type).toBe('proceed');
    expect(notes).toEqual([]);
  });

  it('an abort of the dispatch’s signal kills the script', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const { outcome, notes } = await dispatch(await scriptHook('sleep 30'), pre(), { signal: controller.signal });
    expect(performance.now() - started).toBeLessThan(3000);
    // Failing open is for a broken hook, not for a cancelled run: the call is refused.
    expect(outcome.type).toBe('block');
    expect(notes[0]).toMatchObject({ code: 'aborted' });
  });
});

describe('ScriptHook in a HookStack', () => {
  it('runs by priority among callbacks: script 999, callback 500, script 100', async () => {
    const log = join(root, 'order.log');
    const env = { ORDER_LOG: log };
    const high = await scriptHook('echo script-999 >> "$ORDER_LOG"', { priority: 999 }, { env });
    const low = await scriptHook('echo script-100 >> "$ORDER_LOG"', { priority: 100 }, { env });
    const callback = new CallableHook((ctx, next) => {
      appendFileSync(log, 'callback-500\n');
      return next(ctx);
    });
    const stack = new HookStack().with(low, low.priority).with(callback, 500).with(high, high.priority);
    await stack.process(pre());
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual(['script-999', 'callback-500', 'script-100']);
  });

  it('spawns nothing for a hook whose matcher does not match', async () => {
    const marker = join(root, 'spawned-marker');
    const byTool = await scriptHook(`touch "${marker}"`, { matcher: { tool: '^Write$' } });
    const byPattern = await scriptHook(`touch "${marker}"`, { matcher: { tool: 'Shell', pattern: 'rm -rf' } });
    const exits: ScriptExit[] = [];
    for (const hook of [byTool, byPattern]) hook.emitter.on('exit', (exit) => exits.push(exit));
    const { outcome, reached } = await dispatch([byTool, byPattern], pre('Shell', { command: 'ls' }));
    expect(outcome.type).toBe('proceed');
    expect(reached()).toBeDefined();
    expect(exits).toEqual([]);
    expect(existsSync(marker)).toBe(false);
    expect(stackOf(byTool).hooksFor('PostToolUse')).toEqual([]);
  });

  it('matches `pattern` against the input JSON or any one argument, and `tool` as an unanchored regex', async () => {
    const guard = await scriptHook('echo "no python" >&2; exit 2', { matcher: { tool: 'Write|Edit', pattern: '\\.py$' } });
    expect((await dispatch(guard, pre('Write', { file_path: 'src/a.py', content: 'x' }))).outcome.type).toBe('block');
    expect((await dispatch(guard, pre('NotebookEdit', { file_path: 'b.py' }))).outcome.type).toBe('block');
    expect((await dispatch(guard, pre('Write', { file_path: 'src/a.ts' }))).outcome.type).toBe('proceed');
    expect((await dispatch(guard, pre('Shell', { command: 'x.py' }))).outcome.type).toBe('proceed');
  });

  it('runs async hooks in parallel without waiting for them; drainAll waits for all', async () => {
    const hooks = await Promise.all(
      Array.from({ length: 5 }, (_, i) => scriptHook(`sleep 0.3; touch "${join(root, `async-${i}`)}"`, { async: true, priority: 100 + i })),
    );
    const stack = stackOf(...hooks);
    const handedOver: Promise<unknown>[] = [];
    const started = performance.now();
    const outcome = await stack.process(pre(), undefined, { waitUntil: (work) => handedOver.push(work) });
    const returned = performance.now() - started;
    expect(outcome.type).toBe('proceed');
    expect(returned).toBeLessThan(250);
    expect(handedOver).toHaveLength(5);
    expect(hooks.reduce((n, h) => n + h.pendingCount, 0)).toBe(5);
    await drainAll(stack);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(hooks.map((_, i) => existsSync(join(root, `async-${i}`)))).toEqual([true, true, true, true, true]);
    expect(hooks.reduce((n, h) => n + h.pendingCount, 0)).toBe(0);
  });

  it('an async hook cannot block or modify: its attempt is ignored with a note', async () => {
    const hook = await scriptHook(`sleep 0.1; echo '{"decision":"deny","reason":"too late"}'`, { async: true });
    const { outcome, notes, reached } = await dispatch(hook);
    expect(outcome.type).toBe('proceed');
    expect(reached()).toBeDefined();
    expect(notes).toEqual([]);
    await hook.drain();
    expect(notes).toEqual([expect.objectContaining({ level: 'warning', code: 'async-decision-ignored', hookName: hook.name })]);
    expect(notes[0]!.message).toContain('block decision was ignored');
  });

  it('an async hook that crashes only warns, even when it would fail closed', async () => {
    const hook = await scriptHook('exit 1', { async: true, metadata: { failClosed: true } });
    expect(hook.failClosed).toBe(false);
    const { outcome, notes } = await dispatch(hook);
    await hook.drain();
    expect(outcome.type).toBe('proceed');
    expect(notes).toEqual([expect.objectContaining({ code: 'exit-code', level: 'warning' })]);
  });
});
