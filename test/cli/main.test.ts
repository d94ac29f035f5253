import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HookEvent } from 'agent-hooks';
import { cliIO, colorEnabled } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { ensureCliBuilt, runCli, scriptHook, tempProject } from '../support/cli.js';

const capture = async (argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, cliIO({ out: (t) => out.push(t), err: (t) => err.push(t) }));
  return { code, out: out.join('\n'), err: err.join('\n') };
};

const ESC = '\u001b[';

describe('agent-hooks command line', () => {
  it('lists every event with each dialect’s name', async () => {
    const { code, out } = await capture(['events']);
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines).toHaveLength(1 + HookEvent.all.length);
    expect(lines.find((l) => l.startsWith('PreToolUse '))).toMatch(/PreToolUse +yes +yes +yes +PreToolUse +pre_tool_use +pre-tool-call +before_tool +PreToolUse +preToolUse +BeforeTool/);
    expect(lines.find((l) => l.startsWith('Stop '))).toMatch(/agentStop +AfterAgent +stop +Stop$/);
    expect(lines.find((l) => l.startsWith('BeforeStep '))).toMatch(/before_step( +-){6} +PreModelRequest$/);
    // The model events: Gemini CLI's, by the same names; BeforeModel and AfterModel can block.
    expect(lines.find((l) => l.startsWith('BeforeModel '))).toMatch(/^BeforeModel +yes +yes +-( +-){6} +BeforeModel +- +-$/);
    expect(lines.find((l) => l.startsWith('BeforeToolSelection '))).toMatch(/^BeforeToolSelection +- +yes +-( +-){6} +BeforeToolSelection +- +-$/);
    expect(lines.find((l) => l.startsWith('AfterModel '))).toMatch(/^AfterModel +yes +yes +-( +-){6} +AfterModel +- +-$/);
  });

  it('prints the event table as JSON with --json', async () => {
    const { code, out } = await capture(['events', '--json']);
    expect(code).toBe(0);
    const rows = JSON.parse(out) as { event: string; canBlock: boolean; names: Record<string, string | null> }[];
    expect(rows.map((r) => r.event)).toEqual([...HookEvent.all]);
    const stop = rows.find((r) => r.event === 'Stop')!;
    expect(stop.canBlock).toBe(true);
    expect(stop.names).toMatchObject({ gemini: 'AfterAgent', 'hookmd-legacy': 'before_stop', copilot: 'agentStop' });
    expect(rows.find((r) => r.event === 'AfterStop')!.names.claude).toBeNull();
    const afterModel = rows.find((r) => r.event === 'AfterModel')!;
    expect(afterModel).toMatchObject({ family: 'model', canBlock: true });
    expect(Object.entries(afterModel.names).filter(([, name]) => name !== null)).toEqual([
      ['canonical', 'AfterModel'],
      ['gemini', 'AfterModel'],
    ]);
  });

  it('prints its version, its help and each command’s help', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect((await capture(['--version'])).out).toBe(pkg.version);
    const help = await capture(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['list', 'validate', 'test', 'run', 'init', 'events']) expect(help.out).toMatch(new RegExp(`^  ${command} +\\S`, 'm'));
    expect(help.out).toContain('2 usage error');
    for (const command of ['list', 'validate', 'test', 'run', 'init', 'events']) {
      const own = await capture([command, '--help']);
      expect(own.code, command).toBe(0);
      expect(own.out, command).toMatch(new RegExp(`^Usage: agent-hooks ${command}`));
      expect(await capture(['help', command])).toEqual(own);
    }
    expect((await capture(['list', '-h'])).out).toContain('--hooks-dir DIR');
  });

  it('exits 2 with the usage on an unknown command or option, or none', async () => {
    expect(await capture(['frobnicate'])).toMatchObject({ code: 2, err: expect.stringContaining("unknown command 'frobnicate'") });
    expect(await capture(['events', '--yaml'])).toMatchObject({ code: 2, err: expect.stringContaining('unknown option --yaml') });
    expect(await capture(['events', '--json=yes'])).toMatchObject({ code: 2, err: expect.stringContaining('option --json takes no value') });
    expect(await capture([])).toMatchObject({ code: 2, out: '', err: expect.stringContaining('Usage: agent-hooks <command>') });
  });

  it('suggests the nearest commands for an unknown one, by spelling or by what the command does', async () => {
    const suggested = async (word: string) => {
      const { code, err } = await capture([word]);
      expect(code, word).toBe(2);
      expect(err, word).toContain(`unknown command '${word}'`);
      return [...err.matchAll(/^ {2}agent-hooks (\S+) /gm)].map((m) => m[1]);
    };
    // `test` is what fires a hook; its summary says so.
    expect(await suggested('fire')).toEqual(['test']);
    expect((await capture(['fire'])).err).toMatch(/^agent-hooks: unknown command 'fire'\. Did you mean this\?\n {2}agent-hooks test {2}fire one hook/);
    expect(await suggested('lsit')).toEqual(['list']);
    expect(await suggested('ls')).toEqual(['list']);
    expect(await suggested('validte')).toEqual(['validate']);
    expect(await suggested('brige')).toEqual(['bridge']);
    expect(await suggested('server')).toEqual(['serve']);
    expect(await suggested('event')).toEqual(['events']);
    expect(await suggested('to_prompt')).toEqual(['to-prompt']);
    expect(await suggested('tset')).toEqual(['test']);
    expect(await suggested('trsut')).toEqual(['trust']);
    expect(await suggested('Init')).toEqual(['init']);
    expect(await suggested('check')).toEqual(['validate']);
    expect(await suggested('scaffold')).toEqual(['init']);
    // Nothing near: the usage, which lists every command, and no guess.
    const far = await capture(['frobnicate']);
    expect(far.err).not.toContain('Did you mean');
    expect(far.err).toContain('Commands:');
  });
});

