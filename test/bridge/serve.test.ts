import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HookOutcome, HookStack, type AnyHookContext } from 'agent-hooks';
import { answerHookRequest } from '../../src/bridge/serve/hook-request.js';
import { startHookServer, type HookServer, type HookServerOptions } from '../../src/bridge/serve/hook-server.js';
import { ReloadingStack } from '../../src/bridge/serve/reloading-stack.js';
import { bearerMatches } from '../../src/bridge/serve/serve-token.js';
import { bridgeStackSource } from '../../src/cli/serve-source.js';
import { scriptHook, tempProject } from '../support/cli.js';
import { isRunning, readPid } from '../support/script-fixture.js';

// Every case runs a real server on 127.0.0.1 and talks to it over a real socket.

const TOKEN = 'test-token-0123456789abcdef0123456789';

const servers: HookServer[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close({ graceMs: 100, drainMs: 100 })));
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function serve(stack: HookStack, options: Partial<HookServerOptions> = {}): Promise<HookServer> {
  const server = await startHookServer({ stack: () => stack, token: TOKEN, ...options });
  servers.push(server);
  return server;
}

interface Reply {
  readonly status: number;
  readonly body: string;
  readonly json: Record<string, unknown> | undefined;
}

function post(server: HookServer, body: string, options: { path?: string; token?: string | null; signal?: AbortSignal } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.token !== null) headers.authorization = `Bearer ${options.token ?? TOKEN}`;
    const req = httpRequest(`${server.url}${options.path ?? '/hooks/claude'}`, { method: 'POST', headers, signal: options.signal }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => {
        let json: Record<string, unknown> | undefined;
        try {
          json = JSON.parse(text) as Record<string, unknown>;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, body: text, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const pre = (command: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: 's1', transcript_path: '/tmp/t.jsonl', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_1', ...extra });

/** A stack with one callback that refuses `rm -rf`, counting its calls. */
function guard(): { stack: HookStack; calls: () => number } {
  let calls = 0;
  const stack = new HookStack().with((ctx: AnyHookContext) => {
    calls++;
    if (ctx.event === 'PreToolUse' && JSON.stringify(ctx.toolCall.args).includes('rm -rf')) return HookOutcome.block('Destructive command refused');
    return HookOutcome.proceed();
  });
  return { stack, calls: () => calls };
}

/** A project with one HOOK.md hook on PreToolUse running `script`, loaded as the server would (trust: all). */
async function projectStack(script: string, fields: Record<string, unknown> = {}): Promise<{ stack: HookStack; dir: string }> {
  const project = await tempProject();
  cleanups.push(project.cleanup);
  await scriptHook(project.hooks, 'probe', { trigger: 'pre-tool-call', ...fields }, script);
  const holder = await ReloadingStack.start(bridgeStackSource({ projectDir: project.dir, hooksDirs: [], hostEnv: { HOME: join(project.dir, 'home'), XDG_CONFIG_HOME: join(project.dir, 'xdg') }, trust: 'all' }), { intervalMs: 0 });
  return { stack: holder.current, dir: project.dir };
}

describe('agent-hooks serve: the HTTP hook endpoint', () => {
  it('answers a PreToolUse as the command bridge would: a deny with its reason, and {} when nothing is said', async () => {
    const { stack } = guard();
    const server = await serve(stack);
    const denied = await post(server, pre('rm -rf /'));
    expect(denied.status).toBe(200);
    expect(denied.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Destructive command refused' } });
    const allowed = await post(server, pre('ls'));
    expect(allowed).toMatchObject({ status: 200, json: {} });
  });

  it('answers GET /health without a token, and 404 / 405 for other routes and methods', async () => {
    const server = await serve(new HookStack());
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', inFlight: 0 });
    expect((await fetch(`${server.url}/hooks/claude`)).status).toBe(405);
    expect((await post(server, pre('ls'), { path: '/hooks/gemini' })).status).toBe(404);
    expect((await post(server, pre('ls'), { path: '/nope' })).status).toBe(404);
  });

  it('refuses a missing or wrong token with 401, and runs nothing', async () => {
    const { stack, calls } = guard();
    const server = await serve(stack);
    const missing = await post(server, pre('rm -rf /'), { token: null });
    expect(missing.status).toBe(401);
    const wrong = await post(server, pre('rm -rf /'), { token: 'not-the-token' });
    expect(wrong.status).toBe(401);
    const near = await post(server, pre('rm -rf /'), { token: `${TOKEN.slice(0, -1)}x` });
    expect(near.status).toBe(401);
    expect(calls()).toBe(0);
    expect((await post(server, pre('ls'))).status).toBe(200);
    expect(calls()).toBe(1);
  });

  it('refuses an oversized body with 413 before dispatching it, and keeps serving', async () => {
    const { stack, calls } = guard();
    const server = await serve(stack, { maxBodyBytes: 1024 });
    const big = await post(server, pre('x'.repeat(4096)));
    expect(big.status).toBe(413);
    expect(calls()).toBe(0);
    // Sent in chunks with no declared length: the bound holds as the body streams in.
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${server.url}/hooks/claude`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < 8; i++) req.write('x'.repeat(512));
      req.end();
    });
    expect(chunked).toBe(413);
    expect(calls()).toBe(0);
    expect((await post(server, pre('ls'))).status).toBe(200);
  });

  it('answers 400 for a body that is not JSON, not an object, names no event, or lacks what its event needs', async () => {
    const { stack, calls } = guard();
    const server = await serve(stack);
    const notJson = await post(server, '{"hook_event_name": "PreToolUse", ');
    expect(notJson.status).toBe(400);
    expect(notJson.json?.error).toMatch(/not JSON/);
    expect((await post(server, '[1, 2]')).status).toBe(400);
    expect((await post(server, JSON.stringify({ tool_name: 'Bash' }))).status).toBe(400);
    const noInput = await post(server, JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash' }));
    expect(noInput.status).toBe(400);
    expect(noInput.json?.error).toMatch(/tool_input/);
    expect(calls()).toBe(0);
  });

  it('answers an event it does not know with 200 {}: no hook can be on it, and a newer agent must not fail', async () => {
    const { stack, calls } = guard();
    const lines: string[] = [];
    const { serveLog } = await import('../../src/bridge/serve/serve-log.js');
    const server = await serve(stack, { log: serveLog('json', 'info', (l) => lines.push(l)) });
    const unknown = await post(server, JSON.stringify({ session_id: 's', hook_event_name: 'TaskCompletedSomewhere' }));
    expect(unknown).toMatchObject({ status: 200, json: {} });
    expect(calls()).toBe(0);
    expect(lines.map((l) => JSON.parse(l))).toContainEqual(expect.objectContaining({ level: 'warn', event: 'TaskCompletedSomewhere', note: expect.stringMatching(/unknown event/) }));
  });

  it('checks an event named by the route against the body', async () => {
    const { stack } = guard();
    const server = await serve(stack);
    expect((await post(server, pre('rm -rf /'), { path: '/hooks/claude/PreToolUse' })).json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    expect((await post(server, pre('ls'), { path: '/hooks/claude/PostToolUse' })).status).toBe(400);
  });

  it('answers 500 when a hook throws', async () => {
    const server = await serve(
      new HookStack().with(() => {
        throw new Error('boom');
      }),
    );
    const reply = await post(server, pre('ls'));
    expect(reply.status).toBe(500);
    expect(reply.json?.error).toMatch(/boom/);
  });

  it('stops a hook that hangs past the request timeout — its process killed — answers 504, and keeps serving', async () => {
    const { stack, dir } = await projectStack('echo $$ > "$AGENT_HOOKS_PROJECT_DIR/hang.pid"\ncat > /dev/null\nsleep 30', { timeout: 60_000 });
    const server = await serve(stack, { requestTimeoutMs: 1500 });
    const started = performance.now();
    const reply = await post(server, pre('ls', { cwd: dir }));
    expect(reply.status).toBe(504);
    expect(performance.now() - started).toBeLessThan(5000);
    const pid = await readPid(join(dir, 'hang.pid'));
    await expect.poll(() => isRunning(pid), { timeout: 3000 }).toBe(false);
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
  }, 20_000);

  it('answers 504 at the request timeout even when an in-process hook ignores the abort and never settles', async () => {
    const stack = new HookStack().with(() => new Promise<HookOutcome>(() => undefined));
    const server = await serve(stack, { requestTimeoutMs: 500 });
    const started = performance.now();
    const reply = await post(server, pre('ls'));
    expect(reply.status).toBe(504);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(server.load()).toEqual({ inFlight: 0, queued: 0 });
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  }, 20_000);

  it('aborts the dispatch when the client goes away: the hook’s process is killed, and the server keeps serving', async () => {
    const { stack, dir } = await projectStack('echo $$ > "$AGENT_HOOKS_PROJECT_DIR/gone.pid"\ncat > /dev/null\nsleep 30', { timeout: 60_000 });
    const lines: string[] = [];
    const { serveLog } = await import('../../src/bridge/serve/serve-log.js');
    const server = await serve(stack, { log: serveLog('json', 'info', (l) => lines.push(l)) });
    const controller = new AbortController();
    const reply = post(server, pre('ls', { cwd: dir }), { signal: controller.signal });
    const pid = await readPid(join(dir, 'gone.pid'), 5000);
    expect(await isRunning(pid)).toBe(true);
    controller.abort();
    await expect(reply).rejects.toThrow();
    await expect.poll(() => isRunning(pid), { timeout: 3000 }).toBe(false);
    await expect.poll(() => lines.map((l) => JSON.parse(l) as { why?: string }).some((l) => l.why === 'client gone')).toBe(true);
    expect(server.load()).toEqual({ inFlight: 0, queued: 0 });
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  }, 20_000);

  it('bounds concurrency: requests past the limit wait their turn, and past the queue get 503', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const stack = new HookStack().with(async () => {
      await gate;
      return HookOutcome.proceed();
    });
    const server = await serve(stack, { maxConcurrent: 1, maxQueued: 1 });
    const first = post(server, pre('a'));
    await expect.poll(() => server.load().inFlight).toBe(1);
    const second = post(server, pre('b'));
    await expect.poll(() => server.load().queued).toBe(1);
    const third = await post(server, pre('c'));
    expect(third.status).toBe(503);
    release();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
  });

  it('shuts down gracefully: stops accepting, answers the request in flight, and drains async hooks', async () => {
    let finishedAsync = false;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const stack = new HookStack().with(async () => {
      await gate;
      return HookOutcome.block('slow guard');
    });
    const server = await startHookServer({ stack: () => stack, token: TOKEN });
    const inFlight = post(server, pre('ls'));
    await expect.poll(() => server.load().inFlight).toBe(1);
    const closing = server.close({ graceMs: 5000, drainMs: 1000 });
    setTimeout(() => {
      finishedAsync = true;
      release();
    }, 200);
    const reply = await inFlight;
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    const report = await closing;
    expect(report).toMatchObject({ answered: 1, aborted: 0, drained: true });
    expect(finishedAsync).toBe(true);
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });

  it('drains an async HOOK.md hook on shutdown, within the bound', async () => {
    const { stack, dir } = await projectStack('cat > /dev/null\nsleep 0.3\necho done > "$AGENT_HOOKS_PROJECT_DIR/async.done"', { async: true });
    const server = await startHookServer({ stack: () => stack, token: TOKEN });
    const reply = await post(server, pre('ls', { cwd: dir }));
    expect(reply.status).toBe(200);
    const report = await server.close({ drainMs: 5000 });
    expect(report.drained).toBe(true);
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(dir, 'async.done'))).toBe(true);
  }, 15_000);

  it('refuses hook requests with 503 while the hooks cannot be loaded', async () => {
    const server = await startHookServer({ stack: () => ({ failure: 'agent-hooks.config.mjs: SyntaxError' }), token: TOKEN });
    servers.push(server);
    const reply = await post(server, pre('ls'));
    expect(reply.status).toBe(503);
    expect(reply.json?.error).toMatch(/SyntaxError/);
    expect((await fetch(`${server.url}/health`)).status).toBe(503);
  });
});

describe('answerHookRequest', () => {
  it('gives the event, the tool and the decision for the log', async () => {
    const { stack } = guard();
    const answer = await answerHookRequest({ agent: 'claude', body: pre('rm -rf /'), stack });
    expect(answer).toMatchObject({ status: 200, event: 'PreToolUse', tool: 'Bash', decision: 'block' });
  });
});

describe('bearerMatches', () => {
  it('takes only "Bearer <token>", exactly', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(bearerMatches(TOKEN, TOKEN)).toBe(false);
    expect(bearerMatches('Bearer ', TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
  });
});
