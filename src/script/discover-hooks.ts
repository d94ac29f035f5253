/**
 * HOOK.md discovery that yields ready-to-register hooks.
 *
 * @module
 */
import { resolve } from 'node:path';
import { HookStack, type Hook } from '../core/index.js';
import { discoverManifests, type DiscoveryOptions, type DiscoveryResult } from './discovery.js';
import { HookEnvironment } from './hook-environment.js';
import { HookLoadError, type HookProblem } from './problem.js';
import { ProcessPool } from './process-pool.js';
import { ScriptHook, type ScriptHookOptions } from './script-hook.js';

/** Options of {@link discoverHooks}: where to look, and how the hooks run. */
export interface DiscoverHooksOptions extends DiscoveryOptions, Omit<ScriptHookOptions, 'projectDir'> {}

/** What {@link discoverHooks} found: the manifests' hooks, in the order they run at equal priority. */
export interface DiscoveredHooks extends DiscoveryResult {
  /** One {@link ScriptHook} per manifest: user hooks first, then project hooks, then extra folders'. */
  readonly hooks: readonly ScriptHook[];
}

/**
 * Finds HOOK.md hooks (user level, project level, extra folders) and makes each a {@link ScriptHook} that runs with
 * the project as its working directory. Bad definitions are returned as `problems` and the others still load, unless
 * `strict` is set.
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
  const hooks: ScriptHook[] = [];
  // One pool and one environment for every hook of this call, not one per hook.
  const shared = { ...options, projectDir, processPool: ProcessPool.from(options.processPool), environment: HookEnvironment.from(options) };
  for (const manifest of found.manifests) {
    try {
      hooks.push(new ScriptHook(manifest, shared));
    } catch (error) {
      problems.push({
        file: manifest.file,
        hookName: manifest.name,
        severity: 'error',
        code: 'invalid-hook',
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }
  if (options.strict && problems.some((p) => p.severity === 'error')) throw new HookLoadError(problems);
  return { ...found, hooks, problems };
}

/**
 * A stack of loaded hooks (script hooks, config hooks), each at its own priority, ties in the order given (user
 * before project).
 */
export function hookStackOf(hooks: readonly (Hook & { readonly priority: number })[]): HookStack {
  return new HookStack(hooks.map((hook) => ({ hook, priority: hook.priority })));
}
