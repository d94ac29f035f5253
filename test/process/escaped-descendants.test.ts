import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { killLiveProcessGroups } from '../../src/process/live-groups.js';
import { runProcess } from '../../src/process/run-process.js';
import { isRunning, readPid, tempDir, writeExecutable } from '../support/script-fixture.js';

// A hook's descendants that leave its process group — `setsid`, a detached node child — are out of reach of the
// group kill. Each test below starts such a process for real and checks, by its own look through /proc, that none
// carrying the hook's tag is left once the hook has been killed.

const linux = process.platform === 'linux';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

/** Pids left running by a test (the hook that exits by itself leaves one on purpose), killed after it. */
const leftovers: number[] = [];
afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

/** The running processes whose environment holds `AGENT_HOOKS_PROCESS_TAG=tag`, looked up independently of the runner. */
async function carrying(tag: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = (await readFile(`/proc/${entry}/environ`, 'latin1')).split('\0');
      if (environ.includes(`AGENT_HOOKS_PROCESS_TAG=${tag}`) && (await isRunning(Number(entry)))) found.push(Number(entry));
    } catch {
      // another user's, or gone
    }
  }
  return found;
}

/**
 * A hook script that writes its tag, starts a `setsid` grandchild and a detached node grandchild (each writing its
 * pid), and then hangs until killed, ignoring SIGTERM.
 */
async function escapingHook(name: string): Promise<{ script: string; files: { tag: string; setsid: string; detached: string } }> {
  const files = { tag: join(dir, `${name}.tag`), setsid: join(dir, `${name}.setsid`), detached: join(dir, `${name}.detached`) };
  const detached = `const c=require("child_process").spawn("sleep",["300"],{detached:true,stdio:"ignore"});require("fs").writeFileSync(${JSON.stringify(files.detached)},String(c.pid));c.unref()`;
  const script = await writeExecutable(
    join(dir, name),
    `#!/bin/sh
trap '' TERM
echo "$AGENT_HOOKS_PROCESS_TAG" > "${files.tag}"
setsid sh -c 'echo $$ > "${files.setsid}"; exec sleep 300' &
${JSON.stringify(process.execPath)} -e '${detached}'
while :; do sleep 1; done
`,
  );
  return { script, files };
}

/**
 * What `read` gives once `settled` holds of it, or after `ms` what it gives then: a process sent SIGKILL still takes a
 * moment to die, longer on a loaded machine, while one that was not killed (each here sleeps for 300 s) still runs.
 */
async function afterDying<T>(read: () => Promise<T>, settled: (value: T) => boolean, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (settled(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const stillRunning = (pid: number): Promise<boolean> => afterDying(() => isRunning(pid), (running) => !running);
const stillCarrying = (tag: string): Promise<number[]> => afterDying(() => carrying(tag), (found) => found.length === 0);

async function escapees(files: { tag: string; setsid: string; detached: string }) {
  const setsid = await readPid(files.setsid, 10_000);
  const detached = await readPid(files.detached, 10_000);
  const tag = (await readFile(files.tag, 'utf8')).trim();
  return { setsid, detached, tag };
}

describe.runIf(linux)('descendants that left the hook’s process group', () => {
  it('a timed-out hook takes its setsid and detached grandchildren with it: no process carrying its tag is left', async () => {
    const { script, files } = await escapingHook('timeout');
    const running = runProcess({ command: [script], timeoutMs: 1500, killGraceMs: 200 });
    const { setsid, detached, tag } = await escapees(files);
    expect(tag).toMatch(/^[0-9a-f]{24}$/);
    // They did leave the group: a group kill alone would not reach them.
    const group = (await readFile(`/proc/${setsid}/stat`, 'latin1')).split(') ')[1]!.split(' ')[2];
    expect(Number(group)).toBe(setsid);
    const result = await running;
    expect(result.timedOut).toBe(true);
    expect(await stillRunning(setsid)).toBe(false);
    expect(await stillRunning(detached)).toBe(false);
    expect(await stillCarrying(tag)).toEqual([]);
  });

  it('an aborted hook takes them with it too', async () => {
    const { script, files } = await escapingHook('abort');
    const controller = new AbortController();
    const running = runProcess({ command: [script], timeoutMs: 60_000, killGraceMs: 200, signal: controller.signal });
    const { setsid, detached, tag } = await escapees(files);
    controller.abort();
    const result = await running;
    expect(result.aborted).toBe(true);
    expect(await stillRunning(setsid)).toBe(false);
    expect(await stillRunning(detached)).toBe(false);
    expect(await stillCarrying(tag)).toEqual([]);
  });

  it('killing every live group (the bridge going away) takes them with it', async () => {
    const { script, files } = await escapingHook('live');
    const running = runProcess({ command: [script], timeoutMs: 60_000, killGraceMs: 60_000 });
    const { setsid, detached, tag } = await escapees(files);
    await killLiveProcessGroups(100);
    expect(await stillRunning(setsid)).toBe(false);
    expect(await stillRunning(detached)).toBe(false);
    expect(await stillCarrying(tag)).toEqual([]);
    expect((await running).signal).toBe('SIGKILL');
  });

  it('a process that exits (process.exit) with a hook still running takes the hook and its escaped descendants along', async () => {
    const { script, files } = await escapingHook('exit');
    const runner = join(dir, 'exit-runner.mts');
    const source = fileURLToPath(new URL('../../src/process/run-process.ts', import.meta.url));
    await writeFile(
      runner,
      `import { readFileSync } from 'node:fs';
import { runProcess } from ${JSON.stringify(source)};
void runProcess({ command: [${JSON.stringify(script)}], timeoutMs: 60_000 });
const written = (file: string) => { try { return readFileSync(file, 'utf8').trim() !== ''; } catch { return false; } };
const files = ${JSON.stringify([files.tag, files.setsid, files.detached])};
const wait = setInterval(() => { if (files.every(written)) { clearInterval(wait); process.exit(0); } }, 20);
`,
    );
    const loader = fileURLToPath(new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url));
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.AGENT_HOOKS_PROCESS_TAG;
    const child = spawn(process.execPath, ['--import', loader, runner], { stdio: 'ignore', env });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const { setsid, detached, tag } = await escapees(files);
    expect(await stillRunning(setsid)).toBe(false);
    expect(await stillRunning(detached)).toBe(false);
    expect(await stillCarrying(tag)).toEqual([]);
  }, 60_000);

  it('a hook that exits by itself is not looked after: what it leaves in the background runs on', async () => {
    const pidFile = join(dir, 'normal.setsid');
    const result = await runProcess({ command: ['sh', '-c', `setsid sh -c 'echo $$ > "${pidFile}"; exec sleep 300' & exit 0`], timeoutMs: 10_000 });
    expect(result.exitCode).toBe(0);
    const survivor = await readPid(pidFile, 10_000);
    leftovers.push(survivor);
    expect(await isRunning(survivor)).toBe(true);
  });

  it('a descendant that clears its environment is not found (the documented limit)', async () => {
    const pidFile = join(dir, 'clean.setsid');
    const running = runProcess({ command: ['sh', '-c', `env -i setsid sh -c 'echo $$ > "${pidFile}"; exec sleep 300' & exec sleep 300`], timeoutMs: 1000, killGraceMs: 100 });
    const survivor = await readPid(pidFile, 10_000);
    leftovers.push(survivor);
    expect((await running).timedOut).toBe(true);
    expect(await isRunning(survivor)).toBe(true);
  });
});
