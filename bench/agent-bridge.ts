/**
 * What the bridge costs inside the real Claude Code, Codex, Gemini CLI and Copilot CLI: the time from the model's tool call to the tool result, read at
 * the mock model server — from the moment the response carrying the `tool_use` was sent to the moment the next request,
 * carrying the `tool_result`, arrived. Between the two the agent runs its PreToolUse hooks, the tool and its
 * PostToolUse hooks; with no hooks configured it runs only the tool, which is each agent's baseline. Sessions of each case are
 * run in alternating order, round after round, so a drift in the machine's load hits every case alike.
 *
 * The serve variants send the same events as http hooks to `agent-hooks serve`, started once per session before
 * the agent (its start is not part of any tool call). The served variant of an agent whose hooks are commands (Codex,
 * Gemini CLI, Copilot CLI) is the line `bridge --install AGENT --http` writes (posting to the running serve through
 * bash's `/dev/tcp`, or with curl where bash is not on `PATH`), in place of
 * the agent's command bridge; its baseline is the same configuration with the bridge uninstalled.
 *
 * Beside them, in the same rounds, a bare start of the Node that runs the command bridge (`node -e ''`, given a payload on
 * stdin as a hook is) — what reaching serve must cost less than — and the hook's script run alone. The served rows'
 * target is that what they add per bridged event, the script's own time left out, stays under that start.
 *
 * Needs the pinned agent CLIs (installed on first use, as `npm run test:agents` does) and a built `dist/cli.cjs` (or
 * the build `AGENT_HOOKS_E2E_CLI` names).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeDriver } from '../test/agents/drivers/claude.js';
import { codexDriver } from '../test/agents/drivers/codex.js';
import { copilotDriver } from '../test/agents/drivers/copilot.js';
import { geminiDriver } from '../test/agents/drivers/gemini.js';
import { makeProject, type AgentDriver, type AgentProject } from '../test/agents/support/harness.js';
import { startMockServer, type RecordedRequest, type Turn } from '../test/agents/support/mock-server.js';
import { startServe, type ServeProcess } from '../test/agents/support/serve.js';
import { finishRow, median, pathOf, stats, timeProcess, valueTarget, type Row } from './harness.js';

/** Shell calls per session: each gives one sample. */
const CALLS = 6;
/** Sessions per case. */
const ROUNDS = Number(process.env.AGENT_BRIDGE_ROUNDS ?? 4);

interface Variant {
  readonly name: string;
  /** The agent driven (default Claude Code); its rows are compared with its own baseline. */
  readonly agent?: CommandAgent | undefined;
  /** Canonical events bridged, none for the baseline. */
  readonly events: readonly string[];
  /** Whether the events go to `agent-hooks serve` (Claude Code's http hooks; another agent's served line), rather than the command bridge. */
  readonly serve?: boolean;
  /** Whether the agent's command hook runs the hook's script itself, with nothing of agent-hooks: what any command hook costs there. */
  readonly direct?: boolean;
  /** For a served line: installed with no bash on `PATH`, so that it posts with curl, as it does on such a machine. */
  readonly curl?: boolean;
}

/** The agents driven beside Claude Code, whose hooks are commands: their served variant is the served line. */
const COMMAND_AGENTS = { codex: codexDriver, gemini: geminiDriver, copilot: copilotDriver } as const satisfies Record<string, AgentDriver>;
type CommandAgent = keyof typeof COMMAND_AGENTS;

const BASELINE = 'no hooks';
/** A command agent's sessions without hooks, its rows' baseline. */
const baselineName = (agent: CommandAgent): string => `${agent}: no hooks`;
/** A command agent's sessions with the hook's script as its own command hook on PreToolUse. */
const directName = (agent: CommandAgent): string => `${agent}: the script as the agent's own command hook on PreToolUse`;
/** A command agent's sessions through the served line as `--install` writes it here (posting through bash). */
const servedName = (agent: CommandAgent): string => `${agent}: serve (served line) on PreToolUse, one HOOK.md hook`;
/** Where each command agent keeps the hook entries `bridge --install` writes. */
const HOOK_FILES: Readonly<Record<CommandAgent, string>> = { codex: join('.codex', 'hooks.json'), gemini: join('.gemini', 'settings.json'), copilot: join('.github', 'hooks', 'agent-hooks.json') };

