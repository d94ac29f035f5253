import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { MAX_CONFIG_FILE_BYTES, readConfigFile } from '../../src/config/config-file.js';

// A repository's agent config file of many megabytes must not cost every load its size: it is refused, named with the
// limit and the fix, and the hooks of the other files still load.

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function project(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-hooks-size-'));
  dirs.push(dir);
  return dir;
}

const entry = (command: string) => ({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } });

async function list(dir: string) {
  const out: string[] = [];
  const io = cliIO({ cwd: dir, env: { HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg'), PATH: process.env.PATH }, out: (t) => out.push(t), err: (t) => out.push(t) });
  const code = await main(['list', '--trust-all', '--json'], io);
  return { code, json: JSON.parse(out.join('\n')) as { hooks: { name: string; file: string }[]; problems: { code: string; file: string; found: string; allowed: string; message: string }[] } };
}

describe('config files have a size cap', () => {
  it('refuses a settings file over 1 MiB with a problem naming it, the limit and the fix; other files’ hooks load', async () => {
    const dir = await project();
    await mkdir(join(dir, '.claude'), { recursive: true });
    const huge = { padding: 'x'.repeat(MAX_CONFIG_FILE_BYTES), ...entry('./huge-hook.sh') };
    await writeFile(join(dir, '.claude', 'settings.json'), JSON.stringify(huge));
    await mkdir(join(dir, '.cursor'), { recursive: true });
    await writeFile(join(dir, '.cursor', 'hooks.json'), JSON.stringify({ version: 1, hooks: { preToolUse: [{ command: './small-hook.sh' }] } }));

    const { code, json } = await list(dir);
    expect(code).toBe(1);
    const problem = json.problems.find((p) => p.code === 'file-too-large');
    expect(problem).toMatchObject({ file: join(dir, '.claude', 'settings.json'), allowed: `at most ${MAX_CONFIG_FILE_BYTES} bytes (1 MiB)` });
    expect(problem!.found).toMatch(/^\d+ bytes$/);
    expect(problem!.message).toContain('none of its hooks were loaded');
    expect(problem!.message).toContain('Keep long scripts in files of their own');
    expect(json.hooks.map((h) => h.file)).toEqual([join(dir, '.cursor', 'hooks.json')]);
  });

  it('reads a file of exactly the limit, and refuses one byte more', async () => {
    const dir = await project();
    const file = join(dir, 'settings.json');
    const base = JSON.stringify({ hooks: {}, padding: '' });
    const exact = JSON.stringify({ hooks: {}, padding: 'x'.repeat(MAX_CONFIG_FILE_BYTES - base.length) });
    expect(exact.length).toBe(MAX_CONFIG_FILE_BYTES);
    await writeFile(file, exact);
    expect((await readConfigFile(file)).status).toBe('ok');
    await writeFile(file, `${exact} `);
    const over = await readConfigFile(file);
    expect(over.status).toBe('invalid');
    expect(over.status === 'invalid' && over.problem.code).toBe('file-too-large');
  });
});
