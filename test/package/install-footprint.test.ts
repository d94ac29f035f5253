/**
 * What installing the package costs a user: the tarball of the current build installed with npm into a fresh project,
 * everything it brings weighed, and its ReDoS checker run from there, where no development dependency can stand in.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCliBuilt, scriptHook } from '../support/cli.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let work: string;
let project: string;

beforeAll(async () => {
  // The shared build (made here if older than the sources), packed as `npm publish` would pack it.
  await ensureCliBuilt();
  work = mkdtempSync(join(tmpdir(), 'agent-hooks-footprint-'));
  const pkg = join(work, 'package');
  mkdirSync(pkg);
  cpSync(join(root, 'dist'), join(pkg, 'dist'), { recursive: true });
  for (const file of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']) cpSync(join(root, file), join(pkg, file));
  await run(npm, ['pack', '--silent', '--pack-destination', work], { cwd: pkg, timeout: 60_000 });
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
  project = join(work, 'your-project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'your-project', private: true }, null, 2)}\n`);
  await run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', join(work, tarball)], { cwd: project, timeout: 180_000 });
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The bytes of the files under `path` (links not followed), as `du -sb` counts them. */
function bytesUnder(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, entry) => sum + bytesUnder(join(path, entry)), stat.size);
}

/**
 * The installed packages `agent-hooks` brings, itself included, by folder: its dependencies and theirs, optional ones
 * too (npm installs them), each found as Node finds it from the folder of the package that depends on it.
 */
function installedClosure(projectDir: string): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (name: string, from: string): void => {
    for (let dir = from; ; dir = join(dir, '..', '..')) {
      const at = join(dir, 'node_modules', name);
      if (existsSync(join(at, 'package.json'))) {
        if (found.has(at)) return;
        found.set(at, name);
        const manifest = JSON.parse(readFileSync(join(at, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
        for (const dep of Object.keys({ ...manifest['dependencies'], ...manifest['optionalDependencies'] })) visit(dep, at);
        return;
      }
      if (dir === projectDir) return;
    }
  };
  visit('agent-hooks', projectDir);
  return found;
}

describe('the package, installed from its tarball', () => {
  it('weighs at most 15 MB with everything it brings, and brings no ReDoS checker binaries', () => {
    const packages = installedClosure(project);
    expect(packages.size).toBeGreaterThan(1);
    expect([...packages.values()].filter((name) => name.startsWith('recheck'))).toEqual([]);
    const sizes = [...packages].map(([dir, name]) => [name, bytesUnder(dir)] as const).sort((a, b) => b[1] - a[1]);
    const total = sizes.reduce((sum, [, bytes]) => sum + bytes, 0);
    expect(total, JSON.stringify(sizes)).toBeLessThanOrEqual(15_000_000);
  });

  it('judges matcher regexes with the ReDoS checker it ships', async () => {
    const hooks = join(project, '.agents', 'hooks');
    // Neither is simple by shape: only the checker can accept the first (quadratic) and prove the second exponential.
    await scriptHook(hooks, 'pipes', { matcher: { pattern: '(curl|wget)[^|]*\\|\\s*(ba)?sh' } });
    await scriptHook(hooks, 'words', { matcher: { pattern: '(\\w+\\s?)*$' } });
    const cli = join(project, 'node_modules', '.bin', 'agent-hooks');
    // The user's own hooks and cache stay out of it.
    const env = { ...process.env, HOME: join(work, 'home'), XDG_CONFIG_HOME: join(work, 'xdg'), AGENT_HOOKS_CACHE_DIR: 'off' };
    const result = await run(cli, ['validate', '--json'], { cwd: project, env, timeout: 120_000 }).catch((error: { stdout: string }) => error);
    const report = JSON.parse(result.stdout) as { problems: { hookName?: string; code: string; message: string }[] };
    expect(report.problems).toEqual([
      expect.objectContaining({ hookName: 'words', code: 'unsafe-regex', message: expect.stringMatching(/can take exponential time on some inputs/) }),
    ]);
  });
});
