/**
 * The canonical lifecycle events and the alias table that maps every dialect's event names onto them.
 *
 * @module
 */
import { editDistance } from './internal/edit-distance.js';

/**
 * The names of the twenty-six canonical lifecycle events, in the order an agent run meets them.
 */
export const HOOK_EVENTS = [
  'SessionStart',
  'SessionEnd',
  'ExecutionStart',
  'UserPromptSubmit',
  'BeforeStep',
  'BeforeModel',
  'BeforeToolSelection',
  'AfterModel',
  'PreToolUse',
  'PermissionRequest',
  'PermissionDenied',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'AfterStep',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'Stop',
  'StopFailure',
  'AfterStop',
  'AfterAgent',
  'ExecutionEnd',
  'AgentFailed',
  'Notification',
] as const;

/** A canonical lifecycle event name, e.g. `'PreToolUse'`. */
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** The events that concern one tool call; their contexts are {@link ToolHookContext}s. */
export type ToolEventName = 'PreToolUse' | 'PermissionRequest' | 'PermissionDenied' | 'PostToolUse' | 'PostToolUseFailure';

/**
 * A naming scheme for events used by one agent or format.
 *
 * - `canonical` — this library's names (identical to Claude Code's where Claude Code has the event).
 * - `php` — the PHP AgentBuilder hook API: its `HookEvent` enum's case names (`HookEvent::PreToolUse`).
 * - `php-value` — the string values of that enum (`'pre_tool_use'`), which PHP's `HookEvent::from()` reads and its
 *   serialized events carry.
 * - `hookmd` — the Agent Hooks (HOOK.md) spec, current kebab-case names such as `pre-tool-call`.
 * - `hookmd-legacy` — the Agent Hooks spec's older snake_case names such as `before_tool`.
 * - `claude` — Claude Code `settings.json` (VS Code agent hooks use the same names).
 * - `copilot` — GitHub Copilot CLI / coding agent, lowerCamelCase.
 * - `gemini` — Gemini CLI `settings.json`.
 * - `cursor` — Cursor `hooks.json`, lowerCamelCase.
 * - `codex` — Codex CLI `hooks.json` (Claude Code's names for the events both have, and `PreModelRequest`).
 */
export type EventDialect = 'canonical' | 'php' | 'php-value' | 'hookmd' | 'hookmd-legacy' | 'claude' | 'copilot' | 'gemini' | 'cursor' | 'codex';

/** Every dialect, in the order error messages list them. */
export const EVENT_DIALECTS: readonly EventDialect[] = [
  'canonical',
  'php',
  'php-value',
  'hookmd',
  'hookmd-legacy',
  'claude',
  'copilot',
  'gemini',
  'cursor',
  'codex',
];

/** The context family an event belongs to; each family has one context class. */
export type EventFamily =
  | 'tool'
  | 'batch'
  | 'step'
  | 'model'
  | 'stop'
  | 'execution'
  | 'failure'
  | 'session'
  | 'prompt'
  | 'subagent'
  | 'compact'
  | 'notification';

/** What an event is and what its hooks may decide. */
export interface EventInfo {
  /** The canonical name. */
  readonly name: HookEventName;
  /** The context family, which fixes the context class hooks receive. */
  readonly family: EventFamily;
  /** Whether the event concerns one tool call (a tool-name matcher can match it). */
  readonly tool: boolean;
  /**
   * Whether `block` means something here: refuse a tool call or prompt, reject a result, or keep the agent working
   * (Stop). On the other events a block is ignored by the runtime, with a warning.
   */
  readonly canBlock: boolean;
  /** Whether `stop` can still halt anything: false for events that fire once the run is already over. */
  readonly canStop: boolean;
  /** Whether `ask` (an approval request) means something here. */
  readonly canAsk: boolean;
  /** One line on when the event fires. */
  readonly description: string;
}

const info = (
  name: HookEventName,
  family: EventFamily,
  flags: { canBlock?: boolean; canStop?: boolean; canAsk?: boolean },
  description: string,
): EventInfo =>
  Object.freeze({
    name,
    family,
    tool: family === 'tool',
    canBlock: flags.canBlock ?? false,
    canStop: flags.canStop ?? true,
    canAsk: flags.canAsk ?? false,
    description,
  });

