/**
 * Where the command line finds a project's hooks, and how it describes each one. Every source is a
 * {@link HookLoader}, the contract agents load hooks through, so a project's hooks are the same here as in its agent.
 *
 * @module
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { HookStack, type Hook, type HookEntry, type HookEventName, type HookMatcher } from '../core/index.js';
import type { HookLoader, LoadedHooks } from '../agent/index.js';
import { discoverHooks } from '../script/discover-hooks.js';
import type { HookEnv } from '../script/hook-dirs.js';
import type { HookEnvironment } from '../script/hook-environment.js';
import type { CallScope } from '../script/internal/find-manifests.js';
import type { HookProblem } from '../script/problem.js';
import { ScriptHook } from '../script/script-hook.js';
import { applyTrust, type TrustCheck } from '../script/trust/trust-policy.js';
import type { TrustStore } from '../script/trust/trust-store.js';
import type { CommandHookOrigin } from '../script/command-hook.js';

/** Where to look: what `--project` and `--hooks-dir` say. */
export interface SourceOptions {
  /** The project directory (absolute). */
  readonly projectDir: string;
  /** More folders of HOOK.md hook folders (`--hooks-dir`), relative to the project (whose hooks then need trust). */
  readonly hooksDirs: readonly string[];
  /**
   * The command line's environment: where the user's folders, home and trust store are (`XDG_CONFIG_HOME`, `HOME`).
   * Hooks do not get it as such: their processes inherit this process's environment through `environment`.
   */
  readonly hostEnv: HookEnv;
  /** What hook processes inherit (`--env-policy`, `--env-deny`); default: everything. */
  readonly environment?: HookEnvironment | undefined;
  /** Whether the project's hooks need trust: `'all'` (`--trust-all`), or the store that must trust them. */
  readonly trust: 'all' | TrustStore;
  /** For one call only (the bridge): HOOK.md hooks that cannot run on it are not loaded (see `discoverHooks`). */
  readonly scope?: CallScope | undefined;
}

/** What a source loaded, with the project hooks it checked against the trust store. */
export interface SourceLoad extends LoadedHooks {
  /** Every project hook checked, with its status; the untrusted and changed ones are not in `hooks`. */
  readonly trustChecks: readonly TrustCheck<Hook>[];
}

/** A {@link HookLoader} that also tells which project hooks it checked for trust. */
export interface SourceLoader extends HookLoader {
  /** Loads the hooks. */
  load(): Promise<SourceLoad>;
}

/**
 * One kind of hook definition. `label` is the kind shown in listings (`HOOK.md`); the hooks `load` returns are
 * registered in order after those of the sources before it, which breaks ties of priority.
 */
export type HookSourceFactory = (options: SourceOptions) => SourceLoader;

/**
 * The `--hooks-dir` folders whose hooks need trust: those named relative to the project. A command line written once
 * for every project (an agent's user-level config running the bridge) names, with a relative path, a folder of each
 * repository it is run in — which the repository controls. An absolute path names one folder, chosen by whoever
 * wrote it; the same rule as the bridge's `--config`.
 */
function projectHooksDirs(projectDir: string, hooksDirs: readonly string[]): ReadonlySet<string> {
  return new Set(hooksDirs.filter((dir) => !isAbsolute(dir)).map((dir) => resolve(projectDir, dir)));
}

/** HOOK.md folders: the user's, the project's, and `--hooks-dir` folders (a relative one's hooks need trust). */
export const hookMdSource: HookSourceFactory = (options) => ({
  label: 'HOOK.md',
  load: async () => {
    const found = await discoverHooks({
      projectDir: options.projectDir,
      extraDirs: options.hooksDirs,
      hostEnv: options.hostEnv,
      environment: options.environment,
      trust: options.trust,
      scope: options.scope,
    });
    const inProject = projectHooksDirs(options.projectDir, options.hooksDirs);
    const gate = await applyTrust(found.hooks, (hook) => hook.manifest.source === 'extra' && inProject.has(dirname(hook.manifest.dir)), options.trust, options.projectDir);
    return {
      hooks: gate.hooks.map((hook) => ({ hook, priority: hook.priority })),
      // A store that cannot be read was reported by discovery already.
      problems: [...found.problems, ...gate.problems.filter((p) => p.code !== 'corrupt-trust-store' || !found.problems.some((q) => q.code === p.code))],
      trustChecks: [...found.trustChecks, ...gate.checks],
    };
  },
});

