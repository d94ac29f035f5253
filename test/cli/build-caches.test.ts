/**
 * Two copies of agent-hooks sharing one cache folder — a project's own and another's, or a global one — each keep the
 * files a bridged call learns from (the first stage's index, the validated frontmatters, the bridged call's code
 * cache; see src/script/internal/build-caches.ts). Real processes of the built executable, on two copies of `dist/`,
 * called in turn: once each has learnt, no call writes a cache file again, and every call decides as the hook says.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_TIMEOUT_MS, CLI, ensureCliBuilt } from '../support/build.js';
import { scriptHook } from '../support/cli.js';

let root: string;
let project: string;
let env: Record<string, string>;
const copies: string[] = [];

const SHELL = JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_use_id: 't' });
const READ = JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: '/etc/hosts' }, tool_use_id: 't' });

beforeAll(async () => {
  await ensureCliBuilt();
  root = mkdtempSync(join(tmpdir(), 'agent-hooks-build-caches-'));
  symlinkSync(join(CLI, '..', '..', 'node_modules'), join(root, 'node_modules'), 'dir');
  for (const name of ['a', 'b']) {
    cpSync(join(CLI, '..'), join(root, name, 'dist'), { recursive: true });
    copies.push(join(root, name, 'dist', 'cli.cjs'));
  }
  project = join(root, 'project');
  env = { PATH: process.env.PATH ?? '', HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'xdg'), AGENT_HOOKS_CACHE_DIR: join(root, 'cache'), CLAUDE_PROJECT_DIR: project };
  await scriptHook(join(project, '.agents', 'hooks'), 'shell-guard', { matcher: { tool: '^Bash$' } }, 'cat >/dev/null\necho "no shell here" >&2\nexit 2');
  const trusted = spawnSync(process.execPath, [copies[0]!, 'trust', '--all'], { cwd: project, env, encoding: 'utf8' });
  expect(trusted.status, trusted.stderr).toBe(0);
}, BUILD_TIMEOUT_MS);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** One bridged call by the copy `cli`: the shell command is refused, the read let through with nothing said. */
function call(cli: string, input: string): void {
  const run = spawnSync(process.execPath, [cli, 'bridge', '--from', 'claude'], { cwd: project, env, input, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  if (input === SHELL) expect(JSON.parse(run.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('no shell here') } });
  else expect(run.stdout).toBe('');
}

/** Every file of the cache folder, by its path there, with what tells a rewrite: its inode and time. */
function cacheFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      // Node's own compile cache (Node 22.1 and later) is a folder of its own, which Node keeps.
      if (entry.isDirectory()) {
        if (!/^v\d+\./.test(entry.name)) walk(path);
        continue;
      }
      const stat = statSync(path);
      files.set(path.slice(join(root, 'cache').length + 1), `${stat.ino}:${stat.mtimeMs}`);
    }
  };
  walk(join(root, 'cache'));
  return files;
}

describe('two copies of agent-hooks sharing a cache folder', () => {
  it('each keeps its own index, discovery cache and code cache: called in turn, neither writes them again', () => {
    // Each copy learns: a call no hook can run on, and one the hook refuses — twice, as the first stage runs the hook
    // alone only once the full path has validated its frontmatter, and then learns what the run needs.
    for (const cli of copies) {
      call(cli, READ);
      call(cli, SHELL);
      call(cli, SHELL);
    }
    const learnt = cacheFiles();
    const names = [...learnt.keys()].map((path) => path.replace(/[0-9a-f]{16}/g, '<build>').replace(process.versions.v8, '<v8>'));
    // Each copy's index: its lessons, and a file for each hooks folder it looked at (the user's has none: it is missing).
    expect(names.filter((name) => name.startsWith('bridge-index-')).sort()).toEqual([...Array(2).fill('bridge-index-<build>/lessons.json'), ...Array(2).fill('bridge-index-<build>/root-<build>.json')]);
    expect(names.filter((name) => name.startsWith('discovery-'))).toEqual(['discovery-<build>/root-<build>.json', 'discovery-<build>/root-<build>.json']);
    // The code caches of the bridged call, of the first stage's run of the call's one hook, and of the executable's body.
    expect(names.filter((name) => name.endsWith('.v8')).sort()).toEqual([
      ...Array(2).fill(`compile/bridge.cjs-<v8>-${process.arch}-<build>.v8`),
      ...Array(2).fill(`compile/cli-run.cjs-<v8>-${process.arch}-<build>.v8`),
      ...Array(2).fill(`compile/cli-stage.cjs-<v8>-${process.arch}-<build>.v8`),
    ]);
    for (let round = 0; round < 2; round++) {
      for (const cli of copies) {
        call(cli, SHELL);
        call(cli, READ);
      }
    }
    expect(cacheFiles()).toEqual(learnt);
  });
});
