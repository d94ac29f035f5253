/**
 * A project's module of in-process hooks, `agent-hooks.config.*`: where the bridge finds it, whether it is trusted,
 * and what it exports.
 *
 * @module
 */
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentBuilder } from '../agent/index.js';
import { HookStack, isHook, type Hook, type HookFn, type PrioritizedHook } from '../core/index.js';
import { fileReads } from '../process/file-reads.js';
import type { HookProblem } from '../script/problem.js';
import { configModuleFingerprint } from '../script/trust/trust-fingerprint.js';
import type { TrustCheck } from '../script/trust/trust-policy.js';
import { trustVerdict, type TrustStore } from '../script/trust/trust-store.js';
import { importModule } from './module-import.js';

/** The config modules of in-process hooks, looked for in the project in this order. */
export const CONFIG_MODULE_FILES = ['agent-hooks.config.mjs', 'agent-hooks.config.js', 'agent-hooks.config.mts', 'agent-hooks.config.ts'] as const;

/** A config module as trust sees it. */
export interface ConfigModule {
  /** Its name in listings: `agent-hooks.config.mjs (in-process hooks module)`. */
  readonly name: string;
  /** The module's file (absolute). */
  readonly file: string;
}

/** How a project's config module stands against the trust store. */
export interface ConfigModuleTrust {
  /**
   * Its check: `trusted` (it may be imported), `untrusted` or `changed` (it may not); `undefined` when it cannot be
   * fingerprinted (a FIFO, unreadable), so it can be neither trusted nor imported.
   */
  readonly check: TrustCheck<ConfigModule> | undefined;
  /** The warning that says it is not imported and how to trust it, when it is not trusted; and the store's problem. */
  readonly problems: readonly HookProblem[];
}

const exists = (file: string) => fileReads.access(file).then(() => true, () => false);

/** The project's config module: the first of {@link CONFIG_MODULE_FILES} in `projectDir`, if any. */
export async function findConfigModule(projectDir: string): Promise<string | undefined> {
  const found = await Promise.all(CONFIG_MODULE_FILES.map(async (f) => ((await exists(join(projectDir, f))) ? join(projectDir, f) : undefined)));
  return found.find((f) => f !== undefined);
}

/**
 * Checks a config module found in the project against the store: pinned by its own text only (see
 * {@link configModuleFingerprint}), so the project files it imports are not.
 */
export async function checkConfigModule(file: string, projectDir: string, store: TrustStore): Promise<ConfigModuleTrust> {
  const [read, fingerprint] = await Promise.all([store.load(), configModuleFingerprint(file).catch((error: unknown) => error as Error)]);
  if (fingerprint instanceof Error) {
    const problem: HookProblem = {
      file,
      hookName: `${basename(file)} (in-process hooks module)`,
      severity: 'warning',
      code: 'unpinnable-hook',
      message: `The in-process hooks module ${basename(file)} cannot be pinned by trust, so it is not loaded: ${fingerprint.message}`,
    };
    return { check: undefined, problems: read.problem === undefined ? [problem] : [read.problem, problem] };
  }
  const verdict = trustVerdict(read.entries, fingerprint);
  const check: TrustCheck<ConfigModule> = { hook: { name: fingerprint.name, file: fingerprint.path }, status: verdict.status, fingerprint, changes: verdict.changes };
  const problems: HookProblem[] = read.problem === undefined ? [] : [read.problem];
  if (check.status !== 'trusted') {
    const fix = `run 'npx agent-hooks trust' in ${projectDir} to review and trust it`;
    const what = `The in-process hooks module ${basename(file)}`;
    problems.push({
      file: fingerprint.path,
      hookName: fingerprint.name,
      severity: 'warning',
      code: check.status === 'changed' ? 'changed-hook' : 'untrusted-hook',
      message:
        check.status === 'changed'
          ? `${what} changed since it was trusted, so it is not loaded until it is trusted again: ${fix}.`
          : `${what} comes from the project and is not trusted yet, so it is not loaded: ${fix}.`,
    });
  }
  return { check, problems };
}

/**
 * Imports a config module; a `.ts` one through tsx when it is installed. tsx is registered for the whole process
 * rather than scoped to the import, which would load a second copy of `agent-hooks` whose classes the stack here
 * would not recognise.
 */
async function importConfigModule(file: string, version?: string): Promise<unknown> {
  // A version in the URL is a new module to the loader: a server that reloads a changed file gets its new code.
  const url = version === undefined ? pathToFileURL(file).href : `${pathToFileURL(file).href}?v=${encodeURIComponent(version)}`;
  if (!/\.m?ts$/.test(file)) return importModule(url);
  let tsx: { register(): () => Promise<void> | void };
  try {
    tsx = (await importModule('tsx/esm/api')) as typeof tsx;
  } catch {
    throw new Error(`${file} is TypeScript, which needs tsx to load: install it (npm install -D tsx), or write agent-hooks.config.mjs.`);
  }
  const unregister = tsx.register();
  try {
    return await importModule(url);
  } finally {
    await unregister();
  }
}

const isStack = (value: unknown): value is HookStack => HookStack.isHookStack(value);
// Another copy of the package (a config that imports it from elsewhere) has other classes: recognise a builder by shape
// (which also keeps the agent runtime out of the bridge's start-up).
const isBuilder = (value: unknown): value is Pick<AgentBuilder, 'resolveHooks'> =>
  value !== null && typeof value === 'object' && typeof (value as AgentBuilder).resolveHooks === 'function';

/**
 * Imports a config module — its code runs here — and returns the in-process hooks it exports (as `default` or
 * `hooks`): a HookStack, an AgentBuilder, a list of hooks, callbacks or `{ hook, priority }`, or a function returning
 * one of these. A `version` (any text that changes with the file) imports it afresh, where the same file was imported
 * before.
 */
export async function configModuleHooks(file: string, version?: string): Promise<readonly PrioritizedHook[]> {
  const module = (await importConfigModule(file, version)) as { default?: unknown; hooks?: unknown };
  let value = module.default ?? module.hooks;
  if (typeof value === 'function' && !isHook(value)) value = await (value as () => unknown)();
  if (isStack(value)) return value.all().map((entry) => ({ hook: entry.hook, priority: entry.priority }));
  if (isBuilder(value)) return (await value.resolveHooks()).stack.all().map((entry) => ({ hook: entry.hook, priority: entry.priority }));
  if (Array.isArray(value)) {
    return value.map((item: unknown) =>
      item !== null && typeof item === 'object' && 'hook' in item ? (item as PrioritizedHook) : { hook: item as Hook | HookFn, priority: (item as { priority?: number }).priority ?? 100 },
    );
  }
  throw new Error(`${file} must export (as default or as hooks) a HookStack, an AgentBuilder, a list of hooks, or a function returning one.`);
}
