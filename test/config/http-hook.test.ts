import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  AgentBuilder,
  AgentState,
  HookOutcome,
  HttpHook,
  ScriptedModel,
  StopHookContext,
  ToolCall,
  ToolHookContext,
  defineTool,
  httpHookFromEntry,
  type AgentWarning,
  type AnyHookContext,
  type HookEventName,
  type HookNote,
  type HookScope,
  type HttpHookSpec,
} from 'agent-hooks';
import { claudeDialect } from '../../src/dialects/claude.js';
import type { HookProblem } from '../../src/script/problem.js';
import { configMatcher } from '../../src/config/config-matcher.js';
import { trustFingerprint } from '../../src/script/trust/trust-fingerprint.js';
import { toolMessages } from '../agent/support.js';

// Each test answers the hook from a real HTTP server on the loopback interface, as a policy server would.

interface Received {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** Resolves when the client's socket closes. */
  readonly closed: Promise<void>;
}

type Answer = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A server on 127.0.0.1 that records each request and answers it with `answer`. */
async function serve(answer: Answer): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    const closed = new Promise<void>((resolve) => req.socket.once('close', () => resolve()));
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method, url: req.url, headers: req.headers, body, closed });
      answer(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

/** Answers 200 with `json`. */
const json =
  (value: unknown): Answer =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };

const origin = { kind: 'claude' as const, level: 'project' as const, file: '/project/.claude/settings.json', field: 'hooks.PreToolUse[0].hooks[0]' };

function httpHook(url: string, spec: Partial<HttpHookSpec> = {}): HttpHook {
  return new HttpHook({ url, event: 'PreToolUse', matcher: configMatcher('Bash', 'PreToolUse', 'claude'), projectDir: process.cwd(), origin, timeoutMs: 5000, ...spec });
}

/** A `Bash` tool that records its commands. */
const bash = (calls: string[]) =>
  defineTool({
    name: 'Bash',
    description: 'Runs a shell command.',
    input: z.object({ command: z.string() }),
    execute: (input) => (calls.push(input.command), `ran ${input.command}`),
  });

/** Runs an agent that calls Bash with `command` once, guarded by `hook`. */
async function runWith(hook: HttpHook, command = 'rm -rf /', signal?: AbortSignal) {
  const calls: string[] = [];
  const warnings: AgentWarning[] = [];
  const model = new ScriptedModel([{ toolCalls: [{ name: 'Bash', args: { command } }] }, 'done']);
  const agent = AgentBuilder.new().withModel(model).withTools(bash(calls)).withHook(hook).build();
  agent.events.on('warning', (w) => warnings.push(w));
  const result = await agent.run('clean up', signal === undefined ? {} : { signal }).then(
    (r) => r,
    (e: unknown) => e as Error,
  );
  return { calls, warnings, model, result };
}

const state = AgentState.create({ sessionId: 'http-session' });
const preToolUse = (args: Record<string, unknown> = { command: 'ls' }) => ToolHookContext.beforeToolUse(ToolCall.create('Bash', args, 'call-1'), { state });

/** Runs the hook alone on `ctx`, with a terminal that proceeds; returns the outcome and the notes. */
async function dispatch(hook: HttpHook, ctx: AnyHookContext, signal?: AbortSignal): Promise<{ outcome: HookOutcome; notes: HookNote[]; reached: AnyHookContext[] }> {
  const notes: HookNote[] = [];
  const reached: AnyHookContext[] = [];
  const scope: HookScope = { signal, report: (n) => notes.push(n), waitUntil: () => undefined };
  const outcome = await hook.handle(ctx, (c) => (reached.push(c ?? ctx), HookOutcome.proceed()), scope);
  return { outcome, notes, reached };
}

