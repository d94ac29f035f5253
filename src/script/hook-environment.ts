/**
 * The environment a hook's process starts with: the parent's, filtered by a policy, with the runtime's own variables
 * added last.
 *
 * @module
 */
import type Micromatch from 'micromatch';
import { lazyModule } from '../core/internal/lazy-module.js';

const micromatch = lazyModule<typeof Micromatch>('micromatch');

/**
 * What a hook's process inherits from the agent's environment before the runtime adds its own variables:
 * `'inherit'` — everything (less the deny list); `'minimal'` — only {@link MINIMAL_ENV_NAMES} and `AGENT_HOOKS_*`.
 */
export type EnvPolicy = 'inherit' | 'minimal';

/** A variable name to keep out: a glob (micromatch: `'*_TOKEN'`, `'AWS_*'`, `'{NPM,GH}_TOKEN'`) or a RegExp. */
export type EnvPattern = string | RegExp;

/** The environment options every loader of script hooks takes. */
export interface EnvPolicyOptions {
  /** What the process inherits from this one (default `'inherit'`); see {@link EnvPolicy}. */
  readonly envPolicy?: EnvPolicy | undefined;
  /**
   * Variables of this process the hook's process never sees, by name (default: none). Applied after the policy, so it
   * also thins out `'minimal'`. The runtime's own variables and a hook's configured `env` are added after it.
   */
  readonly envDeny?: readonly EnvPattern[] | undefined;
}

/**
 * What `'minimal'` passes on every platform: enough for `/bin/sh`, `env python3` and `mktemp` to work (`TMPDIR` is a
 * per-user folder on macOS), and nothing that names a person (`USER`, `LOGNAME`) or holds a secret.
 */
export const MINIMAL_ENV_NAMES: readonly string[] = Object.freeze(['PATH', 'HOME', 'LANG', 'TMPDIR']);

/**
 * What `'minimal'` adds on Windows, where a process needs them to start at all: `SystemRoot` and `windir` (system
 * DLLs), `ComSpec` (the `cmd.exe` that runs a config hook's command), `PATHEXT` (how `npx` finds `npx.cmd`),
 * `SystemDrive`, `TEMP` and `TMP`, and `USERPROFILE` (Windows' `HOME`). Names match regardless of case there.
 */
export const MINIMAL_ENV_NAMES_WINDOWS: readonly string[] = Object.freeze(['SystemRoot', 'windir', 'ComSpec', 'PATHEXT', 'SystemDrive', 'TEMP', 'TMP', 'USERPROFILE']);

/** The prefix of the variables agent-hooks sets; `'minimal'` passes the parent's too (e.g. a debug switch). */
const OWN_PREFIX = 'AGENT_HOOKS_';

const POLICIES: readonly EnvPolicy[] = ['inherit', 'minimal'];

/** A pattern as a test of a name. */
function nameTest(pattern: EnvPattern, nocase: boolean, index: number): (name: string) => boolean {
  if (pattern instanceof RegExp) {
    // A global or sticky RegExp keeps state between tests; a copy without those flags does not.
    const re = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''));
    return (name) => re.test(name);
  }
  if (typeof pattern !== 'string' || pattern === '') {
    throw new TypeError(`envDeny[${index}] must be a non-empty glob string or a RegExp, got ${JSON.stringify(pattern) ?? String(pattern)}.`);
  }
  return micromatch().matcher(pattern, { dot: true, nocase });
}

/**
 * An environment policy, ready to apply: which of this process's variables a hook process inherits. Loaders make one
 * per load and share it between the hooks they load, and so does {@link ProcessHook} for a hook made alone.
 *
 * The filtered copy of `process.env` is made once, at the first run of any hook sharing the policy, and kept: copying
 * the environment costs tens of microseconds, on every run. So a variable set in `process.env` after that is not seen
 * by those hooks; pass it as the hooks' `env` option instead, build the agent again (an agent's `build()` loads its
 * hooks anew), or call {@link HookEnvironment.refresh}. Variables the runtime sets (`AGENT_HOOKS_PROJECT_DIR`,
 * `CLAUDE_PROJECT_DIR`, …) and a hook's own `env` are added on every run, after the policy, and always arrive.
 *
 * ```ts
 * const environment = new HookEnvironment({ envPolicy: 'inherit', envDeny: ['*_TOKEN', 'AWS_*', /^OPENAI_/] });
 * environment.passes('GITHUB_TOKEN'); // false
 * ```
 */
