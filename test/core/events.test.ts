import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_DIALECTS, HOOK_EVENTS, HookEvent, UnknownEventError, type EventDialect, type HookEventName } from 'agent-hooks';
import { catchError } from '../support/catch-error.js';

/** The DESIGN.md §3 alias table, spelled out row by row ('–' is undefined). */
interface Row {
  php?: string;
  phpValue?: string;
  legacy?: string;
  hookmd?: string;
  claude?: string;
  copilot?: string;
  gemini?: string;
  cursor?: string;
  codex?: string;
}

const TABLE: readonly (readonly [HookEventName, Row])[] = [
  ['SessionStart', { legacy: 'session_start', hookmd: 'pre-session', claude: 'SessionStart', copilot: 'sessionStart', gemini: 'SessionStart', cursor: 'sessionStart', codex: 'SessionStart' }],
  ['SessionEnd', { legacy: 'session_end', hookmd: 'post-session', claude: 'SessionEnd', copilot: 'sessionEnd', gemini: 'SessionEnd', cursor: 'sessionEnd', codex: 'SessionEnd' }],
  ['ExecutionStart', { php: 'ExecutionStart', phpValue: 'execution_start' }],
  [
    'UserPromptSubmit',
    { legacy: 'before_agent', hookmd: 'pre-agent-turn', claude: 'UserPromptSubmit', copilot: 'userPromptSubmitted', gemini: 'BeforeAgent', cursor: 'beforeSubmitPrompt', codex: 'UserPromptSubmit' },
  ],
  ['BeforeStep', { php: 'BeforeStep', phpValue: 'before_step', codex: 'PreModelRequest' }],
  // The model events are Gemini CLI's, by the same names.
  ['BeforeModel', { gemini: 'BeforeModel' }],
  ['BeforeToolSelection', { gemini: 'BeforeToolSelection' }],
  ['AfterModel', { gemini: 'AfterModel' }],
  [
    'PreToolUse',
    { php: 'PreToolUse', phpValue: 'pre_tool_use', legacy: 'before_tool', hookmd: 'pre-tool-call', claude: 'PreToolUse', copilot: 'preToolUse', gemini: 'BeforeTool', cursor: 'preToolUse', codex: 'PreToolUse' },
  ],
  ['PermissionRequest', { claude: 'PermissionRequest', copilot: 'permissionRequest', codex: 'PermissionRequest' }],
  // Claude Code's own: no other agent (Codex 0.169, Copilot 1.0, Gemini CLI 0.61, Cursor) nor spec has it.
  ['PermissionDenied', { claude: 'PermissionDenied' }],
  [
    'PostToolUse',
    { php: 'PostToolUse', phpValue: 'post_tool_use', legacy: 'after_tool', hookmd: 'post-tool-call', claude: 'PostToolUse', copilot: 'postToolUse', gemini: 'AfterTool', cursor: 'postToolUse', codex: 'PostToolUse' },
  ],
  [
    'PostToolUseFailure',
    { legacy: 'after_tool_failure', hookmd: 'post-tool-call-failure', claude: 'PostToolUseFailure', copilot: 'postToolUseFailure', cursor: 'postToolUseFailure' },
  ],
  ['PostToolBatch', { claude: 'PostToolBatch' }],
  ['AfterStep', { php: 'AfterStep', phpValue: 'after_step' }],
  ['SubagentStart', { legacy: 'subagent_start', hookmd: 'pre-subagent', claude: 'SubagentStart', copilot: 'subagentStart', cursor: 'subagentStart', codex: 'SubagentStart' }],
  [
    'SubagentStop',
    { php: 'SubagentStop', phpValue: 'subagent_stop', legacy: 'subagent_stop', hookmd: 'post-subagent', claude: 'SubagentStop', copilot: 'subagentStop', cursor: 'subagentStop', codex: 'SubagentStop' },
  ],
  [
    'PreCompact',
    { legacy: 'pre_compact', hookmd: 'pre-context-compact', claude: 'PreCompact', copilot: 'preCompact', gemini: 'PreCompress', cursor: 'preCompact', codex: 'PreCompact' },
  ],
  ['PostCompact', { hookmd: 'post-context-compact', claude: 'PostCompact', codex: 'PostCompact' }],
  [
    'Stop',
    { php: 'Stop', phpValue: 'stop', legacy: 'before_stop', hookmd: 'pre-agent-turn-stop', claude: 'Stop', copilot: 'agentStop', gemini: 'AfterAgent', cursor: 'stop', codex: 'Stop' },
  ],
  ['StopFailure', { claude: 'StopFailure' }],
  ['AfterStop', { hookmd: 'post-agent-turn-stop' }],
  ['AfterAgent', { legacy: 'after_agent', hookmd: 'post-agent-turn' }],
  ['ExecutionEnd', { php: 'ExecutionEnd', phpValue: 'execution_end' }],
  ['AgentFailed', { php: 'AgentFailed', phpValue: 'agent_failed', copilot: 'errorOccurred' }],
  ['Notification', { claude: 'Notification', copilot: 'notification', gemini: 'Notification' }],
];

