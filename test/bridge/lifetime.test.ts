import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, cliProjects, scriptHook } from '../support/cli.js';
import { isRunning, readPid } from '../support/script-fixture.js';

// A real bridge process, a real hook that ignores SIGTERM and would run for two minutes, and each way an agent gives
// up on its hook: a signal at its own timeout, its own death, or SIGKILL. No hook process may be left.

const project = cliProjects();

/** Writes its pid, then ignores SIGTERM and runs until killed; its grandchild does the same. */
const stubborn = (pidFile: string) => `#!/bin/sh
trap '' TERM
sh -c 'trap "" TERM; echo $$ > "${pidFile}.child"; while :; do sleep 1; done' &
echo $$ > "${pidFile}"
while :; do sleep 1; done`;

const claudePre = JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'make' }, tool_use_id: 't' });

async function gone(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!(await isRunning(pid))) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !(await isRunning(pid));
}

const exitOf = (child: ChildProcess) => new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));

async function bridgeWithStubbornHook(wrap?: (argv: string[]) => string[]) {
  const { dir, hooks } = await project();
  const pidFile = join(dir, 'hook.pid');
  await scriptHook(hooks, 'stubborn', { trigger: 'pre-tool-call', timeout: 120_000 }, stubborn(pidFile));
  const argv = [process.execPath, CLI, 'bridge', '--trust-all', '--from', 'claude'];
  const [file, ...args] = wrap?.(argv) ?? argv;
  const child = spawn(file!, args, { cwd: dir, env: { ...process.env, CLAUDE_PROJECT_DIR: dir, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg') }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  child.stdin!.end(claudePre);
  const hook = await readPid(pidFile, 10_000);
  const grandchild = await readPid(`${pidFile}.child`, 10_000);
  return { child, hook, grandchild, stderr: () => stderr, dir };
}

describe('the bridge ends with the agent’s patience', () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`${signal}: aborts the dispatch, kills the hook’s whole group (SIGTERM ignored), and exits 1`, async () => {
      const { child, hook, grandchild, stderr } = await bridgeWithStubbornHook();
      const started = Date.now();
      const exit = exitOf(child);
      child.kill(signal);
      expect(await exit).toBe(1);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(await gone(hook, 1000)).toBe(true);
      expect(await gone(grandchild, 1000)).toBe(true);
      expect(stderr()).toContain(`${signal} received`);
    });
  }

  it('its parent gone (the agent killed outright): notices within a second, kills the hooks and exits', async () => {
    // The agent is a shell that starts the bridge (stdin passed on: a background job's would be /dev/null) and waits;
    // killing the shell re-parents the bridge.
    const { child, hook, grandchild } = await bridgeWithStubbornHook((argv) => ['/bin/sh', '-c', `exec 3<&0; ${argv.map((a) => `'${a}'`).join(' ')} <&3 & wait`]);
    child.kill('SIGKILL');
    expect(await gone(hook, 5000)).toBe(true);
    expect(await gone(grandchild, 2000)).toBe(true);
  });

  it('--detached (an event the agent fires as it exits): its parent gone, the hook runs on to its end', async () => {
    const { dir, hooks } = await project();
    const done = join(dir, 'done.txt');
    await scriptHook(hooks, 'slow-record', { trigger: 'pre-tool-call' }, `#!/bin/sh\ncat > /dev/null; sleep 1.5; echo recorded > "${done}"`);
    const argv = [process.execPath, CLI, 'bridge', '--trust-all', '--from', 'claude', '--detached'];
    const agent = spawn('/bin/sh', ['-c', `exec 3<&0; ${argv.map((a) => `'${a}'`).join(' ')} <&3 & wait`], {
      cwd: dir,
      env: { ...process.env, CLAUDE_PROJECT_DIR: dir, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg') },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    agent.stdin!.end(claudePre);
    // The agent goes once the bridge has started its hook, as Claude Code does once it has fired StopFailure.
    await new Promise((r) => setTimeout(r, 1000));
    agent.kill('SIGKILL');
    const end = Date.now() + 10_000;
    while (Date.now() < end && !existsSync(done)) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(done)).toBe(true);
  });

  it('SIGKILL, which no handler sees: the watchdog kills the hook’s group once the bridge is gone', async () => {
    const { child, hook, grandchild } = await bridgeWithStubbornHook();
    // The watchdog starts once the hook has run for a second.
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGKILL');
    await exitOf(child);
    expect(await gone(hook, 4000)).toBe(true);
    expect(await gone(grandchild, 2000)).toBe(true);
  });

  it('standard input closing is no reason to stop: the hooks run to their answer', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'slow-deny', { trigger: 'pre-tool-call' }, '#!/bin/sh\ncat > /dev/null; sleep 0.5; echo "slow no" >&2; exit 2');
    const child = spawn(process.execPath, [CLI, 'bridge', '--trust-all', '--from', 'claude'], { cwd: dir, env: { ...process.env, CLAUDE_PROJECT_DIR: dir, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg') } });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stdin.end(claudePre);
    expect(await exitOf(child)).toBe(0);
    expect(JSON.parse(stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });
});
