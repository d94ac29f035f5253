import { execFile } from 'node:child_process';
import { chmodSync, realpathSync } from 'node:fs';
import { lstat, mkdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI, cliProjects, runCli, runCliJson, scriptHook } from '../support/cli.js';

// `bridge --install AGENT` on real temporary projects, through the built executable.

const project = cliProjects();

interface Installed {
  agent: string;
  file: string;
  backup: string | null;
  added: string[];
  updated: string[];
  present: string[];
  skipped: string[];
  command: string;
}

const install = (dir: string, ...args: string[]) => runCliJson<Installed>(['bridge', '--install', ...args, '--json'], { cwd: dir });
const readJson = async (file: string): Promise<Record<string, any>> => JSON.parse(await readFile(file, 'utf8'));

/** A project with agent-hooks installed in node_modules/.bin, as `npm install --save-dev agent-hooks` leaves it. */
async function withLocalInstall(dir: string): Promise<void> {
  await mkdir(join(dir, 'node_modules', '.bin'), { recursive: true });
  await symlink(CLI, join(dir, 'node_modules', '.bin', 'agent-hooks'));
}

// Gemini CLI replaces `$GEMINI_PROJECT_DIR` in the command's text with a shell-quoted path; the braced form it leaves alone.
// Claude Code's and Gemini CLI's lines clear NODE_OPTIONS first: their projects can set their hooks' variables.
const local = (agent: string, variable?: string) =>
  `${agent === 'claude' || agent === 'gemini' ? 'NODE_OPTIONS= NODE_COMPILE_CACHE= ' : ''}${variable === undefined ? '' : agent === 'gemini' ? `"\${${variable}}"/` : `"$${variable}"/`}node_modules/.bin/agent-hooks bridge --from ${agent}`;