const EVENT_INFO: Readonly<Record<HookEventName, EventInfo>> = Object.freeze({
  SessionStart: info('SessionStart', 'session', {}, 'A session starts (first turn of a conversation).'),
  SessionEnd: info('SessionEnd', 'session', { canStop: false }, 'A session is closed.'),
  ExecutionStart: info('ExecutionStart', 'execution', {}, 'One run (agent turn) begins.'),
  UserPromptSubmit: info(
    'UserPromptSubmit',
    'prompt',
    { canBlock: true },
    'The user prompt is about to be processed; a block rejects it.',
  ),
  BeforeStep: info('BeforeStep', 'step', {}, 'A step (one model call and its tool calls) begins.'),
  BeforeModel: info(
    'BeforeModel',
    'model',
    { canBlock: true },
    "The model is about to be called; hooks may rewrite the request, or answer instead of the model (a block is a refusal: the reason becomes the step's answer).",
  ),
  BeforeToolSelection: info(
    'BeforeToolSelection',
    'model',
    {},
    'The model is about to choose among the tools; hooks may narrow the tools it may call.',
  ),
  AfterModel: info(
    'AfterModel',
    'model',
    { canBlock: true },
    "The model answered, before any tool runs; hooks may rewrite the answer, or block to have the call made again with the reason as feedback.",
  ),
  PreToolUse: info(
    'PreToolUse',
    'tool',
    { canBlock: true, canAsk: true },
    'A tool call is about to run; hooks may rewrite its input, refuse it or ask for approval.',
  ),
  PermissionRequest: info(
    'PermissionRequest',
    'tool',
    { canBlock: true, canAsk: true },
    'A tool call needs approval; hooks may grant or refuse it before the approver is asked.',
  ),
  PostToolUse: info(
    'PostToolUse',
    'tool',
    { canBlock: true },
    'A tool call succeeded; hooks may replace the result, or reject it (the model is told).',
  ),
  PermissionDenied: info(
    'PermissionDenied',
    'tool',
    {},
    'The approver refused a tool call; hooks may tell the model it may retry the call.',
  ),
  PostToolUseFailure: info('PostToolUseFailure', 'tool', {}, 'A tool call failed.'),
  PostToolBatch: info(
    'PostToolBatch',
    'batch',
    { canBlock: true },
    "Every tool call of a step has resolved, before the next model call; hooks may add context, or block to end the run there.",
  ),
  AfterStep: info('AfterStep', 'step', {}, 'A step has completed.'),
  SubagentStart: info('SubagentStart', 'subagent', { canBlock: true }, 'A subagent is about to start; a block refuses it.'),
  SubagentStop: info(
    'SubagentStop',
    'stop',
    { canBlock: true },
    'A subagent is about to stop; a block keeps it working, with the reason as feedback.',
  ),
  PreCompact: info('PreCompact', 'compact', {}, 'The conversation is about to be compacted.'),
  PostCompact: info('PostCompact', 'compact', {}, 'The conversation has been compacted.'),
  Stop: info(
    'Stop',
    'stop',
    { canBlock: true },
    'The agent is about to stop (quality gate); a block keeps it working, with the reason as feedback.',
  ),
  StopFailure: info(
    'StopFailure',
    'failure',
    { canStop: false },
    'The turn ended on a model (API) error, in place of Stop; hooks observe it and decide nothing.',
  ),
  AfterStop: info('AfterStop', 'stop', {}, 'The agent has stopped responding for this turn.'),
  AfterAgent: info('AfterAgent', 'stop', {}, 'The turn is finished, before the run ends.'),
  ExecutionEnd: info('ExecutionEnd', 'execution', { canStop: false }, 'One run has ended, whatever its status.'),
  AgentFailed: info('AgentFailed', 'failure', { canStop: false }, 'The run hit an unrecoverable error.'),
  Notification: info('Notification', 'notification', {}, 'The agent notifies the user (warning, idle, permission prompt).'),
});

