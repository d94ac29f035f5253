/**
 * What one bridged hook call costs an agent: the whole `agent-hooks bridge --from claude` process — Node's start, our
 * imports, discovery, the trust check, the dispatch and the answer — against a bare `node -e ''` given the same stdin,
 * both started the same way, alternating, and compared by medians; under each Node the package supports (this one,
 * and the pinned 22, 24 and 26 of test/support/install-node.mjs, installed once into its cache), each against its own bare
 * start. Then, per Node, `import('agent-hooks')` (the built dist/index.js) in a fresh process against the same bare
 * start. Four projects: one HOOK.md hook that matches the
 * call and lets it go on (its script's own time — the spawn of `/bin/sh` running it, measured alone the same way — is subtracted from
 * the bridge's), no hook that matches it (the project's hook guards another tool), and 100 project hooks none of which
 * matches, and one hook that refuses the call (exit 2), whose answer the full path reads. Beside a matching call, in the same rounds, the floor: `bench/bridge-floor.cjs`, Node reading the payload
 * and starting the same script with none of our code — what no command bridge in Node can go below. Project hooks are trusted, as in use; the discovery cache holds what the first call validated. Then what
 * each hook that does not match adds: the 100-hook project's call against the one-hook project's that matches nothing,
 * alternating in the same rounds, the difference over the 99 more hooks.
 *
 * Needs a built CLI: `dist/cli.cjs`, or the file `AGENT_HOOKS_CLI` names.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { finishRow, median, nodesToMeasure, ratioTarget, stats, timeProcess, valueTarget, type NodeRun, type Row } from './harness.js';

const CLI = process.env.AGENT_HOOKS_CLI ?? fileURLToPath(new URL('../dist/cli.cjs', import.meta.url));
const LIBRARY = fileURLToPath(new URL(`../dist/index.js`, import.meta.url));
/** Node reading the payload and starting the hook's script, with nothing of ours: the floor of a command bridge. */
const FLOOR = fileURLToPath(new URL('./bridge-floor.cjs', import.meta.url));
const ROUNDS = Number(process.env.BRIDGE_ROUNDS ?? 20);
const PAYLOAD = JSON.stringify({
  session_id: 'bench',
  transcript_path: '/tmp/t.jsonl',
  cwd: '/tmp',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
  tool_use_id: 't1',
  permission_mode: 'default',
});
const SCRIPT = '#!/bin/sh\ncat >/dev/null\n';
/** A guard that refuses the call: its answer is read by the full path, after the first stage has run it. */
const REFUSING_SCRIPT = '#!/bin/sh\ncat >/dev/null\necho "no shell here" >&2\nexit 2\n';

interface Case {
  readonly name: string;
  readonly hooks: readonly { name: string; tool: string; script?: string }[];
  readonly max: number;
  readonly runsScript: boolean;
}

const OTHERS = ['^Read$', '^(Write|Edit)$', '^Glob$', '^Grep$'];
const CASES: readonly Case[] = [
  { name: 'one HOOK.md hook that matches the call', hooks: [{ name: 'shell-guard', tool: '^Bash$' }], max: 1.5, runsScript: true },
  { name: 'no HOOK.md hook matches the call', hooks: [{ name: 'write-guard', tool: '^Write$' }], max: 1.2, runsScript: false },
  { name: '100 project HOOK.md hooks, none matches the call', hooks: Array.from({ length: 100 }, (_, i) => ({ name: `h${i}`, tool: OTHERS[i % OTHERS.length]! })), max: 1.2, runsScript: false },
  { name: 'one HOOK.md hook that refuses the call', hooks: [{ name: 'shell-guard', tool: '^Bash$', script: REFUSING_SCRIPT }], max: 1.5, runsScript: true },
];

function writeHook(dir: string, name: string, tool: string, script = SCRIPT): void {
  const folder = join(dir, '.agents', 'hooks', name);
  mkdirSync(join(folder, 'scripts'), { recursive: true });
  writeFileSync(join(folder, 'HOOK.md'), `---\nname: ${name}\ndescription: Reads the payload and lets the call proceed.\ntrigger: pre-tool-call\nmatcher:\n  tool: ${tool}\n---\n`);
  writeFileSync(join(folder, 'scripts', 'run'), script);
  chmodSync(join(folder, 'scripts', 'run'), 0o755);
}

/** Wall time of one process given the payload, in ms; throws when it fails. */
const timed = (command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, status = 0): number => timeProcess(command, args, { cwd, env, input: PAYLOAD, status });

export async function bridgeSuite(): Promise<Row[]> {
  const root = mkdtempSync(join(tmpdir(), 'agent-hooks-bench-bridge-'));
  const rows: Row[] = [];
  try {
    const home = join(root, 'home');
    const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), AGENT_HOOKS_CACHE_DIR: join(home, '.cache', 'agent-hooks') };
    const dirs = new Map<Case, string>();
    for (const c of CASES) {
      const dir = join(root, c.name.replace(/\W+/g, '-'));
      dirs.set(c, dir);
      for (const hook of c.hooks) writeHook(dir, hook.name, hook.tool, hook.script);
      timed(process.execPath, [CLI, 'trust', '--all'], dir, { ...env, CLAUDE_PROJECT_DIR: dir });
    }
    // This Node, then the pinned 22, 24 and 26; `BRIDGE_NODES=` (empty) measures this one alone.
    for (const node of nodesToMeasure('BRIDGE_NODES', '22,24,26')) rows.push(...measureNode(node, env, dirs));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return rows;
}

