import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { isRunning, readPid } from '../support/script-fixture.js';

// The bridge's first stage answers alone only where the full path's answer is known: for every project and payload
// here, the real command line (from source) gives the same stdout, stderr and exit code as the full path alone, call
// after call, as hooks are added, edited, removed and trusted. Which path answered is told by running each alone
// (support/bridge-paths.ts, test-only): nothing in the shipped CLI lets the environment choose a path.

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TSX = ['--import', join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs')];
const CLI = [...TSX, join(REPO, 'src', 'cli', 'index.ts')];
/** The full path alone, and the first stage alone (exit 99 where it hands the call over). */
const FULL = [...TSX, join(REPO, 'test', 'bridge', 'support', 'bridge-paths.ts'), 'full'];
const FIRST_STAGE = [...TSX, join(REPO, 'test', 'bridge', 'support', 'bridge-paths.ts'), 'first-stage'];
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

interface Run {
  readonly code: number | null | string;
  readonly stdout: string;
  readonly stderr: string;
}

function cli(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, input = '', entry: readonly string[] = CLI): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...entry, ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** One project with its own home, trust store and two cache folders: one for each path, so neither sees the other's. */
class Project {
  readonly dir: string;
  readonly home: string;

  constructor() {
    const root = mkdtempSync(join(tmpdir(), 'agent-hooks-first-stage-'));
    roots.push(root);
    this.dir = join(root, 'project');
    this.home = join(root, 'home');
    mkdirSync(this.dir, { recursive: true });
    mkdirSync(this.home, { recursive: true });
  }

  env(cache: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: this.home,
      XDG_CONFIG_HOME: join(this.home, '.config'),
      AGENT_HOOKS_CACHE_DIR: join(this.home, cache),
      CLAUDE_PROJECT_DIR: this.dir,
      ...extra,
    };
    return env;
  }

  /**
   * A HOOK.md hook of the project (or, with `user`, of the user), whose script refuses every call it runs on: a call
   * the first stage wrongly answered alone would lose that refusal.
   */
  hook(name: string, frontmatter: string, options: { user?: boolean; file?: string; script?: string } = {}): string {
    const root = options.user ? join(this.home, '.config', 'agents', 'hooks') : join(this.dir, '.agents', 'hooks');
    const folder = join(root, name);
    mkdirSync(join(folder, 'scripts'), { recursive: true });
    writeFileSync(join(folder, options.file ?? 'HOOK.md'), frontmatter);
    writeFileSync(join(folder, 'scripts', 'run'), options.script ?? `#!/bin/sh\ncat >/dev/null\necho 'refused by ${name}' >&2\nexit 2\n`);
    chmodSync(join(folder, 'scripts', 'run'), 0o755);
    return folder;
  }

  write(file: string, text: string): void {
    mkdirSync(join(this.dir, file, '..'), { recursive: true });
    writeFileSync(join(this.dir, file), text);
  }

  async trust(): Promise<void> {
    const run = await cli(['trust', '--all'], this.dir, this.env('trust-cache'));
    expect(run.code, run.stderr).toBe(0);
  }

  /**
   * Runs the bridge both ways and expects the same answer; resolves with whether the first stage answered alone.
   */
  async same(args: readonly string[], payload: string, extra: Record<string, string> = {}): Promise<boolean> {
    const full = await cli(['bridge', ...args], this.dir, this.env('cache-full', extra), payload, FULL);
    const staged = await cli(['bridge', ...args], this.dir, this.env('cache-staged', extra), payload);
    expect({ code: staged.code, stdout: staged.stdout, stderr: staged.stderr }, `bridge ${args.join(' ')} with ${payload}`).toEqual({
      code: full.code,
      stdout: full.stdout,
      stderr: full.stderr,
    });
    const alone = await cli(['bridge', ...args], this.dir, this.env('cache-staged', extra), payload, FIRST_STAGE);
    return alone.code !== 99;
  }
}

