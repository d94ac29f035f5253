/**
 * A new user's project on today's SDKs: the package packed into a tarball and installed with plain `npm install`
 * beside the latest `ai`, `@openai/agents`, `langchain` and `zod` from the registry (no ERESOLVE), then each
 * integration's example run in that project, on those versions.
 *
 * Slow, and it needs the npm registry: it runs only with AGENT_HOOKS_SLOW=1 (`AGENT_HOOKS_SLOW=1 npx vitest run
 * test/package/latest-sdks.test.ts`).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify, stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const slow = process.env['AGENT_HOOKS_SLOW'] === '1';

/** The SDKs as a new user installs them today, and what the examples import besides. */
const LATEST = ['ai@latest', '@ai-sdk/openai@latest', '@openai/agents@latest', 'langchain@latest', '@langchain/core@latest', 'zod@latest'];

/** Each integration's example, and lines it prints only when its hooks ran through that SDK. */
const EXAMPLES: Record<string, readonly string[]> = {
  'ai-sdk.ts': [
    'Our agent on aiSdkModel(model):',
    'call_rm bash: Tool call blocked by a hook: Destructive command refused',
    '→ completed: Listed the files; deleting build was refused. (203 tokens)',
    '→ 3 steps: Listed the files; deleting build was refused.',
  ],
  'openai-agents.ts': [
    'Blocked call_rm bash: Tool call blocked by a hook: Destructive command refused',
    'Final output: Listed the files with key [redacted]; rm was refused.',
    'Tools the model was offered: bash | bash | bash',
  ],
  'langchain.ts': ['tool call_rm: Tool call blocked by a hook: Destructive command refused', 'tool call_ls: (pretend) cd sandbox && ls: ok'],
};

let work: string;
let project: string;
let installLog = '';

beforeAll(async () => {
  if (!slow) return;
  work = mkdtempSync(join(tmpdir(), 'agent-hooks-latest-'));
  const pkg = join(work, 'package');
  mkdirSync(pkg);
  await run(join(root, 'node_modules/.bin/tsup'), ['--out-dir', join(pkg, 'dist')], { cwd: root, timeout: 360_000 });
  for (const file of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']) cpSync(join(root, file), join(pkg, file));
  await run(npm, ['pack', '--silent', '--pack-destination', work], { cwd: pkg, timeout: 60_000 });
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
  project = join(work, 'your-project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'your-project', private: true, type: 'module' }, null, 2)}\n`);
  // Plain `npm install`: no --legacy-peer-deps, no --force. A failure keeps npm's output for the assertion.
  installLog = await run(npm, ['install', '--no-audit', '--no-fund', ...LATEST, join(work, tarball)], { cwd: project, timeout: 400_000 }).then(
    () => '',
    (error: { stderr?: string }) => error.stderr ?? String(error),
  );
}, 900_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
}, 120_000);

describe.skipIf(!slow)('a new project on the latest SDKs (AGENT_HOOKS_SLOW=1)', () => {
  it('installs agent-hooks beside them with plain npm install', () => {
    expect(installLog).not.toMatch(/ERESOLVE/);
    expect(installLog).toBe('');
    const installed = (name: string) => (JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    // Printed with the test's name by the verbose reporter: which versions "latest" meant today.
    console.log(['ai', '@openai/agents', 'langchain', '@langchain/core', 'zod'].map((name) => `${name}@${installed(name)}`).join(', '));
  });

  for (const [file, lines] of Object.entries(EXAMPLES)) {
    it(`runs examples/${file} on them`, async () => {
      mkdirSync(join(project, 'examples'), { recursive: true });
      cpSync(join(root, 'examples', file), join(project, 'examples', file));
      // The repository's tsx runs it; every import resolves from the project's node_modules.
      const { stdout } = await run(join(root, 'node_modules/.bin/tsx'), [join('examples', file)], { cwd: project, timeout: 120_000 });
      const out = stripVTControlCharacters(stdout);
      for (const line of lines) expect(out).toContain(line);
    });
  }
});
