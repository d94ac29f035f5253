import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// `npx agent-hooks serve &` as a user types it, in a project where the package is installed: npx (npm) runs the
// executable under `sh -c`, and a process manager stops it with a TERM to the PID it started — npx's. The executable
// here runs the sources through tsx (no build, and the shared dist/ is left alone); npx, npm, the shell and the server
// process stand as they do with the built package.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = 'lifetime-token-0123456789abcdef0123456789';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const answers = async (url: string): Promise<boolean> => {
  try {
    await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
};

/** A project with `agent-hooks` installed: node_modules/.bin/agent-hooks runs this worktree's command line. */
async function installedProject(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-hooks-npx-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'npx-project', version: '1.0.0', private: true }));
  await mkdir(join(dir, 'node_modules', '.bin'), { recursive: true });
  await symlink(ROOT, join(dir, 'node_modules', 'agent-hooks'));
  const bin = join(dir, 'node_modules', '.bin', 'agent-hooks');
  await writeFile(bin, `#!/bin/sh\nexec "${process.execPath}" --import "${join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')}" "${join(ROOT, 'src', 'cli', 'index.ts')}" "$@"\n`, { mode: 0o755 });
  await mkdir(join(dir, 'home'));
  return dir;
}

/** `npx agent-hooks serve --port 0 …`; resolves with npx's process, and the server's URL and PID from its log. */
async function npxServe(dir: string, args: readonly string[] = []): Promise<{ npx: ChildProcess; url: string; pid: number }> {
  const env = { PATH: process.env.PATH, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg'), AGENT_HOOKS_TOKEN: TOKEN, npm_config_update_notifier: 'false', npm_config_yes: 'true' };
  const npx = spawn('npx', ['agent-hooks', 'serve', '--port', '0', '--trust-all', ...args], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let buffer = '';
  const listening = await new Promise<{ url: string; pid: number }>((resolve, reject) => {
    npx.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      const line = buffer.split('\n').find((l) => l.includes('"listening"'));
      if (line !== undefined) resolve(JSON.parse(line) as { url: string; pid: number });
    });
    npx.on('exit', () => reject(new Error(`npx exited before the server listened: ${buffer}`)));
    setTimeout(() => reject(new Error(`the server did not listen within 30 s: ${buffer}`)), 30_000).unref();
  });
  cleanups.push(() => {
    // Whatever the outcome, nothing this test started outlives it.
    if (alive(listening.pid)) process.kill(listening.pid, 'SIGKILL');
  });
  return { npx, ...listening };
}

describe('agent-hooks serve lives as long as what started it', () => {
  it('goes down when npx, which started it, is stopped with a TERM: the port stops answering and the process is gone', async () => {
    const dir = await installedProject();
    const { npx, url, pid } = await npxServe(dir);
    expect(pid).not.toBe(npx.pid);
    expect(await answers(url)).toBe(true);

    // 'exit', not 'close': a server left running would hold npx's stderr open.
    const npxGone = new Promise<void>((resolve) => npx.on('exit', () => resolve()));
    npx.kill('SIGTERM');
    await npxGone;
    await expect.poll(() => answers(url), { timeout: 10_000, interval: 200 }).toBe(false);
    await expect.poll(() => alive(pid), { timeout: 10_000, interval: 200 }).toBe(false);
  }, 60_000);

  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)('goes down on %s sent to the server itself', async (signal) => {
    const dir = await installedProject();
    const { url, pid } = await npxServe(dir);
    expect(await answers(url)).toBe(true);
    process.kill(pid, signal);
    await expect.poll(() => answers(url), { timeout: 10_000, interval: 200 }).toBe(false);
    await expect.poll(() => alive(pid), { timeout: 10_000, interval: 200 }).toBe(false);
  }, 60_000);
});