const hookMd = (name: string, trigger: string, tool?: string): string =>
  `---\nname: ${name}\ndescription: Reads the payload and lets the call proceed.\ntrigger: ${trigger}\n${tool === undefined ? '' : `matcher:\n  tool: '${tool}'\n`}---\n# ${name}\n`;

const CLAUDE_BASH = JSON.stringify({ session_id: 's1', transcript_path: '/tmp/t.jsonl', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1' });
const CLAUDE_STOP = JSON.stringify({ session_id: 's1', hook_event_name: 'Stop', stop_hook_active: false });
const CLAUDE = ['--from', 'claude'];

/** A call of the shell tool, in each agent's own payload. */
const SHELL_CALLS: Readonly<Record<string, { readonly args: readonly string[]; readonly payload: string }>> = {
  claude: { args: CLAUDE, payload: CLAUDE_BASH },
  vscode: { args: ['--from', 'vscode'], payload: JSON.stringify({ sessionId: 's1', hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: { command: 'ls' } }) },
  gemini: { args: ['--from', 'gemini'], payload: JSON.stringify({ session_id: 's1', hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'ls' } }) },
  copilot: { args: ['--from', 'copilot'], payload: JSON.stringify({ sessionId: 's1', toolName: 'bash', toolArgs: '{"command":"ls"}' }) },
  cursor: { args: ['--from', 'cursor'], payload: JSON.stringify({ conversation_id: 'c1', hook_event_name: 'beforeShellExecution', command: 'ls', cwd: '/tmp' }) },
  codex: { args: ['--from', 'codex'], payload: JSON.stringify({ session_id: 's1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' }) },
};

describe('the bridge’s first stage', () => {
  it('answers alone for a project without hooks, the same as the full path', async () => {
    const p = new Project();
    expect(await p.same(CLAUDE, CLAUDE_BASH)).toBe(true);
    expect(await p.same(CLAUDE, CLAUDE_STOP)).toBe(true);
  }, 120_000);

  it('hands over when a project file set a folder variable: the full path tells the user, never a silent exit 0', async () => {
    const p = new Project();
    p.write('.claude/settings.json', JSON.stringify({ env: { AGENT_HOOKS_TRANSCRIPT_DIR: join(p.dir, 'transcripts') } }));
    const extra = { AGENT_HOOKS_TRANSCRIPT_DIR: join(p.dir, 'transcripts') };
    expect(await p.same(CLAUDE, CLAUDE_BASH, extra)).toBe(false);
    const told = await cli(['bridge', ...CLAUDE], p.dir, p.env('cache-told', extra), CLAUDE_BASH);
    expect(told.stderr).toContain(`agent-hooks ignored AGENT_HOOKS_TRANSCRIPT_DIR (set by ${join(p.dir, '.claude', 'settings.json')})`);
  }, 120_000);

  it('answers alone when the only hooks guard another tool or another event, for every agent', async () => {
    const p = new Project();
    p.hook('write-guard', hookMd('write-guard', 'pre-tool-call', '^Write$'));
    p.hook('after-edit', hookMd('after-edit', 'post-tool-call', 'Edit'));
    p.hook('on-stop', hookMd('on-stop', 'before_stop'));
    await p.trust();
    for (const { args, payload } of Object.values(SHELL_CALLS)) expect(await p.same(args, payload), args.join(' ')).toBe(true);
  }, 300_000);

  it('hands over whenever a hook may run, trusted or not, for every agent', async () => {
    const p = new Project();
    p.hook('shell-guard', hookMd('shell-guard', 'pre-tool-call', '^(Bash|Shell)$'));
    expect(await p.same(CLAUDE, CLAUDE_BASH)).toBe(false);
    await p.trust();
    for (const { args, payload } of Object.values(SHELL_CALLS)) expect(await p.same(args, payload), args.join(' ')).toBe(false);
  }, 300_000);

  it('notices an edited HOOK.md, a hook folder added and one removed', async () => {
    const p = new Project();
    const folder = p.hook('guard', hookMd('guard', 'pre-tool-call', '^Write$'));
    await p.trust();
    expect(await p.same(CLAUDE, CLAUDE_BASH)).toBe(true);
    // Edited to guard the shell: it changed since it was trusted, which the full path says on every call.
    writeFileSync(join(folder, 'HOOK.md'), hookMd('guard', 'pre-tool-call', '^Bash$'));
    expect(await p.same(CLAUDE, CLAUDE_BASH)).toBe(false);
    // Edited back, same size and all.
    writeFileSync(join(folder, 'HOOK.md'), hookMd('guard', 'pre-tool-call', '^Write$'));
    expect(await p.same(CLAUDE, CLAUDE_BASH)).toBe(true);
    const added = p.hook('new-guard', hookMd('new-guard', 'pre-tool-call', 'Bash'));
    expect(await p.same(CLAUDE, CLAUDE_BASH)).toBe(false);
    rmSync(added, { recursive: true });
    expect(await p.same(CLAUDE, CLAUDE_BASH)).toBe(true);
    // A user hook of the same name as the project's: the full path always loads both.
    p.hook('guard', hookMd('guard', 'pre-tool-call', '^Read$'), { user: true });
    expect(await p.same(CLAUDE, CLAUDE_BASH)).toBe(false);
  }, 300_000);

  it('hands over for a malformed HOOK.md, a lowercase hook.md that may run, and a matcher that is a real regex', async () => {
    const p = new Project();
    p.hook('broken', 'name: broken\n');
    expect(await p.same(CLAUDE, CLAUDE_BASH)).toBe(false);
    rmSync(join(p.dir, '.agents'), { recursive: true });
    p.hook('lower', hookMd('lower', 'pre-tool-call', '^Bash$'), { file: 'hook.md' });
    expect(await p.same(CLAUDE, CLAUDE_BASH)).toBe(false);
    rmSync(join(p.dir, '.agents'), { recursive: true });
    p.hook('regex', hookMd('regex', 'pre-tool-call', '^B.*h$'));
    expect(await p.same(CLAUDE, CLAUDE_BASH)).toBe(false);
    // A trigger no dialect knows: discovery reports it when it loads the hook.
    rmSync(join(p.dir, '.agents'), { recursive: true });
    p.hook('odd', hookMd('odd', 'before-everything'));
    expect(await p.same(CLAUDE, CLAUDE_BASH)).toBe(false);
  }, 300_000);

  it('answers alone beside the agents’ own config hooks, which the bridge leaves to the agent', async () => {
    const p = new Project();
    p.write('.claude/settings.json', JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] } }));
    p.write('.gemini/settings.json', JSON.stringify({ hooks: { BeforeTool: [{ matcher: '.*', hooks: [{ type: 'command', command: 'true' }] }] } }));
    p.write('.codex/hooks.json', JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] } }));
    for (const agent of ['claude', 'gemini', 'codex']) expect(await p.same(SHELL_CALLS[agent]!.args, SHELL_CALLS[agent]!.payload), agent).toBe(true);
  }, 300_000);

  it('hands over when the project has an agent-hooks.config module, trusted or not', async () => {
    const p = new Project();
    p.write('agent-hooks.config.mjs', 'export default [];\n');
    expect(await p.same(CLAUDE, CLAUDE_BASH)).toBe(false);
    await p.trust();
    expect(await p.same(CLAUDE, CLAUDE_BASH)).toBe(false);
  }, 300_000);

  it('hands over payloads the full path refuses, and options it does not take', async () => {
    const p = new Project();
    expect(await p.same(CLAUDE, 'not json')).toBe(false);
    expect(await p.same(CLAUDE, JSON.stringify({ hook_event_name: 'PreToolUse', tool_input: {} }))).toBe(false);
    expect(await p.same(CLAUDE, JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, stop_reason: 'bored' }))).toBe(false);
    expect(await p.same(CLAUDE, JSON.stringify({ hook_event_name: 'NoSuchEvent' }))).toBe(false);
    expect(await p.same(['--from', 'copilot'], JSON.stringify({ toolName: 'bash', toolArgs: '{not json' }))).toBe(false);
    expect(await p.same(['--from', 'nobody'], CLAUDE_BASH)).toBe(false);
    expect(await p.same([...CLAUDE, '--unknown'], CLAUDE_BASH)).toBe(false);
    expect(await p.same([...CLAUDE, '--hooks-dir', 'more'], CLAUDE_BASH)).toBe(false);
    expect(await p.same(['--from', 'copilot', '--event', 'agentStop'], JSON.stringify({ sessionId: 's1' }))).toBe(true);
  }, 300_000);

  /** Waits until process `pid` has used no CPU for 600 ms (at most 60 s): it is then blocked, here on stdin. */
  const settled = async (pid: number): Promise<void> => {
    const cpu = (): number => {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[11]) + Number(fields[12]);
    };
    const end = Date.now() + 60_000;
    let last = -1;
    let still = 0;
    while (Date.now() < end && still < 6) {
      await new Promise((r) => setTimeout(r, 100));
      const now = cpu();
      still = now === last ? still + 1 : 0;
      last = now;
    }
  };

  it.runIf(process.platform === 'linux')('says what the full path says when the agent gives up before it has closed stdin, and ends at once', async () => {
    const p = new Project();
    const ended = async (entry: readonly string[]): Promise<Run> => {
      const child = spawn(process.execPath, [...entry, 'bridge', ...CLAUDE], { cwd: p.dir, env: p.env('cache'), stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const exited = new Promise<number | string | null>((resolve) => child.on('exit', (c, signal) => resolve(c ?? signal)));
      child.stdin.write(CLAUDE_BASH);
      // Until the source is loaded and stdin is waited on: the process has stopped using the CPU for a while.
      await settled(child.pid!);
      child.kill('SIGTERM');
      // A process that does not end on SIGTERM is a failure of its own, not a test timeout.
      const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running 20 s after SIGTERM'), 20_000))]);
      if (typeof code === 'string') child.kill('SIGKILL');
      await new Promise((r) => setTimeout(r, 200));
      child.stdin.destroy();
      return { code, stdout, stderr };
    };
    const full = await ended(FULL);
    const told = { stdout: '', stderr: 'agent-hooks bridge: SIGTERM received: stopping the hooks and exiting.\n' };
    expect(full).toEqual({ code: 1, ...told });
    // The first stage, still reading stdin (off the main thread, which an exit would wait for), says the same and
    // ends by the agent's signal itself.
    expect(await ended(CLI)).toEqual({ code: 'SIGTERM', ...told });
  }, 180_000);

  it('gives the same answers as the full path for any mix of hooks and payloads', async () => {
    const triggers = ['pre-tool-call', 'before_tool', 'post-tool-call', 'before_stop', 'session_start', 'UserPromptSubmit'];
    const tools = [undefined, '^Bash$', '^Write$', 'Shell', 'Edit|Write', '^(Read|Grep)$', '^run_shell_command$'];
    const payloads = [
      CLAUDE_BASH,
      CLAUDE_STOP,
      JSON.stringify({ session_id: 's1', hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: 'a' } }),
      JSON.stringify({ session_id: 's1', hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: 'a' }, tool_response: { ok: true } }),
      JSON.stringify({ session_id: 's1', hook_event_name: 'UserPromptSubmit', prompt: 'hello' }),
      JSON.stringify({ session_id: 's1', hook_event_name: 'UserPromptSubmit' }),
      JSON.stringify({ session_id: 's1', hook_event_name: 'SessionStart', source: 'startup' }),
      JSON.stringify({ session_id: 7, hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: {} }),
    ];
    const hook = fc.record({ trigger: fc.constantFrom(...triggers), tool: fc.constantFrom(...tools), trusted: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(fc.array(hook, { maxLength: 3 }), fc.constantFrom(...payloads), async (hooks, payload) => {
        const p = new Project();
        hooks.forEach((h, i) => h.trusted && p.hook(`h${i}`, hookMd(`h${i}`, h.trigger, h.tool)));
        if (hooks.some((h) => h.trusted)) await p.trust();
        hooks.forEach((h, i) => !h.trusted && p.hook(`h${i}`, hookMd(`h${i}`, h.trigger, h.tool)));
        await p.same(CLAUDE, payload);
      }),
      { numRuns: 6 },
    );
  }, 600_000);
});

