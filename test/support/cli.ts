/**
 * The built `agent-hooks` executable, run as a child process on temporary projects, under the Node running the tests.
 * The build is made once per run by the test configs' global setup (see `build.ts`).
 */
import { afterEach, beforeAll } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILD_TIMEOUT_MS, CLI, ensureCliBuilt } from './build.js';
import { frontmatter } from './hook-folders.js';
import { writeExecutable } from './script-fixture.js';

export { CLI, ensureCliBuilt };

/** How one run of the executable ended. */
export interface CliResult {
  /** The exit code. */
  readonly code: number | null;
  /** Standard output. */
  readonly stdout: string;
  /** Standard error. */
  readonly stderr: string;
}

/** How to run it: where, with which environment additions, and what to write to its stdin. */
export interface CliOptions {
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly input?: string;
  /** Another file of the build to run in place of the executable (`dist/cli.js`, which older bridge lines name). */
  readonly executable?: string;
}

/**
 * Runs `node dist/cli.cjs …args`. The environment is this process's without the colour variables, with
 * `XDG_CONFIG_HOME` and `HOME` inside `cwd` unless given, so the user's real hooks (HOOK.md folders, and agents'
 * config files such as `~/.claude/settings.json`) never leak into a test.
 */
export function runCli(args: readonly string[], options: CliOptions): Promise<CliResult> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, XDG_CONFIG_HOME: join(options.cwd, 'xdg'), HOME: join(options.cwd, 'home') };
  for (const [key, value] of Object.entries(options.env ?? {})) env[key] = value;
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.executable ?? CLI, ...args], { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** Runs the executable and parses its standard output as JSON. */
export async function runCliJson<T = Record<string, unknown>>(args: readonly string[], options: CliOptions): Promise<CliResult & { json: T }> {
  const result = await runCli(args, options);
  try {
    return { ...result, json: JSON.parse(result.stdout) as T };
  } catch {
    throw new Error(`agent-hooks ${args.join(' ')} printed no JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  }
}

/** A temporary project: `dir` (with `dir/xdg` as the user's config home), removed by `cleanup`. */
export async function tempProject(): Promise<{ dir: string; hooks: string; userHooks: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-hooks-cli-'));
  const hooks = join(dir, '.agents', 'hooks');
  const userHooks = join(dir, 'xdg', 'agents', 'hooks');
  await mkdir(hooks, { recursive: true });
  return { dir, hooks, userHooks, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Writes the hook folder `root/name`: a HOOK.md with `fields` (name, description and trigger filled in unless given)
 * and an executable `scripts/run` holding `script` (a `#!/bin/sh` script unless it starts with its own `#!`).
 */
export async function scriptHook(root: string, name: string, fields: Record<string, unknown>, script = 'exit 0'): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, 'scripts'), { recursive: true });
  await writeFile(join(dir, 'HOOK.md'), `${frontmatter({ name, description: `The ${name} hook.`, trigger: 'pre-tool-call', ...fields })}\n# ${name}\n`);
  await writeExecutable(join(dir, 'scripts', 'run'), script.startsWith('#!') ? script : `#!/bin/sh\n${script}\n`);
  return dir;
}

/**
 * For a CLI test file: builds the CLI before its tests, and returns a maker of temporary projects that are removed
 * after each test.
 */
export function cliProjects(): () => ReturnType<typeof tempProject> {
  beforeAll(ensureCliBuilt, BUILD_TIMEOUT_MS);
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((c) => c()));
  });
  return async () => {
    const p = await tempProject();
    cleanups.push(p.cleanup);
    return p;
  };
}