/*
 * The alias table. One row per canonical event; a dialect without the event has no entry.
 *
 * Debatable mappings, decided here:
 * - Gemini's `AfterAgent` fires when the agent would finish and may send it back to work: it is a stop gate, so it maps
 *   to Stop. The canonical `AfterAgent` is the HOOK.md `after_agent` / `post-agent-turn` observer. The same string thus
 *   means two events; without a dialect, `parse('AfterAgent')` gives the canonical AfterAgent, and
 *   `parse('AfterAgent', 'gemini')` gives Stop.
 * - HOOK.md's old `before_agent` runs before the agent processes the user's input: UserPromptSubmit, like Gemini's
 *   `BeforeAgent` and the new name `pre-agent-turn`.
 * - HOOK.md's `subagent_stop` / `post-subagent` map to SubagentStop, Copilot's `errorOccurred` to AgentFailed and its
 *   `agentStop` to Stop.
 * - Gemini's `PreCompress` is PreCompact.
 * - Gemini CLI's `BeforeModel`, `BeforeToolSelection` and `AfterModel` are the model events of the same names: its
 *   hooks are sent the model request (and the answer, on AfterModel) and may rewrite the request, answer instead of
 *   the model, narrow the tools and replace the answer, as hooks of these events do here (the gemini dialect reads
 *   its answers as Gemini CLI acts on them). They are not BeforeStep, which has no Gemini name: a step is one model
 *   call and its tools, and Gemini CLI's hooks of the model call see the call, not the step. Neither the PHP API nor
 *   the HOOK.md spec has a model event (LangChain's `beforeModel`/`afterModel` are middleware, not a hook format).
 * - Cursor's names are its lowerCamelCase ones (`beforeSubmitPrompt` is UserPromptSubmit, `stop` is Stop). Its
 *   tool-specific events (`beforeShellExecution`, `beforeReadFile`, `afterFileEdit`, …) are PreToolUse or PostToolUse
 *   for some tools only; the Cursor config loader maps them, not this table.
 * - Codex CLI (0.169) uses Claude Code's names for the events both have. Its `PreModelRequest` runs before each model
 *   request of a turn, as a step begins: BeforeStep, not BeforeModel — its payload carries no request (session, turn,
 *   model name and working directory only), and Codex reads no answer of it (0.169 embeds no output schema for it,
 *   as it does for each event whose answer it reads), so a hook can neither see nor change the call. Its
 *   `PostModelRequest` runs between the model's answer and the tools, before the step is over, so it is not AfterStep
 *   and has no counterpart; nor has `Interrupt` (the user interrupted the turn), which can only show a message. Both
 *   are unknown names here. Codex has no PostToolUseFailure (its PostToolUse also follows a command that exited
 *   non-zero) and no Notification.
 * - Claude Code's PostToolBatch, PermissionDenied and StopFailure (2.1) have no counterpart in Codex (0.169), Copilot
 *   (1.0), Gemini CLI (0.61) or Cursor, and neither the PHP API nor the HOOK.md spec names them: they have their
 *   canonical (Claude Code) names only. PermissionDenied fires here when the approver refuses a call, where Claude Code
 *   fires it when its auto-mode classifier does (never for a hook's deny); StopFailure fires in place of Stop when the
 *   turn ends on a model error.
 * - The PHP enum's values (`php-value`) are snake_case, like HOOK.md's older names, and two of them are spelled like
 *   another dialect's name. Both collisions name the same event, so no name changes meaning: `subagent_stop` is
 *   SubagentStop in PHP and in old HOOK.md, and `stop` is Stop in PHP and in Cursor. PHP's `stop` is the gate that may
 *   keep the agent working (HOOK.md's `before_stop` / `pre-agent-turn-stop`), not HOOK.md's `post-agent-turn-stop`
 *   observer (AfterStop) nor `after_agent` (AfterAgent). PHP's `before_step`/`after_step` are a step's (model call's)
 *   events, not HOOK.md's `before_agent`/`after_agent` turn events, one letter away: they stay BeforeStep and AfterStep.
 */
