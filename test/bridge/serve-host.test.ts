import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { HookOutcome, HookStack } from 'agent-hooks';
import { startHookServer, type HookServer } from '../../src/bridge/serve/hook-server.js';
import { refusedHost } from '../../src/bridge/serve/request-origin.js';

// A page whose name was rebound to 127.0.0.1 reaches a loopback server with its own name in Host, and a browser names
// the page in Origin; these cases send exactly that, over a real socket, with the right token.

const TOKEN = 'test-token-0123456789abcdef0123456789';
const servers: HookServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close({ graceMs: 100, drainMs: 100 })));
});

function counting(): { stack: HookStack; calls: () => number } {
  let calls = 0;
  return {
    stack: new HookStack().with(() => {
      calls++;
      return HookOutcome.proceed();
    }),
    calls: () => calls,
  };
}

const body = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' });

function send(server: HookServer, headers: Record<string, string>, method = 'POST', path = '/hooks/claude'): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, method, path, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? body : undefined);
  });
}

describe('agent-hooks serve: Host and Origin', () => {
  it('refuses a rebound name in Host, with the right token, before any hook runs', async () => {
    const { stack, calls } = counting();
    const server = await startHookServer({ stack: () => stack, token: TOKEN });
    servers.push(server);
    const rebound = await send(server, { host: `attacker.example:${server.port}` });
    expect(rebound.status).toBe(421);
    expect(JSON.parse(rebound.text).error).toMatch(/not the address this server listens on/);
    expect((await send(server, { host: `attacker.example:${server.port}` }, 'GET', '/health')).status).toBe(421);
    expect((await send(server, { host: `127.0.0.1:${server.port + 1}` })).status).toBe(421);
    expect(calls()).toBe(0);
    expect((await send(server, { host: `127.0.0.1:${server.port}` })).status).toBe(200);
    expect((await send(server, { host: `localhost:${server.port}` })).status).toBe(200);
    expect(calls()).toBe(2);
  });

  it('refuses any request from a web page (an Origin header), preflight included, before any hook runs', async () => {
    const { stack, calls } = counting();
    const server = await startHookServer({ stack: () => stack, token: TOKEN });
    servers.push(server);
    const page = await send(server, { origin: 'https://attacker.example' });
    expect(page.status).toBe(403);
    expect(JSON.parse(page.text).error).toMatch(/web page/);
    expect((await send(server, { origin: 'null' })).status).toBe(403);
    expect((await send(server, { origin: 'https://attacker.example', 'access-control-request-method': 'POST' }, 'OPTIONS')).status).toBe(403);
    expect(calls()).toBe(0);
  });
});

describe('refusedHost', () => {
  it('takes the listening address and its loopback names, with the port', () => {
    expect(refusedHost('127.0.0.1:7391', '127.0.0.1', 7391)).toBeUndefined();
    expect(refusedHost('localhost:7391', '127.0.0.1', 7391)).toBeUndefined();
    expect(refusedHost('[::1]:7391', '127.0.0.1', 7391)).toMatch(/not the address/);
    expect(refusedHost('[::1]:7391', '::1', 7391)).toBeUndefined();
    expect(refusedHost('localhost:7391', '::1', 7391)).toBeUndefined();
    expect(refusedHost('127.0.0.1:7391', 'localhost', 7391)).toBeUndefined();
    expect(refusedHost('127.0.0.1', '127.0.0.1', 7391)).toMatch(/port 7391/);
    expect(refusedHost('127.0.0.1', '127.0.0.1', 80)).toBeUndefined();
    expect(refusedHost(undefined, '127.0.0.1', 7391)).toMatch(/no Host/);
    expect(refusedHost('LOCALHOST:7391', '127.0.0.1', 7391)).toBeUndefined();
  });

  it('on a wildcard address, takes IP literals and localhost, never another name', () => {
    expect(refusedHost('192.168.1.5:7391', '0.0.0.0', 7391)).toBeUndefined();
    expect(refusedHost('[fe80::1]:7391', '::', 7391)).toBeUndefined();
    expect(refusedHost('attacker.example:7391', '0.0.0.0', 7391)).toMatch(/not the address/);
    expect(refusedHost('10.0.0.2:7391', '10.0.0.1', 7391)).toMatch(/not the address/);
    expect(refusedHost('10.0.0.1:7391', '10.0.0.1', 7391)).toBeUndefined();
  });
});
