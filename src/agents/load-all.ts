/**
 * Every hook a project would run, from every source: HOOK.md folders and the config files of Claude Code, Copilot,
 * VS Code, Gemini CLI, Cursor and Codex CLI.
 *
 * @module
 */
import { resolve } from 'node:path';
import type { HookEventName, PrioritizedHook } from '../core/index.js';
import { ParallelHooks } from '../core/hooks/parallel-hooks.js';
import { discoverHooks, type DiscoverHooksOptions } from '../script/discover-hooks.js';
import { userHooksDir } from '../script/hook-dirs.js';
import { HookEnvironment } from '../script/hook-environment.js';
import { HookLoadError, type HookProblem } from '../script/problem.js';
import { ProcessPool } from '../process/process-pool.js';
import type { ScriptHook } from '../script/script-hook.js';
import { resolveTrustPolicy, type TrustCheck, type TrustPolicy } from '../script/trust/trust-policy.js';
import type { ConfigHook, ConfigLoadOptions, LoadedConfigHooks } from '../config/config-source.js';
import { isSkippedProjectHook, UntrustedHooksError } from '../config/untrusted-hooks-error.js';
import type { AgentId } from './agent-id.js';
import type { ConfigLoader } from './config-loader.js';
import type { AgentConfig, AgentProfile } from './profile.js';
import { AGENT_PROFILES, agentProfile, isAgentId } from './registry.js';

/** The profiles in the order their hooks run at equal priority. */
function bySourceOrder(profiles: readonly AgentProfile[]): (AgentProfile & { readonly config: AgentConfig })[] {
  // An agent without config files of its own (one whose hook files speak a protocol we only bridge) is no source.
  return profiles.filter((p): p is AgentProfile & { readonly config: AgentConfig } => p.config !== undefined).sort((a, b) => a.config.order - b.config.order);
}

/**
 * The config loaders of `agents` (each once, where agents share a format), each with the agents asked of it, in the
 * order their hooks run.
 */
function loadersOf(agents: readonly AgentId[]): { loader: ConfigLoader; agents: AgentId[] }[] {
  const groups: { loader: ConfigLoader; agents: AgentId[] }[] = [];
  for (const profile of bySourceOrder(agents.map((id) => agentProfile(id)))) {
    const group = groups.find((g) => g.loader === profile.config.loader);
    if (group === undefined) groups.push({ loader: profile.config.loader, agents: [profile.id] });
    else group.agents.push(profile.id);
  }
  return groups;
}

/** The sources a project's hooks come from: HOOK.md folders, and the agents whose config files hold hooks. */
export type HookSourceName = 'hookmd' | AgentId;

/**
 * Every source, in the order their hooks run at equal priority.
 *
 * @internal
 */
export const HOOK_SOURCES: readonly HookSourceName[] = Object.freeze(['hookmd', ...bySourceOrder(AGENT_PROFILES).map((profile) => profile.id as HookSourceName)]);

/**
 * Which sources to load (each `true` or `false`) and how. A source left out is loaded when no source is named at all
 * (`{}` loads everything) and skipped as soon as one is named (`{ claude: true }` loads Claude Code's files only).
 *
 * Where the user's own files are — the HOOK.md folder, the config files, the trust store — follows from `homeDir` and
 * `hostEnv`, the same for every source. With neither: `process.env`'s `XDG_CONFIG_HOME` and `HOME`, and the config
 * files under `os.homedir()`. With `hostEnv`: its `XDG_CONFIG_HOME` and `HOME`, config files included. With `homeDir`
 * (a sandbox): that home, for everything (`~/.config/agents/hooks`, `~/.claude/settings.json`,
 * `~/.config/agent-hooks/trust.json`), `XDG_CONFIG_HOME` being read then from `hostEnv` only. `userDir` still wins for
 * the HOOK.md folder.
 */
