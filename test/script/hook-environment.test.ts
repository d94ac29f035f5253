import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentBuilder,
  HookEnvironment,
  HookStack,
  MINIMAL_ENV_NAMES,
  ScriptHook,
  ScriptedModel,
  ToolCall,
  ToolHookContext,
  defineTool,
  loadAllHookConfigs,
  type EnvPolicyOptions,
} from 'agent-hooks';
import { tempDir, writeHook } from '../support/script-fixture.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

// Variables of this test process, as an agent's environment would hold them.
const PLANTED = { HOOK_ENV_PLAIN: 'plain', SECRET_TOKEN: 'hunter2', AWS_SECRET_ACCESS_KEY: 'aws', AGENT_HOOKS_DEBUG: '1' };
beforeAll(() => Object.assign(process.env, PLANTED));
afterAll(() => {
  for (const name of Object.keys(PLANTED)) delete process.env[name];
});

async function root(): Promise<string> {
  const { dir, cleanup } = await tempDir('agent-hooks-env-');
  cleanups.push(cleanup);
  return dir;
}

const ctx = () => ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'ls' }));

/** Parses `env -0` output: NUL-separated NAME=value pairs. */
function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of text.split('\0')) {
    const at = pair.indexOf('=');
    if (at > 0) env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
}

/** Runs a HOOK.md hook that writes its whole environment to a file, and returns that environment. */
async function envOfScriptHook(options: EnvPolicyOptions & { env?: Record<string, string> }): Promise<Record<string, string>> {
  const dir = await root();
  const out = join(dir, 'env.bin');
  const hook = new ScriptHook(await writeHook(dir, 'print-env', `cat > /dev/null; env -0 > "${out}"`), { projectDir: dir, ...options });
  await new HookStack().with(hook, 0).process(ctx());
  return parseEnv(await readFile(out, 'utf8'));
}

describe('what a script hook\'s process sees', () => {
  it('inherits the whole environment by default, with the runtime\'s variables', async () => {
    const env = await envOfScriptHook({});
    expect(env).toMatchObject(PLANTED);
    expect(env.PATH).toBe(process.env.PATH);
    expect(env).toMatchObject({ AGENT_HOOKS_EVENT: 'pre-tool-call', AGENT_HOOKS_HOOK_NAME: 'print-env' });
    expect(env.AGENT_HOOKS_PROJECT_DIR).toBeDefined();
  });

  it('leaves out what the deny list names, by glob and by RegExp', async () => {
    const env = await envOfScriptHook({ envDeny: ['*_TOKEN', /^AWS_/] });
    expect(env.SECRET_TOKEN).toBeUndefined();
    expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
    expect(env.HOOK_ENV_PLAIN).toBe('plain');
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.AGENT_HOOKS_HOOK_NAME).toBe('print-env');
  });

  it('passes only PATH, HOME, LANG, TMPDIR and AGENT_HOOKS_* with the minimal policy, plus the runtime\'s and the hook\'s own', async () => {
    const env = await envOfScriptHook({ envPolicy: 'minimal', env: { GIVEN: 'by options' } });
    const allowed = new Set([...MINIMAL_ENV_NAMES, 'GIVEN', 'PWD', 'SHLVL', '_']); // the last three /bin/sh sets itself
    const unexpected = Object.keys(env).filter((name) => !allowed.has(name) && !name.startsWith('AGENT_HOOKS_'));
    expect(unexpected).toEqual([]);
    expect(env).toMatchObject({ GIVEN: 'by options', AGENT_HOOKS_DEBUG: '1', AGENT_HOOKS_HOOK_NAME: 'print-env' });
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.HOOK_ENV_PLAIN).toBeUndefined();
    expect(env.SECRET_TOKEN).toBeUndefined();
  });

  it('adds the runtime\'s variables after the policy: a deny list cannot remove them', async () => {
    const env = await envOfScriptHook({ envDeny: ['AGENT_HOOKS_*', 'GIVEN'], env: { GIVEN: 'kept' } });
    expect(env.AGENT_HOOKS_DEBUG).toBeUndefined();
    expect(env).toMatchObject({ AGENT_HOOKS_HOOK_NAME: 'print-env', AGENT_HOOKS_EVENT: 'pre-tool-call', GIVEN: 'kept' });
  });

  it('gives a config hook its entry\'s env and its agent\'s variables under the minimal policy', async () => {
    const project = await root();
    const out = join(project, 'env.bin');
    await mkdir(join(project, '.github', 'hooks'), { recursive: true });
    await writeFile(
      join(project, '.github', 'hooks', 'print.json'),
      JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: `cat > /dev/null; env -0 > "${out}"`, env: { LEVEL: 'strict' } }] } }),
    );
    await mkdir(join(project, '.claude'), { recursive: true });
    const claudeOut = join(project, 'claude-env.bin');
    await writeFile(
      join(project, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `cat > /dev/null; env -0 > "${claudeOut}"` }] }] } }),
    );
    const { hooks } = await loadAllHookConfigs(project, { homeDir: false, userDir: false, trust: 'all', envPolicy: 'minimal', envDeny: ['HOME'] });
    expect(hooks).toHaveLength(2);
    await new HookStack(hooks.map((hook) => ({ hook, priority: hook.priority }))).process(ctx());
    const copilot = parseEnv(await readFile(out, 'utf8'));
    expect(copilot).toMatchObject({ LEVEL: 'strict', AGENT_HOOKS_EVENT: 'preToolUse' });
    expect(copilot.HOOK_ENV_PLAIN).toBeUndefined();
    expect(copilot.HOME).toBeUndefined();
    const claude = parseEnv(await readFile(claudeOut, 'utf8'));
    expect(claude.CLAUDE_PROJECT_DIR).toBe(project);
    expect(claude.SECRET_TOKEN).toBeUndefined();
  });

  it('applies withHooksFrom\'s policy to an agent\'s HOOK.md hooks', async () => {
    const project = await root();
    const out = join(project, 'env.bin');
    await writeHook(join(project, '.agents', 'hooks'), 'print-env', `cat > /dev/null; env -0 > "${out}"`);
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([{ toolCalls: [{ name: 'noop', args: {} }] }, 'done']))
      .withTools(defineTool({ name: 'noop', input: z.object({}), execute: () => 'ok' }))
      .withHooksFrom({ projectDir: project, userDir: false, trust: 'all', envDeny: ['SECRET_*'] })
      .build();
    await agent.run('go');
    const env = parseEnv(await readFile(out, 'utf8'));
    expect(env.SECRET_TOKEN).toBeUndefined();
    expect(env.HOOK_ENV_PLAIN).toBe('plain');
  });

  it('reads process.env once per load, at the first run, until refreshed', async () => {
    const dir = await root();
    const out = join(dir, 'env.bin');
    const environment = new HookEnvironment({ envDeny: ['SECRET_*'] });
    const hook = new ScriptHook(await writeHook(dir, 'print-env', `cat > /dev/null; env -0 > "${out}"`), { projectDir: dir, environment });
    const stack = new HookStack().with(hook, 0);
    const seen = async () => parseEnv(await readFile(out, 'utf8'));
    try {
      process.env.HOOK_ENV_LATER = 'before';
      await stack.process(ctx());
      expect((await seen()).HOOK_ENV_LATER).toBe('before');
      process.env.HOOK_ENV_LATER = 'after';
      await stack.process(ctx());
      expect((await seen()).HOOK_ENV_LATER).toBe('before');
      environment.refresh();
      await stack.process(ctx());
      expect((await seen()).HOOK_ENV_LATER).toBe('after');
    } finally {
      delete process.env.HOOK_ENV_LATER;
    }
  });
});

