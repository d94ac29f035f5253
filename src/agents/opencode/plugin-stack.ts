/**
 * The stack the OpenCode plugin runs: the project's hooks as `loadAllHookConfigs` loads them — by default its HOOK.md
 * folders only, under the trust store — and the user's own in-process hooks, each guarded by the plugin's
 * `onHookError` policy and `hookTimeout`.
 *
 * @module
 * @internal
 */
import { resolve } from 'node:path';
import { guardStack } from '../../agent/hook-error-policy.js';
import { DEFAULT_HOOK_TIMEOUT_MS } from '../../agent/hook-timeout.js';
import { skippedHooksNotice } from '../../agent/internal/skipped-hooks-notice.js';
import { HookStack, type HookRegistration } from '../../core/index.js';
import { loadAllHookConfigs, prioritized, type HookSourcesOptions } from '../load-all.js';
import type { PluginWarn } from './plugin-log.js';

/** Options of {@link createAgentHooksPlugin}. */
export interface AgentHooksPluginOptions {
  /**
   * The project whose hooks run. Default: OpenCode's `directory`, the folder it was started in — which is a subfolder
   * of the project when OpenCode is started there. The file `bridge --install` writes names the project its plugin
   * folder is in.
   */
  readonly projectDir?: string | undefined;
  /**
   * Which of the project's hooks to load, as {@link loadAllHookConfigs} takes them. Default `{ hookmd: true }`: the
   * HOOK.md folders (the user's `~/.config/agents/hooks`, the project's `.agents/hooks`), and no agent's config file —
   * `.claude/settings.json` and the like are written for another agent, whose events and answers OpenCode does not
   * share. `{}` loads every source. A project's hooks run once `npx agent-hooks trust` has pinned them (`trust`).
   */
  readonly sources?: HookSourcesOptions | undefined;
  /** Hooks of your own (callbacks, Hook classes), run in the same stack as the project's, by priority. */
  readonly hooks?: readonly HookRegistration[] | undefined;
  /**
   * What a hook of {@link hooks} that throws or runs past {@link hookTimeout} does: `'block'` (default) refuses what it
   * was asked about — the tool call, the prompt — as a failing guard should; `'ignore'` goes on without it. Either is
   * said on stderr and in OpenCode's log. HOOK.md hooks keep their own `failClosed` and `timeout`.
   */
  readonly onHookError?: 'block' | 'ignore' | undefined;
  /** How long one of {@link hooks} may take, in milliseconds (default 60 000); a hook's own `timeout` wins. */
  readonly hookTimeout?: number | undefined;
}

/**
 * The plugin's stack for the project in `directory` (unless `options.projectDir` names another), with the project hooks skipped for want of trust said through
 * `warn`.
 *
 * @internal
 */
export async function pluginStack(directory: string, options: AgentHooksPluginOptions, warn: PluginWarn): Promise<HookStack> {
  const projectDir = resolve(options.projectDir ?? directory);
  const { hooks, problems } = await loadAllHookConfigs(projectDir, options.sources ?? { hookmd: true });
  const notice = skippedHooksNotice(problems, projectDir);
  if (notice !== undefined) warn(notice);
  for (const problem of problems) {
    // A hook that failed to load is a guard that does not run: said, as the bridge says it.
    if (problem.severity === 'error') warn(`agent-hooks: ${problem.file}: ${problem.message} This hook does not run.`);
  }
  const own = guardStack(new HookStack(options.hooks ?? []), options.onHookError ?? 'block', options.hookTimeout ?? DEFAULT_HOOK_TIMEOUT_MS);
  return new HookStack().withAll(prioritized(hooks)).withAll(own.all().map((entry) => ({ hook: entry.hook, priority: entry.priority })));
}
