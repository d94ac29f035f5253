import { link, lstat, mkdir, mkdtemp, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

// What a repository can ship to make `bridge --install` write outside it: its settings file, its backup's name, or a
// folder on the way, as a symbolic link to the user's own files (here, a "home" beside the project). Real links, the
// real command; nothing outside the project may change.

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A project and, beside it, a home holding the user's own settings. */
async function setting() {
  const root = await mkdtemp(join(tmpdir(), 'agent-hooks-install-links-'));
  dirs.push(root);
  const dir = join(root, 'project');
  const home = join(root, 'home');
  await mkdir(join(home, '.claude'), { recursive: true });
  await mkdir(dir);
  const users = join(home, '.claude', 'settings.json');
  await writeFile(users, '{"model":"mine"}');
  return { root, dir, home, users };
}

async function install(dir: string, agent: string) {
  const out: string[] = [];
  const err: string[] = [];
  const io = cliIO({ cwd: dir, env: { HOME: join(dir, 'no-home'), XDG_CONFIG_HOME: join(dir, 'xdg'), PATH: process.env.PATH }, out: (t) => out.push(t), err: (t) => err.push(t) });
  const code = await main(['bridge', '--install', agent, '--events', 'PreToolUse', '--command', `/opt/agent-hooks bridge --from ${agent}`], io);
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

describe('bridge --install never writes through a link', () => {
  it('refuses a settings file that is a relative link out of the project, naming it and the fix', async () => {
    const { dir, users } = await setting();
    await mkdir(join(dir, '.claude'));
    await symlink('../../home/.claude/settings.json', join(dir, '.claude', 'settings.json'));
    const out = await install(dir, 'claude');
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`${join(dir, '.claude', 'settings.json')} is a symbolic link (to ../../home/.claude/settings.json); nothing was changed.`);
    expect(out.stderr).toContain('Replace the link with the file it stands for, or edit that file yourself.');
    expect(await readFile(users, 'utf8')).toBe('{"model":"mine"}');
    expect((await lstat(join(dir, '.claude', 'settings.json'))).isSymbolicLink()).toBe(true);
  });

  it('replaces a dangling backup link instead of creating the file it points at', async () => {
    const { dir, home } = await setting();
    await mkdir(join(dir, '.claude'));
    await writeFile(join(dir, '.claude', 'settings.json'), '{"hooks":{}}');
    // Following it would create the user's ~/.claude/settings.local.json, with the project's hooks in it.
    const target = join(home, '.claude', 'settings.local.json');
    await symlink(target, join(dir, '.claude', 'settings.json.bak'));
    const out = await install(dir, 'claude');
    expect(out.code).toBe(0);
    await expect(lstat(target)).rejects.toThrow();
    expect((await lstat(join(dir, '.claude', 'settings.json.bak'))).isSymbolicLink()).toBe(false);
    expect(await readFile(join(dir, '.claude', 'settings.json.bak'), 'utf8')).toBe('{"hooks":{}}');
  });

  it('replaces a backup link to a folder outside, leaving the folder as it was', async () => {
    const { dir, home } = await setting();
    await mkdir(join(dir, '.codex'));
    await writeFile(join(dir, '.codex', 'hooks.json'), '{"hooks":{}}');
    await symlink(join(home, '.claude'), join(dir, '.codex', 'hooks.json.bak'));
    const out = await install(dir, 'codex');
    expect(out.code).toBe(0);
    expect((await lstat(join(dir, '.codex', 'hooks.json.bak'))).isFile()).toBe(true);
    expect(await readFile(join(home, '.claude', 'settings.json'), 'utf8')).toBe('{"model":"mine"}');
  });

  it('refuses a folder on the way that is a link, however deep (.github real, .github/hooks a link)', async () => {
    const { dir, home, users } = await setting();
    await mkdir(join(dir, '.github'));
    await symlink(join(home, '.claude'), join(dir, '.github', 'hooks'));
    const out = await install(dir, 'copilot');
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`${join(dir, '.github', 'hooks')} is a symbolic link (to ${join(home, '.claude')})`);
    await expect(lstat(join(home, '.claude', 'agent-hooks.json'))).rejects.toThrow();
    expect(await readFile(users, 'utf8')).toBe('{"model":"mine"}');
  });

  it('never writes a file in place: a hard link to the user’s settings (as an archive can ship) is replaced, not changed', async () => {
    const { dir, users } = await setting();
    await mkdir(join(dir, '.claude'));
    await link(users, join(dir, '.claude', 'settings.json'));
    const out = await install(dir, 'claude');
    expect(out.code).toBe(0);
    expect(await readFile(users, 'utf8')).toBe('{"model":"mine"}');
    expect(JSON.parse(await readFile(join(dir, '.claude', 'settings.json'), 'utf8'))).toMatchObject({ model: 'mine', hooks: { PreToolUse: [{}] } });
  });

  it('refuses a link even to a file inside the project: a link is never written through', async () => {
    const { dir } = await setting();
    await mkdir(join(dir, '.cursor'));
    await writeFile(join(dir, 'cursor-hooks.json'), '{"version":1,"hooks":{}}');
    await symlink('../cursor-hooks.json', join(dir, '.cursor', 'hooks.json'));
    const out = await install(dir, 'cursor');
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('is a symbolic link');
    expect(await readlink(join(dir, '.cursor', 'hooks.json'))).toBe('../cursor-hooks.json');
    expect(await readFile(join(dir, 'cursor-hooks.json'), 'utf8')).toBe('{"version":1,"hooks":{}}');
  });
});