describe('HookEnvironment', () => {
  it('tells which names pass, and rejects a bad policy or pattern', () => {
    const inherit = new HookEnvironment({ envDeny: ['*_TOKEN', 'AWS_*', /^openai_/i] }, 'linux');
    expect(inherit.passes('GITHUB_TOKEN')).toBe(false);
    expect(inherit.passes('AWS_PROFILE')).toBe(false);
    expect(inherit.passes('OPENAI_API_KEY')).toBe(false);
    expect(inherit.passes('github_token')).toBe(true); // names are case-sensitive outside Windows
    expect(inherit.passes('TOKENS')).toBe(true);
    const minimal = new HookEnvironment({ envPolicy: 'minimal' }, 'linux');
    expect(['PATH', 'HOME', 'LANG', 'TMPDIR', 'AGENT_HOOKS_X'].every((n) => minimal.passes(n))).toBe(true);
    expect(['USER', 'SHELL', 'SystemRoot', 'Path'].some((n) => minimal.passes(n))).toBe(false);
    expect(() => new HookEnvironment({ envPolicy: 'none' as never })).toThrow(/envPolicy must be 'inherit' or 'minimal', got "none"/);
    expect(() => new HookEnvironment({ envDeny: [''] })).toThrow(/envDeny\[0\] must be a non-empty glob string or a RegExp/);
    expect(() => new HookEnvironment({ envDeny: 'X' as never })).toThrow(/envDeny must be a list/);
  });

  it('keeps on Windows what a process needs to start, whatever the case of the names', () => {
    const minimal = new HookEnvironment({ envPolicy: 'minimal', envDeny: ['temp'] }, 'win32');
    for (const name of ['Path', 'SystemRoot', 'SYSTEMROOT', 'ComSpec', 'PATHEXT', 'windir', 'USERPROFILE', 'TMP']) expect(minimal.passes(name)).toBe(true);
    expect(minimal.passes('TEMP')).toBe(false);
    expect(minimal.passes('APPDATA')).toBe(false);
  });

  it('composes the base with layers, where undefined removes a variable', () => {
    const environment = new HookEnvironment({ envPolicy: 'minimal' });
    const env = environment.compose({ A: '1', PATH: undefined }, { B: '2' }, undefined);
    expect(env).toMatchObject({ A: '1', B: '2' });
    expect('PATH' in env).toBe(false);
    expect(environment.base()).toBe(environment.base());
  });
});