/** The config files of Claude Code, Copilot, VS Code, Gemini CLI, Cursor and Codex, read once; each hook's kind is its agent. */
const configSource: HookSourceFactory = (options) => ({
  label: 'config',
  load: async () => {
    // Loaded here, not at start-up: the bridge reads HOOK.md folders only.
    const { loadAllHookConfigs } = await import('../agents/load-all.js');
    const { hooks, problems, trustChecks } = await loadAllHookConfigs(options.projectDir, {
      hookmd: false,
      hostEnv: options.hostEnv,
      environment: options.environment,
      trust: options.trust,
    });
    return { hooks: hooks.map((hook) => ({ hook, priority: hook.priority })), problems, trustChecks };
  },
});

/** Every source `list`, `run` and `test` read, in registration order: HOOK.md, then the agents' config files. */
export const HOOK_SOURCES: readonly HookSourceFactory[] = [hookMdSource, configSource];

/** One row of `agent-hooks list`: a hook as the stack will run it. */
export interface HookRow {
  /** The hook's name. */
  readonly name: string;
  /** The events it runs for (canonical names); empty for every event. */
  readonly events: readonly HookEventName[];
  /** Its priority in the stack: higher runs first. */
  readonly priority: number;
  /**
   * The kind of definition: `HOOK.md`, or the agent whose config file holds it (`claude`, `copilot`, `vscode`, `gemini`,
   * `cursor`, `codex`).
   */
  readonly kind: string;
  /** Where that definition lives: `user`, `project`, `extra`, or what the source says. */
  readonly source: string | null;
  /** The matcher, as written or described (`tool:^bash$`), or `null` when it matches every call. */
  readonly matcher: string | null;
  /** Whether it runs in the background, unable to block. */
  readonly async: boolean;
  /** The time it is allowed, in milliseconds, or `null` when it has no limit of its own. */
  readonly timeoutMs: number | null;
  /** The file that defines it, when there is one. */
  readonly file: string | null;
  /**
   * `trusted` for a project hook the trust store trusts; `untrusted` or `changed` for one it does not (those are
   * skipped); `null` for a hook that needs no trust (user level, an absolute `--hooks-dir`, in-process) or under
   * `--trust-all`.
   */
  readonly trust: TrustCheck['status'] | null;
}

/** A project hook that is not run, because the trust store does not trust it (as it is now). */
export interface UntrustedRow extends HookRow {
  /** `untrusted` or `changed`. */
  readonly trust: 'untrusted' | 'changed';
  /** For `changed`, what changed since it was trusted. */
  readonly changes: readonly string[];
}

/** What the project's hooks are: the stack an agent would run, each hook described, and the sources' problems. */
export interface ProjectHooks {
  /** Every hook of every source, in one stack. */
  readonly stack: HookStack;
  /** The description of each hook of the stack. */
  readonly rows: ReadonlyMap<Hook, HookRow>;
  /** Every problem the sources reported, in source order. */
  readonly problems: readonly HookProblem[];
  /** Every project hook checked against the trust store, in source order (none under `--trust-all`). */
  readonly trustChecks: readonly TrustCheck<Hook>[];
  /** The project hooks left out because they are not trusted, described, in source order. */
  readonly untrusted: readonly UntrustedRow[];
}

/** The fields a hook may carry about its definition; a HOOK.md hook carries them in its manifest. */
interface SelfDescribing {
  readonly async?: unknown;
  readonly timeout?: unknown;
  readonly timeoutMs?: unknown;
  readonly source?: unknown;
  readonly file?: unknown;
  readonly matcher?: unknown;
}

