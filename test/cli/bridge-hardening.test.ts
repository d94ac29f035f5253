/**
 * The bridge attacked as an agent would meet it: a real `agent-hooks bridge` process, real HOOK.md hooks, real files.
 * A tool input too deep to serialise, an async hook slower than the agent's patience, a mistyped flag in the agent's
 * config, and a cloned repository's own `--hooks-dir` folder — none of them may let a guarded call through.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, cliProjects, runCli, runCliJson, scriptHook } from '../support/cli.js';
import { readPid } from '../support/script-fixture.js';

const project = cliProjects();

/** Refuses a call whose input mentions `rm`, by exit 2; lets the rest through. */
const NO_RM = `#!/bin/sh
case "$(cat)" in *rm*) echo "no rm" >&2; exit 2 ;; esac
exit 0`;

/** A Claude Code PreToolUse payload for `Bash`, its input as given (JSON text, so that its depth costs nothing here). */
const claudePre = (toolInput: string) =>
  `{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":${toolInput},"tool_use_id":"t"}`;

/** `depth` objects, each the only member of the one around it, as JSON text. */
const nestedJson = (depth: number) => `${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Whether `pid` is gone within `ms`: a killed orphan stays a zombie until init reaps it, which takes a moment. */
async function gone(pid: number, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}

describe('the bridge: a tool input nested 5000 levels deep', () => {
  for (const [name, matcher] of [
    ['a tool matcher', { tool: 'Bash' }],
    ['a tool and pattern matcher', { tool: 'Bash', pattern: 'rm' }],
  ] as const) {
    it(`is denied by a fail-open guard with ${name}, with the reason, and the bridge exits 0`, async () => {
      const { dir, hooks } = await project();
      await scriptHook(hooks, 'no-rm', { trigger: 'pre-tool-call', matcher }, NO_RM);
      const input = claudePre(`{"command":"rm -rf /","extra":${nestedJson(5000)}}`);
      const out = await runCli(['bridge', '--trust-all', '--from', 'claude'], { cwd: dir, input, env: { CLAUDE_PROJECT_DIR: dir } });
      expect(out.code).toBe(0);
      const answer = JSON.parse(out.stdout).hookSpecificOutput;
      expect(answer.permissionDecision).toBe('deny');
      expect(answer.permissionDecisionReason).toContain("Hook 'no-rm' could not be sent the event as JSON");
      expect(answer.permissionDecisionReason).toContain('more than 256 levels deep');
    });
  }
});

describe('the bridge answers before its async hooks are done', () => {
  /**
   * A project with an async hook that sleeps 5 s (its pid, and a grandchild's, in files; a `done` file when it ends)
   * and a synchronous deny that waits until the async hook runs, so that the answer comes while it does.
   */
  async function slowAsyncProject() {
    const { dir, hooks } = await project();
    await scriptHook(
      hooks,
      'slow-audit',
      { trigger: 'pre-tool-call', async: true, priority: 200 },
      `cat > /dev/null
echo $$ > "$AGENT_HOOKS_PROJECT_DIR/async.pid"
sh -c 'echo $$ > "$AGENT_HOOKS_PROJECT_DIR/child.pid"; exec sleep 30' &
sleep 5
touch "$AGENT_HOOKS_PROJECT_DIR/async.done"`,
    );
    await scriptHook(
      hooks,
      'deny-all',
      { trigger: 'pre-tool-call', priority: 100 },
      `cat > /dev/null
