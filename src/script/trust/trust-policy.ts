/**
 * Which hooks need trust, and what loaders do with those that lack it.
 *
 * @module
 */
import { projectSetVariables } from '../../dialects/project-set-env.js';
import type { HookEnv } from '../hook-dirs.js';
import type { HookProblem } from '../problem.js';
import { trustFingerprint, TrustFingerprintError, type ConfigTrustSubject, type HookMdTrustSubject, type TrustFingerprint } from './trust-fingerprint.js';
import { TrustStore, trustVerdict, type TrustStatus, type TrustStoreLocation } from './trust-store.js';

/**
 * Whether hooks discovered in a project run without being trusted first:
 * - `'store'` (the default): a project's hooks run only once trusted in the user's trust store
 *   ({@link TrustStore.forUser}), and only while their content is what was trusted;
 * - a {@link TrustStore}: the same, with that store;
 * - `'all'`: every hook runs, trusted or not — for CI, and for projects that are your own.
 *
 * Left unset, the environment variable `AGENT_HOOKS_TRUST=all` means `'all'` (a repository cannot set your
 * environment; an application that loads a project's `.env` file into its environment should pass `trust` itself).
 * Gemini CLI does load one into the environment of its hooks, and Claude Code applies the `env` block of a project's
 * settings, so under either the variable is ignored when a project file of theirs sets it (see the security docs).
 */
export type TrustPolicy = 'all' | 'store' | TrustStore;

/**
 * The environment variable that turns trust off when no policy is given in code.
 *
 * @internal
 */
export const TRUST_ENV_VARIABLE = 'AGENT_HOOKS_TRUST';

/**
 * A policy resolved: `'all'`, or the store to check against. `scope` says where the user's store is;
 * `AGENT_HOOKS_TRUST` is read from its `hostEnv` when it has one, else from `process.env`. Nothing is read from disk.
 *
 * @internal
 */
export function resolveTrustPolicy(policy: TrustPolicy | undefined, scope: TrustStoreLocation = {}): 'all' | TrustStore {
  if (policy instanceof TrustStore) return policy;
  if (policy === 'all') return 'all';
  const env = scope.hostEnv ?? process.env;
  let ignored: string | undefined;
  if (policy === undefined && env[TRUST_ENV_VARIABLE] === 'all') {
    ignored = projectEnvFileSettingTrust(env);
    if (ignored === undefined) return 'all';
  }
  if (policy !== undefined && policy !== 'store') {
    throw new TypeError(`trust must be 'store', 'all' or a TrustStore, not ${JSON.stringify(policy)}.`);
  }
  const store = TrustStore.forUser(scope);
  if (ignored !== undefined) ignoredTrustAll.set(store, ignored);
  return store;
}

/** The stores resolved in place of `AGENT_HOOKS_TRUST=all`, and the project file that set the variable. */
const ignoredTrustAll = new WeakMap<TrustStore, string>();

/**
 * The project file that set `AGENT_HOOKS_TRUST` to the value it has in `env`, when one of the running agent's did
 * (see `projectSetVariables`): Gemini CLI loads a project's `.env` into the environment of its hooks, and Claude Code
 * the `env` block of its project settings, so the variable may be the repository's word, not the user's.
 *
 * @internal
 */
export function projectEnvFileSettingTrust(env: HookEnv): string | undefined {
  return projectSetVariables(env).find((v) => v.name === TRUST_ENV_VARIABLE)?.file;
}

/** The agent that applies `file`'s variables: Claude Code for its settings, Gemini CLI for a `.env`. */
const agentOf = (file: string): string => (file.endsWith('.json') ? 'Claude Code' : 'Gemini CLI');

/** The warning that `AGENT_HOOKS_TRUST=all` was not honoured, when `policy` was resolved in its place. */
function ignoredTrustAllProblem(policy: TrustStore): HookProblem | undefined {
  const file = ignoredTrustAll.get(policy);
  if (file === undefined) return undefined;
  return {
    file,
    severity: 'warning',
    code: 'trust-env-ignored',
    message:
      `${TRUST_ENV_VARIABLE}=all is ignored: ${agentOf(file)} loads this project file into the environment of its hooks, and it sets ${TRUST_ENV_VARIABLE}, so the repository could be the one asking. ` +
      "The project's hooks run once trusted: review and trust them with 'npx agent-hooks trust', or give the bridge --trust-all in your own settings.",
  };
}

/** One hook that needed trust, and how it stands. */
export interface TrustCheck<H = unknown> {
  /** The hook, built as it would run. */
  readonly hook: H;
  /** `trusted` (it is loaded), `untrusted` or `changed` (it is not). */
  readonly status: TrustStatus;
  /** Its current fingerprint: what {@link TrustStore.trust} pins. */
  readonly fingerprint: TrustFingerprint;
  /** For `changed`, what changed since it was trusted (`scripts/run changed`, `the entry changed`). */
  readonly changes: readonly string[];
}

/**
 * What {@link applyTrust} kept and left out.
 *
 * @internal
 */
