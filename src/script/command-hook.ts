/**
 * A command hook from an agent's config file (Claude Code, Copilot, VS Code, Gemini CLI, Cursor, Codex, and the
 * other agents with command hooks): a shell command that speaks that agent's wire dialect.
 *
 * @module
 */
import type { AgentId } from '../agents/agent-id.js';
import type { HookEventName, HookMatcher } from '../core/index.js';
import type { WireDialect } from '../dialects/dialect.js';
import type { EnvPattern, EnvPolicy, HookEnvironment } from './hook-environment.js';
import { ProcessHook, type ResolvedCommand } from './process-hook.js';
import type { ProcessPoolLike } from '../process/process-pool.js';

/**
 * The agent whose config file holds a command hook: the id of its room (`src/agents/<id>/`). A type import only, of
 * the ids: the rooms sit above this layer, and nothing of them is loaded here.
 */
export type ConfigKind = AgentId;

/** The level a config file belongs to: the user's, the project's (shared), or the project's local one. */
export type ConfigLevel = 'user' | 'project' | 'local';

/** Where a command hook was defined. */
export interface CommandHookOrigin {
  /** The agent whose config format the file is in. */
  readonly kind: ConfigKind;
  /** The level of the file. */
  readonly level: ConfigLevel;
  /** The config file (absolute). */
  readonly file: string;
  /** The JSON path of the entry in the file, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  readonly field: string;
  /** The matcher as written in the file, if any. */
  readonly matcher?: string | undefined;
  /**
   * The entry as the file writes it, with its event and matcher (the handler alone would leave out what decides when
   * it runs): what a trust store pins, as canonical JSON, so that editing another part of the file leaves it trusted.
   */
  readonly definition?: Readonly<Record<string, unknown>> | undefined;
}

/** Everything a {@link CommandHook} needs; the config loaders fill it in. */
export interface CommandHookSpec {
  /** The hook's name, for listings and messages (a Gemini entry's `name`, else the command). */
  readonly name: string;
  /** The shell command to run; with `args`, the executable (found on `PATH` unless it is a path). */
  readonly command: string;
  /**
   * The exec form: the arguments `command` is started with directly, no shell between (Claude Code's `args`). Absent:
   * `command` runs through the shell.
   */
  readonly args?: readonly string[] | undefined;
  /** The shell: `sh` (POSIX `/bin/sh -c`, the default; `cmd.exe` on Windows), `bash`, or `powershell`. */
  readonly shell?: 'sh' | 'bash' | 'powershell' | undefined;
  /** The one event it runs for. */
  readonly event: HookEventName;
  /** The event's name as written in the file, sent to the process. */
  readonly eventName: string;
  /** Which contexts it applies to (the file's matcher, compiled by that agent's rules). */
  readonly matcher: HookMatcher | undefined;
  /** The wire protocol. */
  readonly dialect: WireDialect;
  /** Milliseconds before the process is killed. */
  readonly timeoutMs: number;
  /** Higher runs first (default 100, the HOOK.md default). */
  readonly priority?: number | undefined;
  /** Whether a failure blocks (Cursor's `failClosed`). */
  readonly failClosed?: boolean | undefined;
  /** Whether it runs in the background, never awaited for a decision (Codex's `async: true`). Default false. */
  readonly async?: boolean | undefined;
  /**
   * Whether it runs in the background and, when it is done, may wake the model (Claude Code's `asyncRewake`): see
   * `ProcessHookSettings.rewake`. Default false.
   */
  readonly rewake?: boolean | undefined;
  /** The project directory, absolute. */
  readonly projectDir: string;
  /** The working directory (default: the project directory). */
  readonly cwd?: string | undefined;
  /**
   * Variables added to the environment after the policy, so they always arrive: the entry's `env`, and the agent's
   * own such as `CLAUDE_PROJECT_DIR`.
   */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** The pool bounding how many hook processes run at once (default: the shared one). */
  readonly processPool?: ProcessPoolLike | undefined;
  /** What the process inherits from this one (default `'inherit'`); ignored when `environment` is given. */
  readonly envPolicy?: EnvPolicy | undefined;
  /** Variables of this process never passed on (default none); ignored when `environment` is given. */
  readonly envDeny?: readonly EnvPattern[] | undefined;
  /** A policy shared with other hooks; wins over `envPolicy` and `envDeny`. */
  readonly environment?: HookEnvironment | undefined;
  /** Where it was defined. */
  readonly origin: CommandHookOrigin;
  /** The cap on each of stdout and stderr, in bytes (default 1 MiB). */
  readonly maxOutputBytes?: number | undefined;
  /** Milliseconds between SIGTERM and SIGKILL (default 2000). */
  readonly killGraceMs?: number | undefined;
}