const COLUMN: Readonly<Record<Exclude<EventDialect, 'canonical'>, keyof Row>> = {
  php: 'php',
  'php-value': 'phpValue',
  hookmd: 'hookmd',
  'hookmd-legacy': 'legacy',
  claude: 'claude',
  copilot: 'copilot',
  gemini: 'gemini',
  cursor: 'cursor',
  codex: 'codex',
};

const expectedName = (row: Row, dialect: EventDialect, event: HookEventName): string | undefined =>
  dialect === 'canonical' ? event : row[COLUMN[dialect]];

const unknownEvent = (fn: () => unknown): UnknownEventError => {
  const error = catchError(fn);
  expect(error).toBeInstanceOf(UnknownEventError);
  return error as UnknownEventError;
};

/** Every name of every dialect. */
const ALL_NAMES: readonly string[] = [...new Set(HookEvent.all.flatMap((e) => HookEvent.aliasesOf(e).map((a) => a.name)))];

describe('canonical events', () => {
  it('has the 26 canonical events in lifecycle order (the DESIGN.md table, with the model events after BeforeStep and Claude Code 2.1’s PermissionDenied, PostToolBatch and StopFailure beside their neighbours)', () => {
    expect(HookEvent.all).toHaveLength(26);
    expect([...HookEvent.all]).toEqual(TABLE.map(([e]) => e));
    expect(HOOK_EVENTS).toBe(HookEvent.all);
  });

  it('exposes every event as a constant equal to its name', () => {
    expect(HookEvent.PreToolUse).toBe('PreToolUse');
    expect(HookEvent.Stop).toBe('Stop');
    expect(HookEvent.AfterAgent).toBe('AfterAgent');
    for (const event of HookEvent.all) {
      expect((HookEvent as unknown as Record<string, unknown>)[event]).toBe(event);
    }
  });

  it('isCanonical accepts canonical names only', () => {
    for (const event of HookEvent.all) expect(HookEvent.isCanonical(event)).toBe(true);
    expect(HookEvent.isCanonical('before_tool')).toBe(false);
    expect(HookEvent.isCanonical('preToolUse')).toBe(false);
    expect(HookEvent.isCanonical('BeforeTool')).toBe(false);
    expect(HookEvent.isCanonical('pretooluse')).toBe(false);
    expect(HookEvent.isCanonical('toString')).toBe(false);
    expect(HookEvent.isCanonical('__proto__')).toBe(false);
    expect(HookEvent.isCanonical(42)).toBe(false);
    expect(HookEvent.isCanonical(undefined)).toBe(false);
  });
});

