/**
 * The package loaded twice in one process — its ESM build by `import()` and its CommonJS build by `require()`, or two
 * installed copies — must work as one: a hook, an outcome, a context or an error made by one copy is used by the
 * stacks, builders and agents of the other, both ways. Every case runs in a Node process of its own, on a build of the
 * current sources made for this file (as the package test does: a shared dist/ may be older, or rebuilt under it).
 */
import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

/** Holds the package as installed (`pkg/`), a second installed copy of it (`other/`) and the scenario scripts. */
let dir: string;

/** `dist` as npm would install it under `at`: package.json, the build, and the dependencies. */
function install(at: string, dist: string): void {
  mkdirSync(at, { recursive: true });
  if (dist !== join(at, 'dist')) cpSync(dist, join(at, 'dist'), { recursive: true });
  cpSync(join(root, 'package.json'), join(at, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(at, 'node_modules'), 'dir');
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agent-hooks-dual-'));
  // The project's tsup config without declaration files, which these cases do not need and which take most of a build.
  const build = `import('tsup').then((t) => t.build({ outDir: ${JSON.stringify(join(dir, 'pkg', 'dist'))}, dts: false, silent: true }))`;
  await run(process.execPath, ['-e', build], { cwd: root, timeout: 170_000 });
  install(join(dir, 'pkg'), join(dir, 'pkg', 'dist'));
  install(join(dir, 'other'), join(dir, 'pkg', 'dist'));
}, 180_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Copy = 'esm' | 'cjs' | 'other';

/**
 * Runs `body` in a new Node process where `H` is the copy the hooks (and what they return) come from and `S` the copy
 * of the stack, builder or agent that runs them; `body` returns what the test checks, as JSON.
 */
async function scenario(name: string, hooks: Copy, stack: Copy, body: string): Promise<any> {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(
    file,
    `import { createRequire } from 'node:module';
const copies = {
  esm: await import(${JSON.stringify(pathToFileURL(join(dir, 'pkg/dist/index.js')).href)}),
  cjs: createRequire(import.meta.url)(${JSON.stringify(join(dir, 'pkg/dist/index.cjs'))}),
  other: await import(${JSON.stringify(pathToFileURL(join(dir, 'other/dist/index.js')).href)}),
};
if (copies.esm.HookStack === copies.cjs.HookStack || copies.esm.HookStack === copies.other.HookStack) throw new Error('one copy only');
const H = copies[process.argv[2]];
const S = copies[process.argv[3]];
const result = await (async () => {
${body}
})();
console.log(JSON.stringify(result));
`,
  );
  const { stdout } = await run(process.execPath, [file, hooks, stack], { cwd: dir, timeout: 20_000 });
  return JSON.parse(stdout);
}

const WAYS: readonly { hooks: Copy; stack: Copy; title: string }[] = [
  { hooks: 'cjs', stack: 'esm', title: 'CommonJS copy into the ESM copy' },
  { hooks: 'esm', stack: 'cjs', title: 'ESM copy into the CommonJS copy' },
  { hooks: 'other', stack: 'esm', title: 'another installed copy into this one' },
];

describe.each(WAYS)('$title', ({ hooks, stack }) => {
  it('a hook answering with the other copy’s HookOutcome decides, and the stack answers with its own', async () => {
    const result = await scenario(
      'outcomes',
      hooks,
      stack,
      `const ctx = S.ToolHookContext.beforeToolUse(S.ToolCall.create('bash', { command: 'rm -rf /' }));
const fn = await new S.HookStack().with(() => H.HookOutcome.block('refused by a function hook')).process(ctx);
const callback = await new S.HookStack().with(new S.BeforeToolHook(() => H.HookOutcome.block('refused by a callback'))).process(ctx);
const sync = new S.HookStack().with(() => H.HookOutcome.stop('halted synchronously')).dispatch(ctx);
const terminal = await new S.HookStack().with((c, next) => next(c)).process(ctx, () => H.HookOutcome.block('refused by the terminal'));
const merged = await new S.HookStack()
  .with(new S.BeforeToolHook(() => H.HookOutcome.ask('needs review', { additionalContext: 'first' })), 2)
  .with(() => H.HookOutcome.proceed(undefined, { additionalContext: 'second' }), 1)
  .process(ctx);
const all = [fn, callback, sync, terminal, merged];
return {
  decisions: all.map(String),
  merged: { additionalContext: merged.additionalContext, goesOnWith: merged.context === ctx },
  own: all.every((o) => Object.getPrototypeOf(o) === S.HookOutcome.prototype),
  isOutcome: S.HookOutcome.isOutcome(H.HookOutcome.block('x')),
  instanceOf: H.HookOutcome.block('x') instanceof S.HookOutcome,
  contextIsNoOutcome: ctx instanceof S.HookOutcome || S.HookOutcome.isOutcome(ctx),
};`,
    );
    expect(result).toEqual({
      decisions: ['block: refused by a function hook', 'block: refused by a callback', 'stop: halted synchronously', 'block: refused by the terminal', 'ask: needs review'],
      merged: { additionalContext: ['first', 'second'], goesOnWith: true },
      own: true,
      isOutcome: true,
      instanceOf: true,
      contextIsNoOutcome: false,
    });
  });

  it('a context of the other copy, changed with its own with… methods, goes on through the stack', async () => {
    const result = await scenario(
      'contexts',
      hooks,
      stack,
      `// A context the other copy made (its runtime would), through this stack's callbacks and middlewares.
const made = H.ToolHookContext.beforeToolUse(H.ToolCall.create('bash', { command: 'ls' }, 'call_1'));
const outcome = await new S.HookStack()
  .with(new S.BeforeToolHook((ctx) => H.HookOutcome.proceed(ctx.withMetadata('checked', true))), 40)
  .with(new S.BeforeToolHook((ctx) => ctx.toolCall.withArg('long', true)), 30)
  .with(new S.BeforeToolHook((ctx) => S.ToolCall.create('bash', { ...ctx.toolCall.args, human: true }, ctx.toolCall.id)), 20)
  .with(new S.BeforeToolHook((ctx) => ctx.withMetadata('sawChecked', ctx.get('checked'))), 10)
  .with((ctx, next) => next(ctx.withArgs({ ...ctx.toolCall.args, last: true })), 0)
  .process(made);
const ctx = outcome.context;
// This stack's context, answered with a context of the other copy.
const own = S.ToolHookContext.beforeToolUse(S.ToolCall.create('bash', { command: 'ls' }, 'call_2'));
const replaced = await new S.HookStack()
  .with(new S.BeforeToolHook((c) => H.HookOutcome.proceed(
    H.ToolHookContext.beforeToolUse(H.ToolCall.create(c.toolName, c.toolCall.args, c.toolCall.id), { state: c.state }).withMetadata('from', 'the other copy'))))
  .with(new S.BeforeToolHook((c) => H.AgentState.create({ agentId: 'agent_other', metadata: { seen: c.get('from') } })))
  .process(own);
// Shorthand values of the other copy on PostToolUse.
const after = await new S.HookStack()
  .with(new S.AfterToolHook((c) => H.ToolExecution.success(H.ToolCall.create(c.toolName, {}, c.toolCall.id), 'replaced')))
  .process(S.ToolHookContext.afterToolUse(S.ToolExecution.success(own.toolCall, 'original')));
return {
  type: outcome.type,
  args: ctx.toolCall.args,
  id: ctx.toolCall.id,
  metadata: [ctx.get('checked'), ctx.get('sawChecked')],
  classes: {
    tool: ctx instanceof S.ToolHookContext,
    base: ctx instanceof S.HookContextBase,
    stop: ctx instanceof S.StopHookContext,
    isContext: [S.HookContextBase.isContext(ctx), S.ToolHookContext.isContext(ctx), S.StopHookContext.isContext(ctx)],
    call: ctx.toolCall instanceof S.ToolCall && S.ToolCall.isToolCall(ctx.toolCall),
  },
  replaced: { from: replaced.context.get('from'), agentId: replaced.context.state.agentId, seen: replaced.context.state.metadata.seen },
  after: { result: after.context.execution.result, execution: S.ToolExecution.isToolExecution(after.context.execution), state: S.AgentState.isAgentState(after.context.state) },
};`,
    );
    expect(result).toEqual({
      type: 'proceed',
      args: { command: 'ls', long: true, human: true, last: true },
      id: 'call_1',
      metadata: [true, true],
      classes: { tool: true, base: true, stop: false, isContext: [true, true, false], call: true },
      replaced: { from: 'the other copy', agentId: 'agent_other', seen: 'the other copy' },
      after: { result: 'replaced', execution: true, state: true },
    });
  });

  it('a Hook class instance of the other copy runs in a stack and in a builder’s agent', async () => {
    const result = await scenario(
      'hook-classes',
      hooks,
      stack,
      `const ctx = S.ToolHookContext.beforeToolUse(S.ToolCall.create('bash', { command: 'rm -rf /' }));
const guard = new H.BeforeToolHook(() => H.HookOutcome.block('refused by a hook class'), { matcher: 'bash', name: 'guard' });
const crossed = new H.BeforeToolHook(() => S.HookOutcome.block('refused with the stack copy’s outcome'));
const rewrite = new H.BeforeToolHook((c) => c.toolCall.withArg('dryRun', true));
const decisions = [];
for (const hook of [guard, crossed, new H.DangerousCommandHook()]) decisions.push(String(await new S.HookStack().with(hook).process(ctx)));
const rewritten = await new S.HookStack().with(rewrite).process(ctx);
const builtIn = await new S.HookStack().with(new H.RequireApprovalHook({ matcher: 'bash' })).process(ctx);

let ran = 0;
const model = new S.ScriptedModel([{ toolCalls: [{ id: 'c1', name: 'bash', args: { command: 'rm -rf /' } }] }, 'Done.']);
const bash = S.defineTool({ name: 'bash', description: 'Runs a command.', execute: () => ++ran });
const agent = S.AgentBuilder.new().withModel(model).withTools(bash).withHook(guard).build();
const run = await agent.run('Clean up');
return {
  decisions,
  rewritten: rewritten.context.toolCall.args,
  builtIn: builtIn.type,
  classes: [guard instanceof S.EventHook, guard instanceof S.BeforeToolHook, guard instanceof S.AfterToolHook, S.EventHook.isEventHook(guard)],
  run: { status: run.status, ran, told: model.requests[1].messages.find((m) => m.role === 'tool')?.content },
};`,
    );
    expect(result).toMatchObject({
      decisions: ['block: refused by a hook class', 'block: refused with the stack copy’s outcome', expect.stringMatching(/^block: /)],
      rewritten: { command: 'rm -rf /', dryRun: true },
      builtIn: 'ask',
      classes: [true, true, false, true],
      run: { status: 'completed', ran: 0, told: expect.stringContaining('refused by a hook class') },
    });
  });

  it('an AgentBuilder’s callbacks answering with the other copy’s outcomes, in a real run', async () => {
    const result = await scenario(
      'builder',
      hooks,
      stack,
      `let ran = 0;
let stops = 0;
let started;
const model = new S.ScriptedModel([
  { text: 'Cleaning up', toolCalls: [{ id: 'c1', name: 'bash', args: { command: 'rm -rf /' } }] },
  'Done.',
  'I deleted nothing.',
]);
const bash = S.defineTool({ name: 'bash', description: 'Runs a command.', execute: () => ++ran });
const agent = S.AgentBuilder.new()
  .withModel(model)
  .withTools(bash)
  .onExecutionStart((ctx) => H.HookOutcome.proceed(ctx.withMetadata('startedBy', 'the other copy')))
  .onBeforeToolUse(() => H.HookOutcome.block('Destructive command'), { matcher: 'bash' })
  .onStop(() => (stops++ === 0 ? H.HookOutcome.block('Say what you did first.') : undefined))
  .onExecutionEnd((ctx) => { started = ctx.get('startedBy'); })
  .build();
const result = await agent.run('Clean up');
return {
  status: result.status,
  text: result.text,
  ran,
  stops,
  started,
  told: model.requests[1].messages.find((m) => m.role === 'tool')?.content,
  feedback: model.requests[2].messages.at(-1)?.content,
};`,
    );
    expect(result).toMatchObject({ status: 'completed', text: 'I deleted nothing.', ran: 0, stops: 2, started: 'the other copy' });
    expect(result.told).toContain('Destructive command');
    expect(result.feedback).toContain('Say what you did first.');
  });

  it('errors and stacks of one copy are recognised by the other', async () => {
    const result = await scenario(
      'errors',
      hooks,
      stack,
      `const ctx = S.ToolHookContext.beforeToolUse(S.ToolCall.create('bash', {}));
let caught;
try {
  await new S.HookStack().with(function explode() { throw new Error('boom'); }).process(ctx);
} catch (error) {
  caught = error;
}
const other = new H.HookStack().with(new H.BeforeToolHook(() => H.HookOutcome.block('from a stack of the other copy')));
await S.drainAll(other);
return {
  error: [caught instanceof H.HookError, H.HookError.isHookError(caught), caught.hookName, new Error('x') instanceof H.HookError],
  stack: [other instanceof S.HookStack, S.HookStack.isHookStack(other), S.HookStack.isHookStack({ all() {} })],
};`,
    );
    expect(result).toEqual({ error: [true, true, 'explode', false], stack: [true, true, false] });
  });
});

describe('the agent-hooks executable (ESM) with a CommonJS config module', () => {
  it('runs the hooks of a HookStack the config made with require()', async () => {
    const projectDir = join(dir, 'commonjs-project');
    mkdirSync(projectDir);
    writeFileSync(join(projectDir, 'package.json'), JSON.stringify({ name: 'a-commonjs-project', type: 'commonjs' }));
    writeFileSync(
      join(projectDir, 'agent-hooks.config.js'),
      `const { HookStack, BeforeToolHook, HookOutcome } = require(${JSON.stringify(join(dir, 'pkg/dist/index.cjs'))});
module.exports = new HookStack().with(new BeforeToolHook(() => HookOutcome.block('No rm from a CommonJS config'), { matcher: 'Bash' }));
`,
    );
    const input = JSON.stringify({ session_id: 's', cwd: projectDir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });
    // The user's own hooks and agent configs stay out: their homes are inside the project.
    const env = { ...process.env, HOME: join(projectDir, 'home'), XDG_CONFIG_HOME: join(projectDir, 'xdg') };
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [join(dir, 'pkg/dist/cli.cjs'), 'bridge', '--trust-all', '--from', 'claude'], { cwd: projectDir, env });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(input);
    });
    expect(out).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(out.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: 'No rm from a CommonJS config' });
  });
});