// The one hook a PreToolUse call can run on is run by the first stage itself where it can run it as the full path
// does. Each hook here writes down what it was given and counts its runs: from the first stage it must get the very
// stdin (but for the time) and environment (but for the run's own tag) the full path gives it, run once, and come to
// the same answer — the first stage answering alone when the hook says nothing, the full path reading any other run.
const RECORDER = (answer: string): string =>
  [
    '#!/bin/sh',
    // Beside the project, not in the hook's folder: a file added there would change the hook since it was trusted.
    'out="$AGENT_HOOKS_PROJECT_DIR/../record-$AGENT_HOOKS_HOOK_NAME"',
    'cat > "$out.stdin"',
    `env | grep -v '^AGENT_HOOKS_PROCESS_TAG=' | LC_ALL=C sort > "$out.env"`,
    'echo run >> "$out.runs"',
    answer,
    '',
  ].join('\n');

/** What the recorder of hook `name` last wrote down, the time of the call taken out; and how often it has run. */
function recordedBy(p: Project, name: string): { stdin: string; env: string; runs: number } {
  const out = join(p.dir, '..', `record-${name}`);
  const read = (suffix: string): string => {
    try {
      return readFileSync(`${out}${suffix}`, 'utf8');
    } catch {
      return '';
    }
  };
  return {
    stdin: read('.stdin').replace(/"timestamp": "[^"]*"/, '"timestamp": "…"'),
    // Each path has a cache folder of its own (see Project.env).
    env: read('.env').replace(/cache-(full|staged)/g, 'cache-…'),
    runs: read('.runs').split('\n').filter(Boolean).length,
  };
}

