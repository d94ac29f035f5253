/**
 * `agent-hooks serve` tells the agent's user of the project hooks it skipped, in the words the command bridge uses,
 * once per agent session — in Claude Code's http hook answer and in a command agent's served line — and again once a
 * reload changes what it skipped.
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, cliProjects, runCli, scriptHook, type CliResult } from '../support/cli.js';
import { runHookLine, startServeCli } from '../support/serve-cli.js';

const project = cliProjects();
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

/** The environment `runCli` gives the CLI in `dir`, with the cache (where sessions told are kept) inside it. */
const envIn = (dir: string, more: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: join(dir, 'xdg'), HOME: join(dir, 'home'), AGENT_HOOKS_CACHE_DIR: join(dir, 'cache') };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  delete env.AGENT_HOOKS_TOKEN;
  return { ...env, ...more };
};
const cli = (dir: string, args: string[], input?: string) => runCli(args, { cwd: dir, env: { AGENT_HOOKS_CACHE_DIR: join(dir, 'cache') }, input });

/** A running `agent-hooks serve` of the built CLI in `dir`, stopped after the test: its port, and how many loads its log shows. */
async function serve(dir: string): Promise<{ port: number; loads: () => number; log: () => string }> {
  const server = await startServeCli(dir, envIn(dir), ['--reload-interval', '200']);
  stops.push(server.stop);
  return { port: server.port, loads: () => server.log().split('\n').filter((l) => /"hooks (re)?loaded"/.test(l)).length, log: server.log };
}

/** A project with a trusted hook `guard` and an untrusted one, `extra`: serve skips `extra`. */
async function projectWithUntrustedHook() {
  const { dir, hooks } = await project();
  const guard = await scriptHook(hooks, 'guard', { trigger: 'pre-tool-call' }, 'cat >/dev/null; exit 0');
  expect((await cli(dir, ['trust', '--all'])).code).toBe(0);
  await scriptHook(hooks, 'extra', { trigger: 'pre-tool-call' }, 'cat >/dev/null; exit 0');
  const token = (await cli(dir, ['serve', '--print-token'])).stdout.trim();
  // An edit of the trusted hook the user has not reviewed: serve's next load skips it too, and says so.
  const editGuard = () => writeFile(join(guard, 'scripts', 'run'), '#!/bin/sh\ncat >/dev/null\necho edited >&2\nexit 0\n');
  return { dir, token, editGuard };
}

/** Waits for serve to load the hooks again after a change. */
async function reloaded(server: { loads: () => number; log: () => string }, before: number): Promise<void> {
  await expect.poll(server.loads, { timeout: 20_000, message: server.log() }).toBeGreaterThan(before);
}

const NOT_TRUSTED = /agent-hooks did not run a project hook: extra, which is not trusted yet\. .*run 'npx agent-hooks trust' in /;