const stringOr = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function matcherText(matcher: unknown): string | null {
  if (matcher === undefined || matcher === null || matcher === '') return null;
  if (typeof matcher === 'string') return matcher;
  return String(matcher as HookMatcher);
}

/** Describes one stack entry, from a {@link ScriptHook}'s manifest or from the fields the hook itself carries. */
export function describeHook(entry: HookEntry, kind: string, trust: HookRow['trust'] = null): HookRow {
  return { ...describeDefinition(entry, kind), trust };
}

function describeDefinition(entry: HookEntry, kind: string): Omit<HookRow, 'trust'> {
  const events = entry.events === undefined ? [] : [...entry.events];
  if (entry.hook instanceof ScriptHook) {
    const m = entry.hook.manifest;
    const parts = [m.matcher?.tool ? `tool:${m.matcher.tool}` : undefined, m.matcher?.pattern ? `pattern:${m.matcher.pattern}` : undefined];
    const matcher = entry.hook.matcher === undefined ? null : parts.filter((p) => p !== undefined).join(' ') || null;
    return { name: entry.name, events, priority: entry.priority, kind, source: m.source, matcher, async: m.async, timeoutMs: m.timeout, file: m.file };
  }
  const origin = (entry.hook as { origin?: CommandHookOrigin }).origin;
  if (origin !== undefined) {
    // A config file's hook: its level, its file, and its matcher as the file writes it.
    const timeoutMs = (entry.hook as { timeoutMs?: unknown }).timeoutMs;
    return {
      name: entry.name,
      events,
      priority: entry.priority,
      kind: origin.kind,
      source: origin.level,
      // A matcher the hook does not apply (VS Code's) is not shown; an implied one (Cursor's tool events) is named.
      matcher: entry.hook.matcher === undefined ? null : (origin.matcher ?? (entry.hook as { eventName?: string }).eventName ?? null),
      async: false,
      timeoutMs: typeof timeoutMs === 'number' ? timeoutMs : null,
      file: origin.file,
    };
  }
  const own = entry.hook as Hook & SelfDescribing;
  const timeout = typeof own.timeoutMs === 'number' ? own.timeoutMs : typeof own.timeout === 'number' ? own.timeout : null;
  return {
    name: entry.name,
    events,
    priority: entry.priority,
    kind,
    source: stringOr(own.source),
    matcher: matcherText(own.matcher ?? entry.matcher),
    async: own.async === true,
    timeoutMs: timeout,
    file: stringOr(own.file),
  };
}

/** Loads every source and puts all their hooks in one stack, as an agent built with those sources would. */
export async function loadProjectHooks(options: SourceOptions, sources: readonly HookSourceFactory[] = HOOK_SOURCES): Promise<ProjectHooks> {
  const loaders = sources.map((source) => source(options));
  const loaded = await Promise.all(loaders.map((loader) => loader.load()));
  const kinds = new Map<Hook, string>();
  loaded.forEach((result, i) => {
    for (const { hook } of result.hooks) if (typeof hook === 'object') kinds.set(hook, loaders[i]!.label);
  });
  const trustChecks = loaded.flatMap((result) => result.trustChecks);
  const status = new Map(trustChecks.map((check) => [check.hook, check.status] as const));
  const stack = new HookStack(loaded.flatMap((result) => result.hooks));
  const rows = new Map(stack.all().map((entry) => [entry.hook, describeHook(entry, kinds.get(entry.hook) ?? 'hook', status.get(entry.hook) ?? null)] as const));
  const untrusted = loaded.flatMap((result, i) =>
    result.trustChecks
      .filter((check): check is TrustCheck<Hook> & { status: 'untrusted' | 'changed' } => check.status !== 'trusted')
      .map((check): UntrustedRow => {
        const [entry] = new HookStack().with(check.hook, (check.hook as { priority?: number }).priority ?? 0).all();
        return { ...describeHook(entry!, loaders[i]!.label), trust: check.status, changes: check.changes };
      }),
  );
  return { stack, rows, problems: loaded.flatMap((result) => result.problems), trustChecks, untrusted };
}
