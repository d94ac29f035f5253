/**
 * What every config loader shares: where the user's home and the project are, how hooks run, and how a file's
 * entries become command hooks and problems.
 *
 * @module
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { CallableMatcher, HookEvent, type HookEventName, type HookMatcher } from '../core/index.js';
import { messageOf } from '../core/internal/message-of.js';
import { CommandHook, type CommandHookOrigin, type CommandHookSpec, type ConfigLevel } from '../script/command-hook.js';
import { HookEnvironment, type EnvPattern, type EnvPolicy } from '../script/hook-environment.js';
import { HookLoadError, type HookProblem } from '../script/problem.js';
import { ProcessPool, type ProcessPoolLike } from '../process/process-pool.js';
import { UnsafeRegexError } from '../script/unsafe-regex-error.js';
import type { Hook } from '../core/index.js';
import { configMatcher, eventTakesMatcher, matchesEverything, type MatcherRule } from './config-matcher.js';
import { isRecord } from '../dialects/wire-output.js';
import { readConfigFile } from './config-file.js';
import { applyTrust, resolveTrustPolicy, type TrustCheck, type TrustPolicy } from '../script/trust/trust-policy.js';
import type { TrustStore } from '../script/trust/trust-store.js';
import { deferringRegexSafety } from '../script/internal/regex-safety.js';
import { isSkippedProjectHook, UntrustedHooksError } from './untrusted-hooks-error.js';

/**
 * Asks a language model one question and returns its text answer: what a `type: "prompt"` hook needs. An agent built
 * with `withHooksFrom({ claude: true })` passes its own model.
 */
export type JudgeFn = (prompt: string, signal: AbortSignal) => Promise<string>;

/** What a `type: "agent"` hook asks its verifier: the instructions, the task (with the event in it), and a bound. */
export interface VerifyRequest {
  /** The verifier's instructions (its system prompt). */
  readonly system: string;
  /** The task: the hook's prompt, with the event as Claude Code sends it in place of `$ARGUMENTS`. */
  readonly prompt: string;
  /** At most this many model calls; no verdict by then decides nothing. */
  readonly maxTurns: number;
}

/** A verifier's verdict: Claude Code's `{ "ok": …, "reason": … }`. */
export interface VerifyVerdict {
  /** Whether the condition holds. */
  readonly ok: boolean;
  /** Why not, for the agent. */
  readonly reason?: string | undefined;
}

/**
 * Runs a bounded verification with a language model — a few turns in which it answers with a verdict — and resolves
 * with the verdict, or `undefined` when it gave none within `maxTurns`: what a `type: "agent"` hook needs. An agent
 * built with `withHooksFrom({ claude: true })` passes its own model (see `modelVerifier`).
 */
export type VerifyFn = (request: VerifyRequest, signal: AbortSignal) => Promise<VerifyVerdict | undefined>;