while [ ! -s "$AGENT_HOOKS_PROJECT_DIR/child.pid" ]; do sleep 0.05; done
echo "denied" >&2
exit 2`,
    );
    return dir;
  }

  /** Starts the bridge and records, in order, the answer's arrival (with the async hook's state then) and the exit. */
  function startBridge(dir: string, onAnswer?: (child: ReturnType<typeof spawn>) => void) {
    const child = spawn(process.execPath, [CLI, 'bridge', '--trust-all', '--from', 'claude'], {
      cwd: dir,
      env: { ...process.env, CLAUDE_PROJECT_DIR: dir, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg') },
    });
    const events: string[] = [];
    const seen: { asyncRunning?: boolean; asyncDone?: boolean } = {};
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (!events.includes('answer') && stdout.includes('\n')) {
        events.push('answer');
        const pid = Number(readFileSync(join(dir, 'async.pid'), 'utf8'));
        seen.asyncRunning = alive(pid);
        seen.asyncDone = existsSync(join(dir, 'async.done'));
        onAnswer?.(child);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) =>
      child.on('close', (code) => {
        events.push('exit');
        resolve(code);
      }),
    );
    child.stdin.end(claudePre('{"command":"make"}'));
    return { child, events, seen, exited, stdout: () => stdout, stderr: () => stderr };
  }

  it('writes the deny while the async hook still runs, then stops the async hook within its bound and exits 0', async () => {
    const dir = await slowAsyncProject();
    const bridge = startBridge(dir);
    expect(await bridge.exited).toBe(0);
    expect(bridge.events).toEqual(['answer', 'exit']);
    expect(bridge.seen).toEqual({ asyncRunning: true, asyncDone: false });
    expect(JSON.parse(bridge.stdout()).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: 'denied' });
    // Stopped at the bound rather than run to its end: nothing of it is left.
    expect(existsSync(join(dir, 'async.done'))).toBe(false);
    expect(await gone(await readPid(join(dir, 'async.pid')))).toBe(true);
    expect(await gone(await readPid(join(dir, 'child.pid')))).toBe(true);
    expect(bridge.stderr()).toContain('async hooks still running 2 s after the answer were stopped');
  });

  it('SIGTERM right after the answer still takes the async hook’s whole process group with it', async () => {
    const dir = await slowAsyncProject();
    const bridge = startBridge(dir, (child) => child.kill('SIGTERM'));
    const code = await bridge.exited;
    expect(bridge.events).toEqual(['answer', 'exit']);
    expect(bridge.seen.asyncRunning).toBe(true);
    // The answer was out before the signal: the exit code is its own.
    expect(code).toBe(0);
    expect(bridge.stderr()).toContain('SIGTERM received');
    expect(await gone(await readPid(join(dir, 'async.pid')))).toBe(true);
    expect(await gone(await readPid(join(dir, 'child.pid')))).toBe(true);
  });
});

describe('the bridge never exits 2 of its own accord', () => {
  it('exits 1 on every usage error — agents read 2 as a block — and says what is wrong', async () => {
    const { dir } = await project();
    const cases: [args: string[], message: string][] = [
      [['bridge', '--from', 'emacs'], '--from must be one of'],
      [['bridge', '--form', 'claude'], 'unknown option --form'],
      [['bridge'], 'bridge needs --from AGENT'],
      [['bridge', '--from'], 'option --from needs a value'],
      [['bridge', '--from', 'claude', '--env-policy', 'strict'], '--env-policy must be inherit or minimal'],
      [['bridge', '--from', 'claude', '--env-deny', ''], '--env-deny needs a variable name or glob'],
      [['bridge', '--from', 'claude', 'extra'], 'unexpected argument "extra"'],
      [['bridge', '--install', 'emacs'], '--install must be one of'],
      [['--trust-all', 'bridge', '--from', 'claud'], '--from must be one of'],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args, { cwd: dir, input: claudePre('{"command":"ls"}') });
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toContain(message);
      expect(result.stdout, args.join(' ')).toBe('');
    }
    expect((await runCli(['bridge', '--help'], { cwd: dir })).code).toBe(0);
  });
});

describe('the bridge: a --hooks-dir relative to the project', () => {
  it('runs its hooks only once trusted (agent-hooks trust --hooks-dir lists and trusts them); an absolute one needs no trust', async () => {
    const { dir } = await project();
    await scriptHook(join(dir, 'tools', 'hooks'), 'repo-guard', { trigger: 'pre-tool-call' }, NO_RM);
    const input = claudePre('{"command":"rm -rf /"}');
    const bridge = (hooksDir: string) => runCli(['bridge', '--from', 'claude', '--hooks-dir', hooksDir], { cwd: dir, input, env: { CLAUDE_PROJECT_DIR: dir } });

    // Not trusted: skipped with a line on stderr; the agent still gets an answer, and it is not the hook's.
    const untrusted = await bridge('tools/hooks');
    expect(untrusted.code).toBe(0);
    expect(untrusted.stdout).not.toContain('"deny"');
    expect(untrusted.stderr).toContain("Hook 'repo-guard' comes from the project and is not trusted yet");

    // The trust command lists it, and trusts it.
    const listed = await runCliJson<{ hooks: { name: string; status: string }[] }>(['trust', '--hooks-dir', 'tools/hooks', '--json'], { cwd: dir });
    expect(listed.code).toBe(1);
    expect(listed.json.hooks).toEqual([expect.objectContaining({ name: 'repo-guard', status: 'untrusted' })]);
    expect((await runCli(['trust', '--all', '--hooks-dir', 'tools/hooks'], { cwd: dir })).code).toBe(0);

    const trusted = await bridge('tools/hooks');
    expect(trusted.code).toBe(0);
    expect(JSON.parse(trusted.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: 'no rm' });

    // A change untrusts it again.
    await scriptHook(join(dir, 'tools', 'hooks'), 'repo-guard', { trigger: 'pre-tool-call' }, `${NO_RM}\n# changed`);
    const changed = await bridge('tools/hooks');
    expect(changed.stdout).not.toContain('"deny"');
    expect(changed.stderr).toContain("Hook 'repo-guard' changed since it was trusted");

    // Named by its absolute path, the folder is the user's own choice.
    const absolute = await bridge(join(dir, 'tools', 'hooks'));
    expect(JSON.parse(absolute.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
  });
});
