/**
 * Node's compile cache for the built executable, on Node 24 (the pinned release, installed into the test cache once):
 * a bridged call leaves the compiled code of our modules in `compile/` of the user's cache folder, where the next call
 * reads it; with caches off (`AGENT_HOOKS_CACHE_DIR=off`) nothing is written; and a cache folder a project file set
 * (Claude Code's project `env` block) is not where the compiled code goes — the next call would load it as code. Nor
 * is Node's own `NODE_COMPILE_CACHE` from a project file: Node 22.1+ reads it before our first line, so the line
 * `bridge --install` writes clears it, attacked here as Claude Code runs that line.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureCliBuilt } from '../support/build.js';
import { installNode, versionOf } from '../support/install-node.mjs';

const PAYLOAD = JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't' });

let node: string;
const dirs: string[] = [];

beforeAll(async () => {
  node = installNode(versionOf('24'));
  await ensureCliBuilt();
}, 300_000);

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project with no hooks, and a home of its own. */
function project(): { dir: string; home: string } {
  const dir = mkdtempSync(join(tmpdir(), 'agent-hooks-compile-cache-'));
  dirs.push(dir);
  const home = join(dir, 'home');
  mkdirSync(home);
  return { dir, home };
}

/** `agent-hooks bridge --from claude` on Node 24, in `dir`, with only the variables given (and PATH). */
function bridge(dir: string, env: Record<string, string>): void {
  const run = spawnSync(node, [CLI, 'bridge', '--from', 'claude'], { cwd: dir, input: PAYLOAD, env: { PATH: process.env.PATH ?? '', CLAUDE_PROJECT_DIR: dir, ...env }, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
}

const filesIn = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : []);

describe('the compile cache of the executable (Node ≥ 22.1)', () => {
  it('is written in compile/ of the user cache folder', () => {
    const { dir, home } = project();
    const cache = join(dir, 'user-cache');
    bridge(dir, { HOME: home, AGENT_HOOKS_CACHE_DIR: cache });
    expect(filesIn(join(cache, 'compile')).length).toBeGreaterThan(0);
  });

  it('is not written with AGENT_HOOKS_CACHE_DIR=off', () => {
    const { dir, home } = project();
    bridge(dir, { HOME: home, AGENT_HOOKS_CACHE_DIR: 'off' });
    expect(filesIn(home)).toEqual([]);
    expect(filesIn(dir).filter((f) => f.includes('compile'))).toEqual([]);
  });

  it('is not written to a cache folder a project file set, but to the default one', () => {
    const { dir, home } = project();
    const planted = join(dir, 'planted-cache');
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify({ env: { AGENT_HOOKS_CACHE_DIR: planted } }));
    bridge(dir, { HOME: home, AGENT_HOOKS_CACHE_DIR: planted });
    expect(filesIn(planted)).toEqual([]);
    expect(filesIn(join(home, '.cache', 'agent-hooks', 'compile')).length).toBeGreaterThan(0);
  });

  it('is not read from a NODE_COMPILE_CACHE folder a project file set, through the line bridge --install writes', () => {
    const { dir, home } = project();
    // The user's line, installed by this Node 24 from outside the project, as `--install --user` writes it.
    const installed = spawnSync(node, [CLI, 'bridge', '--install', 'claude', '--user', '--events', 'PreToolUse'], { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: home }, encoding: 'utf8' });
    expect(installed.status, installed.stderr).toBe(0);
    const line = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')).hooks.PreToolUse[0].hooks[0].command as string;
    // What Claude Code applies from the repository's `.claude/settings.json` `env` block.
    const planted = join(dir, 'planted-node-cache');
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify({ env: { NODE_COMPILE_CACHE: planted } }));
    const run = spawnSync('/bin/sh', ['-c', line], { cwd: dir, input: PAYLOAD, env: { PATH: process.env.PATH ?? '', HOME: home, CLAUDE_PROJECT_DIR: dir, NODE_COMPILE_CACHE: planted }, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    // Node would have filled the folder with our compiled modules, and read them back on the next call.
    expect(filesIn(planted)).toEqual([]);
    expect(filesIn(join(home, '.cache', 'agent-hooks', 'compile')).length).toBeGreaterThan(0);
  });
});
