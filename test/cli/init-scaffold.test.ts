/**
 * What `init` teaches: a rewrite that does not approve the call (an allow would skip the agent's own permission
 * prompt, through the bridge), and a placeholder description that `validate` will not let pass unnoticed.
 */
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { tempProject } from '../support/cli.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

const hasPython = (() => {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Runs the command line in-process in `dir`, with `input` on stdin and HOME and the user's config inside `dir`. */
async function cli(dir: string, args: readonly string[], input = ''): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const env = { PATH: process.env.PATH, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg'), AGENT_HOOKS_CACHE_DIR: 'off' };
  const io = cliIO({ cwd: dir, env, out: (t) => out.push(t), err: (t) => err.push(t), interactive: false, readStdin: async () => input });
  const code = await main([...args], io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function project() {
  const p = await tempProject();
  cleanups.push(p.cleanup);
  return p;
}

const ENTRIES = { sh: 'scripts/run.sh', node: 'scripts/run', py: 'scripts/run.py' } as const;

const claudePre = (command: string) =>
  JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't' });

describe('agent-hooks init', () => {
  for (const lang of ['sh', 'node', 'py'] as const) {
    it.skipIf(lang === 'py' && !hasPython)(`scaffolds a ${lang} rewrite that leaves the approval to the agent, and says why`, async () => {
      const { dir, hooks } = await project();
      expect((await cli(dir, ['init', 'guard', '--lang', lang])).code).toBe(0);

      const bridged = await cli(dir, ['bridge', '--trust-all', '--from', 'claude', '--project', dir], claudePre('npm install'));
      expect(bridged.code, bridged.err).toBe(0);
      const answer = JSON.parse(bridged.out);
      expect(answer.hookSpecificOutput.updatedInput).toEqual({ command: 'npm install --ignore-scripts' });
      // No allow: Claude Code's own permission rules still judge the rewritten command.
      expect(answer.hookSpecificOutput.permissionDecision).toBeUndefined();

      const script = await readFile(join(hooks, 'guard', ENTRIES[lang]), 'utf8');
      expect(script).not.toMatch(/["']?decision["']?: ["']allow["'],/);
      // The comment's words, whatever its line breaks and comment markers.
      const prose = script.replace(/\n\s*(?:#|\/\/)/g, ' ').replace(/\s+/g, ' ');
      expect(prose).toContain("approve the call and skip the agent's own permission prompt for it (Claude Code does, through the bridge)");
      const hookMd = await readFile(join(hooks, 'guard', 'HOOK.md'), 'utf8');
      expect(hookMd).toContain('`{"modified_input": {…}}` rewrites the tool input');
      expect(hookMd).toContain('`"decision": "allow"` approves the call outright: the agent then skips its own permission prompt for it');
    });
  }

  it('writes no allow note for an event without a tool input', async () => {
    const { dir, hooks } = await project();
    expect((await cli(dir, ['init', 'gate', '--event', 'Stop'])).code).toBe(0);
    expect(await readFile(join(hooks, 'gate', 'HOOK.md'), 'utf8')).not.toContain('allow');
  });
});

describe('agent-hooks validate', () => {
  it('warns while a hook keeps the description init wrote, and passes once it has its own', async () => {
    const { dir, hooks } = await project();
    expect((await cli(dir, ['init', 'guard'])).code).toBe(0);
    const file = join(hooks, 'guard', 'HOOK.md');

    const json = await cli(dir, ['validate', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toEqual({
      checked: [{ name: 'guard', file, ok: true }],
      problems: [
        {
          severity: 'warning',
          code: 'placeholder-description',
          file,
          line: null,
          hookName: 'guard',
          field: 'description',
          found: '"Describe what guard checks, in a sentence or two."',
          allowed: null,
          message: expect.stringContaining('The description is still the placeholder agent-hooks init wrote'),
        },
      ],
    });
    const text = await cli(dir, ['validate']);
    expect(text.out).toContain('! guard');
    expect(text.out).toContain('1 hook checked: 0 errors, 1 warning');

    const hookMd = await readFile(file, 'utf8');
    await writeFile(file, hookMd.replace('Describe what guard checks, in a sentence or two.', 'Refuses rm -rf and force-pushes.'));
    expect(JSON.parse((await cli(dir, ['validate', '--json'])).out).problems).toEqual([]);
  });

  it('matches only the placeholder itself: a description given to init, or one that merely starts alike, passes', async () => {
    const { dir } = await project();
    expect((await cli(dir, ['init', 'guard', '--description', 'Describe what guard checks, in a sentence or two. It refuses rm -rf.'])).code).toBe(0);
    expect((await cli(dir, ['init', 'lint', '--description', 'Runs the linter on edited files.'])).code).toBe(0);
    expect(JSON.parse((await cli(dir, ['validate', '--json'])).out).problems).toEqual([]);
  });
});