describe('HttpHook in an agent run', () => {
  it('a permissionDecision deny blocks the tool call, and the model is told the reason', async () => {
    const { url, received } = await serve(
      json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'rm -rf is not allowed' } }),
    );
    const { calls, warnings, model } = await runWith(httpHook(url));
    expect(calls).toEqual([]);
    expect(toolMessages(model.requests[1]!)[0]!.content).toContain('rm -rf is not allowed');
    expect(received).toHaveLength(1);
    expect(received[0]!.method).toBe('POST');
    expect(received[0]!.headers['content-type']).toBe('application/json');
    expect(warnings).toEqual([]);
  });

  it('an allow lets the call run', async () => {
    const { url } = await serve(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }));
    const { calls, warnings } = await runWith(httpHook(url), 'ls');
    expect(calls).toEqual(['ls']);
    expect(warnings).toEqual([]);
  });

  it('updatedInput rewrites the call', async () => {
    const { url } = await serve(
      json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls -la' } } }),
    );
    const { calls } = await runWith(httpHook(url), 'ls');
    expect(calls).toEqual(['ls -la']);
  });

  it('additionalContext reaches the next model request', async () => {
    const { url } = await serve(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'Prefer ls -1 in this repo.' } }));
    const { calls, model } = await runWith(httpHook(url), 'ls');
    expect(calls).toEqual(['ls']);
    expect(model.requests[1]!.messages.some((m) => m.content.includes('Prefer ls -1 in this repo.'))).toBe(true);
  });

  it('an empty 200 body decides nothing, without a warning', async () => {
    const { url } = await serve((_req, res) => res.end());
    const { calls, warnings } = await runWith(httpHook(url), 'ls');
    expect(calls).toEqual(['ls']);
    expect(warnings).toEqual([]);
  });

  it('a non-2xx answer fails open with a warning naming the status and URL', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(500);
      res.end(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } }));
    });
    const { calls, warnings } = await runWith(httpHook(url), 'ls');
    // A deny in an error answer is not read: only a 2xx body is the hook's answer.
    expect(calls).toEqual(['ls']);
    expect(warnings.map((w) => w.message).join('\n')).toContain(`got HTTP 500 from ${url}; failing open`);
  });

  it('with onFailure block, a non-2xx answer blocks the call', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    const { calls, model } = await runWith(httpHook(url, { failClosed: true }));
    expect(calls).toEqual([]);
    expect(toolMessages(model.requests[1]!)[0]!.content).toContain(`got HTTP 503 from ${url} (it fails closed)`);
  });

  it('with onFailure block, a failure on Stop lets the agent stop', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(500);
      res.end();
    });
    const hook = httpHook(url, { event: 'Stop', matcher: undefined, failClosed: true });
    const { outcome, notes } = await dispatch(hook, StopHookContext.stop({ stopReason: 'no_tool_calls', stepCount: 1, finalMessage: 'done', state }));
    expect(outcome.type).toBe('proceed');
    expect(notes[0]!.message).toMatch(/failing open/);
  });

  it('a 302 is not followed: it is a non-2xx answer', async () => {
    const { url: elsewhere, received: followed } = await serve(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } }));
    const { url, received } = await serve((_req, res) => {
      res.writeHead(302, { location: elsewhere });
      res.end();
    });
    const { calls, warnings } = await runWith(httpHook(url), 'ls');
    expect(received).toHaveLength(1);
    expect(followed).toHaveLength(0);
    expect(calls).toEqual(['ls']);
    expect(warnings.map((w) => w.message).join('\n')).toContain('got HTTP 302');
  });

  it('a timeout aborts the request (the server sees its socket close) and fails open', async () => {
    const { url, received } = await serve(() => {
      // Never answers.
    });
    const started = Date.now();
    const { calls, warnings } = await runWith(httpHook(url, { timeoutMs: 300 }), 'ls');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(calls).toEqual(['ls']);
    await received[0]!.closed;
    expect(warnings.map((w) => w.message).join('\n')).toMatch(/got no answer from .* within 300 ms, so the request was aborted; failing open/);
  });

  it('a body that is not valid JSON is a failure, with a warning', async () => {
    const { url } = await serve((_req, res) => res.end('{"hookSpecificOutput": '));
    const { calls, warnings } = await runWith(httpHook(url), 'ls');
    expect(calls).toEqual(['ls']);
    const warning = warnings.find((w) => /not valid JSON/.test(w.message));
    expect(warning?.message).toMatch(/failing open/);
  });

  it('a plain-text body is no answer: a failure, with a warning', async () => {
    const { url } = await serve((_req, res) => res.end('looks fine to me'));
    const { calls, warnings } = await runWith(httpHook(url), 'ls');
    expect(calls).toEqual(['ls']);
    expect(warnings.map((w) => w.message).join('\n')).toMatch(/not a JSON object; failing open/);
  });

  it('an answer Claude Code’s schema refuses is a failure, and blocks with onFailure block', async () => {
    const { url } = await serve(json({ decision: 'deny' }));
    const open = await dispatch(httpHook(url), preToolUse());
    expect(open.outcome.type).toBe('proceed');
    expect(open.notes[0]!.code).toBe('invalid-output');
    const closed = await dispatch(httpHook(url, { failClosed: true }), preToolUse());
    expect(closed.outcome.type).toBe('block');
  });

  it('aborting the run aborts the request, and the tool does not run', async () => {
    const controller = new AbortController();
    const { url, received } = await serve(() => {
      // Holds the request until the run is cancelled.
      controller.abort(new Error('user cancelled'));
    });
    const { calls, result } = await runWith(httpHook(url), 'rm -rf /', controller.signal);
    expect(calls).toEqual([]);
    expect((result as Error).message).toBe('user cancelled');
    await received[0]!.closed;
  });

  it('a cancelled request is refused on PreToolUse, even failing open', async () => {
    const controller = new AbortController();
    const { url, received } = await serve(() => controller.abort());
    const { outcome, notes, reached } = await dispatch(httpHook(url), preToolUse(), controller.signal);
    expect(outcome.type).toBe('block');
    expect(reached).toEqual([]);
    expect(notes[0]!.code).toBe('aborted');
    await received[0]!.closed;
  });

  it('a body over the cap fails, and the request is aborted', async () => {
    const { url, received } = await serve((_req, res) => {
      res.writeHead(200);
      // Written in parts, with no length given: the cap is found while reading.
      res.write(`{"systemMessage": "${'x'.repeat(600)}`);
      res.write('x'.repeat(600));
    });
    const { outcome, notes } = await dispatch(httpHook(url, { maxResponseBytes: 1000 }), preToolUse());
    expect(outcome.type).toBe('proceed');
    expect(notes[0]).toMatchObject({ code: 'output-overflow' });
    expect(notes[0]!.message).toMatch(/over 1000 bytes, so the request was aborted; failing open/);
    await received[0]!.closed;
  });

  it('a body over the 1 MiB default fails, even when its length is declared', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(2 * 1024 * 1024) });
      res.write('{');
    });
    const { notes } = await dispatch(httpHook(url), preToolUse());
    expect(notes[0]).toMatchObject({ code: 'output-overflow' });
    expect(notes[0]!.message).toContain(`over ${1024 * 1024} bytes`);
  });

  it('a server that cannot be reached fails open', async () => {
    const { url } = await serve(() => undefined);
    servers.splice(0).forEach((s) => s.close());
    const { outcome, notes } = await dispatch(httpHook(url), preToolUse());
    expect(outcome.type).toBe('proceed');
    expect(notes[0]).toMatchObject({ code: 'http-error' });
    expect(notes[0]!.message).toMatch(/could not reach .*ECONNREFUSED/);
  });
});

