/**
 * A HOOK.md hook as a middleware of the stack: its script runs as a process, and what the process answers becomes
 * the hook's outcome.
 *
 * @module
 */
import { HookStack, type Hook } from '../core/index.js';
import type { WireDialect } from '../dialects/dialect.js';
import { hookMdDialect } from '../dialects/hookmd.js';
import { DIALECT_NAMES, dialectNamed } from '../dialects/registry.js';
import { resolveScriptEntry } from './entry.js';
import { readHookBody } from './frontmatter.js';
import type { HookManifest } from './manifest.js';
import { manifestMatcher } from './manifest-matcher.js';
import type { EnvPattern, EnvPolicy, HookEnvironment } from './hook-environment.js';
import { ProcessHook, type ResolvedCommand } from './process-hook.js';
import type { ProcessPoolLike } from '../process/process-pool.js';

export type { ScriptExit, ScriptHookEvents } from './process-hook.js';

/** How script hooks run: where, with what environment, and what a failure means. */
export interface ScriptHookOptions {
  /** The project directory: the process's working directory, `work_dir` on stdin and `AGENT_HOOKS_PROJECT_DIR`. */
  readonly projectDir: string;
  /**
   * Variables added to the environment of each hook's process (`undefined` removes one): after the policy, so they
   * always arrive, as do `AGENT_HOOKS_PROJECT_DIR`, `AGENT_HOOKS_EVENT` and `AGENT_HOOKS_HOOK_NAME`. They are for the
   * hooks only: a loader finds the user's folders through its `hostEnv`, never through these.
   */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * What a hook's process inherits from this process's environment: `'inherit'` (default) everything but `envDeny`;
   * `'minimal'` only `PATH`, `HOME`, `LANG`, `TMPDIR`, `AGENT_HOOKS_*` (and on Windows what a process needs to start:
   * see {@link MINIMAL_ENV_NAMES_WINDOWS}). See {@link HookEnvironment} for when `process.env` is read.
   */
  readonly envPolicy?: EnvPolicy | undefined;
  /** Variables never passed on, by glob (`'*_TOKEN'`, `'AWS_*'`) or RegExp (default: none). */
  readonly envDeny?: readonly EnvPattern[] | undefined;
  /** A policy shared between loads (wins over `envPolicy` and `envDeny`); loaders make one for all their hooks. */
  readonly environment?: HookEnvironment | undefined;
  /**
   * What bounds how many hook processes run at once: a {@link ProcessPool}, or `{ maxConcurrent }` for a new one
   * (default: {@link ProcessPool.shared}, four per CPU, for the whole process). A loader given options makes one pool
   * for all the hooks it loads.
   */
  readonly processPool?: ProcessPoolLike | undefined;
  /**
   * Whether every hook fails closed: a crash, timeout, missing script or nonsense output blocks the action instead of
   * letting it go on with a warning. A hook also fails closed when its HOOK.md says `metadata: { failClosed: true }`;
   * it cannot opt out of a global `true`.
   */
  readonly failClosed?: boolean | undefined;
  /** The cap on each of stdout and stderr, in bytes (default 1 MiB); past it the process is killed. */
  readonly maxOutputBytes?: number | undefined;
  /** Milliseconds between SIGTERM and SIGKILL when a process is killed (default 2000). */
  readonly killGraceMs?: number | undefined;
  /**
   * The wire protocol (default: the one the HOOK.md names in `metadata.dialect` — `claude`, `copilot`, `vscode`,
   * `gemini`, `cursor` — else {@link hookMdDialect}).
   */
  readonly dialect?: WireDialect | undefined;
}

const ignore = (): void => {};

/** The dialect a HOOK.md names in `metadata.dialect`, or why the name is wrong. */
function declaredDialect(manifest: HookManifest): WireDialect | undefined {
  const name = manifest.metadata.dialect;
  if (name === undefined) return undefined;
  const dialect = typeof name === 'string' ? dialectNamed(name) : undefined;
  if (dialect !== undefined) return dialect;
  const found = typeof name === 'string' ? `'${name}'` : JSON.stringify(name);
  throw new Error(
    `Hook '${manifest.name}' (${manifest.file}): metadata.dialect is ${found}; use one of ${DIALECT_NAMES.join(', ')}, or leave it out for the HOOK.md protocol.`,
  );
}

