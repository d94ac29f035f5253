/**
 * One scenario run twice: by Claude Code headless, and by an agent built here (`withHooksFrom({ claude: true })`) with
 * the same project and the same script for the model. A scenario is Claude Code settings, HOOK.md hooks (run by
 * Claude Code through the real bridge, by ours directly), and the files its hooks need.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, type AgentWarning, type Message } from '../../../src/index.js';
import { claudeDriver } from '../drivers/claude.js';
import { agentBin, makeProject, runBounded, type AgentProject, type AgentRun } from './harness.js';
import { startMockServer, type MockApi, type MockServer, type Turn } from './mock-server.js';

/** A HOOK.md hook folder: its trigger, its script (`scripts/run`), and its frontmatter's metadata. */
export interface HookMd {
  readonly trigger: string;
  readonly run: string;
  readonly metadata?: Readonly<Record<string, string>>;
}

export interface ClaudeScenario {
  /** `.claude/settings.json` of the project. */
  readonly settings?: unknown;
  /** HOOK.md hooks by name, bridged for Claude Code on their events (`--events`). */
  readonly hookmd?: Readonly<Record<string, HookMd>>;
  /** The canonical events the bridge is installed for, when there are HOOK.md hooks. */
  readonly bridged?: readonly string[];
  /** Files to write in the project, by path. */
  readonly files?: Readonly<Record<string, string>>;
  readonly turns: readonly Turn[];
  readonly prompt?: string;
}

const write = (file: string, text: string, mode?: number): void => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text, mode === undefined ? undefined : { mode });
  if (mode !== undefined) chmodSync(file, mode);
};

/** A new project laid out for `scenario`, its HOOK.md hooks trusted. */
export function scenarioProject(scenario: ClaudeScenario): AgentProject {
  const project = makeProject([]);
  for (const [path, text] of Object.entries(scenario.files ?? {})) write(join(project.dir, path), text, path.endsWith('.sh') ? 0o755 : undefined);
  if (scenario.settings !== undefined) write(join(project.dir, '.claude', 'settings.json'), `${JSON.stringify(scenario.settings, null, 2)}\n`);
  for (const [name, hook] of Object.entries(scenario.hookmd ?? {})) {
    const metadata = Object.entries(hook.metadata ?? {});
    const meta = metadata.length === 0 ? '' : `metadata:\n${metadata.map(([k, v]) => `  ${k}: ${v}\n`).join('')}`;
    const dir = join(project.dir, '.agents', 'hooks', name);
    write(join(dir, 'HOOK.md'), `---\nname: ${name}\ndescription: A hook of the scenario.\ntrigger: ${hook.trigger}\n${meta}---\n\nA hook of the scenario.\n`);
    write(join(dir, 'scripts', 'run'), hook.run, 0o755);
  }
  if (scenario.hookmd !== undefined) project.cli('trust', '--all');
  return project;
}

/** What a file the hooks wrote in `project` holds, or `undefined`. */
export const fileOf = (project: AgentProject) => (name: string): string | undefined => {
  const file = join(project.dir, name);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
};

export interface ClaudeScenarioRun {
  readonly project: AgentProject;
  readonly mock: MockServer;
  readonly run: AgentRun;
  /** The messages of every request of the main loop, as Claude Code sent them. */
  readonly requests: unknown[][];
  file(name: string): string | undefined;
  /** The run's end, for failure messages. */
  explain(): string;
}

/**
 * Runs Claude Code headless in `project` with `args` after `-p` (a prompt, `--resume …`), against `mock`, as the
 * driver runs it otherwise.
 */