const ALIASES: Readonly<Record<HookEventName, Partial<Record<Exclude<EventDialect, 'canonical'>, string>>>> = {
  SessionStart: {
    'hookmd-legacy': 'session_start',
    hookmd: 'pre-session',
    claude: 'SessionStart',
    copilot: 'sessionStart',
    gemini: 'SessionStart',
    cursor: 'sessionStart',
    codex: 'SessionStart',
  },
  SessionEnd: {
    'hookmd-legacy': 'session_end',
    hookmd: 'post-session',
    claude: 'SessionEnd',
    copilot: 'sessionEnd',
    gemini: 'SessionEnd',
    cursor: 'sessionEnd',
    codex: 'SessionEnd',
  },
  ExecutionStart: { php: 'ExecutionStart', 'php-value': 'execution_start' },
  UserPromptSubmit: {
    'hookmd-legacy': 'before_agent',
    hookmd: 'pre-agent-turn',
    claude: 'UserPromptSubmit',
    copilot: 'userPromptSubmitted',
    gemini: 'BeforeAgent',
    cursor: 'beforeSubmitPrompt',
    codex: 'UserPromptSubmit',
  },
  BeforeStep: { php: 'BeforeStep', 'php-value': 'before_step', codex: 'PreModelRequest' },
  BeforeModel: { gemini: 'BeforeModel' },
  BeforeToolSelection: { gemini: 'BeforeToolSelection' },
  AfterModel: { gemini: 'AfterModel' },
  PreToolUse: {
    php: 'PreToolUse',
    'php-value': 'pre_tool_use',
    'hookmd-legacy': 'before_tool',
    hookmd: 'pre-tool-call',
    claude: 'PreToolUse',
    copilot: 'preToolUse',
    gemini: 'BeforeTool',
    cursor: 'preToolUse',
    codex: 'PreToolUse',
  },
  PermissionRequest: { claude: 'PermissionRequest', copilot: 'permissionRequest', codex: 'PermissionRequest' },
  PostToolUse: {
    php: 'PostToolUse',
    'php-value': 'post_tool_use',
    'hookmd-legacy': 'after_tool',
    hookmd: 'post-tool-call',
    claude: 'PostToolUse',
    copilot: 'postToolUse',
    gemini: 'AfterTool',
    cursor: 'postToolUse',
    codex: 'PostToolUse',
  },
  PermissionDenied: { claude: 'PermissionDenied' },
  PostToolUseFailure: {
    'hookmd-legacy': 'after_tool_failure',
    hookmd: 'post-tool-call-failure',
    claude: 'PostToolUseFailure',
    copilot: 'postToolUseFailure',
    cursor: 'postToolUseFailure',
  },
  PostToolBatch: { claude: 'PostToolBatch' },
  AfterStep: { php: 'AfterStep', 'php-value': 'after_step' },
  SubagentStart: {
    'hookmd-legacy': 'subagent_start',
    hookmd: 'pre-subagent',
    claude: 'SubagentStart',
    copilot: 'subagentStart',
    cursor: 'subagentStart',
    codex: 'SubagentStart',
  },
  SubagentStop: {
    php: 'SubagentStop',
    'php-value': 'subagent_stop',
    'hookmd-legacy': 'subagent_stop',
    hookmd: 'post-subagent',
    claude: 'SubagentStop',
    copilot: 'subagentStop',
    cursor: 'subagentStop',
    codex: 'SubagentStop',
  },
  PreCompact: {
    'hookmd-legacy': 'pre_compact',
    hookmd: 'pre-context-compact',
    claude: 'PreCompact',
    copilot: 'preCompact',
    gemini: 'PreCompress',
    cursor: 'preCompact',
    codex: 'PreCompact',
  },
  PostCompact: { hookmd: 'post-context-compact', claude: 'PostCompact', codex: 'PostCompact' },
  Stop: {
    php: 'Stop',
    'php-value': 'stop',
    'hookmd-legacy': 'before_stop',
    hookmd: 'pre-agent-turn-stop',
    claude: 'Stop',
    copilot: 'agentStop',
    gemini: 'AfterAgent',
    cursor: 'stop',
    codex: 'Stop',
  },
  StopFailure: { claude: 'StopFailure' },
  AfterStop: { hookmd: 'post-agent-turn-stop' },
  AfterAgent: { 'hookmd-legacy': 'after_agent', hookmd: 'post-agent-turn' },
  ExecutionEnd: { php: 'ExecutionEnd', 'php-value': 'execution_end' },
  AgentFailed: { php: 'AgentFailed', 'php-value': 'agent_failed', copilot: 'errorOccurred' },
  Notification: { claude: 'Notification', copilot: 'notification', gemini: 'Notification' },
};

/** name → event, per dialect, and across all dialects (canonical names first, so they win a collision). */
const BY_DIALECT = new Map<EventDialect, Map<string, HookEventName>>();
const ANY_DIALECT = new Map<string, HookEventName>();
for (const dialect of EVENT_DIALECTS) BY_DIALECT.set(dialect, new Map());
for (const event of HOOK_EVENTS) {
  BY_DIALECT.get('canonical')!.set(event, event);
  ANY_DIALECT.set(event, event);
}
for (const event of HOOK_EVENTS) {
  for (const [dialect, alias] of Object.entries(ALIASES[event]) as [EventDialect, string][]) {
    BY_DIALECT.get(dialect)!.set(alias, event);
    if (!ANY_DIALECT.has(alias)) ANY_DIALECT.set(alias, event);
  }
}