/** `value` with every string that runs the bridge replaced by `command`. */
function withCommand(value: unknown, command: string): unknown {
  if (typeof value === 'string') return / bridge --from /.test(value) ? command : value;
  if (Array.isArray(value)) return value.map((item) => withCommand(item, command));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withCommand(v, command)]));
  return value;
}
/** A command agent's variants: no hooks, the script as its own command hook, its command bridge, and the served line. */
const commandVariants = (agent: CommandAgent): Variant[] => [
  { name: baselineName(agent), agent, events: [] },
  { name: directName(agent), agent, events: ['PreToolUse'], direct: true },
  { name: `${agent}: bridge on PreToolUse, one HOOK.md hook`, agent, events: ['PreToolUse'] },
  { name: servedName(agent), agent, events: ['PreToolUse'], serve: true },
  { name: `${agent}: serve (the served line posting with curl, as written where bash is not on PATH) on PreToolUse, one HOOK.md hook`, agent, events: ['PreToolUse'], serve: true, curl: true },
];
/** The agents driven: `AGENT_BRIDGE_AGENTS=codex,gemini` measures those agents' variants alone. */
const AGENTS = (process.env.AGENT_BRIDGE_AGENTS ?? 'claude,codex,gemini,copilot').split(',');
const VARIANTS: readonly Variant[] = ([
  { name: BASELINE, events: [] },
  { name: 'bridge on PreToolUse, one HOOK.md hook', events: ['PreToolUse'] },
  { name: 'bridge on PreToolUse and PostToolUse, one HOOK.md hook each', events: ['PreToolUse', 'PostToolUse'] },
  { name: 'serve (http hook) on PreToolUse, one HOOK.md hook', events: ['PreToolUse'], serve: true },
  { name: 'serve (http hooks) on PreToolUse and PostToolUse, one HOOK.md hook each', events: ['PreToolUse', 'PostToolUse'], serve: true },
  ...commandVariants('codex'),
  ...commandVariants('gemini'),
  ...commandVariants('copilot'),
] as const satisfies readonly Variant[]).filter((variant: Variant) => AGENTS.includes(variant.agent ?? 'claude'));

/** The script of every hook measured: it reads its payload and lets the call proceed. */
const HOOK_SCRIPT = '#!/bin/sh\ncat >/dev/null\n';

/** A HOOK.md hook on the shell that reads its payload and lets the call proceed: the cheapest hook a user can write. */
function writeHook(project: AgentProject, name: string, trigger: string): void {
  const dir = join(project.dir, '.agents', 'hooks', name);
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  writeFileSync(join(dir, 'HOOK.md'), `---\nname: ${name}\ndescription: Reads the payload and lets the call proceed.\ntrigger: ${trigger}\nmatcher:\n  tool: Shell\n---\n`);
  writeFileSync(join(dir, 'scripts', 'run'), HOOK_SCRIPT);
  chmodSync(join(dir, 'scripts', 'run'), 0o755);
}

/** The tool latencies of one session, in ms: one per shell call whose result came back. */
function latencies(requests: readonly RecordedRequest[]): number[] {
  const main = requests.filter((r) => r.main);
  const out: number[] = [];
  for (let i = 0; i + 1 < main.length; i++) {
    const call = main[i]!;
    if (call.turn === undefined || !('shell' in call.turn) || call.answeredAt === undefined) continue;
    out.push(main[i + 1]!.receivedAt - call.answeredAt);
  }
  return out;
}

