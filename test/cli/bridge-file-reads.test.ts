/**
 * How a bridged call of the built executable reads its files (src/process/file-reads.ts): blocking while it loads its
 * hooks, asynchronous once one may run. A preload records which of `node:fs`'s calls touched the files that tell the
 * two phases apart: the HOOK.md, which discovery opens for its frontmatter and the hook's run for its body, and `/proc`, which the process runner
 * lists to wait for a killed hook's process group.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureCliBuilt } from '../support/build.js';

const PAYLOAD = JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't' });

/** Records, at exit, each call of the reads below on a path that ends with HOOK.md or is /proc. */
const PRELOAD = `
const fs = require('node:fs');
const calls = [];
for (const name of ['open', 'openSync', 'readdir', 'readdirSync']) {
  const original = fs[name];
  fs[name] = function (path, ...rest) {
    if (typeof path === 'string' && (path.endsWith('HOOK.md') || path === '/proc')) calls.push(name + ' ' + (path === '/proc' ? '/proc' : 'HOOK.md'));
    return original.call(this, path, ...rest);
  };
}
process.on('exit', () => fs.writeFileSync(process.env.READS_OUT, JSON.stringify(calls)));
`;

let root: string;

beforeAll(async () => {
  await ensureCliBuilt();
  root = mkdtempSync(join(tmpdir(), 'agent-hooks-reads-'));
  writeFileSync(join(root, 'preload.cjs'), PRELOAD);
}, 300_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A project whose one trusted HOOK.md hook matches the call and runs `script`, with `fields` in its frontmatter. */
function project(name: string, script: string, fields = ''): { dir: string; env: Record<string, string> } {
  const dir = join(root, name);
  const env = { PATH: process.env.PATH ?? '', HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg'), AGENT_HOOKS_CACHE_DIR: join(dir, 'cache'), CLAUDE_PROJECT_DIR: dir };
  const hook = join(dir, '.agents', 'hooks', 'guard');
  mkdirSync(join(hook, 'scripts'), { recursive: true });
  writeFileSync(join(hook, 'HOOK.md'), `---\nname: guard\ndescription: Guards the shell.\ntrigger: pre-tool-call\n${fields}matcher:\n  tool: ^Bash$\n---\n`);
  writeFileSync(join(hook, 'scripts', 'run'), `#!/bin/sh\n${script}\n`);
  chmodSync(join(hook, 'scripts', 'run'), 0o755);
  const trusted = spawnSync(process.execPath, [CLI, 'trust', '--all'], { cwd: dir, env, encoding: 'utf8' });
  expect(trusted.status, trusted.stderr).toBe(0);
  return { dir, env };
}

/** One bridged call under the preload: which reads it made, and how it ended. */
function call(where: { dir: string; env: Record<string, string> }): { reads: string[]; status: number | null; stdout: string; stderr: string } {
  const out = join(where.dir, `reads-${Math.random().toString(36).slice(2)}.json`);
  const run = spawnSync(process.execPath, ['-r', join(root, 'preload.cjs'), CLI, 'bridge', '--from', 'claude'], { cwd: where.dir, input: PAYLOAD, encoding: 'utf8', env: { ...where.env, READS_OUT: out } });
  return { reads: JSON.parse(readFileSync(out, 'utf8')) as string[], status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("a bridged call's file reads", () => {
  it('block while it loads its hooks, and are asynchronous once one may run: the HOOK.md is opened with openSync to be discovered, then with open for its body as the hook runs', () => {
    const where = project('phases', 'cat >/dev/null\necho "no shell here" >&2\nexit 2');
    call(where);
    const { reads, status, stdout, stderr } = call(where);
    expect(status, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    const hookMd = reads.filter((read) => read.endsWith('HOOK.md'));
    expect(hookMd[0]).toBe('openSync HOOK.md');
    expect(hookMd.at(-1)).toBe('open HOOK.md');
    expect(hookMd.indexOf('open HOOK.md')).toBeGreaterThan(hookMd.lastIndexOf('openSync HOOK.md'));
  });

  // The hook's script ends on its timeout's SIGTERM, but leaves a process of its group that ignores it: the runner
  // then lists /proc to see the group gone, while the timer that sends SIGKILL runs, which a blocked read would hold.
  // (The search for a killed hook's escaped descendants reads /proc with readdirSync by design, process-tag.ts.)
  it("are asynchronous once a hook may run: a timed-out hook's group is waited for with readdir", () => {
    const where = project('timeout', "cat >/dev/null\nsh -c \"trap '' TERM; sleep 30\" &\nwait", 'timeout: 300\n');
    const { reads, status, stderr } = call(where);
    expect(status, stderr).not.toBeNull();
    expect(stderr).toContain('timed out');
    expect(reads, JSON.stringify(reads) + stderr).toContain('readdir /proc');
  }, 30_000);
});