export interface HookSourcesOptions
  extends ConfigLoadOptions,
    // Every agent's config files, by its id, each documented below (the typechecker and the API docs name a new one).
    Readonly<Partial<Record<AgentId, boolean | undefined>>>,
    Omit<DiscoverHooksOptions, 'projectDir' | 'strict' | 'maxOutputBytes' | 'killGraceMs' | 'processPool' | 'envPolicy' | 'envDeny' | 'environment' | 'trust'> {
  /**
   * Whether the project's hooks — its `.agents/hooks` folders and the hooks of its agent config files — must be
   * trusted to load (see {@link TrustPolicy}). Default `'store'`, unless `AGENT_HOOKS_TRUST=all` is set: the user's
   * trust store (of `hostEnv` and `homeDir`) decides. User-level hooks, `extraDirs` and explicit `files` never need it.
   */
  readonly trust?: TrustPolicy | undefined;
  /** HOOK.md folders (`.agents/hooks`, the user's, `extraDirs`). */
  readonly hookmd?: boolean | undefined;
  /** Claude Code's `settings.json` files. */
  readonly claude?: boolean | undefined;
  /** Copilot's `.github/hooks/*.json` and `~/.copilot/hooks/*.json`, and the `hooks` of its `settings.json` files (`~/.copilot/`, `.github/copilot/`). */
  readonly copilot?: boolean | undefined;
  /** VS Code's `.github/hooks/*.json`. */
  readonly vscode?: boolean | undefined;
  /** Gemini CLI's `settings.json` files. */
  readonly gemini?: boolean | undefined;
  /** Cursor's `hooks.json` files. */
  readonly cursor?: boolean | undefined;
  /** Codex CLI's `hooks.json` files (`$CODEX_HOME/hooks.json`, `.codex/hooks.json`). */
  readonly codex?: boolean | undefined;
  /** Cline's CLI: it keeps no hook config file of its own (its `.clinerules/hooks/` scripts are bridged), so nothing. */
  readonly cline?: boolean | undefined;
  /** Qwen Code's `settings.json` files (`~/.qwen/settings.json`, `.qwen/settings.json`). */
  readonly qwen?: boolean | undefined;
  /** Factory Droid's `hooks.json` and `settings.json` `hooks` (in `~/.factory` and `.factory`). */
  readonly droid?: boolean | undefined;
  /** OpenCode: no hook config files (its hooks run in the `agent-hooks/opencode` plugin), so nothing. */
  readonly opencode?: boolean | undefined;
  /** Kilo: no hook config files (its hooks run in the `agent-hooks/opencode` plugin), so nothing. */
  readonly kilo?: boolean | undefined;
  /**
   * Run the hooks of Claude Code's settings files as Claude Code does: those of one event side by side, none seeing
   * another's rewrite (the last rewrite wins), rather than one after another in priority order (the default, where
   * rewrites compose). See {@link ParallelHooks}. Gemini CLI's hooks too, as Gemini runs them: side by side, unless a
   * definition of the event says `sequential: true`. Codex CLI's hooks always run so, as Codex runs every hook of an
   * event even when one of them denies.
   */
  readonly parallel?: boolean | undefined;
}

/** One hook of a project, whatever its source. */
export type ProjectHook = ScriptHook | ConfigHook;

/** What {@link loadAllHookConfigs} found. */
export interface ProjectHooks {
  /** Every hook, in the order they run at equal priority: HOOK.md, Claude Code, Copilot, VS Code, Gemini, Cursor, Codex. */
  readonly hooks: readonly ProjectHook[];
  /** Every problem of every source, each naming its file and field. */
  readonly problems: readonly HookProblem[];
  /** The config files read (HOOK.md files are in each hook's manifest). */
  readonly files: readonly string[];
  /** Which sources were loaded. */
  readonly sources: readonly HookSourceName[];
  /**
   * Every project hook checked against the trust store, with its status; the `untrusted` and `changed` ones are not
   * in `hooks` (each has a warning in `problems`). Empty under `trust: 'all'`.
   */
  readonly trustChecks: readonly TrustCheck<ProjectHook>[];
}

/**
 * The sources `options` selects (see {@link HookSourcesOptions}).
 *
 * @internal
 */
export function selectedSources(options: HookSourcesOptions): HookSourceName[] {
  const named = HOOK_SOURCES.filter((s) => options[s] !== undefined);
  if (named.length === 0) return [...HOOK_SOURCES];
  const anyTrue = HOOK_SOURCES.some((s) => options[s] === true);
  // `{ hookmd: false }` alone means "everything but HOOK.md".
  return HOOK_SOURCES.filter((s) => (anyTrue ? options[s] === true : options[s] !== false));
}