async function session(variant: Variant): Promise<number[]> {
  const driver: AgentDriver = variant.agent === undefined ? claudeDriver : COMMAND_AGENTS[variant.agent];
  const project = makeProject([]);
  const turns: Turn[] = [...Array.from({ length: CALLS }, (_, i) => ({ shell: `echo call-${i}` })), { text: 'Done.' }];
  const mock = await startMockServer(driver.api(), turns);
  let server: ServeProcess | undefined;
  let direct: string | undefined;
  try {
    if (variant.events.length > 0) {
      if (variant.events.includes('PreToolUse')) writeHook(project, 'pre-shell', 'pre-tool-call');
      if (variant.events.includes('PostToolUse')) writeHook(project, 'post-shell', 'post-tool-call');
      project.cli('trust', '--all');
      // The driver writes the agent's own config (Codex's model provider) and the command bridge.
      await driver.configure(project, mock, { events: variant.events, timeoutSec: 30 });
      if (variant.direct === true && variant.agent !== undefined) {
        // The entry the bridge installed, running the hook's script instead — plus a line appended per run, which
        // tells below that the agent ran it on every call (the projects' paths hold a space: it is quoted).
        const file = join(project.dir, HOOK_FILES[variant.agent]);
        direct = join(project.dir, 'direct-hook');
        writeFileSync(direct, `${HOOK_SCRIPT}echo >>"$0.ran"\n`, { mode: 0o755 });
        const before = readFileSync(file, 'utf8');
        const after = JSON.stringify(withCommand(JSON.parse(before), `'${direct.replaceAll("'", `'\\''`)}'`), null, 2);
        if (after === before) throw new Error(`${variant.name}: no bridge entry found in ${file} to replace`);
        writeFileSync(file, after);
      }
      if (variant.serve) {
        server = await startServe(project);
        const args = ['bridge', '--install', driver.name, '--http', '--port', String(server.port), '--events', variant.events.join(','), '--timeout', '30'];
        if (variant.curl === true) {
          // A PATH of node, curl and cat alone: the line is written to post with curl.
          const bin = pathOf(join(project.dir, 'curl-only-bin'), ['node', 'curl', 'cat']);
          execFileSync(join(project.dir, 'node_modules', '.bin', 'agent-hooks'), args, { cwd: project.dir, env: { ...project.env, PATH: bin }, stdio: 'ignore' });
          if (!readFileSync(join(project.dir, HOOK_FILES[variant.agent!]), 'utf8').includes('curl')) throw new Error(`${variant.name}: the line written does not post with curl`);
        } else {
          project.cli(...args);
        }
      }
    } else if (variant.agent !== undefined) {
      // The agent's baseline needs its configuration (Codex's model provider, Gemini CLI's settings), and no hook.
      await driver.configure(project, mock, { events: ['PreToolUse'], timeoutSec: 30 });
      project.cli('bridge', '--uninstall', driver.name);
    }
    const env = server === undefined ? project.env : { ...project.env, AGENT_HOOKS_TOKEN: server.token };
    const run = await driver.run({ ...project, env }, mock, 'Run the commands.', 120_000);
    const samples = latencies(mock.requests);
    if (run.exitCode !== 0 || samples.length !== CALLS) {
      throw new Error(`${driver.name} session '${variant.name}' ended with exit ${run.exitCode} and ${samples.length}/${CALLS} tool results:\n${run.stderr.slice(-2000)}`);
    }
    const ran = direct === undefined ? CALLS : (readFileSync(`${direct}.ran`, { encoding: 'utf8', flag: 'a+' }).match(/\n/g) ?? []).length;
    if (ran !== CALLS) throw new Error(`${driver.name} session '${variant.name}' ran its command hook ${ran} times for ${CALLS} tool calls:\n${run.stderr.slice(-2000)}`);
    return samples;
  } finally {
    await server?.stop();
    await mock.close();
    project.remove();
  }
}

/**
 * Bare Node starts and runs of the hook's script alone taken after each session, so that the machine's drift hits them
 * as it hits the sessions.
 */
const STARTS_PER_SESSION = 5;
const NODE_START = "a bare Node start (node -e '')";
const SCRIPT_ALONE = "the hook's script alone (/bin/sh)";
/** What the agent gives a hook on stdin, near enough in size. */
const STDIN = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Shell', tool_input: { command: 'echo call-0' }, session_id: 'bench', cwd: '/tmp' });

/** Wall time of one process given `STDIN`, with an environment as bare as a hook's, in ms; throws when it fails. */
const timed = (file: string, args: readonly string[]): number => timeProcess(file, args, { input: STDIN, env: { PATH: process.env.PATH ?? '' } });

export async function agentBridgeSuite(): Promise<Row[]> {
  const samples = new Map<string, number[]>(VARIANTS.map((v) => [v.name, []]));
  const starts: number[] = [];
  const scripts: number[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'agent-hooks-bench-script-'));
  const script = join(scratch, 'run');
  writeFileSync(script, HOOK_SCRIPT, { mode: 0o755 });
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse()) {
        samples.get(variant.name)!.push(...(await session(variant)));
        for (let i = 0; i < STARTS_PER_SESSION; i++) {
          starts.push(timed(process.execPath, ['-e', '']));
          scripts.push(timed(script, []));
        }
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const suite = 'Bridge inside the real agents (tool call to tool result)';
  const start = median(starts);
  const own = median(scripts);
  const reference = (name: string, xs: readonly number[], note: string): Row => {
    const timing = stats(xs);
    return finishRow({ suite, name, unit: 'ms', mean: timing.mean, median: timing.median, rme: timing.rme, note });
  };
  const references = [
    reference(NODE_START, starts, `Node ${process.versions.node}, ${starts.length} starts between the sessions`),
    reference(SCRIPT_ALONE, scripts, `the HOOK.md hook's script, started as a hook is, ${scripts.length} runs between the sessions`),
  ];
  const baselineOf = (variant: Variant): string => (variant.agent === undefined ? BASELINE : baselineName(variant.agent));
  /** What `variant` adds to a tool call over its agent's sessions without hooks (medians). */
  const addedBy = (variant: Variant): number => median(samples.get(variant.name)!) - median(samples.get(baselineOf(variant))!);
  return [...references, ...VARIANTS.map((variant) => {
    const baseline = baselineOf(variant);
    const base = median(samples.get(baseline)!);
    const xs = samples.get(variant.name)!;
    const timing = stats(xs);
    const added = addedBy(variant);
    return finishRow({
      suite,
      name: variant.name,
      unit: 'ms',
      mean: timing.mean,
      median: timing.median,
      rme: timing.rme,
      ...(variant.name === baseline
        ? { note: `${xs.length} tool calls in ${ROUNDS} sessions` }
        : { baseline, ratio: timing.median / base, note: `adds ${added.toFixed(0)} ms per tool call (medians; ${xs.length} calls)` }),
    });
  }), ...VARIANTS.filter((variant) => variant.serve === true && variant.curl !== true).map((variant) => {
    const added = addedBy(variant);
    // What reaching serve costs per bridged event, against one Node start: each event's hook script runs in serve
    // whichever way the event comes, so its own time is left out, as the bridge bench leaves it out.
    const perEvent = added / variant.events.length - own;
    return finishRow({
      suite,
      name: `${variant.name}: added per bridged event, its script left out`,
      unit: 'ms',
      mean: perEvent,
      median: perEvent,
      target: valueTarget(start, `under ${NODE_START}, ${start.toFixed(0)} ms`),
      note: `${added.toFixed(0)} ms per tool call over ${variant.events.length} event${variant.events.length === 1 ? '' : 's'}, less ${own.toFixed(1)} ms of script per event`,
    });
  }), ...VARIANTS.filter((variant) => variant.curl === true).map((variant) => {
    // The same served line posting with curl, in the same rounds: what posting through bash saves a tool call.
    const saved = median(samples.get(variant.name)!) - median(samples.get(servedName(variant.agent!))!);
    return finishRow({ suite, name: `${variant.agent}: the served line posting through bash, against curl`, unit: 'ms', mean: saved, median: saved, note: 'ms a tool call less than with curl (medians, the same rounds)' });
  }), ...VARIANTS.filter((variant) => variant.serve === true && variant.agent !== undefined).map((variant) => {
    // Any command hook costs the agent its own part (starting a shell, reading the answer): the served line against
    // the same script run as the agent's own hook is what reaching serve adds to that.
    const agent = variant.agent!;
    const direct = median(samples.get(directName(agent))!);
    const beyond = median(samples.get(variant.name)!) - direct;
    const agentsOwn = direct - median(samples.get(baselineName(agent))!) - own;
    return finishRow({
      suite,
      name: `${variant.name}: beyond the agent's own command hook running the script`,
      unit: 'ms',
      mean: beyond,
      median: beyond,
      note: `medians; the agent's own part of a command hook, its script left out: ${agentsOwn.toFixed(0)} ms`,
    });
  })];
}
