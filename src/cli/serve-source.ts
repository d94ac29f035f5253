/**
 * Where `agent-hooks serve` loads its hooks from — the command bridge's hooks: HOOK.md folders and the project's
 * `agent-hooks.config.*` module, each project one only once trusted — and what it watches to load them again.
 *
 * @module
 */
import { fsPromises } from '../core/internal/node-fs.js';
import { isAbsolute, join, resolve } from 'node:path';
import type { StackLoad, StackSource } from '../bridge/serve/reloading-stack.js';
import { treeSignature } from '../bridge/serve/tree-signature.js';
import { formatProblem, type HookEnvironment } from '../script/index.js';
import type { HookProblem } from '../script/problem.js';
import { projectHooksDir, userHooksDir, type HookEnv } from '../script/hook-dirs.js';
import type { TrustStore } from '../script/trust/trust-store.js';
import { checkConfigModule, CONFIG_MODULE_FILES, configModuleHooks, findConfigModule } from './config-module.js';
import { hookMdSource, loadProjectHooks } from './hook-sources.js';
import { skippedHooksNotice } from './skipped-hooks-notice.js';

/** What {@link bridgeStackSource} needs: the bridge's own options. */
export interface BridgeStackOptions {
  /** The project (absolute). */
  readonly projectDir: string;
  /** More folders of HOOK.md hook folders (`--hooks-dir`); a relative one is the project's, and needs trust. */
  readonly hooksDirs: readonly string[];
  /** The command line's environment: where the user's folders and trust store are. */
  readonly hostEnv: HookEnv;
  /** What hook processes inherit. */
  readonly environment?: HookEnvironment | undefined;
  /** `'all'` (`--trust-all`), or the store that must trust the project's hooks. */
  readonly trust: 'all' | TrustStore;
  /** `--config FILE`: an absolute one loads without trust, a relative one is the project's and needs it. */
  readonly config?: string | undefined;
}

/**
 * The bridge's hooks as a {@link StackSource}: every load discovers the HOOK.md hooks and checks them, and the
 * project's config module, against the trust store as it is then; the signature covers the hook folders (every file
 * in them), the config module's candidates and the trust store, so that a hook edited, added, removed, trusted or
 * untrusted is loaded again — and an edited one is skipped until it is trusted again.
 */
export function bridgeStackSource(options: BridgeStackOptions): StackSource {
  const chosen = options.config !== undefined && isAbsolute(options.config);
  const named = options.config === undefined ? undefined : chosen ? options.config : join(options.projectDir, options.config);
  const watched = [
    userHooksDir(options.hostEnv),
    projectHooksDir(options.projectDir),
    ...options.hooksDirs.map((dir) => resolve(options.projectDir, dir)),
    ...(named === undefined ? CONFIG_MODULE_FILES.map((file) => join(options.projectDir, file)) : [named]),
    ...(options.trust === 'all' ? [] : [options.trust.path]),
  ];
  return {
    signature: () => treeSignature(watched),
    async load(): Promise<StackLoad> {
      const project = await loadProjectHooks(
        { projectDir: options.projectDir, hooksDirs: options.hooksDirs, hostEnv: options.hostEnv, environment: options.environment, trust: options.trust },
        [hookMdSource],
      );
      const found: HookProblem[] = [...project.problems];
      let configFile = named ?? (await findConfigModule(options.projectDir));
      if (configFile !== undefined && !chosen && options.trust !== 'all') {
        const { check, problems: more } = await checkConfigModule(configFile, options.projectDir, options.trust);
        found.push(...more);
        if (check?.status !== 'trusted') configFile = undefined;
      }
      let stack = project.stack;
      if (configFile !== undefined) {
        const info = await fsPromises().stat(configFile);
        stack = stack.withAll(await configModuleHooks(configFile, `${info.mtimeMs}-${info.size}-${info.ino}`));
      }
      // The command bridge's words, so that the user hears the same of the same hooks whichever answers the agent.
      return { stack, problems: found.map(formatProblem), notice: skippedHooksNotice(found, options.projectDir) };
    },
  };
}
