/**
 * The README's install path, as a new user takes it: the package packed into a tarball, installed with npm into a
 * fresh TypeScript project, and the README's "Getting started" program compiled against the installed types and run.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let work: string;
let project: string;

/** The version of `name` this repository is locked to, so the user's project gets the same one. */
function lockedVersion(name: string): string {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
  return lock.packages[`node_modules/${name}`]!.version;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'agent-hooks-tarball-'));
  const pkg = join(work, 'package');
  mkdirSync(pkg);
  await run(join(root, 'node_modules/.bin/tsup'), ['--out-dir', join(pkg, 'dist')], { cwd: root, timeout: 360_000 });
  for (const file of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']) cpSync(join(root, file), join(pkg, file));
  await run(npm, ['pack', '--silent', '--pack-destination', work], { cwd: pkg, timeout: 60_000 });
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
  project = join(work, 'your-project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'your-project', private: true, type: 'module' }, null, 2)}\n`);
  // As the README says: the tarball, zod for the program's own tool schema, and a TypeScript Node project's types;
  // and the AI SDK, for a program of its integration.
  const extras = [`zod@${lockedVersion('zod')}`, `@types/node@${lockedVersion('@types/node')}`, `ai@${lockedVersion('ai')}`];
  await run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', join(work, tarball), ...extras], {
    cwd: project,
    timeout: 180_000,
  });
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
  // A project with its node_modules: seconds to remove on a busy machine.
}, 120_000);

describe('the tarball, installed as the README says', () => {
  it('ships what a user needs and nothing of the repository’s own', async () => {
    const installed = join(project, 'node_modules', 'agent-hooks');
    const files = readdirSync(installed).sort();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'dist', 'package.json']));
    for (const own of ['src', 'test', 'bench', 'examples', 'docs', 'node_modules']) expect(files).not.toContain(own);
  });

  it('compiles the "Getting started" program against the installed types, and runs it', async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Getting started'));
    const code = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
    writeFileSync(join(project, 'index.ts'), code);
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    // A strict Node project that checks the package's declarations too (no skipLibCheck).
    const compilerOptions = { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2023'], types: ['node'], outDir: 'out' };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['index.ts'] }));
    await run(process.execPath, [tsc, '-p', '.'], {
      cwd: project,
      timeout: 120_000,
    }).catch((error: { stdout?: string }) => {
      throw new Error(`tsc refused the README's program:\n${error.stdout ?? String(error)}`);
    });
    const { stdout } = await run(process.execPath, [join('out', 'index.js')], { cwd: project, timeout: 60_000 });
    expect(stdout.trim()).toBe(/\/\/ (.+)\n$/.exec(code)![1]);
  });

  it('types the package for a CommonJS file under nodenext (its .d.cts) and for a bundler (its .d.ts)', async () => {
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    // `@ts-expect-error` fails the compile if the package's types were missing or `any`.
    const consumer = `import { HookOutcome, HookStack } from 'agent-hooks';\nconst stack: HookStack = new HookStack();\nconst reason: string | undefined = HookOutcome.block('no').reason;\n// @ts-expect-error a reason is a string\nHookOutcome.block(42);\nexport { stack, reason };\n`;
    writeFileSync(join(project, 'consumer.cts'), consumer);
    writeFileSync(join(project, 'bundled.ts'), consumer);
    const strict = { strict: true, target: 'es2022', lib: ['es2023'], types: ['node'], noEmit: true };
    const cases = [
      { config: 'tsconfig.cjs.json', file: 'consumer.cts', options: { module: 'nodenext', moduleResolution: 'nodenext' }, declarations: 'index.d.cts' },
      { config: 'tsconfig.bundler.json', file: 'bundled.ts', options: { module: 'preserve', moduleResolution: 'bundler' }, declarations: 'index.d.ts' },
    ];
    for (const { config, file, options, declarations } of cases) {
      writeFileSync(join(project, config), JSON.stringify({ compilerOptions: { ...strict, ...options }, files: [file] }));
      const { stdout } = await run(process.execPath, [tsc, '-p', config, '--listFiles'], { cwd: project, timeout: 120_000 }).catch((error: { stdout?: string }) => {
        throw new Error(`tsc refused ${file} (${config}):\n${error.stdout ?? String(error)}`);
      });
      expect(stdout.split('\n'), config).toContain(join(project, 'node_modules', 'agent-hooks', 'dist', declarations));
    }
  }, 240_000);

  it('gives its subpaths’ types to a project of moduleResolution "node" (TypeScript’s node10, which reads no exports map)', async () => {
    const subpaths = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports)
      .filter((key) => key !== '.' && !key.endsWith('.json'))
      .map((key) => `agent-hooks${key.slice(1)}`);
    expect(subpaths).toContain('agent-hooks/ai-sdk');
    const code = [
      "import { HookStack } from 'agent-hooks';",
      "import { hooksMiddleware, LoopHooks } from 'agent-hooks/ai-sdk';",
      ...subpaths.map((subpath, i) => `import type * as subpath${i} from '${subpath}';`),
      'const middleware = hooksMiddleware(new LoopHooks(new HookStack()));',
      'export const version: string | undefined = middleware.specificationVersion;',
      `export type Subpaths = [${subpaths.map((_, i) => `typeof subpath${i}`).join(', ')}];`,
    ].join('\n');
    const node10 = join(project, 'node10');
    mkdirSync(node10, { recursive: true });
    writeFileSync(join(node10, 'index.ts'), `${code}\n`);
    // The SDKs the other subpaths' declarations name are not installed here: their resolution is what is checked.
    const compilerOptions = { strict: true, module: 'commonjs', moduleResolution: 'node', target: 'es2022', lib: ['es2023'], types: ['node'], skipLibCheck: true, noEmit: true };
    writeFileSync(join(node10, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['index.ts'] }));
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const compiled = await run(process.execPath, [tsc, '-p', '.'], { cwd: node10, timeout: 120_000 }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(compiled).toBe('');
  }, 240_000);

  it('loads with require() from a CommonJS file, and installs the agent-hooks command', async () => {
    writeFileSync(join(project, 'probe.cjs'), "const { HookOutcome } = require('agent-hooks'); console.log(HookOutcome.block('no').reason);\n");
    expect((await run(process.execPath, ['probe.cjs'], { cwd: project })).stdout.trim()).toBe('no');
    const { stdout } = await run(join(project, 'node_modules', '.bin', 'agent-hooks'), ['events', '--json'], { cwd: project });
    expect((JSON.parse(stdout) as { event: string }[]).map((r) => r.event)).toContain('PreToolUse');
  });
});