export class HookEnvironment {
  /** The policy. */
  readonly policy: EnvPolicy;
  /** The deny list, as given. */
  readonly deny: readonly EnvPattern[];
  private readonly denied: readonly ((name: string) => boolean)[];
  private readonly allowed: ReadonlySet<string>;
  private readonly nocase: boolean;
  private snapshot: Readonly<Record<string, string>> | undefined;

  /**
   * @param platform Whose rules apply: Windows adds {@link MINIMAL_ENV_NAMES_WINDOWS} and compares names without
   * case (default: `process.platform`).
   * @throws TypeError for an unknown policy, or a deny entry that is neither a non-empty string nor a RegExp.
   */
  constructor(options: EnvPolicyOptions = {}, platform: NodeJS.Platform = process.platform) {
    const policy = options.envPolicy ?? 'inherit';
    if (!POLICIES.includes(policy)) {
      throw new TypeError(`envPolicy must be 'inherit' or 'minimal', got ${JSON.stringify(policy) ?? String(policy)}.`);
    }
    if (options.envDeny !== undefined && !Array.isArray(options.envDeny)) {
      throw new TypeError('envDeny must be a list of glob strings or RegExps, e.g. ["*_TOKEN", "AWS_*"].');
    }
    this.policy = policy;
    this.nocase = platform === 'win32';
    this.deny = Object.freeze([...(options.envDeny ?? [])]);
    this.denied = this.deny.map((pattern, i) => nameTest(pattern, this.nocase, i));
    const names = platform === 'win32' ? [...MINIMAL_ENV_NAMES, ...MINIMAL_ENV_NAMES_WINDOWS] : MINIMAL_ENV_NAMES;
    this.allowed = new Set(names.map((n) => this.key(n)));
  }

  /**
   * The policy of `options`: its `environment` when it has one (a policy shared by several loads), else a new one
   * from `envPolicy` and `envDeny`.
   */
  static from(options: EnvPolicyOptions & { readonly environment?: HookEnvironment | undefined }): HookEnvironment {
    return options.environment ?? new HookEnvironment(options);
  }

  /** Whether a variable of this process named `name` reaches a hook's process. */
  passes(name: string): boolean {
    const key = this.key(name);
    if (this.policy === 'minimal' && !this.allowed.has(key) && !key.startsWith(OWN_PREFIX)) return false;
    return !this.denied.some((test) => test(name));
  }

  /** The variables of `process.env` that pass, copied at the first call and kept (see the class description). */
  base(): Readonly<Record<string, string>> {
    if (this.snapshot !== undefined) return this.snapshot;
    const env: Record<string, string> = {};
    const source = process.env;
    for (const name of Object.keys(source)) {
      const value = source[name];
      if (value !== undefined && this.passes(name)) env[name] = value;
    }
    this.snapshot = Object.freeze(env);
    return this.snapshot;
  }

  /** Forgets the copy of `process.env`: the next run copies it again. */
  refresh(): void {
    this.snapshot = undefined;
  }

  /**
   * The whole environment of one run: {@link HookEnvironment.base}, then each layer in order (a layer's `undefined`
   * removes the variable). Layers are what the runtime and the hook's configuration set, so they bypass the policy.
   */
  compose(...layers: readonly (Readonly<Record<string, string | undefined>> | undefined)[]): Record<string, string> {
    const env: Record<string, string | undefined> = { ...this.base() };
    for (const layer of layers) {
      if (layer === undefined) continue;
      for (const name of Object.keys(layer)) {
        const value = layer[name];
        if (value === undefined) delete env[name];
        else env[name] = value;
      }
    }
    return env as Record<string, string>;
  }

  private key(name: string): string {
    return this.nocase ? name.toUpperCase() : name;
  }
}