describe('alias table', () => {
  it('parses every alias of every event to that event, and writes it back (round trip)', () => {
    let checked = 0;
    for (const event of HookEvent.all) {
      const aliases = HookEvent.aliasesOf(event);
      expect(aliases[0]).toEqual({ dialect: 'canonical', name: event });
      for (const { dialect, name } of aliases) {
        expect(HookEvent.parse(name, dialect)).toBe(event);
        expect(HookEvent.tryParse(name, dialect)).toBe(event);
        expect(HookEvent.toDialect(event, dialect)).toBe(name);
        // The documented collisions, tested below.
        if (dialect === 'gemini' && name === 'AfterAgent') continue;
        expect(HookEvent.parse(name)).toBe(event);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(80);
  });

  it("resolves the AfterAgent collision: Gemini's AfterAgent is Stop only with the gemini dialect", () => {
    expect(HookEvent.parse('AfterAgent', 'gemini')).toBe('Stop');
    expect(HookEvent.tryParse('AfterAgent', 'gemini')).toBe('Stop');
    expect(HookEvent.toDialect('Stop', 'gemini')).toBe('AfterAgent');
    expect(HookEvent.parse('AfterAgent')).toBe('AfterAgent');
    expect(HookEvent.parse('AfterAgent', 'canonical')).toBe('AfterAgent');
    expect(HookEvent.tryParse('AfterAgent')).toBe('AfterAgent');
    expect(HookEvent.toDialect('AfterAgent', 'gemini')).toBeUndefined();
    expect(HookEvent.aliasesOf('Stop')).toContainEqual({ dialect: 'gemini', name: 'AfterAgent' });
    expect(HookEvent.parse('after_agent')).toBe('AfterAgent');
    expect(HookEvent.parse('post-agent-turn')).toBe('AfterAgent');
  });

  it('has no other name that means two events', () => {
    const seen = new Map<string, Set<HookEventName>>();
    for (const event of HookEvent.all) {
      for (const { name } of HookEvent.aliasesOf(event)) {
        const events = seen.get(name) ?? new Set<HookEventName>();
        events.add(event);
        seen.set(name, events);
      }
    }
    const ambiguous = [...seen].filter(([, events]) => events.size > 1).map(([name, events]) => [name, [...events].sort()]);
    expect(ambiguous).toEqual([['AfterAgent', ['AfterAgent', 'Stop']]]);
  });

  it("maps Gemini CLI's model events to the model events of the same names, and no Gemini name to BeforeStep", () => {
    for (const event of ['BeforeModel', 'BeforeToolSelection', 'AfterModel'] as const) {
      expect(HookEvent.parse(event, 'gemini')).toBe(event);
      expect(HookEvent.parse(event)).toBe(event);
      expect(HookEvent.toDialect(event, 'gemini')).toBe(event);
    }
    expect(HookEvent.toDialect('BeforeStep', 'gemini')).toBeUndefined();
    // Codex's PreModelRequest sees no request and changes none: it stays the step's beginning.
    expect(HookEvent.parse('PreModelRequest', 'codex')).toBe('BeforeStep');
    expect(HookEvent.toDialect('BeforeModel', 'codex')).toBeUndefined();
  });

  for (const [event, row] of TABLE) {
    it(`matches the DESIGN.md row for ${event}`, () => {
      for (const dialect of EVENT_DIALECTS) {
        const expected = expectedName(row, dialect, event);
        expect(HookEvent.toDialect(event, dialect), `${event} in ${dialect}`).toBe(expected);
        if (expected !== undefined) expect(HookEvent.parse(expected, dialect), `${expected} in ${dialect}`).toBe(event);
      }
      const expectedAliases = EVENT_DIALECTS.flatMap((dialect) => {
        const name = expectedName(row, dialect, event);
        return name === undefined ? [] : [{ dialect, name }];
      });
      expect(HookEvent.aliasesOf(event)).toEqual(expectedAliases);
    });
  }

  it('spells out the documented debatable mappings', () => {
    expect(HookEvent.parse('before_agent')).toBe('UserPromptSubmit');
    expect(HookEvent.parse('BeforeAgent', 'gemini')).toBe('UserPromptSubmit');
    expect(HookEvent.parse('errorOccurred', 'copilot')).toBe('AgentFailed');
    expect(HookEvent.parse('agentStop')).toBe('Stop');
    expect(HookEvent.parse('PreCompress')).toBe('PreCompact');
    expect(HookEvent.parse('post-agent-turn-stop', 'hookmd')).toBe('AfterStop');
    expect(HookEvent.parse('subagent_stop', 'hookmd-legacy')).toBe('SubagentStop');
    expect(HookEvent.toDialect('PreToolUse', 'hookmd-legacy')).toBe('before_tool');
    expect(HookEvent.toDialect('PermissionRequest', 'gemini')).toBeUndefined();
    // Codex's PreModelRequest begins a step; its PostModelRequest (before the tools run) and Interrupt have no event.
    expect(HookEvent.parse('PreModelRequest', 'codex')).toBe('BeforeStep');
    expect(HookEvent.tryParse('PostModelRequest', 'codex')).toBeUndefined();
    expect(HookEvent.tryParse('Interrupt')).toBeUndefined();
    expect(HookEvent.toDialect('PostToolUseFailure', 'codex')).toBeUndefined();
    expect(HookEvent.toDialect('ExecutionStart', 'claude')).toBeUndefined();
    expect(HookEvent.parse('BeforeModel', 'gemini')).toBe('BeforeModel');
    expect(HookEvent.parse('AfterModel', 'gemini')).toBe('AfterModel');
    expect(HookEvent.parse('BeforeToolSelection', 'gemini')).toBe('BeforeToolSelection');
  });
});

describe('parsing errors', () => {
  it("'pretooluse' (wrong case) throws UnknownEventError suggesting PreToolUse", () => {
    const error = unknownEvent(() => HookEvent.parse('pretooluse'));
    expect(error.name).toBe('UnknownEventError');
    expect(error.given).toBe('pretooluse');
    expect(error.dialect).toBeUndefined();
    expect(error.suggestions).toContain('PreToolUse');
    expect(error.message).toContain("'pretooluse'");
    expect(error.message).toContain("'PreToolUse'");
    expect(error.message).toContain('case-sensitive');
    for (const s of error.suggestions) expect(error.message).toContain(`'${s}'`);
  });

  it("'PRE-TOOL-CALL' throws UnknownEventError suggesting pre-tool-call", () => {
    const error = unknownEvent(() => HookEvent.parse('PRE-TOOL-CALL'));
    expect(error.suggestions).toContain('pre-tool-call');
    expect(error.message).toContain("'PRE-TOOL-CALL'");
    expect(error.message).toContain("'pre-tool-call'");
  });

  it("a typo 'PreToolUs' suggests PreToolUse, best first", () => {
    const error = unknownEvent(() => HookEvent.parse('PreToolUs'));
    expect(error.suggestions[0]).toBe('PreToolUse');
    expect(error.suggestions.length).toBeLessThanOrEqual(5);
    expect(error.message).toMatch(/^Unknown hook event 'PreToolUs'\. Did you mean 'PreToolUse'/);
  });

  it('suggests one name per event, so that spellings of one event crowd out no other', () => {
    const error = unknownEvent(() => HookEvent.parse('pre-tool-cal'));
    const events = error.suggestions.map((name) => HookEvent.parse(name));
    expect(new Set(events).size).toBe(events.length);
    expect(error.suggestions[0]).toBe('pre-tool-call');
    expect(events).toContain('PostToolUse');
  });

  it('a totally unknown name lists the known events', () => {
    const given = 'qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq';
    const error = unknownEvent(() => HookEvent.parse(given));
    expect(error.suggestions).toEqual([]);
    expect(error.message).toContain(`'${given}'`);
    expect(error.message).toContain('Known events:');
    for (const event of HookEvent.all) expect(error.message).toContain(event);
    expect(error.message).not.toContain('Did you mean');
    expect(error.message).toContain("any dialect's name");
  });

  it("with a dialect, only that dialect's names are accepted", () => {
    const error = unknownEvent(() => HookEvent.parse('before_tool', 'claude'));
    expect(error.dialect).toBe('claude');
    expect(error.message).toContain('in the claude dialect');
    const claudeNames = HookEvent.all.map((e) => HookEvent.toDialect(e, 'claude')).filter((n) => n !== undefined);
    for (const s of error.suggestions) expect(claudeNames).toContain(s);

    unknownEvent(() => HookEvent.parse('BeforeTool', 'claude'));
    unknownEvent(() => HookEvent.parse('before_tool', 'canonical'));
    unknownEvent(() => HookEvent.parse('pre-tool-call', 'hookmd-legacy'));
    unknownEvent(() => HookEvent.parse('AfterAgent', 'hookmd'));
    unknownEvent(() => HookEvent.parse('PreToolUse', 'gemini'));
    unknownEvent(() => HookEvent.parse('preToolUse', 'php'));
    expect(HookEvent.parse('BeforeTool', 'gemini')).toBe('PreToolUse');
    expect(HookEvent.parse('before_tool')).toBe('PreToolUse');
  });

  it("with a dialect and no close match, the message lists only names that dialect accepts", () => {
    const error = unknownEvent(() => HookEvent.parse('before_tool', 'claude'));
    expect(error.suggestions).toEqual([]);
    const listed = /Known events in the claude dialect: ([^.]*)\./.exec(error.message)?.[1]?.split(', ') ?? [];
    expect(listed.length).toBeGreaterThan(0);
    // Every name the message offers must parse in the dialect the user asked for (ExecutionStart does not in claude).
    for (const name of listed) expect(HookEvent.tryParse(name, 'claude'), name).toBeDefined();
  });

  it('a wrong-case name with a dialect suggests that dialect’s spelling', () => {
    const error = unknownEvent(() => HookEvent.parse('PreToolUse', 'copilot'));
    expect(error.suggestions).toContain('preToolUse');
    expect(error.suggestions).not.toContain('PreToolUse');
  });

  it('tryParse returns undefined instead of throwing', () => {
    expect(HookEvent.tryParse('pretooluse')).toBeUndefined();
    expect(HookEvent.tryParse('PRE-TOOL-CALL')).toBeUndefined();
    expect(HookEvent.tryParse('')).toBeUndefined();
    expect(HookEvent.tryParse('before_tool', 'claude')).toBeUndefined();
    expect(HookEvent.tryParse('toString')).toBeUndefined();
    expect(HookEvent.tryParse('__proto__')).toBeUndefined();
    expect(HookEvent.tryParse('before_tool')).toBe('PreToolUse');
  });

  it('tryParse and parse agree for any string, and parse only ever throws UnknownEventError (property)', () => {
    const anyName = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom(...ALL_NAMES),
      fc.constantFrom(...ALL_NAMES).map((n) => n.toLowerCase()),
      fc.tuple(fc.constantFrom(...ALL_NAMES), fc.string({ maxLength: 2 })).map(([n, s]) => n + s),
    );
    const dialect = fc.option(fc.constantFrom(...EVENT_DIALECTS), { nil: undefined });
    fc.assert(
      fc.property(anyName, dialect, (s, d) => {
        const parsed = HookEvent.tryParse(s, d);
        expect(parsed === undefined || HookEvent.isCanonical(parsed)).toBe(true);
        let result: HookEventName | undefined;
        try {
          result = HookEvent.parse(s, d);
        } catch (error) {
          expect(error).toBeInstanceOf(UnknownEventError);
          expect((error as UnknownEventError).given).toBe(s);
          expect(parsed).toBeUndefined();
          return;
        }
        expect(result).toBe(parsed);
      }),
      { numRuns: 500 },
    );
  });
});

describe('event helpers', () => {
  const where = (predicate: (e: HookEventName) => boolean) => HookEvent.all.filter(predicate);

  it('isToolEvent is true exactly for the five tool events', () => {
    expect(where((e) => HookEvent.isToolEvent(e))).toEqual(['PreToolUse', 'PermissionRequest', 'PermissionDenied', 'PostToolUse', 'PostToolUseFailure']);
    // PostToolBatch concerns a whole step's calls, not one: no tool-name matcher matches it.
    expect(HookEvent.info('PostToolBatch')).toMatchObject({ family: 'batch', tool: false });
    expect(HookEvent.info('StopFailure').family).toBe('failure');
    expect(HookEvent.info('PreToolUse').family).toBe('tool');
    expect(HookEvent.info('Stop').tool).toBe(false);
  });

  it('canBlock is true for the gates and false for observers', () => {
    expect(where((e) => HookEvent.canBlock(e))).toEqual([
      'UserPromptSubmit',
      'BeforeModel',
      'AfterModel',
      'PreToolUse',
      'PermissionRequest',
      'PostToolUse',
      // Claude Code ends the turn on a PostToolBatch block: here the run ends there.
      'PostToolBatch',
      'SubagentStart',
      'SubagentStop',
      'Stop',
    ]);
    for (const observer of ['PostToolUseFailure', 'Notification', 'ExecutionEnd', 'AfterStop', 'AfterAgent', 'BeforeToolSelection', 'PermissionDenied', 'StopFailure'] as const) {
      expect(HookEvent.canBlock(observer), observer).toBe(false);
    }
  });

  it('canStop is false only once the run is over', () => {
    // StopFailure fires once the turn has ended on a model error.
    expect(where((e) => !HookEvent.canStop(e))).toEqual(['SessionEnd', 'StopFailure', 'ExecutionEnd', 'AgentFailed']);
    expect(HookEvent.canStop('PreToolUse')).toBe(true);
  });

  it('canAsk is true exactly for PreToolUse and PermissionRequest', () => {
    expect(where((e) => HookEvent.canAsk(e))).toEqual(['PreToolUse', 'PermissionRequest']);
  });

  it('info describes each event under its own name', () => {
    for (const event of HookEvent.all) {
      const info = HookEvent.info(event);
      expect(info.name).toBe(event);
      expect(info.tool).toBe(HookEvent.isToolEvent(event));
      expect(info.description.length).toBeGreaterThan(0);
    }
    expect(HookEvent.info('SubagentStop').family).toBe('stop');
    expect(HookEvent.info('AgentFailed').family).toBe('failure');
  });
});