/** Where to look for config files, and how their hooks run. */
export interface ConfigLoadOptions {
  /** The project directory (default: the current one). Project-level files are found under it. */
  readonly projectDir?: string | undefined;
  /** The user's home directory, where user-level files are found (default: `os.homedir()`); `false` skips them. */
  readonly homeDir?: string | false | undefined;
  /** Whether to skip the project-level files (default false). */
  readonly skipProject?: boolean | undefined;
  /** The priority every loaded hook gets (default 100, the HOOK.md default); file order breaks ties. */
  readonly priority?: number | undefined;
  /** Asks a model, for Claude Code's `type: "prompt"` hooks; without it they are reported and skipped. */
  readonly judge?: JudgeFn | undefined;
  /** Runs a verification with a model, for Claude Code's `type: "agent"` hooks; without it they are reported and skipped. */
  readonly verify?: VerifyFn | undefined;
  /** The cap on each of stdout and stderr, in bytes (default 1 MiB). */
  readonly maxOutputBytes?: number | undefined;
  /** Milliseconds between SIGTERM and SIGKILL (default 2000). */
  readonly killGraceMs?: number | undefined;
  /** The platform whose OS-specific command to pick (default: `process.platform`). */
  readonly platform?: NodeJS.Platform | undefined;
  /**
   * Throw a {@link HookLoadError} when any problem is an error, instead of returning it; and an
   * {@link UntrustedHooksError} when a project hook is left out for want of trust (not trusted, changed since, or
   * unpinnable), instead of skipping it with a warning.
   */
  readonly strict?: boolean | undefined;
  /** Whether every command hook fails closed: a crash or timeout blocks instead of letting the action go on. */
  readonly failClosed?: boolean | undefined;
  /**
   * What bounds how many hook processes run at once: a {@link ProcessPool}, or `{ maxConcurrent }` for one new pool
   * shared by every hook of this load (default: {@link ProcessPool.shared}).
   */
  readonly processPool?: ProcessPoolLike | undefined;
  /**
   * What a command's process inherits from this process's environment (default `'inherit'`; see {@link EnvPolicy}).
   * An entry's own `env` and the agent's variables (`CLAUDE_PROJECT_DIR`, …) are added after it and always arrive.
   */
  readonly envPolicy?: EnvPolicy | undefined;
  /** Variables of this process never passed on, by glob (`'*_TOKEN'`, `'AWS_*'`) or RegExp (default: none). */
  readonly envDeny?: readonly EnvPattern[] | undefined;
  /** A policy shared between loads; wins over `envPolicy` and `envDeny`. */
  readonly environment?: HookEnvironment | undefined;
  /**
   * Read these files instead of the agent's usual locations (e.g. to validate one file). Their level is `project`
   * unless given.
   */
  readonly files?: readonly (string | ConfigFileLocation)[] | undefined;
  /**
   * Whether the hooks of the project's files (`.claude/settings.json`, `.claude/settings.local.json`,
   * `.github/hooks/*.json`, `.gemini/settings.json`, `.cursor/hooks.json`, `.codex/hooks.json`) must be trusted to
   * load (see {@link TrustPolicy}). Default `'store'`: only the entries the user's trust store holds with their current content
   * (the store is the one of `homeDir` when given), unless `AGENT_HOOKS_TRUST=all` is set. The user's own files and
   * `files` given here never need trust.
   */
  readonly trust?: TrustPolicy | undefined;
  /**
   * The other agents whose config files load in the same call (`loadAllHookConfigs`, `withHooksFrom`): an agent that
   * also runs another's files (Copilot CLI runs the repository's `.claude/settings.json`) leaves them to that agent's
   * loader then, so that their hooks run once.
   *
   * @internal
   */
  readonly loadedBeside?: readonly string[] | undefined;
}

/** A config file and the level it belongs to. */
export interface ConfigFileLocation {
  /** The file. */
  readonly file: string;
  /** Whose it is. */
  readonly level: ConfigLevel;
}

/** `options.files` as locations, or `undefined` when the usual locations apply. */
export function explicitFiles(options: ConfigLoadOptions): { file: string; level: ConfigLevel }[] | undefined {
  return options.files?.map((f) => (typeof f === 'string' ? { file: resolve(f), level: 'project' as const } : { file: resolve(f.file), level: f.level }));
}

/** What a loader found: the hooks, in the order they run at equal priority, and the problems. */
export interface LoadedConfigHooks {
  /** The hooks (command hooks, and prompt hooks when a judge is given). */
  readonly hooks: readonly ConfigHook[];
  /** Every problem, each naming its file and field; the other hooks still load. */
  readonly problems: readonly HookProblem[];
  /** The config files that were read (whether or not they held hooks). */
  readonly files: readonly string[];
  /**
   * Every hook of a project file checked against the trust store, with its status: the `untrusted` and `changed`
   * ones are not in `hooks`, and each has an `untrusted-hook` or `changed-hook` warning in `problems`.
   */
  readonly trustChecks: readonly TrustCheck<ConfigHook>[];
}

/** A hook loaded from a config file: it knows its origin and priority. */
export interface ConfigHook extends Hook {
  /** The hook's name. */
  readonly name: string;
  /** The one event it runs for. */
  readonly events: readonly HookEventName[];
  /** Where it applies, compiled from the config file's matcher when it was loaded. */
  readonly matcher: HookMatcher | undefined;
  /** Where it was defined. */
  readonly origin: CommandHookOrigin;
  /** The priority to register it at. */
  readonly priority: number;
  /** Milliseconds before it is given up on. */
  readonly timeoutMs: number;
}

