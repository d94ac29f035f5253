/**
 * One agent, as the whole project knows it: the contract each room under `src/agents/<id>/` fulfils, and that the
 * bridge, the first stage, `serve`, `--install` and the command line read without naming an agent.
 *
 * @module
 * @internal
 */
import type { AnyHookContext, HookEventName, HookOutcome } from '../core/index.js';
import type { WireDialect } from '../dialects/dialect.js';
import type { BridgeAnswer } from '../dialects/outcome-changes.js';
import type { AgentId } from './agent-id.js';
import type { ConfigLoader } from './config-loader.js';
import type { InstallShape } from './install-shape.js';
import type { Json, LightAgentProfile } from './light-profile.js';

/**
 * A payload read: its canonical event, the event's name as the agent wrote it, and the fields (in the snake_case
 * `sampleContext` reads) the context is built from, before cleaning.
 *
 * @internal
 */
export interface ReadPayload {
  /** The canonical event. */
  readonly event: HookEventName;
  /** The event as the agent (or `--event`) named it, for the answer. */
  readonly eventName: string;
  /** The context's fields. */
  readonly fields: Record<string, unknown>;
}

/**
 * How an agent reads the matcher of a hook entry: `exact-or-regex` (Claude Code's: a word or a `|` list of words as exact names, anything
 * else an unanchored regex), `regex` (an unanchored regex), `anchored` (a regex anchored at both ends), or `undefined`
 * when its entries carry none.
 *
 * @internal
 */
export type MatcherSyntax = 'exact-or-regex' | 'regex' | 'anchored' | undefined;

/**
 * The release of an agent's CLI its profile was last checked against, end to end (`npm run test:agents`).
 *
 * @internal
 */
export interface CheckedRelease {
  /** The npm package of its CLI. */
  readonly package: string;
  /** The version. */
  readonly version: string;
}

/**
 * An agent's own config files, as a source of a project's hooks.
 *
 * @internal
 */
export interface AgentConfig {
  /** How its files are found and loaded (shared by agents that share a format). */
  readonly loader: ConfigLoader;
  /**
   * Its place among the sources of a project's hooks: at equal priority, the hooks of a lower place run first. Lists
   * of the agents as sources (the docs' tables, `--from`'s messages) follow it too.
   */
  readonly order: number;
  /**
   * Whether, under `parallel`, the hooks of one of its events run side by side, none seeing another's rewrite, as the
   * agent itself runs them (Claude Code). `'always'`: they always do, as the agent runs every hook of an event even
   * when one of them denies (Codex CLI), so that a hook after a guard sees every call.
   */
  readonly sideBySide: boolean | 'always';
}

/**
 * Everything the project knows of one agent.
 *
 * @internal
 */
export interface AgentProfile<Id extends AgentId = AgentId> {
  /** The agent's id: `--from`, `--install`, a config source's name. */
  readonly id: Id;
  /** Its name, for messages and docs. */
  readonly title: string;
  /** What the first stage reads of it (loads nothing but Node's own modules). */
  readonly light: LightAgentProfile<Id>;
  /**
   * The wire protocol of its command hooks: the payload we write them and how we read their answers; `undefined` for
   * an agent whose hooks the project bridges but does not run itself.
   */
  readonly dialect: WireDialect | undefined;
  /**
   * The canonical event its payloads' event name `written` is, as {@link readPayload} reads it from a payload, or
   * `undefined` when it is none of its events.
   */
  eventOf(written: string): HookEventName | undefined;
  /**
   * Reads the JSON it sends its hooks on stdin (`given`, from `--event`, names the event and wins). Throws what
   * `fail` makes, naming what is wrong, for a payload it cannot read.
   */
  readPayload(payload: Json, given: string | undefined, fail: (message: string) => Error): ReadPayload;
  /** The answer a hook of this agent gives for `outcome`, the merged outcome of `ctx`, which it calls `eventName`. */
  answer(outcome: HookOutcome, ctx: AnyHookContext, eventName: string): BridgeAnswer;
  /** The field of its answer its user sees, where the bridge puts a message for the user; `undefined`: none. */
  readonly userMessageField: string | undefined;
  /** Its project-level hook file and the shape of an entry there. */
  readonly install: InstallShape;
  /**
   * Whether a project file can put variables into its hooks' environment (Claude Code's `env` block of the project's
   * settings, Gemini CLI's project `.env`): its bridge lines then clear `NODE_OPTIONS` first.
   */
  readonly projectSetsEnv: boolean;
  /**
   * How a command line names its project folder through {@link InstallShape.projectVariable}: `plain`
   * (`"$VAR"/`) or `braced` (`"${VAR}"/`, for an agent that replaces the plain form in the command's text itself).
   */
  readonly projectReference: 'plain' | 'braced';
  /** How it reads the matcher of a hook entry. */
  readonly matcherSyntax: MatcherSyntax;
  /** Where it keeps its user-level hooks, or `undefined` when it has no file of its own. */
  userHookFile(home: string, env: Readonly<Record<string, string | undefined>>): { readonly dir: string; readonly file: string } | undefined;
  /** Whether it runs `http` hooks that `agent-hooks serve` answers. */
  readonly httpHooks: boolean;
  /** Its names for the tools of the shared vocabulary, by canonical name (`Shell: ['Bash']`). */
  readonly tools: Readonly<Record<string, readonly string[]>>;
  /**
   * Its own config files, as a source of a project's hooks; `undefined` when they are not one (hook files that are
   * executables speaking the agent's own protocol, which the project bridges to but does not run).
   */
  readonly config: AgentConfig | undefined;
  /** The release of its CLI last checked end to end, for the agents whose CLI the suite drives. */
  readonly checkedAgainst: CheckedRelease | undefined;
  /**
   * Whether a settings file it reads for `projectDir` (the user's under `home` too) switches off every hook it runs —
   * Claude Code's `disableAllHooks`, or Copilot CLI's in a repository's settings — as a warning that names the file,
   * a project file shown relative to the project;
   * absent for an agent that has no such switch.
   */
  hooksSwitchedOff?(projectDir: string, home: string): Promise<string | undefined>;
}