describe('what the server receives', () => {
  it('the body is the Claude dialect’s payload, as a command hook gets it on stdin', async () => {
    const { url, received } = await serve((_req, res) => res.end());
    const ctx = preToolUse({ command: 'git status' });
    await dispatch(httpHook(url), ctx);
    const expected = claudeDialect.payload(ctx, { eventName: 'PreToolUse', workDir: process.cwd(), hookName: 'h' });
    expect(JSON.parse(received[0]!.body)).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(claudeDialect.stringify!(expected)).toBe(`${received[0]!.body}\n`);
    expect(JSON.parse(received[0]!.body)).toMatchObject({
      session_id: 'http-session',
      transcript_path: expect.any(String),
      cwd: process.cwd(),
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'git status' },
      tool_use_id: 'call-1',
    });
    expect(received[0]!.url).toBe('/hook');
    expect(received[0]!.headers['content-length']).toBe(String(Buffer.byteLength(received[0]!.body)));
  });

  it('headers use only the variables allowedEnvVars lists; the others are sent empty', async () => {
    const { url, received } = await serve((_req, res) => res.end());
    const env = { API_TOKEN: 'secret-1', OTHER_SECRET: 'leak', TEAM: 'core' };
    const hook = httpHook(url, {
      headers: { Authorization: 'Bearer $API_TOKEN', 'X-Other': '[$OTHER_SECRET]', 'X-Team': '${TEAM}-$TEAM', 'X-Unset': 'a${UNSET_VAR}b' },
      allowedEnvVars: ['API_TOKEN', 'TEAM', 'UNSET_VAR'],
      env,
    });
    await dispatch(hook, preToolUse());
    const headers = received[0]!.headers;
    expect(headers.authorization).toBe('Bearer secret-1');
    expect(headers['x-other']).toBe('[]');
    expect(headers['x-team']).toBe('core-core');
    expect(headers['x-unset']).toBe('ab');
    expect(hook.unlistedVariables()).toEqual([{ header: 'X-Other', name: 'OTHER_SECRET' }]);
  });

  it('CR, LF and NUL are stripped from header values, so a variable cannot add a header', async () => {
    const { url, received } = await serve((_req, res) => res.end());
    const hook = httpHook(url, { headers: { 'X-Token': '$TOKEN' }, allowedEnvVars: ['TOKEN'], env: { TOKEN: 'abc\r\nX-Injected: 1\0' } });
    const { notes } = await dispatch(hook, preToolUse());
    expect(notes).toEqual([]);
    expect(received[0]!.headers['x-token']).toBe('abcX-Injected: 1');
    expect(received[0]!.headers['x-injected']).toBeUndefined();
  });

  it('Content-Length and Transfer-Encoding given in headers are not sent; Content-Type may be replaced', async () => {
    const { url, received } = await serve((_req, res) => res.end());
    const hook = httpHook(url, { headers: { 'content-length': '3', 'Transfer-Encoding': 'chunked', 'content-type': 'application/json; charset=utf-8' } });
    await dispatch(hook, preToolUse());
    const headers = received[0]!.headers;
    expect(headers['content-length']).toBe(String(Buffer.byteLength(received[0]!.body)));
    expect(headers['transfer-encoding']).toBeUndefined();
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
  });
});

