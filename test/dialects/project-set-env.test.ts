import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { transcriptDir } from '../../src/dialects/claude-transcript.js';
import { projectSetVariables, userEnvOf } from '../../src/dialects/project-set-env.js';
import { userHooksDir } from '../../src/script/hook-dirs.js';
import { agentHooksCacheDir } from '../../src/script/internal/cache-dir.js';
import { trustStorePath } from '../../src/script/trust/trust-store.js';

// Which variables a project's files put into an agent's hook environment, read from real files: each test has its own
// folders, so the per-process memory of answers never mixes two of them.

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function place(): { root: string; home: string; project: string } {
  const root = mkdtempSync(join(tmpdir(), 'agent-hooks-project-env-'));
  roots.push(root);
  const home = join(root, 'home');
  const project = join(home, 'work', 'repo');
  mkdirSync(join(project, '.gemini'), { recursive: true });
  mkdirSync(join(project, '.claude'), { recursive: true });
  return { root, home, project };
}

describe('projectSetVariables', () => {
  it('reads a .env as dotenv does: export, quotes, a colon, comments, the last of a name', () => {
    const { home, project } = place();
    writeFileSync(
      join(project, '.env'),
      ['# XDG_CONFIG_HOME=/nope', 'export XDG_CONFIG_HOME="/repo/u"  # moved', "XDG_CACHE_HOME: '/repo/c'", 'AGENT_HOOKS_CACHE_DIR=/first', 'AGENT_HOOKS_CACHE_DIR=/second'].join('\r\n'),
    );
    const env = { GEMINI_PROJECT_DIR: project, HOME: home, XDG_CONFIG_HOME: '/repo/u', XDG_CACHE_HOME: '/repo/c', AGENT_HOOKS_CACHE_DIR: '/second' };
    expect(projectSetVariables(env).map((v) => v.name).sort()).toEqual(['AGENT_HOOKS_CACHE_DIR', 'XDG_CACHE_HOME', 'XDG_CONFIG_HOME']);
    expect(projectSetVariables({ ...env, AGENT_HOOKS_CACHE_DIR: '/first' }).map((v) => v.name)).not.toContain('AGENT_HOOKS_CACHE_DIR');
  });

  it('looks at .gemini/.env and .env up to the home, whose own files are the user’s', () => {
    const { home, project } = place();
    writeFileSync(join(home, 'work', '.env'), 'XDG_CONFIG_HOME=/above\n');
    writeFileSync(join(home, '.env'), 'XDG_CACHE_HOME=/home-own\n');
    writeFileSync(join(project, '.gemini', '.env'), 'AGENT_HOOKS_TRUST=all\n');
    const env = { GEMINI_PROJECT_DIR: project, HOME: home, XDG_CONFIG_HOME: '/above', XDG_CACHE_HOME: '/home-own', AGENT_HOOKS_TRUST: 'all' };
    expect(projectSetVariables(env)).toEqual([
      { name: 'XDG_CONFIG_HOME', file: join(home, 'work', '.env') },
      { name: 'AGENT_HOOKS_TRUST', file: join(project, '.gemini', '.env') },
    ]);
  });

  it('reads the env block of Claude Code’s project settings, and nothing outside an agent', () => {
    const { home, project } = place();
    writeFileSync(join(project, '.claude', 'settings.local.json'), JSON.stringify({ env: { AGENT_HOOKS_TRANSCRIPT_DIR: '/repo/t', OTHER: 'x' } }));
    const env = { CLAUDE_PROJECT_DIR: project, HOME: home, AGENT_HOOKS_TRANSCRIPT_DIR: '/repo/t' };
    expect(projectSetVariables(env)).toEqual([{ name: 'AGENT_HOOKS_TRANSCRIPT_DIR', file: join(project, '.claude', 'settings.local.json') }]);
    expect(projectSetVariables({ HOME: home, AGENT_HOOKS_TRANSCRIPT_DIR: '/repo/t' })).toEqual([]);
  });
});

describe('the folders, resolved with a project-set variable', () => {
  it('fall back to their defaults; a HOME set by a project becomes the account’s home', () => {
    const { home, project } = place();
    writeFileSync(join(project, '.env'), `HOME=${project}\nXDG_CONFIG_HOME=${project}/u\nXDG_CACHE_HOME=${project}/c\nAGENT_HOOKS_CACHE_DIR=${project}/c2\n`);
    const env = { GEMINI_PROJECT_DIR: project, HOME: project, XDG_CONFIG_HOME: `${project}/u`, XDG_CACHE_HOME: `${project}/c`, AGENT_HOOKS_CACHE_DIR: `${project}/c2` };
    const account = userInfo().homedir;
    expect(userEnvOf(env)).toEqual({ GEMINI_PROJECT_DIR: project, HOME: account });
    expect(userHooksDir(env)).toBe(join(account, '.config', 'agents', 'hooks'));
    expect(trustStorePath({ hostEnv: env })).toBe(join(account, '.config', 'agent-hooks', 'trust.json'));
    expect(agentHooksCacheDir(env, 'linux')).toBe(join(account, '.cache', 'agent-hooks'));
    // The user's own values, which no project file repeats, are kept.
    const mine = { GEMINI_PROJECT_DIR: project, HOME: home, XDG_CONFIG_HOME: '/mine' };
    expect(userEnvOf(mine)).toBe(mine);
    expect(userHooksDir(mine)).toBe('/mine/agents/hooks');
  });

  it('the Claude transcript folder', () => {
    const { project } = place();
    writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ env: { AGENT_HOOKS_TRANSCRIPT_DIR: join(project, 't') } }));
    const saved = { ...process.env };
    try {
      process.env.CLAUDE_PROJECT_DIR = project;
      process.env.AGENT_HOOKS_TRANSCRIPT_DIR = join(project, 't');
      expect(transcriptDir()).toBe(join(tmpdir(), 'agent-hooks', 'transcripts'));
      process.env.AGENT_HOOKS_TRANSCRIPT_DIR = join(project, 'mine');
      expect(transcriptDir()).toBe(join(project, 'mine'));
    } finally {
      for (const name of ['CLAUDE_PROJECT_DIR', 'AGENT_HOOKS_TRANSCRIPT_DIR']) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });
});

describe('a project file padded past what is parsed', () => {
  it('is taken to set every protected variable present: padding must not hide what it sets', () => {
    const { home, project } = place();
    writeFileSync(join(project, '.env'), `${'# padding\n'.repeat(110_000)}XDG_CONFIG_HOME=/repo/u\n`);
    const env = { GEMINI_PROJECT_DIR: project, HOME: home, XDG_CONFIG_HOME: '/repo/u' };
    expect(projectSetVariables(env)).toEqual([{ name: 'XDG_CONFIG_HOME', file: join(project, '.env') }]);
  });
});