/**
 * Where every source finds the user's files, so that they agree with each other and with the trust store (see
 * {@link HookSourcesOptions}): the config files' home is `hostEnv`'s `HOME` when no `homeDir` is given, and the
 * user's HOOK.md folder is under `homeDir` when it is.
 */
function userPlaces(options: HookSourcesOptions): Pick<HookSourcesOptions, 'homeDir' | 'userDir'> {
  const { homeDir, hostEnv, userDir } = options;
  const home = hostEnv?.['HOME'];
  return {
    homeDir: homeDir ?? (home !== undefined && home !== '' ? home : undefined),
    userDir: userDir ?? (typeof homeDir === 'string' ? userHooksDir({ XDG_CONFIG_HOME: hostEnv?.['XDG_CONFIG_HOME'], HOME: homeDir }) : undefined),
  };
}

/**
 * Loads every hook of a project — HOOK.md folders and every agent's config files — so they can run in one stack. Bad
 * definitions are problems; every other hook still loads — unless `strict`: then a definition that is an error throws
 * a {@link HookLoadError}, and a project hook left out for want of trust (untrusted, changed since it was trusted, or
 * that cannot be pinned) an {@link UntrustedHooksError}, since a guard the project ships would silently not run.
 *
 * ```ts
 * const { hooks, problems } = await loadAllHookConfigs(process.cwd());
 * const stack = hookStackOf(hooks);
 * ```
 */
export async function loadAllHookConfigs(projectDir: string = process.cwd(), options: HookSourcesOptions = {}): Promise<ProjectHooks> {
  const sources = selectedSources(options);
  // Every source shares one pool, one environment and one trust store: `{ maxConcurrent: 4 }` bounds all of this
  // project's hooks, and HOOK.md hooks and config hooks are trusted in the same place.
  const trust = resolveTrustPolicy(options.trust, { hostEnv: options.hostEnv, homeDir: options.homeDir });
  const base = {
    ...options,
    ...userPlaces(options),
    projectDir: resolve(projectDir),
    strict: false,
    processPool: ProcessPool.from(options.processPool),
    environment: HookEnvironment.from(options),
    trust,
  };
  const [hookmd, ...configs] = await Promise.all([
    sources.includes('hookmd') ? discoverHooks(base) : undefined,
    ...loadersOf(sources.filter((s): s is HookSourceName & AgentId => isAgentId(s))).map(({ loader, agents }) => loader.load(agents, { ...base, loadedBeside: sources })),
  ]);
  // Each source that checked trust reports a store it cannot read: once is enough.
  const seenStore = new Set<string>();
  const problems = [...(hookmd?.problems ?? []), ...configs.flatMap((c) => c.problems)].filter(
    (p) => p.code !== 'corrupt-trust-store' || (!seenStore.has(p.file) && seenStore.add(p.file) !== undefined),
  );
  if (options.strict && problems.some(isSkippedProjectHook)) throw new UntrustedHooksError(problems, base.projectDir);
  if (options.strict && problems.some((p) => p.severity === 'error')) throw new HookLoadError(problems);
  return {
    hooks: [...(hookmd?.hooks ?? []), ...configs.flatMap((c) => c.hooks)],
    problems,
    files: configs.flatMap((c) => c.files),
    sources,
    trustChecks: [...(hookmd?.trustChecks ?? []), ...configs.flatMap((c) => c.trustChecks)],
  };
}

/**
 * The hooks with the priorities to register them at.
 *
 * @internal
 */