/** Thrown by `HookEvent.parse` for a name no dialect knows. */
export class UnknownEventError extends Error {
  /** Always `'UnknownEventError'`. */
  override readonly name = 'UnknownEventError';
  /** The name that was given. */
  readonly given: string;
  /** The dialect that was searched, if one was named. */
  readonly dialect: EventDialect | undefined;
  /** Known names close to the given one, best first. */
  readonly suggestions: readonly string[];

  constructor(given: string, dialect: EventDialect | undefined, suggestions: readonly string[], known: readonly string[] = HOOK_EVENTS) {
    const where = dialect ? ` in the ${dialect} dialect` : '';
    const hint =
      suggestions.length > 0
        ? ` Did you mean ${suggestions.map((s) => `'${s}'`).join(', ')}?`
        : ` Known events${where}: ${known.join(', ')}${dialect ? '' : ", or any dialect's name for one of them (npx agent-hooks events lists them all)"}.`;
    super(`Unknown hook event '${given}'${where}.${hint} (Event names are case-sensitive.)`);
    this.given = given;
    this.dialect = dialect;
    this.suggestions = suggestions;
  }
}

const normalize = (s: string): string => s.toLowerCase().replace(/[-_\s]/g, '');


/** Known names close to `given`, best first: one per event, so that several spellings of one event crowd out none. */
function closeMatches(given: string, names: ReadonlyMap<string, HookEventName>): string[] {
  const wanted = normalize(given);
  const best = new Map<HookEventName, { name: string; score: number }>();
  for (const [name, event] of names) {
    const candidate = normalize(name);
    const allowed = Math.max(2, Math.floor(Math.max(wanted.length, candidate.length) / 3));
    // The distance is at least the difference in length: a name far longer than any event (a hostile payload's) is
    // rejected without the quadratic comparison.
    if (Math.abs(wanted.length - candidate.length) > allowed) continue;
    // Same letters in another case or separator style is the most likely mistake: rank it first.
    const score = candidate === wanted ? 0 : editDistance(wanted, candidate);
    const current = best.get(event);
    if (score <= allowed && (current === undefined || score < current.score)) best.set(event, { name, score });
  }
  return [...best.values()]
    .sort((a, b) => a.score - b.score)
    .slice(0, 5)
    .map((s) => s.name);
}

function tryParse(name: string, dialect?: EventDialect): HookEventName | undefined {
  return (dialect ? BY_DIALECT.get(dialect) : ANY_DIALECT)?.get(name);
}

function parse(name: string, dialect?: EventDialect): HookEventName {
  const event = tryParse(name, dialect);
  if (event !== undefined) return event;
  if (typeof name !== 'string') throw new TypeError(`A hook event name must be a string, got ${typeof name}.`);
  if (dialect === undefined) throw new UnknownEventError(name, undefined, closeMatches(name, ANY_DIALECT));
  const names = BY_DIALECT.get(dialect)!;
  throw new UnknownEventError(name, dialect, closeMatches(name, names), [...names.keys()]);
}

function toDialect(event: HookEventName, dialect: EventDialect): string | undefined {
  if (dialect === 'canonical') return event;
  return ALIASES[event][dialect];
}

/** One name of an event in one dialect. */
export interface EventAlias {
  /** The dialect. */
  readonly dialect: EventDialect;
  /** The event's name in that dialect. */
  readonly name: string;
}

function aliasesOf(event: HookEventName): readonly EventAlias[] {
  const out: EventAlias[] = [{ dialect: 'canonical', name: event }];
  for (const dialect of EVENT_DIALECTS) {
    const name = dialect === 'canonical' ? undefined : ALIASES[event][dialect];
    if (name !== undefined) out.push({ dialect, name });
  }
  return out;
}

/**
 * The canonical event names as constants (`HookEvent.PreToolUse === 'PreToolUse'`), and the functions that translate
 * between dialects.
 *
 * ```ts
 * HookEvent.parse('before_tool');              // 'PreToolUse'
 * HookEvent.parse('pre_tool_use');             // 'PreToolUse' (the PHP enum's value)
 * HookEvent.parse('AfterAgent', 'gemini');     // 'Stop' (Gemini's AfterAgent is a stop gate)
 * HookEvent.toDialect('PreToolUse', 'copilot'); // 'preToolUse'
 * ```
 */
