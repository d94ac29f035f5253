/**
 * Where each agent reads a project's command hooks, and the shape of the entry that runs the bridge there: the table
 * `agent-hooks bridge --install` writes from.
 *
 * @module
 */
import { HookEvent, type HookEventName } from '../core/index.js';
import { CURSOR_EVENTS } from '../dialects/cursor.js';

/** The agents `agent-hooks bridge --install` writes a config file for. */
export type InstallAgent = 'claude' | 'codex' | 'gemini' | 'copilot' | 'vscode' | 'cursor';

/**
 * Every agent {@link InstallAgent} names, in the order help texts list them.
 *
 * @internal
 */
export const INSTALL_AGENTS: readonly InstallAgent[] = Object.freeze(['claude', 'codex', 'gemini', 'copilot', 'vscode', 'cursor']);

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
export interface InstallTarget {
  /** The agent. */
  readonly agent: InstallAgent;
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
   * event holds the handlers themselves (Copilot, VS Code, Cursor).
   */
  readonly layout: 'grouped' | 'flat';
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
  /** The agent's event names, each with the canonical event it is. */
  readonly events: Readonly<Record<string, HookEventName>>;
  /** The agent's name for each canonical event it has (the one written for a canonical name). */
  readonly names: Readonly<Partial<Record<HookEventName, string>>>;
}

/** The names `dialect` gives the canonical events in `events` (all it has, when omitted). */
function dialectNames(dialect: 'claude' | 'copilot' | 'gemini' | 'cursor', events: readonly HookEventName[] = HookEvent.all): Partial<Record<HookEventName, string>> {
  const names: Partial<Record<HookEventName, string>> = {};
  for (const event of events) {
    const name = HookEvent.toDialect(event, dialect);
    if (name !== undefined) names[event] = name;
  }
  return names;
}

const inverse = (names: Partial<Record<HookEventName, string>>): Record<string, HookEventName> =>
  Object.fromEntries(Object.entries(names).map(([event, name]) => [name, event as HookEventName]));

type TargetShape = Omit<InstallTarget, 'agent' | 'events'> & { readonly extraEvents?: Readonly<Record<string, HookEventName>> };

const claudeGroups = { layout: 'grouped', version: undefined, typed: true, commandField: 'command', eventArgument: false } as const;

// Codex takes Claude Code's names for the events it has (codex-rs/config hook_config.rs; developers.openai.com/codex/hooks).
const CODEX_EVENTS: readonly HookEventName[] = ['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'PreCompact', 'PostCompact', 'SubagentStart', 'SubagentStop', 'Stop'];
// VS Code's eight (code.visualstudio.com/docs/agent-customization/hooks).
const VSCODE_EVENTS: readonly HookEventName[] = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact', 'SubagentStart', 'SubagentStop', 'Stop'];

const SHAPES: Readonly<Record<InstallAgent, TargetShape>> = {
  claude: { ...claudeGroups, title: 'Claude Code', file: '.claude/settings.json', projectVariable: 'CLAUDE_PROJECT_DIR', timeout: { field: 'timeout', unit: 's' }, names: dialectNames('claude') },
  // Codex sets no project variable; it runs hooks in the session's working directory.
  codex: { ...claudeGroups, title: 'Codex', file: '.codex/hooks.json', projectVariable: undefined, timeout: { field: 'timeout', unit: 's', alias: 'timeoutSec' }, names: dialectNames('claude', CODEX_EVENTS) },
  gemini: { ...claudeGroups, title: 'Gemini CLI', file: '.gemini/settings.json', projectVariable: 'GEMINI_PROJECT_DIR', timeout: { field: 'timeout', unit: 'ms' }, names: dialectNames('gemini') },
  // Copilot runs hooks in the repository's root and its payloads name no event.
  copilot: {
    title: 'GitHub Copilot CLI',
    file: '.github/hooks/agent-hooks.json',
    projectVariable: undefined,
    layout: 'flat',
    version: 1,
    typed: true,
    commandField: 'bash',
    timeout: { field: 'timeoutSec', unit: 's' },
    eventArgument: true,
    names: dialectNames('copilot'),
  },
  // VS Code reads .github/hooks/*.json and .claude/settings.json. Its own file keeps the bridge out of Claude Code;
  // no `version` and PascalCase names make it VS Code's format, which Copilot CLI also reads (as Claude-compatible).
  vscode: {
    title: 'VS Code',
    file: '.github/hooks/agent-hooks-vscode.json',
    projectVariable: undefined,
    layout: 'flat',
    version: undefined,
    typed: true,
    commandField: 'command',
    timeout: { field: 'timeout', unit: 's', alias: 'timeoutSec' },
    eventArgument: false,
    names: dialectNames('claude', VSCODE_EVENTS),
  },
  cursor: {
    title: 'Cursor',
    file: '.cursor/hooks.json',
    projectVariable: 'CURSOR_PROJECT_DIR',
    layout: 'flat',
    version: 1,
    typed: false,
    commandField: 'command',
    timeout: { field: 'timeout', unit: 's' },
    eventArgument: false,
    names: dialectNames('cursor'),
    // beforeShellExecution and the like: PreToolUse or PostToolUse for some tools, written when named.
    extraEvents: CURSOR_EVENTS,
  },
};

/**
 * Each agent's hook file and entry shape.
 *
 * @internal
 */
export const INSTALL_TARGETS: Readonly<Record<InstallAgent, InstallTarget>> = Object.freeze(
  Object.fromEntries(
    Object.entries(SHAPES).map(([agent, { extraEvents, ...shape }]) => [agent, Object.freeze({ ...shape, agent, events: { ...inverse(shape.names), ...extraEvents } })]),
  ) as Record<InstallAgent, InstallTarget>,
);

/**
 * Whether `name` is one of the agents `--install` knows.
 *
 * @internal
 */
export const isInstallAgent = (name: string): name is InstallAgent => (INSTALL_AGENTS as readonly string[]).includes(name);

/**
 * The agent's own name for an event named in any dialect — its own names first, so Gemini's `AfterAgent` is its stop
 * gate and Cursor's `beforeShellExecution` stays itself — or `undefined` when the agent has no such event.
 *
 * @throws {@link UnknownEventError} for a name no dialect knows.
 *
 * @internal
 */
export function installEventName(agent: InstallAgent, name: string): string | undefined {
  const target = INSTALL_TARGETS[agent];
  if (Object.hasOwn(target.events, name)) return name;
  return target.names[HookEvent.parse(name)];
}