/**
 * Runs the call by the full path, then by the command line, and expects the same answer, the same stdin and
 * environment for hook `name` and the same number of its runs; resolves with whether the first stage answered alone.
 * One call of each comes first, which fills their caches and gives what a session hears once.
 */
async function sameRun(p: Project, name: string, args: readonly string[], payload: string, extra: Record<string, string> = {}): Promise<boolean> {
  await cli(['bridge', ...args], p.dir, p.env('cache-full', extra), payload, FULL);
  await cli(['bridge', ...args], p.dir, p.env('cache-staged', extra), payload);
  const before = recordedBy(p, name).runs;
  const full = await cli(['bridge', ...args], p.dir, p.env('cache-full', extra), payload, FULL);
  const byFull = recordedBy(p, name);
  const staged = await cli(['bridge', ...args], p.dir, p.env('cache-staged', extra), payload);
  const byStaged = recordedBy(p, name);
  const what = `bridge ${args.join(' ')} with ${payload}`;
  expect({ code: staged.code, stdout: staged.stdout, stderr: staged.stderr }, what).toEqual({ code: full.code, stdout: full.stdout, stderr: full.stderr });
  expect(byStaged.runs - byFull.runs, `${what}: runs of the hook`).toBe(byFull.runs - before);
  if (byFull.runs > before) expect({ stdin: byStaged.stdin, env: byStaged.env }, what).toEqual({ stdin: byFull.stdin, env: byFull.env });
  const alone = await cli(['bridge', ...args], p.dir, p.env('cache-staged', extra), payload, FIRST_STAGE);
  return alone.code !== 99;
}

