/**
 * The fault matrix's bridge-killed row: an agent kills its hook — here the bridge — while a HOOK.md hook runs, with
 * SIGTERM (what agents send at their own hook timeout) and with SIGKILL. A real bridge process (the source CLI), a
 * real hook that ignores SIGTERM and leaves two descendants outside its process group (`setsid`, a detached node
 * child). Measured: what the agent gets back, and what is left of the hook's processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { isRunning, readPid, writeExecutable } from '../support/script-fixture.js';
import { faultRow } from './matrix.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const row = faultRow('bridge-killed');
const linux = process.platform === 'linux';

const dirs: string[] = [];
const tags: string[] = [];
afterEach(async () => {
  // Whatever a failed case left running is ended here, found by its tag.
  for (const tag of tags.splice(0)) for (const pid of await carrying(tag)) process.kill(pid, 'SIGKILL');
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** The running processes whose environment holds `AGENT_HOOKS_PROCESS_TAG=tag`. */
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

async function noneCarrying(tag: string, ms: number): Promise<number[]> {
  const end = Date.now() + ms;
  let left = await carrying(tag);
  while (left.length > 0 && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    left = await carrying(tag);
  }
  return left;
}

const claudePre = JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'make' }, tool_use_id: 't' });

/** A project whose one HOOK.md hook hangs with two escaped descendants, and a bridge (the source CLI) running it. */
async function bridgeWithHangingHook() {
  const dir = await mkdtemp(join(tmpdir(), 'agent-hooks-bridge-killed-'));
  dirs.push(dir);
  const folder = join(dir, '.agents', 'hooks', 'hangs');
  await mkdir(join(folder, 'scripts'), { recursive: true });
  await writeFile(join(folder, 'HOOK.md'), '---\nname: hangs\ndescription: Hangs with escaped descendants.\ntrigger: pre-tool-call\ntimeout: 120000\n---\n# hangs\n');
  const detached = `const c=require("child_process").spawn("sleep",["300"],{detached:true,stdio:"ignore"});require("fs").writeFileSync(process.env.AGENT_HOOKS_PROJECT_DIR+"/detached.pid",String(c.pid));c.unref()`;
  await writeExecutable(
    join(folder, 'scripts', 'run'),
    `#!/bin/sh
cat > /dev/null
trap '' TERM
echo "$AGENT_HOOKS_PROCESS_TAG" > "$AGENT_HOOKS_PROJECT_DIR/tag"
setsid sh -c 'echo $$ > "$AGENT_HOOKS_PROJECT_DIR/setsid.pid"; exec sleep 300' &
${JSON.stringify(process.execPath)} -e '${detached}'
echo $$ > "$AGENT_HOOKS_PROJECT_DIR/hook.pid"
while :; do sleep 1; done
`,
  );
  const argv = ['--import', join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs'), join(REPO, 'src', 'cli', 'index.ts'), 'bridge', '--trust-all', '--from', 'claude'];
  const env: NodeJS.ProcessEnv = { ...process.env, CLAUDE_PROJECT_DIR: dir, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg') };
  delete env.AGENT_HOOKS_PROCESS_TAG;
  const bridge = spawn(process.execPath, argv, { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  bridge.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  bridge.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => bridge.on('close', (code, signal) => resolve({ code, signal })));
  bridge.stdin!.end(claudePre);
  const hook = await readPid(join(dir, 'hook.pid'), 30_000);
  const setsid = await readPid(join(dir, 'setsid.pid'), 10_000);
  const detachedPid = await readPid(join(dir, 'detached.pid'), 10_000);
  const tag = (await readFile(join(dir, 'tag'), 'utf8')).trim();
  tags.push(tag);
  return { bridge, hook, setsid, detached: detachedPid, tag, ended, output: () => ({ stdout, stderr }) };
}

const kill = (child: ChildProcess, signal: NodeJS.Signals) => child.kill(signal);

describe.runIf(linux)(`fault matrix: ${row.fault}`, () => {
  it('SIGTERM: no answer, exit 1 with the reason on stderr; the hook and its escaped descendants are killed at once', async () => {
    const run = await bridgeWithHangingHook();
    // The hook (and its passing `sleep 1`) and the two descendants that left its group.
    expect((await carrying(run.tag)).length).toBeGreaterThanOrEqual(3);
    const started = Date.now();
    kill(run.bridge, 'SIGTERM');
    const end = await run.ended;
    expect(end.code).toBe(1);
    // The agent reads no answer: an empty stdout and exit 1, a non-blocking failure in every agent's protocol.
    expect(run.output().stdout).toBe('');
    expect(run.output().stderr).toMatch(row.hookmd.cause);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await noneCarrying(run.tag, 1000)).toEqual([]);
    for (const pid of [run.hook, run.setsid, run.detached]) expect(await isRunning(pid), String(pid)).toBe(false);
  }, 60_000);

  it('SIGKILL once the hook has run a second: the watchdog kills the hook and its escaped descendants', async () => {
    const run = await bridgeWithHangingHook();
    // The watchdog starts for a hook that has run a second.
    await new Promise((r) => setTimeout(r, 1500));
    kill(run.bridge, 'SIGKILL');
    const end = await run.ended;
    expect(end.signal).toBe('SIGKILL');
    expect(run.output().stdout).toBe('');
    // The watchdog looks once a second.
    expect(await noneCarrying(run.tag, 4000)).toEqual([]);
    for (const pid of [run.hook, run.setsid, run.detached]) expect(await isRunning(pid), String(pid)).toBe(false);
  }, 60_000);

  it('SIGKILL before the hook has run a second: no watchdog yet, so its processes run on (the documented limit)', async () => {
    const run = await bridgeWithHangingHook();
    kill(run.bridge, 'SIGKILL');
    await run.ended;
    await new Promise((r) => setTimeout(r, 1500));
    // Measured, not wished for: nothing is left in the bridge to kill them, and no watchdog was started.
    expect(await isRunning(run.hook)).toBe(true);
    expect((await carrying(run.tag)).length).toBeGreaterThan(0);
  }, 60_000);
});
