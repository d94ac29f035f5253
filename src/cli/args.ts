/**
 * Command-line parsing shared by the subcommands: flags, events, JSON arguments, each wrong one a usage error.
 *
 * @module
 */
import { resolve } from 'node:path';
import type { parseArgs, ParseArgsConfig } from 'node:util';
import { HookEvent, UnknownEventError, type HookEventName } from '../core/index.js';
import { HookEnvironment } from '../script/hook-environment.js';
import { resolveTrustPolicy } from '../script/trust/trust-policy.js';
import type { TrustStore } from '../script/trust/trust-store.js';
import { UsageError } from './command.js';
import type { CliIO } from './io.js';
import { lazyModule } from '../core/internal/lazy-module.js';

// Required rather than imported: node:util as an ES module loads some thirty of Node's own modules (worker_threads
// among them), which a bridged call pays for on every hook call.
const nodeUtil = lazyModule<typeof import('node:util')>('node:util');

/** `--help` was given: the command's help is printed instead of running it. */
export class HelpRequested extends Error {
  override readonly name = 'HelpRequested';
}

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/** The flags every command that reads a project's hooks takes. */
export const PROJECT_FLAGS = {
  project: { type: 'string' },
  'hooks-dir': { type: 'string', multiple: true },
  'trust-all': { type: 'boolean' },
} as const;

/** The help line of `--trust-all`, for the commands that take it. */
export const TRUST_ALL_HELP = `  --trust-all       run the project's hooks without checking the trust store (for CI; also
                    AGENT_HOOKS_TRUST=all)`;

/** The flags of the commands that run hooks: what the hooks' processes inherit from this one's environment. */
export const ENV_POLICY_FLAGS = {
  'env-policy': { type: 'string' },
  'env-deny': { type: 'string', multiple: true },
} as const;

/** The help lines of {@link ENV_POLICY_FLAGS}. */
export const ENV_POLICY_HELP = `  --env-policy P    what a hook's process inherits from this environment: inherit (default) everything;
                    minimal only PATH, HOME, LANG, TMPDIR and AGENT_HOOKS_* (on Windows also what a process
                    needs to start); a hook's own env and the runtime's variables always arrive
  --env-deny GLOB   keep variables matching GLOB from the hooks, under either policy, e.g. 'SECRET_*',
                    '*_TOKEN', '{AWS,GH}_*' (repeatable)`;

/**
 * The environment policy of `--env-policy` and `--env-deny`, shared by every hook the command loads.
 *
 * @throws {@link UsageError} for a policy other than `inherit` or `minimal`, or an empty pattern.
 */
export function environmentOf(values: { readonly 'env-policy'?: string | undefined; readonly 'env-deny'?: readonly string[] | undefined }): HookEnvironment {
  const policy = values['env-policy'];
  if (policy !== undefined && policy !== 'inherit' && policy !== 'minimal') {
    throw new UsageError(`--env-policy must be inherit or minimal, not ${JSON.stringify(policy)}`);
  }
  const deny = values['env-deny'] ?? [];
  if (deny.some((pattern) => pattern === '')) throw new UsageError("--env-deny needs a variable name or glob, e.g. --env-deny 'SECRET_*'");
  return new HookEnvironment({ envPolicy: policy, envDeny: deny });
}

/**
 * Whether the project's hooks need trust: not with `--trust-all` or `AGENT_HOOKS_TRUST=all`; otherwise the user's
 * trust store decides (`$XDG_CONFIG_HOME/agent-hooks/trust.json`, else `~/.config/agent-hooks/trust.json`).
 */
export function trustPolicyOf(io: CliIO, trustAll: boolean | undefined): 'all' | TrustStore {
  return trustAll === true ? 'all' : resolveTrustPolicy(undefined, { hostEnv: io.env });
}

/** What node's parser says, in the words of the usage line. */
function usageMessage(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const flag = /'(-[^' ]*)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag) return `unknown option ${flag}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag) {
    return /does not take an argument/.test(message) ? `option ${flag} takes no value` : `option ${flag} needs a value`;
  }
  return message.split('\n')[0]!;
}

/** The parser's configuration for a command's flags, so its result is typed by them. */
type FlagConfig<T> = { args: string[]; options: T & typeof HELP; allowPositionals: true; strict: true };

/** What {@link parseFlags} returns: each flag's value, typed by its declaration, and the positionals. */
export type ParsedFlags<T> = ReturnType<typeof parseArgs<FlagConfig<T>>>;

/**
 * Parses `args` against `options` (node's `parseArgs`, strict, positionals allowed), plus `-h`/`--help`.
 *
 * @throws {@link UsageError} for an unknown flag or a missing value; {@link HelpRequested} for `--help`.
 */
export function parseFlags<const T extends NonNullable<ParseArgsConfig['options']>>(args: readonly string[], options: T): ParsedFlags<T> {
  const config: FlagConfig<T> = { args: [...args], options: { ...options, ...HELP }, allowPositionals: true, strict: true };
  let parsed: ParsedFlags<T>;
  try {
    parsed = nodeUtil().parseArgs(config);
  } catch (error) {
    throw new UsageError(usageMessage(error));
  }
  if ((parsed.values as { help?: boolean }).help === true) throw new HelpRequested();
  return parsed;
}

/** At most `max` positionals; more is a usage error naming the first extra one. */
export function positionalsUpTo(positionals: readonly string[], max: number): readonly string[] {
  if (positionals.length > max) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[max])}`);
  return positionals;
}

/** The canonical event for `--event`, any dialect's name; an unknown one is a usage error listing close matches. */
export function parseEvent(name: string): HookEventName {
  try {
    return HookEvent.parse(name);
  } catch (error) {
    if (error instanceof UnknownEventError) throw new UsageError(error.message);
    throw error;
  }
}

/** A JSON object given on the command line (`--args`) or in a file (`--input`); anything else is a usage error. */
export function parseJsonObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(`${what} must be a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
  }
  return value as Record<string, unknown>;
}

/** `--project` (default: the current directory), absolute. */
export function projectDirOf(io: CliIO, project: string | undefined): string {
  return resolve(io.cwd, project ?? '.');
}
