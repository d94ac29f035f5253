/**
 * What a start of the built package loads, on Node 24 (the pinned release): an agent starts `agent-hooks bridge` once
 * per hook call, so every module that call does not use is paid for on every tool call. A preload records each module
 * Node loads (its `module.registerHooks`, Node ≥ 22.15) and Node's own list of the built-in modules it compiled; the
 * call itself runs as in use — a trusted HOOK.md hook that matches the call and blocks it, the caches filled by a
 * first call. A call the first stage hands over runs the bridge command's call from one file, `dist/bridge.cjs`, which
 * holds what that call may import lazily too: there, V8's coverage of the call tells the code that ran from the code
 * that did not. And the library's ES build is its own, not cut into the executable's chunks.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureCliBuilt } from '../support/build.js';
import { installNode, versionOf } from '../support/install-node.mjs';

const PAYLOAD = JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_use_id: 't' });
const LIBRARY = join(CLI, '..', 'index.js');

/**
 * Records, at exit, every module URL Node loaded and the built-in modules it compiled (`process.moduleLoadList`). It
 * requires `node:fs` rather than importing it: an ES import of it loads `fs/promises`, readline and streams.
 */
const PRELOAD = `
import module from 'node:module';
const { writeFileSync } = module.createRequire(import.meta.url)('node:fs');
const urls = [];
module.registerHooks({ load(url, context, next) { urls.push(url); return next(url, context); } });
process.on('exit', () => writeFileSync(process.env.LOADS_OUT, JSON.stringify({ urls, builtins: process.moduleLoadList })));
`;

let node: string;
let root: string;

beforeAll(async () => {
  node = installNode(versionOf('24'));
  await ensureCliBuilt();
  root = mkdtempSync(join(tmpdir(), 'agent-hooks-loads-'));
  writeFileSync(join(root, 'preload.mjs'), PRELOAD);
}, 300_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Loads {
  readonly urls: readonly string[];
  readonly builtins: readonly string[];
}

/** One script's block coverage, as V8 writes it under `NODE_V8_COVERAGE`. */
interface ScriptCoverage {
  readonly url: string;
  readonly functions: readonly { readonly ranges: readonly { readonly startOffset: number; readonly endOffset: number; readonly count: number }[] }[];
}

/** Runs `args` under Node 24 with the preload; what it loaded, the coverage of each script it ran, and how it ended. */
function loadsOf(args: readonly string[], cwd: string, env: Record<string, string>, input = PAYLOAD): Loads & { status: number | null; stdout: string; stderr: string; coverage: ScriptCoverage[] } {
  const id = Math.random().toString(36).slice(2);
  const out = join(root, `loads-${id}.json`);
  const coverageDir = join(root, `coverage-${id}`);
  const run = spawnSync(node, ['--import', pathToFileURL(join(root, 'preload.mjs')).href, ...args], {
    cwd,
    input,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env, LOADS_OUT: out, NODE_V8_COVERAGE: coverageDir },
  });
  const coverage = readdirSync(coverageDir).flatMap((file) => (JSON.parse(readFileSync(join(coverageDir, file), 'utf8')) as { result: ScriptCoverage[] }).result);
  return { ...(JSON.parse(readFileSync(out, 'utf8')) as Loads), status: run.status, stdout: run.stdout, stderr: run.stderr, coverage };
}