// `agent-hooks bridge`, however it is invoked (npx, node_modules/.bin, node dist/cli.cjs, or dist/cli.js as older lines name it).
/** A command line that runs the agent-hooks bridge. @internal */
export const BRIDGE_COMMAND = /agent-hooks(?:[\\/]dist[\\/]cli\.[cm]?js)?["']?\s+bridge\b|cli\.[cm]?js["']?\s+bridge\s+--from\b/;

/** The resolved paths and settings every loader starts from. */
export interface ConfigPlaces {
  /** The project directory, absolute. */
  readonly projectDir: string;
  /** The home directory, or `undefined` when user files are skipped. */
  readonly homeDir: string | undefined;
  /** Whether project files are read. */
  readonly project: boolean;
}

/** The directories a loader reads from. */
export function configPlaces(options: ConfigLoadOptions): ConfigPlaces {
  return {
    projectDir: resolve(options.projectDir ?? process.cwd()),
    homeDir: options.homeDir === false ? undefined : resolve(options.homeDir ?? homedir()),
    project: options.skipProject !== true,
  };
}

/** A short, recognisable name for a command: its text, cut at 60 characters. */
export function commandName(command: string): string {
  const line = command.trim().replace(/\s+/g, ' ');
  return line.length <= 60 ? line : `${line.slice(0, 59)}…`;
}

/** Every event an agent fires, named by that agent: one of them that has no counterpart here is reported as such. */
export interface AgentEvents {
  /** The agent, for messages (`Claude Code`). */
  readonly agent: string;
  readonly names: ReadonlySet<string>;
}

/** A matcher no call matches: a Copilot hook whose matcher Copilot CLI matches no tool with. */
const NO_TOOL = new CallableMatcher(function noTool() {
  return false;
});

/** Collects one loader's hooks and problems, and turns entries into hooks with the checks they all share. */
export class ConfigCollector {
  /** The hooks so far. */
  readonly hooks: ConfigHook[] = [];
  /** The problems so far. */
  readonly problems: HookProblem[] = [];
  /** The files read so far. */
  readonly files: string[] = [];
  private readonly processPool: ProcessPool;
  private readonly environment: HookEnvironment;
  private readonly policy: 'all' | TrustStore;
  /** Matchers compiled for their syntax only, to analyse once it is known that a hook using them may run. */
  private readonly unchecked: { pattern: string; event: HookEventName; rule: MatcherRule; file: string; field: string }[] = [];

  constructor(readonly options: ConfigLoadOptions) {
    // One pool and one environment for every hook of this load, not one per hook.
    this.processPool = ProcessPool.from(options.processPool);
    this.environment = HookEnvironment.from(options);
    this.policy = resolveTrustPolicy(options.trust, { homeDir: options.homeDir });
  }

  /** Whether hooks of this load may be refused by trust, so that their matchers are analysed only after the check. */
  private get trustFirst(): boolean {
    return this.options.files === undefined && this.policy !== 'all';
  }

  /** Records a problem. */
  problem(problem: HookProblem): void {
    this.problems.push(problem);
  }

  /**
   * Adds a hook — unless it is the agent-hooks bridge itself (`agent-hooks bridge --from …`), which runs the HOOK.md
   * hooks that are loaded directly here: running it too would run each of them twice.
   */
  add(hook: ConfigHook): void {
    if (hook instanceof CommandHook && BRIDGE_COMMAND.test(hook.command)) {
      this.problem({
        file: hook.origin.file,
        field: hook.origin.field,
        // Installing the bridge is the intended setup, not a mistake: a warning here would never go away.
        severity: 'info',
        code: 'bridge-skipped',
        message: 'This is the agent-hooks bridge, which runs the HOOK.md hooks this agent already loads directly; it is skipped so that they do not run twice.',
      });
      return;
    }
    this.hooks.push(hook);
  }

  /**
   * The canonical event for a name written in a config file, or `undefined` with a problem naming the file, the
   * field and the names that file's agent knows.
   */
  event(name: string, known: Readonly<Record<string, HookEventName>>, file: string, field: string, agentEvents?: AgentEvents): HookEventName | undefined {
    const event = known[name];
    if (event !== undefined) return event;
    // An event the agent has and we do not is named as such; anything else is likely a misspelling.
    const theirs = agentEvents?.names.has(name) === true ? agentEvents.agent : undefined;
    this.problem({
      file,
      field,
      found: `"${name}"`,
      allowed: Object.keys(known).join(', '),
      severity: 'warning',
      code: theirs === undefined ? 'unknown-event' : 'event-not-here',
      message:
        theirs === undefined
          ? `The event "${name}" is not one this agent's config supports here, so its hooks are not loaded. Check the spelling (names are case-sensitive).`
          : `${theirs} fires "${name}", which has no counterpart here: its hooks are not loaded by agent-hooks (${theirs} itself still runs them).`,
    });
    return undefined;
  }

  /**
   * The kernel matcher for an entry, or `null` (with a problem) when it does not compile. A matcher on an event that
   * has nothing to match is ignored with a warning, never turned into "match nothing". When the load checks trust
   * (no explicit `files`, a policy other than `'all'`) and `defer` is left true, a regex is compiled for its syntax
   * only here, and analysed for catastrophic backtracking in {@link ConfigCollector.result}, for the hooks that may
   * run: those are refused then if it is unsafe.
   */
  matcher(pattern: unknown, event: HookEventName, rule: MatcherRule, file: string, field: string, defer = true): HookMatcher | undefined | null {
    // No pattern still has a matcher where the agent leaves events out (see configMatcher).
    if (pattern === undefined || pattern === null) return configMatcher(undefined, event, rule);
    if (typeof pattern !== 'string') {
      this.problem({ file, field, found: JSON.stringify(pattern), allowed: 'a string', severity: 'error', code: 'invalid-matcher', message: 'A matcher must be a string.' });
      return null;
    }
    if (rule === 'anchored' && matchesEverything(pattern) && HookEvent.isToolEvent(event)) {
      // Copilot CLI anchors a tool matcher as written: `*` is no regex, and `""` matches only a tool without a name.
      this.problem({
        file,
        field,
        found: JSON.stringify(pattern),
        severity: 'warning',
        code: 'matches-nothing',
        message: `Copilot CLI matches no tool with ${JSON.stringify(pattern)}, so this hook never runs, in Copilot or here. Leave "matcher" out to run it on every tool.`,
      });
      return NO_TOOL;
    }
    if (matchesEverything(pattern)) return configMatcher(undefined, event, rule);
    if (!eventTakesMatcher(event)) {
      this.problem({
        file,
        field,
        found: `"${pattern}"`,
        severity: 'warning',
        code: 'ignored-matcher',
        message: `${event} has nothing for a matcher to match, so it is ignored and the hook runs on every ${event}.`,
      });
      return undefined;
    }
    try {
      if (!defer || !this.trustFirst) return configMatcher(pattern, event, rule);
      // A hook that will not run must not cost the regex checker's time: its safety is judged in result(), after trust.
      const matcher = deferringRegexSafety(() => configMatcher(pattern, event, rule));
      this.unchecked.push({ pattern, event, rule, file, field });
      return matcher;
    } catch (error) {
      if (error instanceof UnsafeRegexError) {
        const message = `The matcher '${error.pattern}' ${error.risk}: ${error.fix}.`;
        this.problem({ file, field, found: `"${pattern}"`, severity: 'error', code: 'unsafe-regex', message });
        return null;
      }
      this.problem({ file, field, found: `"${pattern}"`, severity: 'error', code: 'invalid-matcher', message: `${messageOf(error)}` });
      return null;
    }
  }

  /**
   * Reads a config file into its JSON object: `undefined` when it does not exist, and (with a problem naming the file
   * and position) when it cannot be read, is not JSON or is not an object.
   */
  async readObject(file: string): Promise<Record<string, unknown> | undefined> {
    const read = await readConfigFile(file);
    if (read.status === 'missing') return undefined;
    this.files.push(file);
    if (read.status === 'invalid') {
      this.problem(read.problem);
      return undefined;
    }
    if (!isRecord(read.value)) {
      this.problem({ file, severity: 'error', code: 'invalid-config', found: JSON.stringify(read.value)?.slice(0, 40), allowed: 'an object', message: 'A hook config file must hold a JSON object.' });
      return undefined;
    }
    return read.value;
  }

  /**
   * The events of a `hooks` object, each with its list of entries (`what` names them for messages): unknown events
   * and entries that are not lists are reported and left out. `at` is the object's field in the file (`hooks`), or
   * `''` for a file that holds the events at its top level.
   */
  events(
    file: string,
    hooks: unknown,
    known: Readonly<Record<string, HookEventName>>,
    what: string,
    agentEvents?: AgentEvents,
    at = 'hooks',
  ): { event: HookEventName; eventName: string; list: unknown[]; field: string }[] {
    if (hooks === undefined) return [];
    if (!isRecord(hooks)) {
      this.problem({ file, field: at, severity: 'error', code: 'invalid-config', allowed: 'an object of event names', message: `"${at}" must map event names to lists of ${what}.` });
      return [];
    }
    const out: { event: HookEventName; eventName: string; list: unknown[]; field: string }[] = [];
    for (const [eventName, list] of Object.entries(hooks)) {
      const field = at === '' ? eventName : `${at}.${eventName}`;
      const event = this.event(eventName, known, file, field, agentEvents);
      if (event === undefined) continue;
      if (!Array.isArray(list)) {
        this.problem({ file, field, severity: 'error', code: 'invalid-config', allowed: `a list of ${what}`, message: `Each event holds a list of ${what}.` });
        continue;
      }
      out.push({ event, eventName, list, field });
    }
    return out;
  }

  /** A timeout in milliseconds from `value` in `unit`, or the default (with a problem when `value` is not a positive number). */
  timeout(value: unknown, unit: 's' | 'ms', fallbackMs: number, file: string, field: string): number {
    if (value === undefined || value === null) return fallbackMs;
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) return unit === 's' ? value * 1000 : value;
    this.problem({
      file,
      field,
      found: JSON.stringify(value),
      allowed: `a positive number of ${unit === 's' ? 'seconds' : 'milliseconds'}`,
      severity: 'warning',
      code: 'invalid-timeout',
      message: `The timeout is not a positive number; the default of ${fallbackMs / 1000} s applies.`,
    });
    return fallbackMs;
  }

  /** An entry's `env`: string values only (others are reported and dropped). */
  env(value: unknown, file: string, field: string): Record<string, string> {
    if (value === undefined || value === null) return {};
    if (!isRecord(value)) {
      this.problem({ file, field, found: JSON.stringify(value), allowed: 'an object of strings', severity: 'warning', code: 'invalid-env', message: 'env must be an object; it is ignored.' });
      return {};
    }
    const env: Record<string, string> = {};
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string') env[key] = item;
      else if (typeof item === 'number' || typeof item === 'boolean') env[key] = String(item);
      else this.problem({ file, field: `${field}.${key}`, found: JSON.stringify(item), allowed: 'a string', severity: 'warning', code: 'invalid-env', message: 'An environment value must be a string; it is ignored.' });
    }
    return env;
  }

  /** Builds a command hook with the loader's shared settings. */
  commandHook(spec: Omit<CommandHookSpec, 'priority' | 'maxOutputBytes' | 'killGraceMs' | 'processPool' | 'environment'>): CommandHook {
    return new CommandHook({
      ...spec,
      failClosed: spec.failClosed === true || this.options.failClosed === true,
      priority: this.options.priority,
      maxOutputBytes: this.options.maxOutputBytes,
      killGraceMs: this.options.killGraceMs,
      processPool: this.processPool,
      environment: this.environment,
    });
  }

  /**
   * The result: the hooks of project files that are not trusted are left out, each with a problem (unless the files
   * were given explicitly, or the policy is `'all'`). Throws in strict mode when a problem is an error, or a project
   * hook was left out.
   */
  async result(): Promise<LoadedConfigHooks> {
    const explicit = this.options.files !== undefined;
    const gate = await applyTrust(this.hooks, (hook) => !explicit && hook.origin.level !== 'user', this.policy, configPlaces(this.options).projectDir);
    const problems = [...this.problems, ...gate.problems];
    const refused = new Set<ConfigHook>();
    for (const check of this.unchecked) {
      // The hooks an entry's matcher applies to are defined under that entry.
      const entry = check.field.slice(0, -'.matcher'.length);
      const users = gate.hooks.filter((h) => h.origin.file === check.file && (h.origin.field === entry || h.origin.field.startsWith(`${entry}.`)));
      if (users.length === 0) continue;
      const before = this.problems.length;
      if (this.matcher(check.pattern, check.event, check.rule, check.file, check.field, false) !== null) continue;
      problems.push(...this.problems.splice(before));
      for (const hook of users) refused.add(hook);
    }
    if (this.options.strict && problems.some(isSkippedProjectHook)) throw new UntrustedHooksError(problems, configPlaces(this.options).projectDir);
    if (this.options.strict && problems.some((p) => p.severity === 'error')) throw new HookLoadError(problems);
    return { hooks: gate.hooks.filter((h) => !refused.has(h)), problems, files: this.files, trustChecks: gate.checks };
  }
}

/** The names of a dialect's events, for a loader: every canonical event with a name in `dialect`. */
export function eventNamesIn(dialect: 'claude' | 'copilot' | 'gemini' | 'cursor' | 'codex'): Record<string, HookEventName> {
  const names: Record<string, HookEventName> = {};
  for (const event of HookEvent.all) {
    const name = HookEvent.toDialect(event, dialect);
    if (name !== undefined) names[name] = event;
  }
  return names;
}
