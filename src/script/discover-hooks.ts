/**
 * HOOK.md discovery that yields ready-to-register hooks.
 *
 * @module
 */
import { resolve } from 'node:path';
import { HookStack, type Hook } from '../core/index.js';
import type { DiscoveryOptions, DiscoveryResult } from './discovery.js';
import { HookEnvironment } from './hook-environment.js';
import { findManifests, type CallScope } from './internal/find-manifests.js';
import { deferredMatcherProblems } from './internal/matcher-problems.js';
import { deferringRegexSafety } from './internal/regex-safety.js';
import type { HookManifest } from './manifest.js';
import { HookLoadError, type HookProblem } from './problem.js';
import { ProcessPool } from '../process/process-pool.js';
import { ScriptHook, type ScriptHookOptions } from './script-hook.js';
import { applyTrust, resolveTrustPolicy, type TrustCheck, type TrustPolicy } from './trust/trust-policy.js';

/** Options of {@link discoverHooks}: where to look, how the hooks run, and whether project hooks need trust. */
export interface DiscoverHooksOptions extends DiscoveryOptions, Omit<ScriptHookOptions, 'projectDir'> {
  /**
   * Whether the project's hooks (`<projectDir>/.agents/hooks`) must be trusted to load (see {@link TrustPolicy}).
   * Default `'store'`: only those the user's trust store holds with their current content, unless
   * `AGENT_HOOKS_TRUST=all` is set in `hostEnv`. User hooks and those of `extraDirs` never need trust.
   */
  readonly trust?: TrustPolicy | undefined;
  /**
   * Load only the hooks that may run on one call (a bridged agent hook call): the others are left out before their
   * entries are looked for, their frontmatters validated or their files hashed for the trust check; and reuse
   * frontmatters validated by earlier processes.
   *
   * @internal
   */
  readonly scope?: CallScope | undefined;
}

/** What {@link discoverHooks} found: the manifests' hooks, in the order they run at equal priority. */
export interface DiscoveredHooks extends DiscoveryResult {
  /**
   * One {@link ScriptHook} per manifest that may run: user hooks first, then project hooks, then extra folders'.
   * Project hooks that are not trusted are left out (see {@link DiscoveredHooks.trustChecks}).
   */
  readonly hooks: readonly ScriptHook[];
  /**
   * Every project hook checked against the trust store, with its status: the `untrusted` and `changed` ones are not
   * in `hooks`, and each has an `untrusted-hook` or `changed-hook` warning in `problems`. Empty under `trust: 'all'`.
   */
  readonly trustChecks: readonly TrustCheck<ScriptHook>[];
}

/**
 * Finds HOOK.md hooks (user level, project level, extra folders) and makes each a {@link ScriptHook} that runs with
 * the project as its working directory. Bad definitions are returned as `problems` and the others still load, unless
 * `strict` is set. A project hook loads only once trusted (`agent-hooks trust`, or {@link TrustStore.trust}) and
 * while unchanged since, unless `trust: 'all'`; the others are reported as warnings. A project hook named like one of
 * the user's takes its place only once it is trusted and valid (its matcher regexes are analysed after the trust
 * check, so an untrusted hook costs no analysis): until then the user's hook runs.
 *
 * ```ts
 * const { hooks, problems } = await discoverHooks({ projectDir: process.cwd() });
 * const stack = hookStackOf(hooks);
 * ```
 */