/**
 * One HOOK.md hook in a {@link HookStack}. Its events and matcher come from the manifest, so the stack leaves it out
 * of every dispatch it does not match and nothing is spawned for those; register it at its manifest's priority:
 *
 * ```ts
 * const hook = new ScriptHook(manifest, { projectDir: process.cwd() });
 * const stack = new HookStack().with(hook, hook.priority);
 * ```
 *
 * When it runs, the script entry is resolved afresh (a script added or removed since discovery counts), the event
 * goes to its stdin as JSON, and the dialect reads the answer (see {@link ProcessHook} for how answers combine with
 * the rest of the chain, and for async hooks).
 */
export class ScriptHook extends ProcessHook {
  /** The manifest the hook was built from. */
  readonly manifest: HookManifest;
  private bodyText: Promise<string> | undefined;

  /**
   * @throws Error naming the hook, its file and the field when the manifest's matcher regexes do not compile or its
   * `metadata.dialect` names no dialect.
   */
  constructor(manifest: HookManifest, options: ScriptHookOptions) {
    const dialect = options.dialect ?? declaredDialect(manifest) ?? hookMdDialect;
    super({
      name: manifest.name,
      event: manifest.trigger,
      matcher: manifestMatcher(manifest),
      priority: manifest.priority,
      async: manifest.async,
      failClosed: options.failClosed === true || manifest.metadata.failClosed === true,
      timeoutMs: manifest.timeout,
      dialect,
      eventName: dialect.eventName(manifest.trigger, manifest.triggerName),
      projectDir: options.projectDir,
      env: options.env,
      maxOutputBytes: options.maxOutputBytes,
      killGraceMs: options.killGraceMs,
      processPool: options.processPool,
      envPolicy: options.envPolicy,
      envDeny: options.envDeny,
      environment: options.environment,
    });
    this.manifest = manifest;
  }

  /**
   * The HOOK.md body (the Markdown after the frontmatter). Read on the hook's first run, not at discovery, and kept;
   * a failed read is retried on the next call.
   */
  body(): Promise<string> {
    this.bodyText ??= readHookBody(this.manifest).catch((error: unknown) => {
      this.bodyText = undefined;
      throw error;
    });
    return this.bodyText;
  }

  /** The script entry, looked up afresh on every run. */
  protected async resolveCommand(): Promise<ResolvedCommand> {
    const entry = await resolveScriptEntry(this.manifest.dir);
    if (entry.ok) return { ok: true, command: entry.command, ...(entry.command.length > 1 ? { script: entry.path } : {}) };
    return { ok: false, code: entry.problem.code, cause: `cannot run its script: ${entry.problem.message}` };
  }

  /** `AGENT_HOOKS_PROJECT_DIR`, `AGENT_HOOKS_EVENT` and `AGENT_HOOKS_HOOK_NAME`. */
  protected runEnv(): Readonly<Record<string, string>> {
    return {
      AGENT_HOOKS_PROJECT_DIR: this.projectDir,
      AGENT_HOOKS_EVENT: this.eventName,
      AGENT_HOOKS_HOOK_NAME: this.name,
    };
  }

  /** The body is read on the first run (progressive disclosure); nothing waits for it. */
  protected override beforeRun(): void {
    if (this.bodyText === undefined) this.body().catch(ignore);
  }
}

/** Anything that can be waited for like a script hook's background runs. */
interface Drainable {
  drain(): Promise<void>;
}

const isDrainable = (hook: Hook): hook is Hook & Drainable =>
  hook !== null && typeof hook === 'object' && typeof (hook as Partial<Drainable>).drain === 'function';

/**
 * Waits for the background runs of every hook that has any (every {@link ScriptHook}, async or not), e.g. before an
 * agent session closes. Accepts a stack or a list of hooks.
 */
export async function drainAll(hooks: HookStack | Iterable<Hook>): Promise<void> {
  const list = HookStack.isHookStack(hooks) ? hooks.all().map((entry) => entry.hook) : [...hooks];
  await Promise.all(list.filter(isDrainable).map((hook) => hook.drain()));
}