export const HookEvent = Object.freeze({
  /** A session starts (first turn of a conversation). */
  SessionStart: 'SessionStart',
  /** A session is closed. */
  SessionEnd: 'SessionEnd',
  /** One run (agent turn) begins. */
  ExecutionStart: 'ExecutionStart',
  /** The user prompt is about to be processed; a block rejects it. */
  UserPromptSubmit: 'UserPromptSubmit',
  /** A step (one model call and its tool calls) begins. */
  BeforeStep: 'BeforeStep',
  /** The model is about to be called; hooks may rewrite the request or answer instead of the model. */
  BeforeModel: 'BeforeModel',
  /** The model is about to choose among the tools; hooks may narrow them. */
  BeforeToolSelection: 'BeforeToolSelection',
  /** The model answered, before any tool runs; hooks may rewrite the answer or have the call made again. */
  AfterModel: 'AfterModel',
  /** A tool call is about to run; hooks may rewrite, refuse or ask. */
  PreToolUse: 'PreToolUse',
  /** A tool call needs approval. */
  PermissionRequest: 'PermissionRequest',
  /** The approver refused a tool call; hooks may tell the model it may retry. */
  PermissionDenied: 'PermissionDenied',
  /** A tool call succeeded; hooks may replace or reject the result. */
  PostToolUse: 'PostToolUse',
  /** A tool call failed. */
  PostToolUseFailure: 'PostToolUseFailure',
  /** Every tool call of a step has resolved, before the next model call. */
  PostToolBatch: 'PostToolBatch',
  /** A step has completed. */
  AfterStep: 'AfterStep',
  /** A subagent is about to start. */
  SubagentStart: 'SubagentStart',
  /** A subagent is about to stop; a block keeps it working. */
  SubagentStop: 'SubagentStop',
  /** The conversation is about to be compacted. */
  PreCompact: 'PreCompact',
  /** The conversation has been compacted. */
  PostCompact: 'PostCompact',
  /** The agent is about to stop (quality gate); a block keeps it working. */
  Stop: 'Stop',
  /** The turn ended on a model (API) error, in place of Stop. */
  StopFailure: 'StopFailure',
  /** The agent has stopped responding for this turn. */
  AfterStop: 'AfterStop',
  /** The turn is finished, before the run ends. */
  AfterAgent: 'AfterAgent',
  /** One run has ended, whatever its status. */
  ExecutionEnd: 'ExecutionEnd',
  /** The run hit an unrecoverable error. */
  AgentFailed: 'AgentFailed',
  /** The agent notifies the user. */
  Notification: 'Notification',

  /** All canonical events, in lifecycle order. */
  all: HOOK_EVENTS,

  /**
   * The canonical event for any dialect's name. Names are case-sensitive, as each dialect writes them.
   * Without a dialect every alias is accepted and a canonical name wins a collision; with one, only that dialect's
   * names are.
   *
   * @throws {@link UnknownEventError} listing close matches.
   */
  parse,

  /** Like `HookEvent.parse`, but `undefined` for an unknown name. */
  tryParse,

  /** Whether `name` is a canonical event name (not an alias). */
  isCanonical(name: unknown): name is HookEventName {
    return typeof name === 'string' && Object.hasOwn(EVENT_INFO, name);
  },

  /** A dialect's own name for `event`, or `undefined` when that dialect has no such event. */
  toDialect,

  /** Every name of `event`, dialect by dialect (canonical first). */
  aliasesOf,

  /** What `event` is and what its hooks may decide. */
  info(event: HookEventName): EventInfo {
    return EVENT_INFO[event];
  },

  /** Whether `event` concerns one tool call. */
  isToolEvent(event: HookEventName): event is ToolEventName {
    return EVENT_INFO[event].tool;
  },

  /** Whether a `block` outcome means something on `event`. */
  canBlock(event: HookEventName): boolean {
    return EVENT_INFO[event].canBlock;
  },

  /** Whether a `stop` outcome can still halt the run on `event`. */
  canStop(event: HookEventName): boolean {
    return EVENT_INFO[event].canStop;
  },

  /** Whether an `ask` outcome (approval request) means something on `event`. */
  canAsk(event: HookEventName): boolean {
    return EVENT_INFO[event].canAsk;
  },
} as const);

/** The tool events, as a set: what tool-name and tool-input matchers can match. */
export const TOOL_EVENTS: ReadonlySet<HookEventName> = new Set(HOOK_EVENTS.filter((e) => EVENT_INFO[e].tool));

/** A canonical lifecycle event name. The same name as a value is `HookEvent.PreToolUse` and its siblings. */
export type HookEvent = HookEventName;
