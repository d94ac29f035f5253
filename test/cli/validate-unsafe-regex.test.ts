import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliProjects, runCli, runCliJson, scriptHook } from '../support/cli.js';

const project = cliProjects();

interface Validation {
  checked: { name: string; file: string; ok: boolean }[];
  problems: { severity: string; code: string; file: string; field: string | null; message: string }[];
}

describe('agent-hooks validate and catastrophic regexes', () => {
  it('fails a HOOK.md and a config file whose matcher can backtrack catastrophically, naming file, field and pattern', async () => {
    const { dir, hooks } = await project();
    await scriptHook(hooks, 'slow', { matcher: { pattern: '(a+)+$' } });
    await scriptHook(hooks, 'fine', { matcher: { tool: '^Bash$', pattern: 'rm\\s+-rf' } });
    await mkdir(join(dir, '.claude'));
    await writeFile(join(dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: '(Bash|Bash)*x', hooks: [{ type: 'command', command: 'true' }] }] } }));

    const { code, json } = await runCliJson<Validation>(['validate', '--json'], { cwd: dir });
    expect(code).toBe(1);
    expect(json.problems).toEqual([
      expect.objectContaining({ code: 'unsafe-regex', file: join(hooks, 'slow', 'HOOK.md'), field: 'matcher.pattern', message: expect.stringContaining("matcher.pattern '(a+)+$' can take exponential time") }),
      expect.objectContaining({ code: 'unsafe-regex', file: join(dir, '.claude', 'settings.json'), field: 'hooks.PreToolUse[0].matcher', message: expect.stringContaining("The matcher '(Bash|Bash)*x' can take exponential time") }),
    ]);
    expect(json.checked.map((c) => [c.name, c.ok])).toEqual([
      ['fine', true],
      ['slow', false],
      ['.claude/settings.json', false],
    ]);

    const text = await runCli(['validate'], { cwd: dir });
    expect(text.stdout).toMatch(/^error \.agents\/hooks\/slow\/HOOK\.md: matcher\.pattern: matcher\.pattern '\(a\+\)\+\$' can take exponential time on some inputs \(ReDoS\): rewrite it /m);
  });
});