/** Every case under one Node, each against that Node's bare start in the same rounds. */
function measureNode(node: NodeRun, env: NodeJS.ProcessEnv, dirs: ReadonlyMap<Case, string>): Row[] {
  const rows: Row[] = [];
  const suite = `Bridge start-up (whole process, Claude Code PreToolUse on stdin) on ${node.label}`;
  for (const c of CASES) {
    const dir = dirs.get(c)!;
    const projectEnv = { ...env, CLAUDE_PROJECT_DIR: dir };
    const bridge = (): number => timed(node.exec, [CLI, 'bridge', '--from', 'claude'], dir, projectEnv);
    const bare = (): number => timed(node.exec, ['-e', ''], dir, projectEnv);
    const folder = join(dir, '.agents', 'hooks', c.hooks[0]!.name);
    const script = join(folder, 'scripts', 'run');
    const alone = (): number => timed(script, [], dir, projectEnv, c.hooks[0]!.script === REFUSING_SCRIPT ? 2 : 0);
    const floor = (): number => timed(node.exec, [FLOOR, folder], dir, projectEnv);
    // A first call validates and caches (and fills this Node's compile cache), a second learns what the first stage
    // needs to run a hook alone; the agent's calls after them are measured.
    bridge();
    bridge();
    const samples = { bridge: [] as number[], bare: [] as number[], script: [] as number[], floor: [] as number[] };
    const run = { bridge, bare, script: alone, floor };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['bare', 'bridge', 'script', 'floor'] as const) : (['floor', 'script', 'bridge', 'bare'] as const);
      for (const which of order) {
        if ((which === 'script' || which === 'floor') && !c.runsScript) continue;
        samples[which].push(run[which]());
      }
    }
    const base = median(samples.bare);
    const own = c.runsScript ? median(samples.script) : 0;
    const timing = stats(samples.bridge);
    rows.push(finishRow({ suite, name: "node -e ''", unit: 'ms', mean: stats(samples.bare).mean, median: base, note: c.name }));
    rows.push(
      finishRow({
        suite,
        name: `bridge, ${c.name}`,
        unit: 'ms',
        mean: timing.mean,
        median: timing.median,
        rme: timing.rme,
        baseline: "node -e ''",
        ratio: (timing.median - own) / base,
        target: ratioTarget(c.max, "node -e ''"),
        note: c.runsScript ? `its script alone (${own.toFixed(1)} ms) subtracted; ${ROUNDS} rounds` : `${ROUNDS} rounds`,
      }),
    );
    if (c.runsScript) {
      const least = stats(samples.floor);
      rows.push(
        finishRow({
          suite,
          name: `the floor: Node starting that hook's script, nothing of agent-hooks (bench/bridge-floor.cjs)`,
          unit: 'ms',
          mean: least.mean,
          median: least.median,
          rme: least.rme,
          baseline: "node -e ''",
          ratio: (least.median - own) / base,
          note: `what no command bridge in Node can go below; its script alone subtracted; ${ROUNDS} rounds`,
        }),
      );
    }
  }
  rows.push(importRow(node, env, suite));
  // What one more hook costs a call it does not match: the two no-match projects, alternating.
  const [one, many] = [CASES[1]!, CASES[2]!];
  const call = (c: Case): number => timed(node.exec, [CLI, 'bridge', '--from', 'claude'], dirs.get(c)!, { ...env, CLAUDE_PROJECT_DIR: dirs.get(c)! });
  const pair = { one: [] as number[], many: [] as number[] };
  for (let round = 0; round < ROUNDS * 2; round++) {
    for (const which of round % 2 === 0 ? (['one', 'many'] as const) : (['many', 'one'] as const)) pair[which].push(call(which === 'one' ? one : many));
  }
  const extra = many.hooks.length - one.hooks.length;
  const perHook = (median(pair.many) - median(pair.one)) / extra;
  rows.push(
    finishRow({
      suite,
      name: 'bridge, per project HOOK.md hook that does not match the call',
      unit: 'ms',
      mean: (stats(pair.many).mean - stats(pair.one).mean) / extra,
      median: perHook,
      target: valueTarget(0.05, '≤ 0.05 ms'),
      note: `(${median(pair.many).toFixed(1)} ms with ${many.hooks.length} hooks − ${median(pair.one).toFixed(1)} ms with ${one.hooks.length}) / ${extra}; ${ROUNDS * 2} rounds`,
    }),
  );
  return rows;
}

/**
 * `import('agent-hooks')` in a fresh process (the built dist/index.js, what the package name resolves to) against a
 * bare start of the same Node, alternating, the same stdin. Its target (≤ 1.5×) is set on Node 24 and later, whose
 * bare start is short enough for the library's own imports to show.
 */
function importRow(node: NodeRun, env: NodeJS.ProcessEnv, suite: string): Row {
  const cwd = tmpdir();
  const library = (): number => timed(node.exec, ['--input-type=module', '-e', `await import(${JSON.stringify(LIBRARY)})`], cwd, env);
  const bare = (): number => timed(node.exec, ['-e', ''], cwd, env);
  library();
  const samples = { library: [] as number[], bare: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const which of round % 2 === 0 ? (['bare', 'library'] as const) : (['library', 'bare'] as const)) samples[which].push(which === 'bare' ? bare() : library());
  }
  const timing = stats(samples.library);
  const base = median(samples.bare);
  const major = Number(node.label.replace(/^Node (\d+).*/, '$1'));
  return finishRow({
    suite,
    name: "import('agent-hooks') in a fresh process",
    unit: 'ms',
    mean: timing.mean,
    median: timing.median,
    rme: timing.rme,
    baseline: "node -e ''",
    ratio: timing.median / base,
    target: major >= 24 ? ratioTarget(1.5, "node -e ''") : undefined,
    note: `node -e '' ${base.toFixed(1)} ms in the same rounds; ${ROUNDS} rounds`,
  });
}
