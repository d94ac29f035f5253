/**
 * How an agent's project-level hook file is laid out: what `agent-hooks bridge --install` writes an entry with.
 *
 * @module
 * @internal
 */
import type { HookEventName } from '../core/index.js';

/**
 * How an agent's handler says its timeout.
 *
 * @internal
 */
export interface InstallTimeout {
  /** The field the timeout is written in. */
  readonly field: 'timeout' | 'timeoutSec';
  /** Its unit: seconds or milliseconds. */
  readonly unit: 's' | 'ms';
  /** Another field the agent also reads for it: an existing entry that uses it keeps it when its timeout is updated. */
  readonly alias?: 'timeoutSec';
}

/**
 * One agent's project-level hook file, and how an entry that runs a command is written in it.
 *
 * @internal
 */
export interface InstallShape {
  /** Its name, for messages. */
  readonly title: string;
  /** The file, relative to the project, `/`-separated. */
  readonly file: string;
  /**
   * The variable the agent sets to the project's directory when it runs a hook, or `undefined` when it sets none and
   * runs its hooks in the project's directory instead.
   */
  readonly projectVariable: string | undefined;
  /**
   * `grouped`: an event holds matcher groups, `{ hooks: [handler] }` (Claude Code, Codex, Gemini CLI); `flat`: an
   * event holds the handlers themselves (Copilot, VS Code, Cursor); `scripts`: {@link file} is a folder of one
   * executable per event, named after it; `plugin`: {@link file} is a plugin the agent loads into its own process,
   * holding {@link plugin}, which runs every hook. Under `scripts` and `plugin` the entry fields below are not written.
   */
  readonly layout: 'grouped' | 'flat' | 'scripts' | 'plugin';
  /**
   * Where the file holds its events: under `hooks` (the default), or at its top level (`top`), the whole file being
   * the map of events.
   */
  readonly eventsAt?: 'hooks' | 'top';
  /**
   * Files beside {@link file} (paths relative to the same folder) that {@link file} replaces in the agent, so that
   * writing it must carry their hooks over, and none stops guarding: `whole`, a file the agent reads in its place
   * while it does not exist (an older name of it), whose events a new {@link file} starts from; else a file whose list
   * of an event the agent stops running once {@link file} has one (a settings file beside a hooks file), whose hooks of
   * an event the bridge is added to come over first.
   */
  readonly replaces?: readonly { readonly file: string; readonly eventsAt: 'hooks' | 'top'; readonly whole?: boolean }[];
  /** Under the `plugin` layout: the plugin file's text. */
  readonly plugin?: string | undefined;
  /** Under the `plugin` layout: the package entry the plugin file loads (`agent-hooks/…`), by which ours is known. */
  readonly pluginEntry?: string | undefined;
  /** Under the `plugin` layout: the project's folders the agent loads plugins from (where ours may already be). */
  readonly pluginFolders?: readonly string[] | undefined;
  /** The top-level `version` the file must carry, if any. */
  readonly version: number | undefined;
  /** Whether a handler says `"type": "command"`. */
  readonly typed: boolean;
  /** The handler's field that holds the command. */
  readonly commandField: 'command' | 'bash';
  /** The handler's timeout field, its unit, and another name the agent also reads for it. */
  readonly timeout: InstallTimeout;
  /** Whether each entry names its event on the command line (`--event NAME`): the agent's payloads name none. */
  readonly eventArgument: boolean;
  /** The agent's name for each canonical event it has (the one written for a canonical name). */
  readonly names: Readonly<Partial<Record<HookEventName, string>>>;
  /**
   * The seconds the agent gives each hook when a hook cannot say its own (an agent of the `scripts` layout), for the
   * message that refuses a timeout.
   */
  readonly fixedTimeoutSeconds?: number;
  /**
   * The agent's names of the events it fires as it exits, ending the hook's processes right after without waiting for
   * them (Claude Code's StopFailure): their bridge line starts the bridge out of their reach (see
   * `src/bridge/detached-line.ts`).
   */
  readonly firedAtExit?: readonly string[];
  /** Names of the agent's own that are not written for a canonical name (Cursor's `beforeShellExecution`), each with its event. */
  readonly extraEvents?: Readonly<Record<string, HookEventName>>;
}
