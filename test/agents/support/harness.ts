/**
 * What every agent's end-to-end suite shares: the installed agent CLIs, a temporary project with its own HOME whose
 * hooks call the real `agent-hooks bridge`, the driver contract each agent implements, and process checks.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MockApi, MockServer } from './mock-server.js';

/** The repository's root. */
export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
/**
 * The built command line the bridge runs as: the suite tests what users install. `AGENT_HOOKS_E2E_CLI` names another
 * build (a measurement made while dist/ is someone else's to build).
 */
export const CLI = process.env.AGENT_HOOKS_E2E_CLI ?? join(REPO, 'dist', 'cli.cjs');
/** The HOOK.md hook folders every agent runs, unchanged. */
export const HOOKS = fileURLToPath(new URL('../hooks/', import.meta.url));

/** The agents of the suite. */
export type AgentName = 'claude' | 'gemini' | 'codex' | 'copilot' | 'qwen' | 'droid' | 'cline' | 'opencode' | 'kilo';

interface Pin {
  readonly package: string;
  readonly version: string;
  readonly bin: string;
}

const PINS = JSON.parse(readFileSync(join(REPO, 'test', 'agents', 'agents.json'), 'utf8')) as Record<AgentName, Pin>;

/**
 * The versions the suite runs: the pins, or under `AGENT_HOOKS_AGENTS=latest` (`npm run test:agents -- --latest`) the
 * newest releases it resolved, in `AGENT_HOOKS_AGENTS_VERSIONS` (install-agents.mjs reads the same two variables).
 */
const LATEST = process.env.AGENT_HOOKS_AGENTS === 'latest' ? (JSON.parse(process.env.AGENT_HOOKS_AGENTS_VERSIONS ?? '{}') as Partial<Record<AgentName, string>>) : undefined;

/** The version of `agent` the suite runs: its pin, or its newest release under `AGENT_HOOKS_AGENTS=latest`. */
export const pinOf = (agent: AgentName): Pin => {
  if (LATEST === undefined) return PINS[agent];
  const version = LATEST[agent];
  if (version === undefined) throw new Error(`AGENT_HOOKS_AGENTS=latest, but AGENT_HOOKS_AGENTS_VERSIONS names no version of ${agent}: run the suite through \`npm run test:agents -- --latest\`.`);
  return { ...PINS[agent], version };
};

