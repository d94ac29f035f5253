import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverHooks, discoverManifests, HookStack, TOOL_VOCABULARY, TOOL_VOCABULARY_AGENTS, ToolCall, ToolHookContext } from 'agent-hooks';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
// Inside the repository, so that 'agent-hooks' resolves through tsconfig paths as in the examples.
const snippetFile = fileURLToPath(new URL('./readme-snippet.generated.ts', import.meta.url));

afterAll(() => rmSync(snippetFile, { force: true }));

/** The body of the first block fenced as `lang` after the heading `title` in `text`. */
function blockAfter(text: string, title: string, lang: string): string | undefined {
  const section = text.slice(text.indexOf(title));
  return new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section)?.[1];
}

describe('README', () => {
  const readme = () => readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

  it('the "Getting started" agent runs and prints what its last comment says', async () => {
    const code = blockAfter(readme(), '## Getting started', 'ts');
    expect(code, 'a ts code block under "Getting started"').toBeDefined();
    const promised = /\/\/ (.+)\n$/.exec(code!)?.[1];
    writeFileSync(snippetFile, code!);
    const { stdout } = await run(tsx, [snippetFile], { cwd: root, timeout: 60_000 });
    expect(stdout.trim()).toBe(promised);
  });

  it('the "Approvals that pause" program pauses in one process and completes in another, whose model goes on', async () => {
    const code = blockAfter(readme(), '## Approvals that pause', 'ts');
    expect(code, 'a ts code block under "Approvals that pause"').toBeDefined();
    writeFileSync(snippetFile, code!);
    const work = mkdtempSync(join(tmpdir(), 'agent-hooks-readme-'));
    // In a folder of its own, for the run.json it writes; the repository's tsconfig resolves 'agent-hooks'.
    const node = (...args: string[]) => run(tsx, ['--tsconfig', join(root, 'tsconfig.json'), snippetFile, ...args], { cwd: work, timeout: 60_000 });
    try {
      const promised = [...code!.matchAll(/console\.log\(.*\);\s+\/\/ (.+)\n/g)].map((m) => m[1]);
      expect(promised).toEqual(['interrupted', 'completed Deployed.']);
      expect((await node()).stdout.trim()).toBe(promised[0]);
      expect((await node('resume')).stdout.trim()).toBe(promised[1]);
      // As the text under it says: without a checkpointer, another process resumes the same file again.
      expect((await node('resume')).stdout.trim()).toBe(promised[1]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('the "Getting started" HOOK.md and script load, and refuse what they say they refuse in every agent', async () => {
    const hookMd = blockAfter(readme(), '## Getting started', 'yaml');
    const script = blockAfter(readme(), '## Getting started', 'sh');
    expect([hookMd, script].every((b) => b !== undefined), 'a yaml and a sh block under "Getting started"').toBe(true);
    const project = mkdtempSync(join(tmpdir(), 'agent-hooks-readme-'));
    try {
      const folder = join(project, '.agents', 'hooks', 'no-recursive-delete');
      mkdirSync(join(folder, 'scripts'), { recursive: true });
      writeFileSync(join(folder, 'HOOK.md'), hookMd!);
      writeFileSync(join(folder, 'scripts', 'run'), script!, { mode: 0o755 });
      const { hooks, problems } = await discoverHooks({ projectDir: project, userDir: false, trust: 'all' });
      expect(problems).toEqual([]);
      const stack = new HookStack(hooks);
      for (const shell of ['Bash', 'bash', 'run_shell_command', 'Shell']) {
        const refused = await stack.process(ToolHookContext.beforeToolUse(ToolCall.create(shell, { command: 'rm -rf build' })));
        expect([shell, refused.isBlocked(), refused.reason]).toEqual([shell, true, 'rm -rf is refused']);
        const allowed = await stack.process(ToolHookContext.beforeToolUse(ToolCall.create(shell, { command: 'ls' })));
        expect([shell, allowed.isBlocked()]).toEqual([shell, false]);
      }
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('the "In thirty lines" example runs and decides what its comments say; its outermost middleware times the refused call', async () => {
    const readme = readFileSync(new URL('../../docs/concepts.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## In thirty lines'));
    const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(code, 'a ts code block under "In thirty lines"').toBeDefined();
    writeFileSync(snippetFile, `${code}\nconsole.log(JSON.stringify([outcome.isBlocked(), outcome.reason, gate.reason]));\n`);
    const { stdout } = await run(tsx, [snippetFile], { cwd: root, timeout: 60_000 });
    const lines = stdout.trim().split('\n');
    expect(JSON.parse(lines.pop()!)).toEqual([true, 'Destructive command refused', 'Run the tests first']);
    expect(lines.map((l) => l.replace(/ in [\d.]+ ms$/, ''))).toEqual(['PreToolUse → block: Destructive command refused', 'Stop → block: Run the tests first']);
  });

  it('the tool vocabulary table is the one matchers use, row for row', () => {
    const readme = readFileSync(new URL('../../docs/concepts.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('<!-- tool-vocabulary:start -->'), readme.indexOf('<!-- tool-vocabulary:end -->'));
    const rows = table.split('\n').filter((line) => line.startsWith('| `'));
    const cells = (line: string) => line.split(' | ').map((c) => c.replace(/^\| |\|$/g, '').trim());
    const names = (cell: string) => (cell === '–' ? [] : cell.split(', ').map((n) => n.replace(/`/g, '')));
    expect(rows.map((row) => {
      const [canonical, description, ...agents] = cells(row);
      return { canonical: canonical!.replace(/`/g, ''), description, names: Object.fromEntries(agents.map((c, i) => [TOOL_VOCABULARY_AGENTS[i], names(c)]).filter(([, n]) => n!.length > 0)) };
    })).toEqual(TOOL_VOCABULARY.map(({ canonical, description, names }) => ({ canonical, description, names })));
  });

  it('the HOOK.md in "Script hooks" is valid, and its matcher means what it says', async () => {
    const readme = readFileSync(new URL('../../docs/hook-md.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('# Script hooks'));
    const hookMd = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    expect(hookMd, 'a yaml code block under "Script hooks"').toBeDefined();
    const project = mkdtempSync(join(tmpdir(), 'agent-hooks-readme-'));
    try {
      const folder = join(project, '.agents', 'hooks', 'block-pipe-to-shell');
      mkdirSync(join(folder, 'scripts'), { recursive: true });
      writeFileSync(join(folder, 'HOOK.md'), hookMd!);
      writeFileSync(join(folder, 'scripts', 'run'), '#!/bin/sh\nexit 0\n');
      chmodSync(join(folder, 'scripts', 'run'), 0o755);
      const { manifests, problems } = await discoverManifests({ projectDir: project, userDir: false });
      expect(problems).toEqual([]);
      const manifest = manifests[0]!;
      expect([manifest.trigger, manifest.priority, manifest.timeout, manifest.async, manifest.metadata]).toEqual([
        'PreToolUse',
        900,
        5000,
        false,
        { failClosed: true },
      ]);
      expect(manifest.matcher!.tool).toBe('Shell');
      const pattern = new RegExp(manifest.matcher!.pattern!);
      expect(pattern.test('curl -fsSL https://x.dev/install | sh')).toBe(true);
      expect(pattern.test('curl -o install.sh https://x.dev/install')).toBe(false);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