export function runClaudeWith(project: AgentProject, mock: MockServer, args: readonly string[], timeoutMs = 120_000): Promise<AgentRun> {
  const scratch = join(project.root, 'claude-tmp');
  mkdirSync(scratch, { recursive: true, mode: 0o700 });
  return runBounded(agentBin('claude'), ['-p', ...args, '--output-format', 'stream-json', '--verbose'], {
    cwd: project.dir,
    env: { ...project.env, ANTHROPIC_BASE_URL: mock.url, ANTHROPIC_API_KEY: 'mock', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', CLAUDE_CODE_TMPDIR: scratch },
    timeoutMs,
  });
}

/**
 * The Messages API, where a request that offers no tools and names `marker` (a prompt hook's question, which Claude
 * Code asks with a JSON schema for `{ok, reason}`) is answered with `verdict`.
 */
export function judgingApi(marker: string, verdict: object): MockApi {
  const api = claudeDriver.api();
  return {
    name: 'Anthropic Messages, with a judge',
    handle(request, res, next) {
      const body = request.body as { tools?: unknown[] } | undefined;
      if ((body?.tools ?? []).length === 0 && JSON.stringify(body ?? '').includes(marker)) {
        // Answered as a turn of text: the adapter plays a turn only for a request that offers the shell tool.
        void api.handle({ ...request, body: { ...body, tools: [{ name: 'Bash' }] } }, res, () => ({ text: JSON.stringify(verdict) }));
        return { main: false };
      }
      return api.handle(request, res, next);
    },
  };
}

/** Runs `scenario` with Claude Code headless; its HOOK.md hooks through the real bridge. */
export async function runClaudeScenario(scenario: ClaudeScenario, timeoutMs = 120_000, api: MockApi = claudeDriver.api()): Promise<ClaudeScenarioRun> {
  const project = scenarioProject(scenario);
  const mock = await startMockServer(api, scenario.turns);
  if (scenario.bridged !== undefined) await claudeDriver.configure(project, mock, { events: scenario.bridged, timeoutSec: 60 });
  const run = await claudeDriver.run(project, mock, scenario.prompt ?? 'Do as you are told.', timeoutMs);
  return {
    project,
    mock,
    run,
    requests: mock.mainRequests().map((r) => ((r.body as { messages?: unknown[] } | undefined)?.messages ?? [])),
    file: fileOf(project),
    explain: () => `claude: exit ${run.exitCode}, ${mock.remaining()} turns left\n--- stderr\n${run.stderr.slice(-2000)}\n--- stdout\n${run.stdout.slice(-4000)}`,
  };
}

export interface OurScenarioRun {
  readonly project: AgentProject;
  readonly requests: (readonly Message[])[];
  readonly warnings: AgentWarning[];
  readonly result: unknown;
  readonly error: unknown;
  file(name: string): string | undefined;
}

/**
 * Runs `scenario` with an agent built here, in one session as a headless Claude Code run is (or, with `plainRun`, in
 * one plain run): Claude Code's settings
 * and the HOOK.md hooks loaded, a Bash tool that runs the command in the project with the environment `bashEnv` gives
 * it (default: the project's), after the session's `shellSetup`.
 */
export async function runOurScenario(
  scenario: ClaudeScenario,
  options: { bashEnv?: (project: AgentProject) => NodeJS.ProcessEnv; maxSteps?: number; plainRun?: boolean } = {},
): Promise<OurScenarioRun> {
  const project = scenarioProject(scenario);
  const model = new ScriptedModel(scenario.turns.map((t) => ('shell' in t ? { toolCalls: [{ name: 'Bash', args: { command: t.shell } }] } : t.text)));
  const bash = defineTool({
    name: 'Bash',
    description: 'Runs a shell command.',
    input: z.object({ command: z.string() }),
    // The lines the session's SessionStart hooks left in CLAUDE_ENV_FILE run ahead of the command, as Claude Code runs them.
    execute: (input, context) =>
      execFileSync('/bin/sh', ['-c', context.shellSetup === undefined ? input.command : `${context.shellSetup}\n${input.command}`], { cwd: project.dir, env: options.bashEnv?.(project) ?? project.env, encoding: 'utf8' }),
  });
  let builder = AgentBuilder.new()
    .withModel(model)
    .withTools(bash)
    .withHooksFrom({ projectDir: project.dir, trust: 'all', homeDir: project.home, userDir: false, claude: true, hookmd: scenario.hookmd !== undefined });
  if (options.maxSteps !== undefined) builder = builder.withMaxSteps(options.maxSteps);
  const agent = builder.build();
  const warnings: AgentWarning[] = [];
  agent.events.on('warning', (w) => warnings.push(w));
  let result: unknown;
  let error: unknown;
  // `plainRun`: one `agent.run`, which no turn follows, as `claude -p` with its prompt given is.
  const session = options.plainRun === true ? undefined : agent.session();
  const previous = process.cwd();
  process.chdir(project.dir);
  try {
    result = await (session ?? agent).run(scenario.prompt ?? 'Do as you are told.');
  } catch (e) {
    error = e;
  } finally {
    await session?.close();
    await agent.drain();
    process.chdir(previous);
  }
  return { project, requests: model.requests.map((r) => r.messages), warnings, result, error, file: fileOf(project) };
}

/** Every string in `value`, however deep. */
export const stringsIn = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Array.isArray(value) ? value.flatMap(stringsIn) : typeof value === 'object' && value !== null ? Object.values(value).flatMap(stringsIn) : [];

/**
 * The text of each system message in a request's messages (Claude Code 2.1.332 sends a hook's feedback as a message of
 * role `system` in the conversation; ours are `system` messages too), each as one string.
 */
export const systemTextsIn = (messages: readonly unknown[]): string[] =>
  messages.filter((m) => (m as { role?: unknown }).role === 'system').map((m) => textOf((m as { content?: unknown }).content));

/** A message's content as text: a string, or its text blocks joined. */
const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((b) => ((b as { type?: unknown }).type === 'text' ? String((b as { text?: unknown }).text) : '')).join('') : '';