describe('colours', () => {
  it('colour standard output on a terminal, unless NO_COLOR says not to; FORCE_COLOR colours a pipe', () => {
    expect(colorEnabled({}, true)).toBe(true);
    expect(colorEnabled({}, false)).toBe(false);
    expect(colorEnabled({ CI: '1' }, false)).toBe(false);
    expect(colorEnabled({ NO_COLOR: '1' }, true)).toBe(false);
    expect(colorEnabled({ NO_COLOR: '' }, true)).toBe(true);
    expect(colorEnabled({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(colorEnabled({ FORCE_COLOR: '' }, false)).toBe(true);
    expect(colorEnabled({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(colorEnabled({ FORCE_COLOR: '1', NO_COLOR: '1' }, true)).toBe(false);
  });

  describe('in the built executable', () => {
    beforeAll(ensureCliBuilt, 180_000);
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      await Promise.all(cleanups.splice(0).map((c) => c()));
    });

    it('writes no escape codes into a pipe under CI, and colours it with FORCE_COLOR', async () => {
      const { dir, hooks, cleanup } = await tempProject();
      cleanups.push(cleanup);
      await scriptHook(hooks, 'guard', {});
      await scriptHook(hooks, 'bad', { priority: -5 });
      // The project is the test's own: its hooks run without a trust store.
      const trusting = { AGENT_HOOKS_TRUST: 'all' };
      for (const args of [['list'], ['validate'], ['test', 'guard'], ['run', '--event', 'PreToolUse']]) {
        const plain = await runCli(args, { cwd: dir, env: { CI: '1', ...trusting } });
        expect(plain.stdout, args.join(' ')).not.toContain(ESC);
        expect(plain.stdout.length).toBeGreaterThan(0);
        const forced = await runCli(args, { cwd: dir, env: { CI: '1', FORCE_COLOR: '1', ...trusting } });
        expect(forced.stdout, args.join(' ')).toContain(ESC);
        const refused = await runCli(args, { cwd: dir, env: { FORCE_COLOR: '1', NO_COLOR: '1', ...trusting } });
        expect(refused.stdout, args.join(' ')).not.toContain(ESC);
      }
      // --json is never coloured.
      expect((await runCli(['list', '--json'], { cwd: dir, env: { FORCE_COLOR: '1' } })).stdout).not.toContain(ESC);
    });
  });
});

describe('agent-hooks, built, given an unknown command', () => {
  // The build may wait for other checkouts' builds: a lock serialises them.
  beforeAll(ensureCliBuilt, 600_000);

  it('suggests the nearest command', async () => {
    const { dir, cleanup } = await tempProject();
    try {
      const fired = await runCli(['fire'], { cwd: dir });
      expect(fired.code).toBe(2);
      expect(fired.stderr).toMatch(/^agent-hooks: unknown command 'fire'\. Did you mean this\?\n {2}agent-hooks test {2}fire one hook/);
    } finally {
      await cleanup();
    }
  });
});