describe('httpHookFromEntry', () => {
  const at = 'hooks.PreToolUse[0].hooks[0]';
  function load(handler: Record<string, unknown>, event: HookEventName = 'PreToolUse') {
    const problems: HookProblem[] = [];
    const hook = httpHookFromEntry(handler, {
      file: origin.file,
      field: at,
      event,
      eventName: event,
      matcher: undefined,
      projectDir: '/project',
      env: { API_TOKEN: 't' },
      origin: { ...origin, definition: { event, matcher: 'Bash', hook: handler } },
      problem: (p) => problems.push(p),
    });
    return { hook, problems };
  }

  it('builds the hook from a full entry', () => {
    const { hook, problems } = load({
      type: 'http',
      url: 'https://user:pw@hooks.example.com/check',
      timeout: 7,
      onFailure: 'block',
      headers: { Authorization: 'Bearer $API_TOKEN' },
      allowedEnvVars: ['API_TOKEN'],
      statusMessage: 'Checking…',
    });
    expect(problems).toEqual([]);
    expect(hook).toBeInstanceOf(HttpHook);
    expect(hook).toMatchObject({ timeoutMs: 7000, failClosed: true, priority: 100, statusMessage: 'Checking…', events: ['PreToolUse'] });
    // The password never shows in the name.
    expect(hook!.name).toBe('http: https://hooks.example.com/check');
    expect(hook!.origin.definition).toMatchObject({ event: 'PreToolUse', matcher: 'Bash' });
  });

  it('the timeout defaults to 600 s; an invalid one is a warning', () => {
    expect(load({ type: 'http', url: 'http://127.0.0.1:1/h' }).hook!.timeoutMs).toBe(600_000);
    const { hook, problems } = load({ type: 'http', url: 'http://127.0.0.1:1/h', timeout: -1 });
    expect(hook!.timeoutMs).toBe(600_000);
    expect(problems).toMatchObject([{ severity: 'warning', code: 'invalid-timeout', field: `${at}.timeout` }]);
  });

  it('a missing or invalid url is an error, with the fix', () => {
    const missing = load({ type: 'http' });
    expect(missing.hook).toBeUndefined();
    expect(missing.problems).toMatchObject([{ severity: 'error', code: 'missing-field', field: `${at}.url`, file: origin.file }]);
    const invalid = load({ type: 'http', url: 'ftp://example.com/x' });
    expect(invalid.hook).toBeUndefined();
    expect(invalid.problems).toMatchObject([{ severity: 'error', code: 'invalid-url', found: '"ftp://example.com/x"', allowed: 'an http: or https: URL' }]);
    expect(load({ type: 'http', url: 'not a url' }).problems[0]!.message).toMatch(/write it in full/);
  });

  it('a header variable allowedEnvVars does not list is a warning per header and variable', () => {
    const { hook, problems } = load({ type: 'http', url: 'http://127.0.0.1:1/h', headers: { 'X-A': '$SECRET-${OTHER}', 'X-B': '$API_TOKEN' }, allowedEnvVars: ['API_TOKEN'] });
    expect(hook).toBeDefined();
    expect(problems.map((p) => [p.severity, p.code, p.field])).toEqual([
      ['warning', 'env-var-not-allowed', `${at}.headers.X-A`],
      ['warning', 'env-var-not-allowed', `${at}.headers.X-A`],
    ]);
    expect(problems[0]!.message).toContain('Add "SECRET" to allowedEnvVars');
  });

  it('bad headers, allowedEnvVars or onFailure are errors; framing headers and bad variable names are warnings', () => {
    expect(load({ type: 'http', url: 'http://h/x', headers: { A: 1 } }).problems[0]).toMatchObject({ severity: 'error', field: `${at}.headers.A` });
    expect(load({ type: 'http', url: 'http://h/x', headers: 'A: 1' }).hook).toBeUndefined();
    expect(load({ type: 'http', url: 'http://h/x', allowedEnvVars: 'API_TOKEN' }).problems[0]).toMatchObject({ severity: 'error', field: `${at}.allowedEnvVars` });
    expect(load({ type: 'http', url: 'http://h/x', onFailure: 'deny' }).problems[0]).toMatchObject({ severity: 'error', allowed: 'continue, block' });
    const framing = load({ type: 'http', url: 'http://h/x', headers: { 'Content-Length': '5' } });
    expect(framing.hook!.headers).toEqual({});
    expect(framing.problems[0]).toMatchObject({ severity: 'warning', code: 'ignored-header' });
    expect(load({ type: 'http', url: 'http://h/x', allowedEnvVars: ['$TOKEN'] }).problems[0]).toMatchObject({ severity: 'warning', code: 'invalid-env-var' });
  });

  it('the hook reads the variables from the env it was given, at request time', async () => {
    const { url, received } = await serve((_req, res) => res.end());
    const env: Record<string, string> = { API_TOKEN: 'first' };
    const problems: HookProblem[] = [];
    const hook = httpHookFromEntry(
      { type: 'http', url, headers: { Authorization: 'Bearer ${API_TOKEN}' }, allowedEnvVars: ['API_TOKEN'] },
      { file: origin.file, field: at, event: 'PreToolUse', eventName: 'PreToolUse', matcher: undefined, projectDir: process.cwd(), env, origin, problem: (p) => problems.push(p) },
    )!;
    env.API_TOKEN = 'second';
    await dispatch(hook, preToolUse());
    expect(received[0]!.headers.authorization).toBe('Bearer second');
  });
});