/**
 * The argv that runs `command` in `shell` on this platform.
 *
 * @internal
 */
export function shellCommand(command: string, shell: CommandHookSpec['shell'] = 'sh'): readonly string[] {
  if (shell === 'powershell') {
    return [process.platform === 'win32' ? 'powershell.exe' : 'pwsh', '-NoProfile', '-NonInteractive', '-Command', command];
  }
  if (shell === 'bash') return ['bash', '-c', command];
  return process.platform === 'win32' ? ['cmd.exe', '/d', '/s', '/c', command] : ['/bin/sh', '-c', command];
}

/** `word` as one word of a POSIX shell command line. */
function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * One command hook of an agent config file, as a middleware of the stack. It runs `command` through the shell (the
 * way the agents run them: `$CLAUDE_PROJECT_DIR` and pipes work), speaks its agent's dialect, and fails open on a
 * crash or timeout unless its entry says otherwise — all as {@link ProcessHook} describes.
 *
 * ```ts
 * const { hooks } = await loadClaudeHooks({ projectDir: process.cwd() });
 * const stack = hookStackOf(hooks);
 * ```
 */
export class CommandHook extends ProcessHook {
  /** The shell command; for the exec form, the executable and its arguments, each quoted as a POSIX shell would read them. */
  readonly command: string;
  /** Where the hook was defined. */
  readonly origin: CommandHookOrigin;
  /** The working directory the command runs in (absolute). */
  readonly cwd: string;
  /**
   * The variables the hook sets for its command: the entry's `env` and its agent's (`CLAUDE_PROJECT_DIR`, …). Trust
   * pins the project files these name, as it pins those of the command (`BASH_ENV` names a file bash runs first).
   */
  readonly env: Readonly<Record<string, string>>;
  private readonly argv: readonly string[];

  constructor(spec: CommandHookSpec) {
    super({
      name: spec.name,
      command: spec.command,
      event: spec.event,
      matcher: spec.matcher,
      priority: spec.priority ?? 100,
      async: spec.async === true,
      rewake: spec.rewake === true,
      failClosed: spec.failClosed === true,
      timeoutMs: spec.timeoutMs,
      dialect: spec.dialect,
      eventName: spec.eventName,
      projectDir: spec.projectDir,
      cwd: spec.cwd,
      maxOutputBytes: spec.maxOutputBytes,
      killGraceMs: spec.killGraceMs,
      processPool: spec.processPool,
      envPolicy: spec.envPolicy,
      envDeny: spec.envDeny,
      environment: spec.environment,
    });
    this.argv = Object.freeze(spec.args === undefined ? shellCommand(spec.command, spec.shell) : [spec.command, ...spec.args]);
    // The exec form as one line: what listings show, and what trust reads for the project files it names.
    this.command = spec.args === undefined ? spec.command : this.argv.map(shellQuote).join(' ');
    this.origin = spec.origin;
    this.cwd = spec.cwd ?? spec.projectDir;
    this.env = Object.freeze({ ...spec.env });
  }

  /** The shell and the command. */
  protected resolveCommand(): Promise<ResolvedCommand> {
    return Promise.resolve({ ok: true, command: this.argv });
  }

  /** The entry's `env` and the agent's variables, plus `AGENT_HOOKS_PROJECT_DIR` and `AGENT_HOOKS_EVENT`. */
  protected runEnv(): Readonly<Record<string, string>> {
    return { ...this.env, AGENT_HOOKS_PROJECT_DIR: this.projectDir, AGENT_HOOKS_EVENT: this.eventName };
  }
}
