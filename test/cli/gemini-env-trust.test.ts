import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { writeExecutable } from '../support/script-fixture.js';

// Gemini CLI loads a project's .env into its own environment, and so into the bridge's: a repository that ships
// `AGENT_HOOKS_TRUST=all` in its .env must not switch trust off for its own hooks. A real bridge process (the source
// CLI), run as Gemini CLI runs it, with the variable in its environment as Gemini CLI would have put it there.

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const payload = JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'BeforeTool', timestamp: '2026-11-24T23:58:10.056Z', tool_name: 'read_file', tool_input: { file_path: 'a.txt' } });

/** A project whose one hook, not trusted, writes `ran` when it runs. */
async function projectWithUntrustedHook(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-hooks-gemini-env-'));
  dirs.push(dir);
  const folder = join(dir, '.agents', 'hooks', 'repo-hook');
  await mkdir(join(folder, 'scripts'), { recursive: true });
  await mkdir(join(dir, 'home'), { recursive: true });
  await writeFile(join(folder, 'HOOK.md'), '---\nname: repo-hook\ndescription: The repository’s own hook.\ntrigger: pre-tool-call\n---\n# repo-hook\n');
  await writeExecutable(join(folder, 'scripts', 'run'), `#!/bin/sh\ncat > /dev/null\ntouch "${join(dir, 'ran')}"\nexit 0\n`);
  return dir;
}

function bridge(dir: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const argv = ['--import', join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs'), join(REPO, 'src', 'cli', 'index.ts'), 'bridge', '--from', 'gemini'];
  const base: NodeJS.ProcessEnv = { ...process.env, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg'), ...env };
  delete base.AGENT_HOOKS_PROCESS_TAG;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd: dir, env: base, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(payload);
  });
}

describe('AGENT_HOOKS_TRUST under Gemini CLI', () => {
  it('is ignored, with a warning naming the file, when the project’s .env sets it: the untrusted hook does not run', async () => {
    const dir = await projectWithUntrustedHook();
    await writeFile(join(dir, '.env'), 'API_URL=https://example.com\nAGENT_HOOKS_TRUST=all\n');
    const out = await bridge(dir, { GEMINI_PROJECT_DIR: dir, AGENT_HOOKS_TRUST: 'all' });
    expect(out.code).toBe(0);
    expect(existsSync(join(dir, 'ran'))).toBe(false);
    expect(out.stderr).toContain(`${join(dir, '.env')}: AGENT_HOOKS_TRUST=all is ignored: Gemini CLI loads this project file`);
    expect(out.stderr).toContain("Hook 'repo-hook' comes from the project and is not trusted yet");
  }, 60_000);

  it('is ignored too when .gemini/.env sets it (the file Gemini CLI looks for first)', async () => {
    const dir = await projectWithUntrustedHook();
    await mkdir(join(dir, '.gemini'));
    await writeFile(join(dir, '.gemini', '.env'), 'export AGENT_HOOKS_TRUST=all\n');
    const out = await bridge(dir, { GEMINI_PROJECT_DIR: dir, AGENT_HOOKS_TRUST: 'all' });
    expect(existsSync(join(dir, 'ran'))).toBe(false);
    expect(out.stderr).toContain('AGENT_HOOKS_TRUST=all is ignored');
  }, 60_000);

  it('is honoured when no project .env sets it (the user’s own environment), and outside Gemini CLI', async () => {
    const dir = await projectWithUntrustedHook();
    const gemini = await bridge(dir, { GEMINI_PROJECT_DIR: dir, AGENT_HOOKS_TRUST: 'all' });
    expect(gemini.code).toBe(0);
    expect(existsSync(join(dir, 'ran'))).toBe(true);
    expect(gemini.stderr).not.toContain('is ignored');
    await rm(join(dir, 'ran'));

    // A .env in the user's home is the user's own.
    await writeFile(join(dir, 'home', '.env'), 'AGENT_HOOKS_TRUST=all\n');
    const inHome = join(dir, 'home', 'work');
    await mkdir(inHome);
    const homeRun = await bridge(dir, { GEMINI_PROJECT_DIR: inHome, AGENT_HOOKS_TRUST: 'all' });
    expect(homeRun.stderr).not.toContain('is ignored');

    // Outside Gemini CLI (no GEMINI_PROJECT_DIR), nothing loaded the project's .env: the variable is the user's.
    await writeFile(join(dir, '.env'), 'AGENT_HOOKS_TRUST=all\n');
    await rm(join(dir, 'ran'), { force: true });
    const outside = await bridge(dir, { AGENT_HOOKS_TRUST: 'all' });
    expect(outside.stderr).not.toContain('is ignored');
    expect(existsSync(join(dir, 'ran'))).toBe(true);
  }, 60_000);
});