describe('trust', () => {
  it('pins the entry as written: its URL, headers and variables, with its event and matcher', async () => {
    const entry = (url: string) => ({ type: 'http', url, headers: { Authorization: 'Bearer $API_TOKEN' }, allowedEnvVars: ['API_TOKEN'] });
    const hookFor = (url: string) =>
      httpHook(url, { origin: { ...origin, definition: { event: 'PreToolUse', matcher: 'Bash', hook: entry(url) } } });
    const first = await trustFingerprint(hookFor('http://127.0.0.1:8080/a'));
    expect(first).toMatchObject({ path: origin.file, field: origin.field, kind: 'claude' });
    expect((await trustFingerprint(hookFor('http://127.0.0.1:8080/a'))).sha256).toBe(first.sha256);
    expect((await trustFingerprint(hookFor('http://attacker.example/a'))).sha256).not.toBe(first.sha256);
  });
});

describe('HttpHook construction', () => {
  it('refuses a URL that is not http: or https:', () => {
    expect(() => httpHook('file:///etc/passwd')).toThrow(TypeError);
  });

  it('reports every exchange to its emitter', async () => {
    const { url } = await serve((_req, res) => res.end());
    const hook = httpHook(url);
    const exchanges = vi.fn();
    hook.emitter.on('exchange', exchanges);
    await dispatch(hook, preToolUse());
    expect(exchanges).toHaveBeenCalledWith(expect.objectContaining({ result: 'response', status: 200, event: 'PreToolUse', url }));
  });
});