let installed: string | undefined;
/** The folder the pinned agent CLIs are installed in (installing them the first time). */
export function agentsDir(): string {
  installed ??= execFileSync(process.execPath, [join(REPO, 'test', 'agents', 'install-agents.mjs')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  return installed;
}

/** The executable of `agent`. */
export const agentBin = (agent: AgentName): string => join(agentsDir(), 'node_modules', '.bin', pinOf(agent).bin);

/** A temporary project with a HOME of its own. */
export interface AgentProject {
  /** The temporary root (holds `home/` and `project/`). */
  readonly root: string;
  /** The agent's HOME (and XDG folders under it): nothing of the real user's is read. */
  readonly home: string;
  /** The project the agent works in: `.agents/hooks/` holds the HOOK.md hooks. */
  readonly dir: string;
  /** The folder hooks write their evidence to (payloads, pids): `.evidence/` in the project, found from the payload's `work_dir`. */
  readonly evidence: string;
  /** The environment every process of this project runs with (HOME, XDG, PATH, AGENT_HOOKS_EVIDENCE). */
  readonly env: NodeJS.ProcessEnv;
  /** Runs `agent-hooks ARGS…` in the project, as the user would, and returns its stdout. */
  cli(...args: string[]): string;
  /** Reads the JSON lines a hook appended to `evidence/NAME.jsonl`. */
  evidenceOf(name: string): unknown[];
  remove(): void;
}

/**
 * A project whose `.agents/hooks/` holds the named hook folders of `test/agents/hooks/`, with `agent-hooks`
 * installed in its `node_modules/.bin` (a link to the built CLI) and its hooks trusted in the project's own HOME.
 */
export function makeProject(hooks: readonly string[]): AgentProject {
  // A space in the path: every command line the bridge writes must survive the way each agent runs it.
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-hooks e2e-')));
  const home = join(root, 'home');
  const dir = join(root, 'project');
  const evidence = join(dir, '.evidence');
  for (const d of [home, dir, evidence, join(home, '.config'), join(home, '.cache')]) mkdirSync(d, { recursive: true });
  for (const hook of hooks) cpSync(join(HOOKS, hook), join(dir, '.agents', 'hooks', hook), { recursive: true });
  const bin = join(dir, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  if (process.env.AGENT_HOOKS_E2E_SOURCE === '1') {
    // While developing: the bridge runs from src/ through tsx, so no build is needed (and none is raced).
    writeFileSync(join(bin, 'agent-hooks'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} --import ${JSON.stringify(join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs'))} ${JSON.stringify(join(REPO, 'src', 'cli', 'index.ts'))} "$@"\n`, { mode: 0o755 });
  } else {
    symlinkSync(CLI, join(bin, 'agent-hooks'));
    chmodSync(CLI, 0o755);
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'e2e-project', private: true }, null, 2)}\n`);
  mkdirSync(join(dir, 'build'));
  writeFileSync(join(dir, 'build', 'keep.txt'), 'built\n');
  const env: NodeJS.ProcessEnv = {
    PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    AGENT_HOOKS_EVIDENCE: evidence,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
  };
  const project: AgentProject = {
    root,
    home,
    dir,
    evidence,
    env,
    cli: (...args) => execFileSync(join(bin, 'agent-hooks'), args, { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
    evidenceOf: (name) => {
      const file = join(evidence, `${name}.jsonl`);
      if (!existsSync(file)) return [];
      return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as unknown);
    },
    // Retried for up to 60 s: an agent's detached hooks (Cline runs TaskComplete and its shutdown hook detached) may
    // still be running the bridge, which writes its caches in HOME, after the agent's process has exited.
    remove: () => {
      const until = Date.now() + 60_000;
      for (;;) {
        try {
          rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
          return;
        } catch (error) {
          if (Date.now() > until) throw error;
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_000);
        }
      }
    },
  };
  if (hooks.length > 0) project.cli('trust', '--all');
  return project;
}

/** Bridges `events` (canonical names) into the project's config for `agent` with the real CLI, as a user would. */
export function installBridge(project: AgentProject, agent: AgentName, events: readonly string[], timeoutSec: number): void {
  project.cli('bridge', '--install', agent, '--events', events.join(','), '--timeout', String(timeoutSec));
}

/** How one headless agent run ended. */
export interface AgentRun {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
  readonly timedOut: boolean;
}

/** Runs `command` with a hard time bound; never rejects. Kills the whole process group at the bound. */
export function runBounded(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; stdin?: string }): Promise<AgentRun> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin ?? '');
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, options.timeoutMs);
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      resolve({ exitCode, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), durationMs: performance.now() - started, timedOut });
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ exitCode: null, signal: null, stdout: '', stderr: String(error), durationMs: performance.now() - started, timedOut });
    });
  });
}

/** What a driver sets an agent up for. */
export interface AgentConfigureOptions {
  /** The canonical events to bridge (`PreToolUse`, `Stop`, …). */
  readonly events: readonly string[];
  /** The timeout the agent gives each bridge call, in seconds. */
  readonly timeoutSec: number;
  /**
   * Set when the run records payloads (`record-payloads.ts`): a driver whose agent the bridge cannot serve yet puts a
   * recorder of its own in the bridge's place, writing each payload to `evidence/raw/` as the recording shim does.
   */
  readonly record?: boolean;
}

/** What each agent's driver knows: how to set the agent up, point it at the mock, and run it headless. */
export interface AgentDriver {
  readonly name: AgentName;
  /** The agent's own name for its shell tool, as its hooks see it (`Bash`, `run_shell_command`, …). */
  readonly shellTool: string;
  /** A new adapter of the wire API the agent speaks. */
  api(): MockApi;
  /**
   * Writes the agent's settings into `project` (auth against the mock, trust of the folder) and bridges the named
   * canonical events (`PreToolUse`, `Stop`, …) with `agent-hooks bridge --install`, giving the bridge `timeoutSec`.
   */
  configure(project: AgentProject, mock: MockServer, options: AgentConfigureOptions): Promise<void> | void;
  /** Runs the agent headless on `prompt` in the project, against `mock`, within `timeoutMs`. */
  run(project: AgentProject, mock: MockServer, prompt: string, timeoutMs: number): Promise<AgentRun>;
  /** The agent's own log of a run in `project`, when it keeps one: shown with a failed case. */
  log?(project: AgentProject): string;
  /**
   * Why, by its own log, the agent loaded none of the project's hooks in its last run in `project` (its fault, not
   * the bridge's: the bridge was never started); `undefined` when it did, or when its log cannot tell.
   */
  unloadedHooks?(project: AgentProject): string | undefined;
  /** Cases this agent cannot run, each with the reason it cannot: printed, never silently passed. */
  readonly unsupported?: Readonly<Partial<Record<string, string>>>;
  /**
   * Cases where the agent itself does otherwise than the suite's case expects (it ignores an answer, or never fires
   * the event), each replaced by a case under a title that says so by name and asserts what the agent really does:
   * the day it changes, the case fails and the suite's own can be run.
   */
  readonly differs?: Readonly<Partial<Record<string, AgentDifference>>>;
}

/** One headless run of the suite, as a case sees it. */
export interface SessionView {
  readonly project: AgentProject;
  readonly mock: MockServer;
  readonly run: AgentRun;
}

/** What an agent does in place of one of the suite's cases. */
export interface AgentDifference {
  /** The case's title: what the agent does, and that it is the agent's doing (`does not apply a PreToolUse rewrite (Qwen Code ignores updatedInput)`). */
  readonly title: string;
  /** Asserts the agent's real behaviour in the session the suite's case would have checked. */
  check(session: SessionView): void | Promise<void>;
}

/** Whether process `pid` still exists (a zombie counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Waits up to `ms` for `pid` to be gone; true when it is. */
export async function gone(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

/** Every text the model was sent in `body`, flattened, for "did the model see X" checks. */
export const bodyText = (body: unknown): string => (typeof body === 'string' ? body : JSON.stringify(body ?? ''));
