/**
 * A bridged call runs `dist/bridge.cjs` (and the executable's body, `dist/cli-stage.cjs`) from a code cache of V8 that
 * the call before it left in the user's cache folder (src/cli/code-cache.ts). Real processes of the built executable, on a copy of `dist/` of their own so that a
 * "new build" can be made by touching a file; each case checks the hook's decision, which no cache may change.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_TIMEOUT_MS, CLI, ensureCliBuilt } from '../support/build.js';

let root: string;
let cli: string;
let project: string;
let env: Record<string, string>;

const PAYLOAD = JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_use_id: 't' });
const cacheDir = (): string => join(root, 'cache', 'compile');
/** The code caches in the cache folder. */
const caches = (): string[] => readdirSync(cacheDir()).filter((name) => name.startsWith('bridge.cjs-') && name.endsWith('.v8'));

beforeAll(async () => {
  await ensureCliBuilt();
  root = mkdtempSync(join(tmpdir(), 'agent-hooks-code-cache-'));
  cpSync(join(CLI, '..'), join(root, 'dist'), { recursive: true });
  symlinkSync(join(CLI, '..', '..', 'node_modules'), join(root, 'node_modules'), 'dir');
  cli = join(root, 'dist', 'cli.cjs');
  project = join(root, 'project');
  env = { PATH: process.env.PATH ?? '', HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'xdg'), AGENT_HOOKS_CACHE_DIR: join(root, 'cache'), CLAUDE_PROJECT_DIR: project };
  const hook = join(project, '.agents', 'hooks', 'shell-guard');
  mkdirSync(join(hook, 'scripts'), { recursive: true });
  writeFileSync(join(hook, 'HOOK.md'), '---\nname: shell-guard\ndescription: Refuses every shell command.\ntrigger: pre-tool-call\nmatcher:\n  tool: ^Bash$\n---\n');
  writeFileSync(join(hook, 'scripts', 'run'), '#!/bin/sh\ncat >/dev/null\necho "no shell here" >&2\nexit 2\n');
  chmodSync(join(hook, 'scripts', 'run'), 0o755);
  // An in-process hook too, which the bridged call loads with import(): it adds its own context to the refusal.
  writeFileSync(join(project, 'agent-hooks.config.mjs'), `export default [(ctx, next) => next(ctx.withMetadata('seen', true))];\n`);
  const trusted = spawnSync(process.execPath, [cli, 'trust', '--all'], { cwd: project, env, encoding: 'utf8' });
  expect(trusted.status, trusted.stderr).toBe(0);
}, BUILD_TIMEOUT_MS);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** One bridged call, by Node started with `nodeArgs`; it must refuse the command, as the hook says. */
function call(extra: Record<string, string> = {}, nodeArgs: readonly string[] = []): void {
  const run = spawnSync(process.execPath, [...nodeArgs, cli, 'bridge', '--from', 'claude'], { cwd: project, env: { ...env, ...extra }, input: PAYLOAD, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('no shell here') } });
}

describe("the bridged call's code cache", () => {
  it('is written by a call, named by V8 and the build, and used as it is by the next calls', () => {
    call();
    expect(caches()).toHaveLength(1);
    const [name] = caches();
    expect(name).toContain(`-${process.versions.v8}-${process.arch}-`);
    const written = statSync(join(cacheDir(), name!));
    expect(written.size).toBeGreaterThan(100_000);
    // A cache V8 took is not written again: neither the file nor its time change.
    call();
    call();
    expect(caches()).toEqual([name]);
    expect(statSync(join(cacheDir(), name!)).mtimeMs).toBe(written.mtimeMs);
    expect(statSync(join(cacheDir(), name!)).ino).toBe(written.ino);
  });

  it('a damaged cache is refused by V8 and replaced, and the call decides as before', () => {
    call();
    const [name] = caches();
    const file = join(cacheDir(), name!);
    const damaged = Buffer.alloc(statSync(file).size, 7);
    writeFileSync(file, damaged);
    call();
    expect(caches()).toEqual([name]);
    expect(readFileSync(file).equals(damaged)).toBe(false);
  });

  it("a new build of the bridged call's file gets a cache of its own; the earlier build's stays until it is a month old", () => {
    call();
    const [before] = caches();
    const bridge = join(root, 'dist', 'bridge.cjs');
    const later = new Date(statSync(bridge).mtimeMs + 60_000);
    utimesSync(bridge, later, later);
    call();
    expect(caches()).toHaveLength(2);
    const [after] = caches().filter((name) => name !== before);
    // The earlier build's cache, last written 31 days ago, goes when another is written; this build's own stays.
    const old = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
    utimesSync(join(cacheDir(), before!), old, old);
    const again = new Date(later.getTime() + 60_000);
    utimesSync(bridge, again, again);
    call();
    expect(caches()).toHaveLength(2);
    expect(caches()).toContain(after);
    expect(caches()).not.toContain(before);
  });

  it('Node started with other V8 flags keeps a cache of its own: called in turn, neither is refused and written again', () => {
    rmSync(cacheDir(), { recursive: true, force: true });
    // V8 refuses a cache made under other flags; `--no-opt` is one of those it checks, on every Node we support.
    const ways: readonly (readonly string[])[] = [[], ['--no-opt'], [], ['--no-opt']];
    for (const nodeArgs of ways) call({}, nodeArgs);
    expect(caches()).toHaveLength(2);
    const written = new Map(caches().map((name) => [name, statSync(join(cacheDir(), name)).mtimeMs]));
    for (const nodeArgs of ways) call({}, nodeArgs);
    expect(new Map(caches().map((name) => [name, statSync(join(cacheDir(), name)).mtimeMs]))).toEqual(written);
    // NODE_OPTIONS counts as the command line does.
    call({ NODE_OPTIONS: '--stack-trace-limit=20' });
    expect(caches()).toHaveLength(3);
  });

  it("the executable's body (dist/cli-stage.cjs) gets a cache of its own from a bridged call, used as it is by the next; another command writes none", () => {
    rmSync(cacheDir(), { recursive: true, force: true });
    // The folder may hold Node's own compile cache (Node 22.1 and later) after any command, or nothing at all.
    const stageCaches = (): string[] => (existsSync(cacheDir()) ? readdirSync(cacheDir()) : []).filter((name) => name.startsWith('cli-stage.cjs-') && name.endsWith('.v8'));
    const version = spawnSync(process.execPath, [cli, '--version'], { cwd: project, env, encoding: 'utf8' });
    expect(version.status, version.stderr).toBe(0);
    expect(stageCaches()).toEqual([]);
    call();
    expect(stageCaches()).toHaveLength(1);
    const [name] = stageCaches();
    expect(name).toContain(`-${process.versions.v8}-${process.arch}-`);
    const written = statSync(join(cacheDir(), name!));
    call();
    call();
    expect(stageCaches()).toEqual([name]);
    expect(statSync(join(cacheDir(), name!)).ino).toBe(written.ino);
    // Damaged, it is refused by V8 and written again; the call decides as before.
    const damaged = Buffer.alloc(written.size, 7);
    writeFileSync(join(cacheDir(), name!), damaged);
    call();
    expect(stageCaches()).toEqual([name]);
    expect(readFileSync(join(cacheDir(), name!)).equals(damaged)).toBe(false);
  });

  it('is neither read nor written with AGENT_HOOKS_CACHE_DIR=off, and the call decides the same', () => {
    rmSync(join(root, 'cache'), { recursive: true, force: true });
    call({ AGENT_HOOKS_CACHE_DIR: 'off' });
    expect(() => readdirSync(join(root, 'cache'))).toThrow();
  });
});
