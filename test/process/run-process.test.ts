import { chmod, readFile, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_OUTPUT_BYTES, runProcess } from '../../src/process/run-process.js';
import { isRunning, readPid, tempDir, writeExecutable } from '../support/script-fixture.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

const sh = (script: string, extra: { timeoutMs?: number; killGraceMs?: number; stdin?: string; maxOutputBytes?: number; signal?: AbortSignal } = {}) =>
  runProcess({ command: ['sh', '-c', script], timeoutMs: 10_000, ...extra });

/** Holds the event loop for `ms`. */
function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

describe('runProcess', () => {
  it('passes argv without a shell, writes stdin, and captures the exit code and both streams', async () => {
    const result = await runProcess({
      command: ['node', '-e', 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{console.log(process.argv[1]+":"+s);console.error("e");process.exit(3)})', '$HOME; rm -rf /'],
      stdin: 'payload',
      timeoutMs: 10_000,
    });
    expect(result).toMatchObject({ exitCode: 3, signal: null, stdout: '$HOME; rm -rf /:payload\n', stderr: 'e\n', timedOut: false, aborted: false, overflow: undefined });
    expect(result.spawnError).toBeUndefined();
    expect(result.pid).toBeGreaterThan(0);
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it('runs in cwd with exactly the environment given', async () => {
    const result = await runProcess({ command: ['sh', '-c', 'pwd; echo "$ONLY_HERE"'], cwd: dir, env: { PATH: process.env.PATH, ONLY_HERE: 'yes' }, timeoutMs: 10_000 });
    expect(result.stdout.split('\n').slice(0, 2)).toEqual([dir, 'yes']);
  });

  it('tells a program that cannot start (ENOENT, EACCES) from a shell that exits 127', async () => {
    const missing = await runProcess({ command: [join(dir, 'no-such-script')], timeoutMs: 10_000 });
    expect(missing.spawnError).toMatchObject({ code: 'ENOENT' });
    expect(missing.spawnError!.message).toContain('no-such-script was not found');
    expect(missing.exitCode).toBeNull();
    expect(missing.pid).toBeUndefined();

    const noInterpreter = await writeExecutable(join(dir, 'bad-shebang'), '#!/no/such/interpreter\necho hi\n');
    const shebang = await runProcess({ command: [noInterpreter], timeoutMs: 10_000 });
    expect(shebang.spawnError).toMatchObject({ code: 'ENOENT' });
    expect(shebang.spawnError!.message).toContain('interpreter');

    const plain = join(dir, 'not-executable');
    await writeFile(plain, '#!/bin/sh\necho hi\n');
    await chmod(plain, 0o644);
    const denied = await runProcess({ command: [plain], timeoutMs: 10_000 });
    expect(denied.spawnError).toMatchObject({ code: 'EACCES' });
    expect(denied.spawnError!.message).toContain('chmod +x');

    const notFound = await sh('no-such-command-xyz');
    expect(notFound.spawnError).toBeUndefined();
    expect(notFound.exitCode).toBe(127);

    const empty = await runProcess({ command: [], timeoutMs: 1000 });
    expect(empty.spawnError?.code).toBe('EINVAL');
  });

  it('reports a process killed by a signal', async () => {
    const result = await sh('kill -KILL $$');
    expect(result).toMatchObject({ exitCode: null, signal: 'SIGKILL', timedOut: false });
  });

  it('on timeout kills the whole group, grandchildren that ignore SIGTERM included, within timeout + grace', async () => {
    const pidFile = join(dir, 'grandchild.pid');
    const started = performance.now();
    const result = await sh(`sh -c 'trap "" TERM; echo $$ > ${pidFile}; sleep 30' & sleep 30`, { timeoutMs: 300, killGraceMs: 500 });
    const elapsed = performance.now() - started;
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(result.signal).toBe('SIGTERM');
    expect(elapsed).toBeLessThan(300 + 500 + 1000);
    const grandchild = await readPid(pidFile);
    expect(await isRunning(grandchild)).toBe(false);
    expect(await isRunning(result.pid!)).toBe(false);
  });

  it('returns right after a timeout when SIGTERM ends the group, without waiting for the grace period', async () => {
    const result = await sh('sleep 30 & sleep 30', { timeoutMs: 200, killGraceMs: 5000 });
    expect(result.timedOut).toBe(true);
    expect(result.durationMs).toBeLessThan(2000);
  });

  it('treats an infinite timeout as none, not as zero', async () => {
    const result = await sh('sleep 0.2; echo ok', { timeoutMs: Infinity });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'ok\n', timedOut: false });
  });

  it('does not wait for a background process that keeps stdout open after the script exits', async () => {
    const pidFile = join(dir, 'background.pid');
    const result = await sh(`sleep 5 & echo $! > ${pidFile}; echo done`);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'done\n', timedOut: false });
    expect(result.durationMs).toBeLessThan(2000);
    process.kill(await readPid(pidFile));
  });

  it('keeps what a script wrote before it exited when its exit is seen before its output, and the loop is busy after', async () => {
    // Node learns of exits by reaping every child that has exited, so a child that writes and exits while the loop is
    // busy can be reaped before its output is read; when the loop then stays busy past the wait for output after an
    // exit, that wait ends before the loop reads the pipe. Set up here: another child's output keeps the loop busy
    // while the script writes and exits (it is reaped with the other one), and the turn after keeps it busy again.
    for (let round = 0; round < 3; round++) {
      const other = spawn('/bin/sh', ['-c', 'echo x'], { stdio: ['ignore', 'pipe', 'ignore'] });
      const script = runProcess({ command: ['/bin/sh', '-c', `sleep 0.5; echo '{"decision":"deny","round":${round}}'`], timeoutMs: 30_000 });
      other.stdout.on('data', () => {
        busyFor(1200);
        setImmediate(() => busyFor(400));
      });
      busyFor(150);
      const result = await script;
      expect(result).toMatchObject({ exitCode: 0, stdout: `{"decision":"deny","round":${round}}\n` });
    }
  }, 60_000);

  it('stops buffering at the cap, kills the flooding group and marks the overflow', async () => {
    const started = performance.now();
    const result = await sh('yes | head -c 50000000');
    expect(result.overflow).toBe('stdout');
    expect(result.stdout.length).toBeLessThanOrEqual(DEFAULT_MAX_OUTPUT_BYTES);
    expect(result.stdout.length).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(5000);

    const err = await runProcess({ command: ['node', '-e', 'for(;;) process.stderr.write("x".repeat(65536))'], timeoutMs: 10_000, maxOutputBytes: 1000 });
    expect(err.overflow).toBe('stderr');
    expect(err.stderr.length).toBe(1000);
  });

  it('survives a script that never reads a large stdin (EPIPE)', async () => {
    const result = await sh('exit 0', { stdin: 'x'.repeat(8 * 1024 * 1024) });
    expect(result.exitCode).toBe(0);
  });

  it('decodes invalid UTF-8 with replacement characters instead of throwing', async () => {
    const result = await sh(`printf 'ok \\377\\376 \\342\\202' ; printf '\\300' >&2`);
    expect(result.stdout).toBe('ok \uFFFD\uFFFD \uFFFD');
    expect(result.stderr).toBe('\uFFFD');
  });

  it('kills the group when the signal aborts, and spawns nothing for a signal already aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await sh('sleep 30', { signal: controller.signal });
    expect(result.aborted).toBe(true);
    expect(result.durationMs).toBeLessThan(2000);

    const marker = join(dir, 'spawned');
    const early = await sh(`touch ${marker}`, { signal: AbortSignal.abort() });
    expect(early).toMatchObject({ aborted: true, pid: undefined, exitCode: null });
    await expect(readFile(marker)).rejects.toThrow();
  });
});