describe('agent-hooks serve tells the user of the hooks it skipped, once per agent session', () => {
  it('in Claude Code’s http hook answer, in the command bridge’s words, and again once a reload skips another hook', async () => {
    const { dir, token, editGuard } = await projectWithUntrustedHook();
    const server = await serve(dir);
    const payload = (session: string) => JSON.stringify({ session_id: session, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: dir });
    const ask = async (session: string): Promise<Record<string, unknown>> => {
      const res = await fetch(`http://127.0.0.1:${server.port}/hooks/claude`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: payload(session) });
      expect(res.status).toBe(200);
      return (await res.json()) as Record<string, unknown>;
    };
    const bridged = async (session: string): Promise<Record<string, unknown>> => {
      const result = await cli(dir, ['bridge', '--from', 'claude'], payload(session));
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout || '{}') as Record<string, unknown>;
    };

    const first = await ask('s1');
    expect(first.systemMessage).toMatch(NOT_TRUSTED);
    expect(first.systemMessage).toBe((await bridged('c1')).systemMessage);
    // Told once: not on the session's next call, nor by the command bridge (the line's fallback) in that session.
    expect((await ask('s1')).systemMessage).toBeUndefined();
    expect((await bridged('s1')).systemMessage).toBeUndefined();
    expect((await ask('s2')).systemMessage).toBe(first.systemMessage);

    const loads = server.loads();
    await editGuard();
    await reloaded(server, loads);
    const changed = await ask('s1');
    expect(changed.systemMessage).toMatch(/did not run 2 project hooks: .*guard, which changed since it was trusted/);
    expect(changed.systemMessage).toBe((await bridged('c2')).systemMessage);
    expect((await ask('s1')).systemMessage).toBeUndefined();
  }, 120_000);

  it('of an untrusted agent-hooks.config module too, in the command bridge’s words', async () => {
    const { dir } = await project();
    await writeFile(join(dir, 'agent-hooks.config.mjs'), 'export default [(ctx, next) => next(ctx)];\n');
    const token = (await cli(dir, ['serve', '--print-token'])).stdout.trim();
    const server = await serve(dir);
    const payload = JSON.stringify({ session_id: 's1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: dir });
    const res = await fetch(`http://127.0.0.1:${server.port}/hooks/claude`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: payload });
    expect(res.status).toBe(200);
    const told = ((await res.json()) as Record<string, unknown>).systemMessage;
    expect(told).toMatch(/did not run a project hook: agent-hooks\.config\.mjs \(in-process hooks module\), which is not trusted yet/);
    const bridged = await cli(dir, ['bridge', '--from', 'claude'], payload.replace('"s1"', '"c1"'));
    expect(told).toBe((JSON.parse(bridged.stdout) as Record<string, unknown>).systemMessage);
  }, 120_000);

  it('in a command agent’s served line, as the command bridge prints it', async () => {
    const { dir, token, editGuard } = await projectWithUntrustedHook();
    const server = await serve(dir);
    const installed = await cli(dir, ['bridge', '--install', 'codex', '--http', '--port', String(server.port), '--events', 'PreToolUse']);
    expect(installed.code, installed.stderr).toBe(0);
    const config = JSON.parse(await readFile(join(dir, '.codex', 'hooks.json'), 'utf8')) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } };
    const line = config.hooks.PreToolUse[0]!.hooks[0]!.command;
    const fixture = JSON.parse(readFileSync(new URL('../bridge/fixtures/codex/PreToolUse.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    const payload = (session: string) => JSON.stringify({ ...fixture, session_id: session, cwd: dir, tool_input: { command: 'ls' } });
    const served = (session: string) => runHookLine(line, dir, payload(session), envIn(dir, { AGENT_HOOKS_TOKEN: token }));
    const told = (result: CliResult): unknown => (result.stdout.trim() === '' ? undefined : (JSON.parse(result.stdout) as Record<string, unknown>).systemMessage);
    const requests = (): number => server.log().split('\n').filter((l) => l.includes('"hook request"') && l.includes('"agent":"codex"')).length;

    const first = await served('s1');
    expect(first.code, first.stderr).toBe(0);
    expect(told(first)).toMatch(NOT_TRUSTED);
    await expect.poll(requests, { timeout: 5000 }).toBe(1); // answered by serve, not by the line's fallback
    const bridged = await cli(dir, ['bridge', '--from', 'codex'], payload('c1'));
    expect(first.stdout).toBe(bridged.stdout);
    expect(told(await served('s1'))).toBeUndefined();
    await expect.poll(requests, { timeout: 5000 }).toBe(2);

    const loads = server.loads();
    await editGuard();
    await reloaded(server, loads);
    const changed = await served('s1');
    expect(told(changed)).toMatch(/did not run 2 project hooks: .*guard, which changed since it was trusted/);
    expect(changed.stdout).toBe((await cli(dir, ['bridge', '--from', 'codex'], payload('c2'))).stdout);
    expect(told(await served('s1'))).toBeUndefined();
    await expect.poll(requests, { timeout: 5000 }).toBe(4);
  }, 120_000);
});