export async function discoverHooks(options: DiscoverHooksOptions = {}): Promise<DiscoveredHooks> {
  const projectDir = resolve(options.projectDir ?? process.cwd());
  const policy = resolveTrustPolicy(options.trust, { hostEnv: options.hostEnv });
  // Under a store, a project hook's matcher regexes are analysed only once it is trusted: one that will not run must
  // not cost the checker's time on every load.
  const deferred = policy !== 'all';
  const found = await findManifests(options, deferred, options.scope);
  const problems: HookProblem[] = [...found.problems];
  // One pool and one environment for every hook of this call, not one per hook.
  const shared = { ...options, projectDir, processPool: ProcessPool.from(options.processPool), environment: HookEnvironment.from(options) };
  const build = (manifest: HookManifest, into: HookProblem[] = problems): ScriptHook | undefined => {
    try {
      return new ScriptHook(manifest, shared);
    } catch (error) {
      into.push({
        file: manifest.file,
        hookName: manifest.name,
        severity: 'error',
        code: 'invalid-hook',
        message: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    }
  };
  const others = new Map<HookManifest, ScriptHook | undefined>();
  for (const manifest of found.manifests) if (manifest.source !== 'project') others.set(manifest, build(manifest));

  // Trust is checked on the manifests, before anything of a project hook is built: a project hook may take the place
  // of the user's hook of the same name only once it is trusted, and valid too.
  const project = found.manifests.filter((m) => m.source === 'project');
  const gate = await applyTrust(
    project.map((manifest) => ({ name: manifest.name, manifest })),
    () => true,
    policy,
    projectDir,
  );
  const rejected = new Map<string, HookProblem[]>();
  const accepted = new Map<HookManifest, ScriptHook>();
  for (const { manifest } of gate.hooks) {
    const own: HookProblem[] = deferred ? deferredMatcherProblems(manifest) : [];
    const hook = own.some((p) => p.severity === 'error') ? undefined : build(manifest, own);
    if (hook === undefined) {
      rejected.set(manifest.name, own);
    } else {
      accepted.set(manifest, hook);
      problems.push(...own);
    }
  }
  const checks = gate.checks.map((check): TrustCheck<ScriptHook> | undefined => {
    const hook = accepted.get(check.hook.manifest) ?? deferringRegexSafety(() => build(check.hook.manifest, []));
    return hook === undefined ? undefined : { ...check, hook };
  });

  // A project hook that does not run does not get to switch off the user's hook of the same name: that one runs.
  const taken = new Set([...accepted.keys()].map((m) => m.name));
  const restored = found.overridden.filter((m) => !taken.has(m.name));
  const overridden = found.overridden.filter((m) => taken.has(m.name));
  const user = [...found.manifests.filter((m) => m.source === 'user').map((m) => others.get(m)), ...restored.map((m) => build(m))].filter(
    (h): h is ScriptHook => h !== undefined,
  );
  // In discovery's order: by folder name, in code units.
  user.sort((a, b) => (a.manifest.dir < b.manifest.dir ? -1 : a.manifest.dir > b.manifest.dir ? 1 : 0));
  const inItsPlace = (when: string) => (problem: HookProblem): HookProblem => {
    const mine = restored.find((m) => m.name === problem.hookName);
    return mine === undefined ? problem : { ...problem, message: `${problem.message} ${when}, your own hook '${mine.name}' (${mine.file}) runs in its place.` };
  };
  for (const own of rejected.values()) problems.push(...own.map((p) => (p.severity === 'error' ? inItsPlace('Meanwhile')(p) : p)));
  problems.push(...gate.problems.map(inItsPlace('Until then')));
  if (options.strict && problems.some((p) => p.severity === 'error')) throw new HookLoadError(problems);
  const extra = found.manifests.filter((m) => m.source === 'extra').map((m) => others.get(m));
  return {
    ...found,
    overridden: Object.freeze(overridden),
    hooks: [...user, ...accepted.values(), ...extra.filter((h): h is ScriptHook => h !== undefined)],
    problems,
    trustChecks: checks.filter((c): c is TrustCheck<ScriptHook> => c !== undefined),
  };
}

/**
 * A stack of loaded hooks (script hooks, config hooks), each at its own priority, ties in the order given (user
 * before project).
 */
export function hookStackOf(hooks: readonly (Hook & { readonly priority: number })[]): HookStack {
  return new HookStack(hooks.map((hook) => ({ hook, priority: hook.priority })));
}