export function prioritized(hooks: readonly ProjectHook[], options: { readonly parallel?: boolean | undefined } = {}): PrioritizedHook[] {
  // An agent's hook definition that says `sequential: true` (Gemini CLI's) keeps every hook of its event in order.
  const sequential = new Set(
    hooks.flatMap((hook) => ('origin' in hook && hook.origin.definition?.sequential === true ? (hook.events ?? []).map((e) => `${hook.origin.kind}\u0000${e}`) : [])),
  );
  // An agent that runs every matching hook of an event whatever one of them decides (Codex CLI: an audit hook sees the
  // calls a guard denied) has its hooks run as a group always; one that runs them side by side, under `parallel`.
  const grouped = (hook: ConfigHook, event: HookEventName): boolean => {
    const sideBySide = agentProfile(hook.origin.kind).config?.sideBySide;
    return sideBySide === 'always' || (sideBySide === true && options.parallel === true && !sequential.has(`${hook.origin.kind}\u0000${event}`));
  };
  // The hooks of one agent's files, of one event (at one priority), become one group, where the first of them stood.
  const groups = new Map<string, ConfigHook[]>();
  const out: (PrioritizedHook | ConfigHook[])[] = [];
  for (const hook of hooks) {
    const only = hook.events?.length === 1 ? hook.events[0] : undefined;
    const event = 'origin' in hook && only !== undefined && grouped(hook, only) ? only : undefined;
    if (event === undefined) {
      out.push({ hook, priority: hook.priority });
      continue;
    }
    const key = `${(hook as ConfigHook).origin.kind}\u0000${event}\u0000${hook.priority ?? ''}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = [];
      groups.set(key, group);
      out.push(group);
    }
    group.push(hook as ConfigHook);
  }
  return out.map((entry) =>
    Array.isArray(entry) ? (entry.length === 1 ? { hook: entry[0]!, priority: entry[0]!.priority } : { hook: new ParallelHooks(entry), priority: entry[0]!.priority }) : entry,
  );
}

/**
 * Which agent's config format a file is in, from where it lives; `undefined` when its path does not say.
 *
 * @internal
 */
export function configKindOf(file: string): AgentId | 'github' | undefined {
  return configLoaderOf(file)?.kind as ReturnType<typeof configKindOf>;
}

/** Every config format, once each, in the order their hooks run. */
const allLoaders = (): ConfigLoader[] => loadersOf(AGENT_PROFILES.map((profile) => profile.id)).map(({ loader }) => loader);

/** The config format of `file`, from where it lives. */
function configLoaderOf(file: string): ConfigLoader | undefined {
  const parts = resolve(file).split(/[\\/]/);
  const place = { base: parts[parts.length - 1] ?? '', parent: parts[parts.length - 2] ?? '', grandparent: parts[parts.length - 3] ?? '' };
  return allLoaders().find((loader) => loader.owns(place));
}

/** Options of {@link loadHookConfigFile}. */
export interface ConfigFileOptions extends Omit<ConfigLoadOptions, 'files'> {
  /** The file's format, when its path does not tell (`.claude/settings.json`, `.github/hooks/x.json`, …). */
  readonly kind?: AgentId | undefined;
}

/**
 * Loads the hooks of one config file, whatever agent it is for — what `agent-hooks validate` checks. The agent
 * follows from the path (`.claude/settings.json`, `.github/hooks/*.json`, `.gemini/settings.json`,
 * `.cursor/hooks.json`, `.codex/hooks.json`) or from `options.kind`; a file whose agent cannot be told is a problem.
 * A Codex `hooks.json` elsewhere (the user's `$CODEX_HOME/hooks.json`) needs `kind: 'codex'`.
 */
export async function loadHookConfigFile(file: string, options: ConfigFileOptions = {}): Promise<LoadedConfigHooks> {
  const kind: string | undefined = options.kind ?? configKindOf(file);
  const single = { ...options, files: [resolve(file)] };
  // An agent's own format loads its hooks only; a shared one (`github`) those of every agent that reads it.
  const own = kind !== undefined && isAgentId(kind) ? agentProfile(kind).config : undefined;
  if (own !== undefined) return own.loader.load([kind as AgentId], single);
  const group = loadersOf(AGENT_PROFILES.map((profile) => profile.id)).find(({ loader }) => loader.kind === kind);
  if (group !== undefined) return group.loader.load(group.agents, single);
  return {
    hooks: [],
    files: [],
    trustChecks: [],
    problems: [
      {
        file: resolve(file),
        severity: 'error',
        code: 'unknown-config',
        allowed: allLoaders()
          .map((l) => l.describedFiles)
          .join(', '),
        message: 'Cannot tell which agent this file is for from its path; move it where that agent reads it, or name the agent (kind).',
      },
    ],
  };
}

/**
 * The config files of a project that exist: `.claude/settings.json`, `.claude/settings.local.json`,
 * `.github/hooks/*.json`, `.gemini/settings.json`, `.cursor/hooks.json`, `.codex/hooks.json` — what `agent-hooks
 * validate` checks in a project besides its HOOK.md folders.
 *
 * @internal
 */
export async function projectConfigFiles(projectDir: string): Promise<string[]> {
  return (await Promise.all(allLoaders().map((loader) => loader.projectFiles(projectDir)))).flat();
}