/** A project whose trusted HOOK.md hook matches the call and refuses it; made once. */
function matchingProject(): { dir: string; env: Record<string, string> } {
  const dir = join(root, 'project');
  const env = { HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'xdg'), AGENT_HOOKS_CACHE_DIR: join(root, 'cache'), CLAUDE_PROJECT_DIR: dir };
  const hook = join(dir, '.agents', 'hooks', 'shell-guard');
  if (existsSync(hook)) return { dir, env };
  mkdirSync(join(hook, 'scripts'), { recursive: true });
  writeFileSync(join(hook, 'HOOK.md'), '---\nname: shell-guard\ndescription: Refuses every shell command.\ntrigger: pre-tool-call\nmatcher:\n  tool: ^Bash$\n---\n');
  writeFileSync(join(hook, 'scripts', 'run'), '#!/bin/sh\ncat >/dev/null\necho "no shell here" >&2\nexit 2\n');
  chmodSync(join(hook, 'scripts', 'run'), 0o755);
  const trusted = spawnSync(node, [CLI, 'trust', '--all'], { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
  expect(trusted.status, trusted.stderr).toBe(0);
  return { dir, env };
}

/** `import('agent-hooks')` of the built package, in a fresh process. */
const importLibrary = (): ReturnType<typeof loadsOf> => loadsOf(['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(LIBRARY).href)})`], root, { HOME: join(root, 'home') });

/** The packages and Node's HTTP stack, by how they show in the lists: none of them serves a bridged command hook. */
const UNUSED = [/\/node_modules\/zod\//, /\/node_modules\/yaml\//, /\/node_modules\/micromatch\//, /^node:https?$/, /^NativeModule (https?|internal\/deps\/undici\/undici)$/];
const unused = (loads: Loads): string[] => [...loads.urls, ...loads.builtins].filter((name) => UNUSED.some((re) => re.test(name)));

/** Code a bridged Claude Code call never runs, each known by a text only its module holds. */
const NOT_ON_A_CALL: Readonly<Record<string, string>> = {
  "Claude Code's config loader": 'A matcher group needs a "hooks" list.',
  "Copilot's config loader": 'A hook entry must be an object.',
  "Gemini CLI's config loader": 'A hook definition needs a "hooks" list.',
  'the http hook client': 'answered with a body that is not UTF-8',
  "the bridge command's help": 'Async hooks (async: true) never hold back the answer',
  "the command line's table": 'own hooks run once trusted: review and trust them with',
};

/** The bridge command's call, one file with what it may import lazily (src/cli/bridge-entry.ts). */
const BRIDGE_FILE = pathToFileURL(join(CLI, '..', 'bridge.cjs')).href;

/** Which of {@link NOT_ON_A_CALL} the files of the package that `loads` loaded hold, `dist/bridge.cjs` aside. */
function held(loads: Loads): string[] {
  const texts = loads.urls.filter((url) => url.startsWith(pathToFileURL(join(CLI, '..')).href) && url !== BRIDGE_FILE).map((url) => readFileSync(new URL(url), 'utf8'));
  return Object.entries(NOT_ON_A_CALL)
    .filter(([, marker]) => texts.some((text) => text.includes(marker)))
    .map(([what]) => what);
}

/**
 * Whether the code at the first `text` of `dist/bridge.cjs` ran: the innermost range of the file's block coverage
 * around it counted more than zero (a module's body is the function that runs when it is first imported; an error's
 * words, the branch that throws it). `undefined` when the file does not hold `text`.
 */
function ranInBridgeFile(loads: ReturnType<typeof loadsOf>, text: string): boolean | undefined {
  const source = readFileSync(new URL(BRIDGE_FILE), 'utf8');
  const offset = source.indexOf(text);
  if (offset < 0) return undefined;
  const script = loads.coverage.find((entry) => entry.url === BRIDGE_FILE);
  if (script === undefined) return false;
  const around = script.functions.flatMap((fn) => fn.ranges).filter((r) => r.startOffset <= offset && offset < r.endOffset);
  if (around.length === 0) return false;
  return around.reduce((a, b) => (b.endOffset - b.startOffset < a.endOffset - a.startOffset ? b : a)).count > 0;
}

/**
 * Node's own modules a bridged call has no use for: `node:util` imported as an ES module loads worker_threads (its
 * facade reads every export), and the global `performance` loads perf_hooks; `node:crypto` (some twenty internal
 * modules on Node 24) is for a large file's hash and the agent runtime's ids, `zlib` for the ReDoS checker. (`vm`,
 * which the checker needs too, compiles `dist/bridge.cjs` from its code cache: see src/cli/code-cache.ts.) And
 * `node:fs/promises`: the call's file reads block (src/process/file-reads.ts), and only writing the trust store loads it
 * (the internal module behind it is Node's ES module loader's, which this test's preload starts).
 */
const NODE_UNUSED = /^NativeModule (worker_threads|perf_hooks|crypto|zlib|fs\/promises)$/;

describe('what a start loads', () => {
  // A package required by name costs the call more than its code: Node reads the package.json files it resolves through
  // (eventemitter3, when it was not bundled in, cost 1.5 to 9 ms of a call's 120 to 135 on Node 20 to 26).
  it('a bridged call that runs a matching HOOK.md hook loads no package by name (neither zod, yaml, micromatch nor eventemitter3) and not node:http(s)', () => {
    const { dir, env } = matchingProject();
    const call = (): ReturnType<typeof loadsOf> => loadsOf([CLI, 'bridge', '--from', 'claude'], dir, env);
    call();
    const loads = call();
    // The hook ran and its refusal is the answer: the path measured is the one that decides.
    expect(loads.status, loads.stderr).toBe(0);
    expect(JSON.parse(loads.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('no shell here') } });
    expect(loads.urls.some((url) => url.endsWith('/dist/cli.cjs'))).toBe(true);
    expect(unused(loads)).toEqual([]);
    expect(loads.urls.filter((url) => url.includes('/node_modules/'))).toEqual([]);
  });

  it("a bridged Claude Code call loads no agent's config loader, no http hook client, no help or command table, and none of Node's worker_threads, perf_hooks, crypto, zlib or fs/promises", () => {
    const { dir, env } = matchingProject();
    const call = (): ReturnType<typeof loadsOf> => loadsOf([CLI, 'bridge', '--from', 'claude'], dir, env);
    call();
    const loads = call();
    expect(loads.status, loads.stderr).toBe(0);
    expect(JSON.parse(loads.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    // Compiled from its code cache by node:vm rather than by the module loader: the coverage tells that it ran.
    expect(loads.coverage.some((script) => script.url === BRIDGE_FILE)).toBe(true);
    expect(held(loads)).toEqual([]);
    expect(Object.entries(NOT_ON_A_CALL).filter(([, marker]) => ranInBridgeFile(loads, marker) === true).map(([what]) => what)).toEqual([]);
    // Code the call does run is told as such: the name of this build's discovery cache, which the call reads.
    expect(ranInBridgeFile(loads, '`discovery-${')).toBe(true);
    expect(loads.builtins.filter((name) => NODE_UNUSED.test(name))).toEqual([]);
    // The texts are found where that code is loaded: `list` reads every agent's config files, `bridge --help` the rest.
    const others = [loadsOf([CLI, 'list'], dir, env), loadsOf([CLI, 'bridge', '--help'], dir, env)];
    expect(new Set(others.flatMap(held))).toEqual(new Set(Object.keys(NOT_ON_A_CALL)));
  });

  it("a bridged call no hook can run on, its index warm, loads one file of ours by Node's loader, dist/cli.cjs, and runs the executable's body from its code cache", () => {
    const { dir, env } = matchingProject();
    // The project's hook guards Bash: a Read runs nothing.
    const payload = PAYLOAD.replace('"tool_name":"Bash"', '"tool_name":"Read"');
    const call = (): ReturnType<typeof loadsOf> => loadsOf([CLI, 'bridge', '--from', 'claude'], dir, env, payload);
    call();
    const loads = call();
    expect(loads.status, loads.stderr).toBe(0);
    expect(loads.stdout).toBe('');
    expect(loads.urls.filter((url) => url.startsWith(pathToFileURL(join(CLI, '..')).href))).toEqual([pathToFileURL(CLI).href]);
    // dist/cli-stage.cjs is compiled from its code cache by node:vm, not by the module loader: its coverage tells that it ran.
    expect(loads.coverage.some((script) => script.url.endsWith('/dist/cli-stage.cjs'))).toBe(true);
  });

  it('a bridged call whose one hook lets it go on, its caches warm, runs the hook from dist/cli.cjs and dist/cli-run.cjs, never dist/bridge.cjs', () => {
    const dir = join(root, 'silent-project');
    const env = { HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'xdg'), AGENT_HOOKS_CACHE_DIR: join(root, 'cache'), CLAUDE_PROJECT_DIR: dir };
    const hook = join(dir, '.agents', 'hooks', 'shell-guard');
    const ran = join(dir, 'ran');
    mkdirSync(join(hook, 'scripts'), { recursive: true });
    writeFileSync(join(hook, 'HOOK.md'), '---\nname: shell-guard\ndescription: Lets every shell command go on.\ntrigger: pre-tool-call\nmatcher:\n  tool: ^Bash$\n---\n');
    writeFileSync(join(hook, 'scripts', 'run'), `#!/bin/sh\ncat >/dev/null\necho run >> '${ran}'\n`);
    chmodSync(join(hook, 'scripts', 'run'), 0o755);
    const trusted = spawnSync(node, [CLI, 'trust', '--all'], { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
    expect(trusted.status, trusted.stderr).toBe(0);
    const call = (): ReturnType<typeof loadsOf> => loadsOf([CLI, 'bridge', '--from', 'claude'], dir, env);
    // The first call validates the frontmatter (the full path); the second runs the hook alone and learns the rest.
    call();
    call();
    const loads = call();
    expect(loads.status, loads.stderr).toBe(0);
    expect(loads.stdout).toBe('');
    expect(readFileSync(ran, 'utf8').split('\n').filter(Boolean)).toHaveLength(3);
    // cli-run.cjs is compiled from its code cache by node:vm, not by the module loader: its coverage tells that it ran.
    expect(loads.urls.filter((url) => url.startsWith(pathToFileURL(join(CLI, '..')).href))).toEqual([pathToFileURL(CLI).href]);
    expect(loads.coverage.some((script) => script.url.endsWith('/dist/cli-run.cjs'))).toBe(true);
    expect(loads.coverage.some((script) => script.url === BRIDGE_FILE)).toBe(false);
  });

  it("import('agent-hooks') loads neither node:http nor node:https", () => {
    const loads = importLibrary();
    expect(loads.status, loads.stderr).toBe(0);
    expect(loads.urls.some((url) => url.endsWith('/dist/index.js'))).toBe(true);
    expect([...loads.urls, ...loads.builtins].filter((name) => /^node:https?$|^NativeModule (https?|internal\/deps\/undici\/undici)$/.test(name))).toEqual([]);
  });

  // Each costs a process that imports the package and never draws a random id, starts a hook process or validates
  // anything: zod about 55 ms on Node 24 (twice a bare start), node:crypto about 5, node:child_process (with net and
  // dgram) 1 to 3.
  it("import('agent-hooks') loads neither zod, node:crypto nor node:child_process", () => {
    const loads = importLibrary();
    expect(loads.status, loads.stderr).toBe(0);
    expect(loads.urls.filter((url) => url.includes('/node_modules/zod/'))).toEqual([]);
    expect(loads.builtins.filter((name) => /^NativeModule (crypto|child_process|internal\/child_process)$/.test(name))).toEqual([]);
  });

  // An ES import of node:fs reads its `promises`, which loads fs/promises, Node's readline and its streams: about 4 ms
  // of a start on Node 24 for a process that may never read a file. The package requires node:fs instead
  // (src/core/internal/node-fs.ts).
  it("import('agent-hooks') loads neither node:fs/promises, readline nor Node's streams", () => {
    const loads = importLibrary();
    expect(loads.status, loads.stderr).toBe(0);
    expect(loads.builtins.filter((name) => /^NativeModule (fs\/promises|internal\/fs\/promises|readline|internal\/readline\/interface|stream|internal\/streams\/readable)$/.test(name))).toEqual([]);
  });

  // The zod the package loads on first use is the user's: one module, so one set of classes, whichever comes first.
  it('the zod the ES module build loads when it first needs one is the one `import "zod"` gives its user', () => {
    const library = JSON.stringify(pathToFileURL(LIBRARY).href);
    const zod = JSON.stringify(pathToFileURL(join(CLI, '..', '..', 'node_modules', 'zod', 'index.js')).href);
    const probe = (packageFirst: boolean): string => {
      const ours = `const { defineTool } = await import(${library}); const tool = defineTool({ name: 't', description: 'd', execute: () => 1 });`;
      const users = `const { z } = await import(${zod});`;
      return `${packageFirst ? ours + users : users + ours} console.log(JSON.stringify([tool.input.constructor === z.object({}).constructor, tool.input instanceof z.ZodObject]));`;
    };
    for (const packageFirst of [true, false]) {
      const run = spawnSync(node, ['--input-type=module', '-e', probe(packageFirst)], { cwd: root, encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout), packageFirst ? 'the package first' : 'the user first').toEqual([true, true]);
    }
  });

  // Cut into the chunks the executable's lazy imports make, the library ran an agent step with hooks on every event
  // two to three times slower than the same sources bundled alone (`npm run bench -- agent-built`).
  it("import('agent-hooks') loads its own chunks, not the executable's", () => {
    const library = importLibrary();
    const { dir, env } = matchingProject();
    const executable = loadsOf([CLI, 'bridge', '--from', 'claude'], dir, env);
    expect(executable.status, executable.stderr).toBe(0);
    const ours = (loads: Loads): Set<string> => new Set(loads.urls.filter((url) => url.startsWith(pathToFileURL(join(CLI, '..')).href)));
    const shared = [...ours(library)].filter((url) => ours(executable).has(url));
    expect(ours(library).size).toBeGreaterThan(0);
    // A chunk both builds make byte for byte (the events' table) has one name, so one file: a few such are expected;
    // sharing the executable's chunks made it 31 of the library's 43 files.
    expect(shared.length, shared.join('\n')).toBeLessThanOrEqual(2);
  });
});