export interface TrustGateResult<H> {
  /** The hooks that may run, in their order: those that need no trust, and the trusted ones. */
  readonly hooks: H[];
  /** Every hook that needed trust, with its status (none under the policy `'all'`). */
  readonly checks: TrustCheck<H>[];
  /**
   * An `untrusted-hook`, `changed-hook` or `unpinnable-hook` warning per hook left out, and the store's problem if it
   * cannot be read.
   */
  readonly problems: HookProblem[];
}

/**
 * The problem that says a hook was left out, and how to trust it.
 *
 * @internal
 */
export function trustProblem(check: TrustCheck<HookMdTrustSubject | ConfigTrustSubject>, projectDir: string): HookProblem {
  const fix = `run 'npx agent-hooks trust' in ${projectDir} to review and trust it`;
  const { fingerprint, status } = check;
  const message =
    status === 'changed'
      ? `Hook '${check.hook.name}' changed since it was trusted (${check.changes.join(', ')}), so it does not run until it is trusted again: ${fix}.`
      : `Hook '${check.hook.name}' comes from the project and is not trusted yet, so it does not run: ${fix}.`;
  return {
    file: fingerprint.path,
    field: fingerprint.field,
    hookName: check.hook.name,
    severity: 'warning',
    code: status === 'changed' ? 'changed-hook' : 'untrusted-hook',
    message,
  };
}

/** The problem that says a hook cannot be fingerprinted, so it does not run: which part, why, and what to do. */
function unpinnableProblem(hook: HookMdTrustSubject | ConfigTrustSubject, error: unknown, projectDir: string): HookProblem {
  const what = error instanceof TrustFingerprintError ? error.message : `it cannot be read to be pinned (${error instanceof Error ? error.message : String(error)}).`;
  const definition = 'manifest' in hook ? { file: hook.manifest.file } : { file: hook.origin.file, field: hook.origin.field };
  return {
    ...definition,
    hookName: hook.name,
    severity: 'warning',
    code: 'unpinnable-hook',
    message: `Hook '${hook.name}' comes from the project and cannot be trusted as it is, so it does not run: ${what} Then run 'npx agent-hooks trust' in ${projectDir}.`,
  };
}

/**
 * Keeps the hooks that may run: each hook for which `needsTrust` is true runs only when `policy` is `'all'` or the
 * store trusts it with its current content; the others are left out, each with a problem. The store is read only
 * when some hook needs trust, and fingerprints are made only for those hooks. A hook that cannot be fingerprinted (a
 * part of it is a FIFO, a device, unreadable) is left out with an `unpinnable-hook` problem and no check.
 *
 * @internal
 */
export async function applyTrust<H extends HookMdTrustSubject | ConfigTrustSubject>(
  hooks: readonly H[],
  needsTrust: (hook: H) => boolean,
  policy: 'all' | TrustStore,
  projectDir: string,
): Promise<TrustGateResult<H>> {
  const needing = policy === 'all' ? [] : hooks.filter(needsTrust);
  if (needing.length === 0 || policy === 'all') return { hooks: [...hooks], checks: [], problems: [] };
  const ignored = ignoredTrustAllProblem(policy);
  // One hook that cannot be fingerprinted is left out alone: the others, the user's own among them, still load.
  const attempts = await Promise.all([policy.load(), ...needing.map((hook) => trustFingerprint(hook).catch((error: unknown) => unpinnableProblem(hook, error, projectDir)))]);
  const read = attempts[0] as Awaited<ReturnType<TrustStore['load']>>;
  const problems: HookProblem[] = [...(ignored === undefined ? [] : [ignored]), ...(read.problem === undefined ? [] : [read.problem])];
  const unpinnable = new Set<H>();
  const pending: H[] = [];
  const fingerprints: TrustFingerprint[] = [];
  needing.forEach((hook, i) => {
    const attempt = attempts[i + 1] as TrustFingerprint | HookProblem;
    if ('sha256' in attempt) {
      pending.push(hook);
      fingerprints.push(attempt);
    } else {
      unpinnable.add(hook);
      problems.push(attempt);
    }
  });
  const verdicts = fingerprints.map((fingerprint) => trustVerdict(read.entries, fingerprint));
  // A trusted config entry that moved (a hook inserted above it) is still trusted where it is now: the entry that
  // took its old place is new, not changed.
  const trusted = new Set(fingerprints.filter((_, i) => verdicts[i]!.status === 'trusted').map((f) => `${f.path}\u0000${f.sha256}`));
  const checks = pending.map((hook, i): TrustCheck<H> => {
    const fingerprint = fingerprints[i]!;
    const verdict = verdicts[i]!;
    const moved = verdict.previous !== undefined && trusted.has(`${verdict.previous.path}\u0000${verdict.previous.sha256}`);
    return { hook, fingerprint, status: moved ? 'untrusted' : verdict.status, changes: moved ? [] : verdict.changes };
  });
  const refused = new Set<H>(unpinnable);
  for (const check of checks) {
    if (check.status === 'trusted') continue;
    refused.add(check.hook);
    problems.push(trustProblem(check, projectDir));
  }
  return { hooks: hooks.filter((h) => !refused.has(h)), checks, problems };
}
