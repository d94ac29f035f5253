/**
 * HOOK.md discovery that yields ready-to-register hooks.
 *
 * @module
 */
import { resolve } from 'node:path';
import { HookStack, type Hook } from '../core/index.js';
import { discoverManifests, type DiscoveryOptions, type DiscoveryResult } from './discovery.js';
import { HookEnvironment } from './hook-environment.js';
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
 * while unchanged since, unless `trust: 'all'`; the others are reported as warnings.
 *
 * ```ts
 * const { hooks, problems } = await discoverHooks({ projectDir: process.cwd() });
 * const stack = hookStackOf(hooks);
 * ```
 */
export async function discoverHooks(options: DiscoverHooksOptions = {}): Promise<DiscoveredHooks> {
  const found = await discoverManifests(options);
  const projectDir = resolve(options.projectDir ?? process.cwd());
  const problems: HookProblem[] = [...found.problems];
  // One pool and one environment for every hook of this call, not one per hook.
  const shared = { ...options, projectDir, processPool: ProcessPool.from(options.processPool), environment: HookEnvironment.from(options) };
  const build = (manifest: HookManifest): ScriptHook | undefined => {
    try {
      return new ScriptHook(manifest, shared);
    } catch (error) {
      problems.push({
        file: manifest.file,
        hookName: manifest.name,
        severity: 'error',
        code: 'invalid-hook',
        message: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    }
  };
  const hooks = found.manifests.map(build).filter((h): h is ScriptHook => h !== undefined);
  const policy = resolveTrustPolicy(options.trust, { hostEnv: options.hostEnv });
  const gate = await applyTrust(hooks, (hook) => hook.manifest.source === 'project', policy, projectDir);

  // A project hook that is not trusted does not get to switch off the user's hook of the same name: that one runs.
  const refused = new Set(gate.checks.filter((c) => c.status !== 'trusted').map((c) => c.hook.name));
  const restored = found.overridden.filter((m) => refused.has(m.name));
  const overridden = found.overridden.filter((m) => !refused.has(m.name));
  const user = [...gate.hooks.filter((h) => h.manifest.source === 'user'), ...restored.map(build).filter((h): h is ScriptHook => h !== undefined)];
  // In discovery's order: by folder name, in code units.
  user.sort((a, b) => (a.manifest.dir < b.manifest.dir ? -1 : a.manifest.dir > b.manifest.dir ? 1 : 0));
  for (const problem of gate.problems) {
    const mine = restored.find((m) => m.name === problem.hookName);
    problems.push(mine === undefined ? problem : { ...problem, message: `${problem.message} Until then, your own hook '${mine.name}' (${mine.file}) runs in its place.` });
  }
  if (options.strict && problems.some((p) => p.severity === 'error')) throw new HookLoadError(problems);
  return {
    ...found,
    overridden: Object.freeze(overridden),
    hooks: [...user, ...gate.hooks.filter((h) => h.manifest.source !== 'user')],
    problems,
    trustChecks: gate.checks,
  };
}

/**
 * A stack of loaded hooks (script hooks, config hooks), each at its own priority, ties in the order given (user
 * before project).
 */
export function hookStackOf(hooks: readonly (Hook & { readonly priority: number })[]): HookStack {
  return new HookStack(hooks.map((hook) => ({ hook, priority: hook.priority })));
}