describe('agent-hooks bridge --install AGENT', () => {
  // What the end-to-end suite runs for each agent: canonical names, a timeout in seconds.
  const shapes: Record<string, { file: string; json: (line: string) => unknown }> = {
    claude: {
      file: '.claude/settings.json',
      json: (line) => ({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: line, timeout: 30 }] }], Stop: [{ hooks: [{ type: 'command', command: line, timeout: 30 }] }] } }),
    },
    codex: {
      file: '.codex/hooks.json',
      json: (line) => ({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: line, timeout: 30 }] }], Stop: [{ hooks: [{ type: 'command', command: line, timeout: 30 }] }] } }),
    },
    gemini: {
      file: '.gemini/settings.json',
      json: (line) => ({ hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: line, timeout: 30_000 }] }], AfterAgent: [{ hooks: [{ type: 'command', command: line, timeout: 30_000 }] }] } }),
    },
    copilot: {
      file: '.github/hooks/agent-hooks.json',
      json: (line) => ({
        version: 1,
        hooks: {
          preToolUse: [{ type: 'command', bash: `${line} --event preToolUse`, timeoutSec: 30 }],
          agentStop: [{ type: 'command', bash: `${line} --event agentStop`, timeoutSec: 30 }],
        },
      }),
    },
    vscode: {
      file: '.github/hooks/agent-hooks-vscode.json',
      json: (line) => ({ hooks: { PreToolUse: [{ type: 'command', command: line, timeout: 30 }], Stop: [{ type: 'command', command: line, timeout: 30 }] } }),
    },
    cursor: {
      file: '.cursor/hooks.json',
      json: (line) => ({ version: 1, hooks: { preToolUse: [{ command: line, timeout: 30 }], stop: [{ command: line, timeout: 30 }] } }),
    },
  };
  const variables: Record<string, string | undefined> = { claude: 'CLAUDE_PROJECT_DIR', gemini: 'GEMINI_PROJECT_DIR', cursor: 'CURSOR_PROJECT_DIR' };

  it.each(Object.keys(shapes))('%s: writes its own file, names and timeout unit, running the project’s node_modules/.bin/agent-hooks', async (agent) => {
    const { dir } = await project();
    await withLocalInstall(dir);
    const out = await runCli(['bridge', '--install', agent, '--events', 'PreToolUse,Stop', '--timeout', '30'], { cwd: dir });
    expect(out).toMatchObject({ code: 0, stderr: '' });
    const line = local(agent, variables[agent]);
    expect(await readJson(join(dir, shapes[agent]!.file))).toEqual(shapes[agent]!.json(line));
    expect(out.stdout).toContain(`now runs: ${line}`);
  });

  it('writes, for every agent, the very file the bridge’s documentation shows', async () => {
    const readme = await readFile(join(CLI, '..', '..', 'docs', 'bridge.md'), 'utf8');
    const block = /This is what they write[\s\S]*?```jsonc\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block, 'the jsonc block of the bridge section').toBeDefined();
    const shown = new Map<string, string>();
    let file = '';
    for (const line of block!.split('\n')) {
      const comment = /^\/\/ [^:]+: (\S+)/.exec(line);
      if (comment !== null) file = comment[1]!;
      else if (!line.startsWith('//')) shown.set(file, `${shown.get(file) ?? ''}${line}\n`);
    }
    expect([...shown.keys()].sort()).toEqual(Object.values(shapes).map((s) => s.file).sort());
    const { dir } = await project();
    await withLocalInstall(dir);
    for (const [agent, { file: path }] of Object.entries(shapes)) {
      expect((await runCli(['bridge', '--install', agent, '--events', 'PreToolUse,Stop'], { cwd: dir })).code).toBe(0);
      expect(await readJson(join(dir, path)), path).toEqual(JSON.parse(shown.get(path)!));
    }
  });

  it('without a local install, writes the real path of the running agent-hooks; --command overrides both', async () => {
    const { dir } = await project();
    const built = `${realpathSync(CLI)} bridge --from`;
    const codex = await install(dir, 'codex', '--events', 'PreToolUse');
    expect(codex.json.command).toBe(`${built} codex`);
    expect((await readJson(join(dir, '.codex', 'hooks.json'))).hooks.PreToolUse[0].hooks[0]).toEqual({ type: 'command', command: `${built} codex`, timeout: 60 });
    const copilot = await install(dir, 'copilot', '--events', 'Stop', '--command', '/opt/bridge.sh');
    expect(copilot.json.command).toBe('/opt/bridge.sh');
    expect((await readJson(join(dir, '.github', 'hooks', 'agent-hooks.json'))).hooks.agentStop).toEqual([{ type: 'command', bash: '/opt/bridge.sh --event agentStop', timeoutSec: 60 }]);
  });

  it('writes lines our own loaders know as the bridge, for every agent, so no HOOK.md hook runs twice', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'no-rm', { trigger: 'pre-tool-call' });
    for (const agent of Object.keys(shapes)) expect((await runCli(['bridge', '--install', agent], { cwd: dir })).code).toBe(0);
    const { json } = await runCliJson<{ hooks: { name: string }[]; problems: { code: string; file: string }[] }>(['list', '--trust-all', '--json'], { cwd: dir });
    expect(json.hooks.map((h) => h.name)).toEqual(['no-rm']);
    // Each agent's bridge line is skipped, Codex's .codex/hooks.json included.
    expect(new Set(json.problems.map((p) => `${p.code} ${p.file.slice(dir.length + 1)}`))).toEqual(
      new Set(Object.values(shapes).map(({ file }) => `bridge-skipped ${file}`)),
    );
  });

  it('refuses, suggesting --command, when the running agent-hooks is not a built .js file and the project has none', async () => {
    const { dir } = await project();
    const root = join(CLI, '..', '..');
    const fromSource = [process.execPath, '--import', join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs'), join(root, 'src', 'cli', 'index.ts')] as const;
    const run = (...args: string[]) =>
      promisify(execFile)(fromSource[0], [...fromSource.slice(1), 'bridge', '--install', 'claude', '--events', 'PreToolUse', ...args], { cwd: dir }).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
    const refused = await run();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('src/cli/index.ts) is not a built .js file');
    expect(refused.stderr).toContain('--command CMD');
    await expect(lstat(join(dir, '.claude'))).rejects.toThrow();
    expect((await run('--command', 'my-bridge')).code).toBe(0);
  });

  it('merges into what is there, keeps a backup of it, and changes nothing the second time', async () => {
    const { dir, hooks } = await project();
    await withLocalInstall(dir);
    await scriptHook(hooks, 'no-rm', { trigger: 'pre-tool-call' });
    await scriptHook(hooks, 'gate', { trigger: 'Stop' });
    await mkdir(join(dir, '.gemini'));
    const before = {
      general: { vimMode: true },
      hooks: { enabled: true, BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: './lint.sh', timeout: 5000 }] }] },
    };
    const file = join(dir, '.gemini', 'settings.json');
    await writeFile(file, JSON.stringify(before));
    const first = await install(dir, 'gemini');
    expect(first.json).toMatchObject({ added: ['BeforeTool', 'AfterAgent'], updated: [], present: [], backup: `${file}.bak` });
    expect(await readJson(`${file}.bak`)).toEqual(before);
    const after = await readJson(file);
    const bridge = { hooks: [{ type: 'command', command: local('gemini', 'GEMINI_PROJECT_DIR'), timeout: 60_000 }] };
    expect(after).toEqual({ general: { vimMode: true }, hooks: { enabled: true, BeforeTool: [before.hooks.BeforeTool[0], bridge], AfterAgent: [bridge] } });

    const text = await readFile(file, 'utf8');
    const second = await install(dir, 'gemini');
    expect(second.json).toMatchObject({ added: [], updated: [], present: ['BeforeTool', 'AfterAgent'], backup: null });
    expect(await readFile(file, 'utf8')).toBe(text);
    // The backup is still the file as the user had it.
    expect(await readJson(`${file}.bak`)).toEqual(before);
  });

  it('keeps other entries of a flat file and adds its version; keeps the file’s permissions', async () => {
    const { dir } = await project();
    await withLocalInstall(dir);
    await mkdir(join(dir, '.cursor'));
    const file = join(dir, '.cursor', 'hooks.json');
    await writeFile(file, JSON.stringify({ hooks: { afterFileEdit: [{ command: './format.sh' }], stop: [{ command: './notify.sh', timeout: 3 }] } }));
    chmodSync(file, 0o600);
    const out = await install(dir, 'cursor', '--events', 'Stop,beforeShellExecution');
    expect(out.json.added).toEqual(['stop', 'beforeShellExecution']);
    const line = local('cursor', 'CURSOR_PROJECT_DIR');
    expect(await readJson(file)).toEqual({
      version: 1,
      hooks: {
        afterFileEdit: [{ command: './format.sh' }],
        stop: [{ command: './notify.sh', timeout: 3 }, { command: line, timeout: 60 }],
        beforeShellExecution: [{ command: line, timeout: 60 }],
      },
    });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('brings an older bridge line (npx) up to date in place, keeping its timeout unless one is given', async () => {
    const { dir } = await project();
    await withLocalInstall(dir);
    await mkdir(join(dir, '.claude'));
    const file = join(dir, '.claude', 'settings.json');
    const old = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'npx --no-install agent-hooks bridge --from claude', timeout: 20 }] }] } };
    await writeFile(file, JSON.stringify(old));
    const line = local('claude', 'CLAUDE_PROJECT_DIR');
    const first = await install(dir, 'claude', '--events', 'PreToolUse');
    expect(first.json).toMatchObject({ added: [], updated: ['PreToolUse'] });
    // The matcher of a group that holds only the bridge is --install's own: with no HOOK.md hook on the event to
    // narrow it, the bridge runs for every tool (a matcher left narrower than the hooks would skip them).
    expect((await readJson(file)).hooks.PreToolUse).toEqual([{ hooks: [{ type: 'command', command: line, timeout: 20 }] }]);
    const second = await install(dir, 'claude', '--events', 'PreToolUse', '--timeout', '45');
    expect(second.json).toMatchObject({ updated: ['PreToolUse'] });
    expect((await readJson(file)).hooks.PreToolUse[0].hooks).toEqual([{ type: 'command', command: line, timeout: 45 }]);
    // Another agent's bridge in the same file is not this one's.
    await writeFile(file, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'node_modules/.bin/agent-hooks bridge --from vscode' }] }] } }));
    expect((await install(dir, 'claude', '--events', 'Stop')).json.added).toEqual(['Stop']);
    // Codex reads `timeoutSec` as another name of `timeout`, and refuses an entry with both: the entry's own is set.
    await mkdir(join(dir, '.codex'));
    const codex = join(dir, '.codex', 'hooks.json');
    await writeFile(codex, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: local('codex'), timeoutSec: 10 }] }] } }));
    expect((await install(dir, 'codex', '--events', 'Stop', '--timeout', '20')).json.updated).toEqual(['Stop']);
    expect((await readJson(codex)).hooks.Stop[0].hooks).toEqual([{ type: 'command', command: local('codex'), timeoutSec: 20 }]);
  });

  it('skips the events an agent does not have with a line saying which, and refuses when none is left', async () => {
    const { dir } = await project();
    await withLocalInstall(dir);
    const some = await runCliJson<Installed>(['bridge', '--install', 'codex', '--events', 'PreToolUse,Notification,PostToolUseFailure', '--json'], { cwd: dir });
    expect(some.code).toBe(0);
    expect(some.json).toMatchObject({ added: ['PreToolUse'], skipped: ['Notification', 'PostToolUseFailure'] });
    expect(some.stderr).toBe('Skipped Notification, PostToolUseFailure: Codex has no such event.\n');
    const none = await runCli(['bridge', '--install', 'vscode', '--events', 'Notification,SessionEnd'], { cwd: dir });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/VS Code has none of Notification, SessionEnd, so there is nothing to bridge; its events are SessionStart, .*Nothing was changed/);
    await expect(lstat(join(dir, '.github'))).rejects.toThrow();
    const unknown = await runCli(['bridge', '--install', 'claude', '--events', 'PreToolUze'], { cwd: dir });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('PreToolUse');
  });

  it('bridges Gemini CLI’s model events only where a hook runs on them: each would start the bridge on every model call', async () => {
    const { dir, hooks } = await project();
    await withLocalInstall(dir);
    await scriptHook(hooks, 'guard', { trigger: 'PreToolUse' });
    await scriptHook(hooks, 'redact', { trigger: 'AfterModel' });
    // By default: the events the hooks use, AfterModel among them, and no other model event.
    const used = await install(dir, 'gemini');
    expect(used.json.added).toEqual(['AfterModel', 'BeforeTool']);
    // Named: the model events no hook runs on are left out, with a line saying why.
    const named = await runCliJson<Installed>(['bridge', '--install', 'gemini', '--events', 'PreToolUse,BeforeModel,BeforeToolSelection,AfterModel', '--json'], { cwd: dir });
    expect(named.code).toBe(0);
    expect(named.json).toMatchObject({ added: [], present: ['BeforeTool', 'AfterModel'] });
    expect(named.stderr).toBe(
      'Skipped BeforeModel, BeforeToolSelection: no hook of this project runs on them, and Gemini CLI would start the bridge on every model call (AfterModel: on every streamed chunk of every answer) for nothing. Add a hook on them first.\n',
    );
    expect(Object.keys((await readJson(join(dir, '.gemini', 'settings.json'))).hooks).sort()).toEqual(['AfterModel', 'BeforeTool']);
    const only = await runCli(['bridge', '--install', 'gemini', '--events', 'BeforeModel'], { cwd: dir });
    expect(only.code).toBe(1);
    // An in-process hooks module may run on any event: what it names is written.
    await writeFile(join(dir, 'agent-hooks.config.mjs'), 'export default [];\n');
    expect((await install(dir, 'gemini', '--events', 'BeforeModel')).json.added).toEqual(['BeforeModel']);
  });

  it('bridges the events the project’s HOOK.md hooks use by default, and says so when the agent has none of them', async () => {
    const { dir, hooks } = await project();
    await withLocalInstall(dir);
    await scriptHook(hooks, 'gate', { trigger: 'Stop' });
    await scriptHook(hooks, 'failure', { trigger: 'post-tool-call-failure' });
    const copilot = await install(dir, 'copilot');
    expect(copilot.json.added).toEqual(['postToolUseFailure', 'agentStop']);
    const codex = await runCli(['bridge', '--install', 'codex'], { cwd: dir });
    expect(codex.code).toBe(0);
    expect(codex.stderr).toBe('Skipped PostToolUseFailure: Codex has no such event.\n');
    const { dir: other, hooks: otherHooks } = await project();
    await scriptHook(otherHooks, 'failure', { trigger: 'post-tool-call-failure' });
    const vscode = await runCli(['bridge', '--install', 'vscode'], { cwd: other });
    expect(vscode.code).toBe(1);
    expect(vscode.stderr).toContain('No HOOK.md hook of this project runs on an event VS Code has (they run on PostToolUseFailure)');
  });

  it('bridges Claude Code’s PostToolBatch, PermissionDenied and StopFailure only where a HOOK.md hook listens', async () => {
    const { dir, hooks } = await project();
    await withLocalInstall(dir);
    await scriptHook(hooks, 'batch', { trigger: 'PostToolBatch' });
    await scriptHook(hooks, 'guard', { trigger: 'pre-tool-call' });
    const claude = await install(dir, 'claude');
    expect(claude.json.added).toEqual(['PreToolUse', 'PostToolBatch']);
    const settings = JSON.parse(await readFile(join(dir, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, unknown> };
    expect(Object.keys(settings.hooks).sort()).toEqual(['PostToolBatch', 'PreToolUse']);
    // Codex has none of them.
    const codex = await runCli(['bridge', '--install', 'codex'], { cwd: dir });
    expect(codex.stderr).toBe('Skipped PostToolBatch: Codex has no such event.\n');
  });

  it('writes StopFailure’s line to start the bridge out of Claude Code’s reach (it fires it as it exits), updates an older one, and list names one left behind', async () => {
    const { dir } = await project();
    await withLocalInstall(dir);
    const file = join(dir, '.claude', 'settings.json');
    const commandOf = async (event: string): Promise<string> => (await readJson(file)).hooks[event][0].hooks[0].command;
    const bridge = local('claude', 'CLAUDE_PROJECT_DIR');
    const inner = bridge.replace('NODE_OPTIONS= NODE_COMPILE_CACHE= ', '');
    const setsid = realpathSync('/usr/bin/setsid');
    const detached = `trap '' TERM HUP INT; exec 3<&0; ( NODE_OPTIONS= NODE_COMPILE_CACHE= ${setsid} ${inner} --detached <&3 3<&- & )`;
    expect((await install(dir, 'claude', '--events', 'StopFailure,PreToolUse')).json.added).toEqual(['StopFailure', 'PreToolUse']);
    expect(await commandOf('StopFailure')).toBe(detached);
    expect(await commandOf('PreToolUse')).toBe(bridge);
    // Once there, it is ours: nothing changes.
    expect((await install(dir, 'claude', '--events', 'StopFailure')).json.present).toEqual(['StopFailure']);
    const listed = await runCli(['list'], { cwd: dir });
    expect(listed.stdout).not.toContain('fires StopFailure as it exits');
    expect(listed.stdout).not.toContain('does not clear NODE_OPTIONS');

    // The line an earlier version wrote is ended with Claude Code: list says so, and installing again replaces it.
    const settings = await readJson(file);
    settings.hooks.StopFailure[0].hooks[0].command = bridge;
    await writeFile(file, JSON.stringify(settings));
    expect((await runCli(['list'], { cwd: dir })).stdout).toContain(
      ".claude/settings.json: Claude Code fires StopFailure as it exits and ends every process of the hook right after, so the bridge's StopFailure line is ended before its hooks run: run 'agent-hooks bridge --install claude' again.",
    );
    expect((await install(dir, 'claude', '--events', 'StopFailure')).json.updated).toEqual(['StopFailure']);
    expect(await commandOf('StopFailure')).toBe(detached);

    // Where there is no setsid (macOS), the line does without: the subshell alone takes the bridge out of reach.
    const other = (await project()).dir;
    await withLocalInstall(other);
    await runCliJson(['bridge', '--install', 'claude', '--events', 'StopFailure', '--json'], { cwd: other, env: { PATH: join(other, 'no-setsid-here') } });
    expect((await readJson(join(other, '.claude', 'settings.json'))).hooks.StopFailure[0].hooks[0].command).toBe(detached.replace(`${setsid} `, ''));
  });

  it('refuses a config, or a folder on the way to it, that is a symbolic link, and writes nothing through it', async () => {
    const { dir } = await project();
    await withLocalInstall(dir);
    // What a repository could ship: its .claude/settings.json pointing at the user's own settings.
    const home = join(dir, 'home', '.claude');
    await mkdir(home, { recursive: true });
    const users = join(home, 'settings.json');
    await writeFile(users, '{"model":"mine"}');
    await mkdir(join(dir, '.claude'));
    await symlink(users, join(dir, '.claude', 'settings.json'));
    const file = await runCli(['bridge', '--install', 'claude', '--events', 'PreToolUse'], { cwd: dir });
    expect(file.code).toBe(1);
    expect(file.stderr).toContain(`${join(dir, '.claude', 'settings.json')} is a symbolic link (to ${users}); nothing was changed.`);
    expect(await readFile(users, 'utf8')).toBe('{"model":"mine"}');
    expect(await readlink(join(dir, '.claude', 'settings.json'))).toBe(users);

    // A linked folder: .gemini standing for the user's ~/.gemini.
    await symlink(home, join(dir, '.gemini'));
    const folder = await runCli(['bridge', '--install', 'gemini', '--events', 'PreToolUse'], { cwd: dir });
    expect(folder.code).toBe(1);
    expect(folder.stderr).toContain(`${join(dir, '.gemini')} is a symbolic link (to ${home})`);
    await expect(lstat(join(home, 'settings.json.bak'))).rejects.toThrow();
    expect(await readFile(users, 'utf8')).toBe('{"model":"mine"}');
  });

  it('replaces a backup that is a symbolic link instead of writing through it', async () => {
    const { dir } = await project();
    await withLocalInstall(dir);
    const users = join(dir, 'home', 'settings.json');
    await mkdir(join(dir, 'home'));
    await writeFile(users, '{"model":"mine"}');
    await mkdir(join(dir, '.codex'));
    const file = join(dir, '.codex', 'hooks.json');
    await writeFile(file, '{"hooks":{}}');
    await symlink(users, `${file}.bak`);
    const out = await install(dir, 'codex', '--events', 'Stop');
    expect(out.json.backup).toBe(`${file}.bak`);
    expect((await lstat(`${file}.bak`)).isSymbolicLink()).toBe(false);
    expect(await readFile(`${file}.bak`, 'utf8')).toBe('{"hooks":{}}');
    expect(await readFile(users, 'utf8')).toBe('{"model":"mine"}');
  });

  it('refuses a config that is not valid JSON or not of the agent’s shape, and writes nothing', async () => {
    const { dir } = await project();
    await mkdir(join(dir, '.claude'));
    await writeFile(join(dir, '.claude', 'settings.json'), '{ "hooks": { ');
    const out = await runCli(['bridge', '--install', 'claude', '--events', 'PreToolUse'], { cwd: dir });
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/settings\.json:1:\d+: .*nothing was changed/);
    expect(await readFile(join(dir, '.claude', 'settings.json'), 'utf8')).toBe('{ "hooks": { ');
    await mkdir(join(dir, '.github', 'hooks'), { recursive: true });
    await writeFile(join(dir, '.github', 'hooks', 'agent-hooks.json'), '{"version":1,"hooks":{"preToolUse":{}}}');
    const shape = await runCli(['bridge', '--install', 'copilot', '--events', 'PreToolUse'], { cwd: dir });
    expect(shape.code).toBe(1);
    expect(shape.stderr).toContain('hooks.preToolUse is not a list; nothing was changed.');
  });

  it('takes --timeout as whole seconds above 0, and an agent it knows', async () => {
    const { dir } = await project();
    // The bridge's usage errors exit 1, --install's too: its help promises 0 or 1.
    expect((await runCli(['bridge', '--install', 'claude', '--events', 'Stop', '--timeout', '1.5'], { cwd: dir })).code).toBe(1);
    expect((await runCli(['bridge', '--install', 'claude', '--events', 'Stop', '--timeout', '0'], { cwd: dir })).code).toBe(1);
    const unknown = await runCli(['bridge', '--install', 'emacs'], { cwd: dir });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('--install must be one of claude, codex, gemini, copilot, vscode, cursor');
  });
});