describe('the bridge’s first stage running a call’s one hook', () => {
  it('gives the hook what the full path gives it, once, and answers alone when it says nothing, for every agent', async () => {
    const p = new Project();
    const folder = p.hook('shell-guard', hookMd('shell-guard', 'pre-tool-call', '^(Bash|Shell|bash|run_shell_command|run_in_terminal)$'), { script: RECORDER('exit 0') });
    await p.trust();
    for (const [agent, { args, payload }] of Object.entries(SHELL_CALLS)) expect(await sameRun(p, 'shell-guard', args, payload), agent).toBe(true);
    // The legacy trigger's event names, a context and no call id, a user's hook (which needs no trust).
    writeFileSync(join(folder, 'HOOK.md'), hookMd('shell-guard', 'before_tool', 'Bash'));
    await p.trust();
    const withContext = JSON.stringify({ session_id: 's2', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf "ü"', n: 1.5e300 }, context: { team: 'é' } });
    expect(await sameRun(p, 'shell-guard', CLAUDE, withContext)).toBe(true);
    rmSync(join(p.dir, '.agents'), { recursive: true });
    p.hook('user-guard', hookMd('user-guard', 'PreToolUse', '^Bash$'), { user: true, script: RECORDER('exit 0') });
    expect(await sameRun(p, 'user-guard', CLAUDE, CLAUDE_BASH)).toBe(true);
  }, 600_000);

  it('runs the call’s one hook alone after the tool ran too, with the tool’s output', async () => {
    const p = new Project();
    p.hook('logger', hookMd('logger', 'post-tool-call', 'Bash|bash|run_shell_command'), { script: RECORDER('exit 0') });
    await p.trust();
    const after: readonly (readonly [readonly string[], string])[] = [
      [CLAUDE, JSON.stringify({ session_id: 's1', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1', tool_response: { stdout: 'a\nb', exit: 0 } })],
      [['--from', 'gemini'], JSON.stringify({ session_id: 's1', hook_event_name: 'AfterTool', tool_name: 'run_shell_command', tool_input: { command: 'ls' }, tool_response: { llmContent: 'a b' } })],
      [['--from', 'copilot', '--event', 'postToolUse'], JSON.stringify({ sessionId: 's1', toolName: 'bash', toolArgs: '{"command":"ls"}', toolResult: { resultType: 'success', textResultForLlm: 'a b' } })],
      [['--from', 'codex'], JSON.stringify({ session_id: 's1', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: 'a b', cwd: '/tmp' })],
    ];
    for (const [args, payload] of after) expect(await sameRun(p, 'logger', args, payload), args.join(' ')).toBe(true);
    // A hook that adds context after the call: the full path reads its run.
    p.hook('logger', hookMd('logger', 'post-tool-call', 'Bash'), { script: RECORDER(`echo '{"additional_context":"logged"}'`) });
    await p.trust();
    expect(await sameRun(p, 'logger', CLAUDE, after[0]![1])).toBe(false);
  }, 600_000);

  it('hands its run to the full path, which reads it as its own, for every other answer', async () => {
    const answers: readonly (readonly [string, boolean])[] = [
      ["echo 'no shell here' >&2; exit 2", false],
      [`echo '{"decision":"deny","reason":"not today"}'`, false],
      [`echo '{"decision":"allow","reason":"fine"}'`, false],
      [`echo '{"modified_input":{"command":"ls -la"}}'`, false],
      [`echo '{"additional_context":"more"}'`, false],
      ['echo {}', false],
      ["echo 'oops' >&2; exit 1", false],
      ['echo not-json', false],
      ["printf '\\377\\n'", false],
      ['sleep 3', false],
      ["echo 'only a note' >&2", true],
      ["printf '  \\n'", true],
    ];
    for (const [answer, alone] of answers) {
      const p = new Project();
      p.hook('guard', `---\nname: guard\ndescription: Answers.\ntrigger: pre-tool-call\ntimeout: 1000\nmatcher:\n  tool: Bash\n---\n`, { script: RECORDER(answer) });
      await p.trust();
      expect(await sameRun(p, 'guard', CLAUDE, CLAUDE_BASH), answer).toBe(alone);
      expect(await sameRun(p, 'guard', ['--from', 'copilot'], SHELL_CALLS.copilot!.payload), answer).toBe(alone);
    }
  }, 900_000);

  it.runIf(process.platform === 'linux')('stops the hook it runs, its whole group, when the agent gives up on the call, and says so as the full path does', async () => {
    const p = new Project();
    const pidFile = join(p.dir, '..', 'hook.pid');
    const stubborn = join(p.dir, '..', 'stubborn');
    // Quick until the flag is there; then it ignores SIGTERM and runs on, as does its child.
    const script = [
      '#!/bin/sh',
      'cat > /dev/null',
      `[ -e '${stubborn}' ] || exit 0`,
      "trap '' TERM",
      `sh -c 'trap "" TERM; echo $$ > "${pidFile}.child"; while :; do sleep 1; done' &`,
      `echo $$ > '${pidFile}'`,
      'while :; do sleep 1; done',
      '',
    ].join('\n');
    p.hook('stubborn', hookMd('stubborn', 'pre-tool-call', 'Bash'), { script });
    await p.trust();
    // The first call validates the hook's frontmatter (the full path), the second runs it alone and learns the rest.
    for (let i = 0; i < 2; i++) expect((await cli(['bridge', ...CLAUDE], p.dir, p.env('cache-staged'), CLAUDE_BASH)).code).toBe(0);
    writeFileSync(stubborn, '');
    const gone = async (pid: number): Promise<boolean> => {
      const end = Date.now() + 3000;
      while (Date.now() < end && (await isRunning(pid))) await new Promise((r) => setTimeout(r, 50));
      return !(await isRunning(pid));
    };
    for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
      rmSync(pidFile, { force: true });
      rmSync(`${pidFile}.child`, { force: true });
      // The first stage alone: it runs the hook, or hands the call over with 99 (which would fail the code below).
      const child = spawn(process.execPath, [...FIRST_STAGE, 'bridge', ...CLAUDE], { cwd: p.dir, env: p.env('cache-staged'), stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      child.stdin.end(CLAUDE_BASH);
      const hook = await readPid(pidFile, 30_000);
      const grandchild = await readPid(`${pidFile}.child`, 10_000);
      child.kill(signal);
      expect(await exited, stderr).toBe(1);
      expect(stderr).toBe(`agent-hooks bridge: ${signal} received: stopping the hooks and exiting.\n`);
      expect(await gone(hook)).toBe(true);
      expect(await gone(grandchild)).toBe(true);
    }
  }, 300_000);

  it('hands over with nothing run where the full path has something to say or to decide first', async () => {
    const frontmatter = (extra: string, tool = 'Bash'): string => `---\nname: guard\ndescription: Guards.\ntrigger: pre-tool-call\n${extra}matcher:\n  tool: ${tool}\n---\n`;
    const cases: readonly { readonly name: string; readonly hook: string; readonly trust?: boolean; readonly extra?: Record<string, string>; readonly payload?: string; readonly setup?: (p: Project) => void }[] = [
      { name: 'untrusted', hook: frontmatter(''), trust: false },
      { name: 'an input pattern', hook: frontmatter('').replace('  tool: Bash\n', '  tool: Bash\n  pattern: rm\n'), payload: JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm x' } }) },
      { name: 'async', hook: frontmatter('async: true\n') },
      { name: 'another dialect', hook: frontmatter('metadata:\n  dialect: claude\n') },
      { name: 'a tool no agent has', hook: frontmatter('', '^MyTool$'), payload: JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'MyTool', tool_input: {} }) },
      { name: 'caches off', hook: frontmatter(''), extra: { AGENT_HOOKS_CACHE_DIR: 'off' } },
      { name: 'a PATH the project set', hook: frontmatter(''), setup: (p) => p.write('.claude/settings.json', JSON.stringify({ env: { PATH: process.env.PATH } })) },
      { name: 'two hooks', hook: frontmatter(''), setup: (p) => p.hook('second', hookMd('second', 'pre-tool-call', '^Bash$'), { script: RECORDER('exit 0') }) },
    ];
    for (const c of cases) {
      const p = new Project();
      p.hook('guard', c.hook, { script: RECORDER('exit 0') });
      c.setup?.(p);
      if (c.trust !== false) await p.trust();
      expect(await sameRun(p, 'guard', CLAUDE, c.payload ?? CLAUDE_BASH, c.extra), c.name).toBe(false);
    }
  }, 900_000);
});
