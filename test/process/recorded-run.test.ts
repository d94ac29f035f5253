import { mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runBridgedCall } from '../../src/cli/bridge-entry.js';
import { recordedRunLeft, useRecordedRun, type RecordedRun } from '../../src/process/recorded-run.js';
import { runProcess, type ProcessResult } from '../../src/process/run-process.js';

// The run the bridge's first stage made of a call's one hook is taken by the process runner in place of a second
// start of that hook: once, and only for the very argv and directory it was made with.

const root = mkdtempSync(join(tmpdir(), 'agent-hooks-recorded-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => {
  useRecordedRun(undefined);
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** A script that counts its runs in a file beside it and prints `fresh`. */
function counter(name: string): { script: string; runs: () => number } {
  const script = join(root, name);
  writeFileSync(script, `#!/bin/sh\necho run >> '${script}.runs'\necho fresh\n`);
  chmodSync(script, 0o755);
  return { script, runs: () => (existsSync(`${script}.runs`) ? readFileSync(`${script}.runs`, 'utf8').split('\n').filter(Boolean).length : 0) };
}

const result = (stdout: string): ProcessResult => ({ exitCode: 0, signal: null, stdout, stderr: '', timedOut: false, aborted: false, overflow: undefined, durationMs: 1, pid: 1 });

describe('a recorded run', () => {
  it('is what the runner answers for its argv and directory, once: the process is not started again', async () => {
    const { script, runs } = counter('once');
    useRecordedRun({ command: [script], cwd: root, result: result('recorded\n') });
    expect((await runProcess({ command: [script], cwd: root, timeoutMs: 5000 })).stdout).toBe('recorded\n');
    expect(runs()).toBe(0);
    expect(recordedRunLeft()).toBeUndefined();
    // Taken: the next run is a real one.
    expect((await runProcess({ command: [script], cwd: root, timeoutMs: 5000 })).stdout).toBe('fresh\n');
    expect(runs()).toBe(1);
  });

  it('is not taken by another argv, another directory, or a run cancelled before it starts', async () => {
    const { script, runs } = counter('other');
    const recorded: RecordedRun = { command: [script], cwd: root, result: result('recorded\n') };
    useRecordedRun(recorded);
    expect((await runProcess({ command: [script, 'x'], cwd: root, timeoutMs: 5000 })).stdout).toBe('fresh\n');
    expect((await runProcess({ command: [script], cwd: tmpdir(), timeoutMs: 5000 })).stdout).toBe('fresh\n');
    const controller = new AbortController();
    controller.abort();
    expect((await runProcess({ command: [script], cwd: root, timeoutMs: 5000, signal: controller.signal })).aborted).toBe(true);
    expect(runs()).toBe(2);
    expect(recordedRunLeft()).toBe(recorded);
  });

  it('left untaken by a bridged call, is said on stderr: the hook ran and its answer was not read', async () => {
    const project = mkdtempSync(join(root, 'project-'));
    vi.stubEnv('CLAUDE_PROJECT_DIR', project);
    vi.stubEnv('HOME', join(root, 'home'));
    vi.stubEnv('XDG_CONFIG_HOME', join(root, 'xdg'));
    vi.stubEnv('AGENT_HOOKS_CACHE_DIR', 'off');
    const said: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((text: unknown) => void said.push(String(text)));
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const payload = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
    // The project has no hook (it was removed after the first stage ran it): the call comes to no run of it.
    const code = await runBridgedCall(['--from', 'claude'], payload, { command: ['/gone/scripts/run'], cwd: project, result: result('') });
    expect(code).toBe(0);
    expect(said).toEqual(['agent-hooks bridge: /gone/scripts/run ran, but the call did not come to it again; its answer was not read.']);
    expect(recordedRunLeft()).toBeUndefined();
  });
});
