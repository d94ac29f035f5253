import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CompactHookContext,
  FailureHookContext,
  HookEvent,
  HookOutcome,
  NotificationHookContext,
  PromptHookContext,
  SessionHookContext,
  StopHookContext,
  SubagentHookContext,
  ToolBatchHookContext,
  ToolCall,
  ToolExecution,
  ToolHookContext,
  type AnyHookContext,
  type HookEventName,
} from 'agent-hooks';
import { bridgeAnswer } from '../../src/bridge/bridge-answer.js';
import { claudeDialect } from '../../src/dialects/claude.js';
import type { Decision } from '../../src/dialects/dialect.js';

// The conformance table of Claude Code's hook protocol: for every Claude Code event an agent built here loads (and the
// bridge reads), the payload keys our dialect writes against the keys Claude Code 2.1.330 sends; and for every answer
// field Claude Code reads, what our reader makes of it and what the bridge writes back. The keys Claude Code sends and
// the fields it reads are taken from the Claude Agent SDK of the same release line (`sdk.d.ts`: `*HookInput`,
// `*HookSpecificOutput`, `SyncHookJSONOutput`) and from payloads captured from the binary (test/bridge/fixtures/claude),
// so a field Claude Code adds fails here until it is mapped or said to have no counterpart.

const SDK_TYPES = readFileSync(join(dirname(createRequire(import.meta.url).resolve('@anthropic-ai/claude-agent-sdk')), 'sdk.d.ts'), 'utf8');

/** The properties of `export declare type NAME = … {` at the first level, with whether each is optional. */
function sdkFields(name: string): Map<string, boolean> {
  const start = SDK_TYPES.indexOf(`export declare type ${name} = `);
  if (start < 0) throw new Error(`sdk.d.ts has no type ${name}`);
  const open = SDK_TYPES.indexOf('{', start);
  const fields = new Map<string, boolean>();
  let depth = 0;
  let inComment = false;
  for (const line of SDK_TYPES.slice(open).split('\n')) {
    const text = line.trim();
    if (text.startsWith('/**')) inComment = !text.endsWith('*/');
    else if (inComment) inComment = !text.endsWith('*/');
    else {
      const field = depth === 1 ? /^(\w+)(\?)?:/.exec(text) : null;
      if (field) fields.set(field[1]!, field[2] === '?');
      depth += (text.match(/\{/g) ?? []).length - (text.match(/\}/g) ?? []).length;
      if (depth === 0) break;
    }
  }
  return fields;
}

const BASE = sdkFields('BaseHookInput');
/** Every key Claude Code may send on `event`, and the ones it always sends. */
function claudeKeys(event: string): { all: Set<string>; required: Set<string> } {
  const own = sdkFields(`${event}HookInput`);
  const both = new Map([...BASE, ...own]);
  return { all: new Set(both.keys()), required: new Set([...both].filter(([, optional]) => !optional).map(([key]) => key)) };
}

const call = ToolCall.create('Bash', { command: 'ls' }, 'toolu_1');
const mcpCall = ToolCall.create('mcp__github__search', { q: 'hooks' }, 'toolu_2');

/** A context of each Claude Code event an agent built here fires, as its run makes them. */
const CONTEXTS: Readonly<Record<string, () => AnyHookContext>> = {
  PreToolUse: () => ToolHookContext.beforeToolUse(call),
  PermissionRequest: () => ToolHookContext.permissionRequest(call, { reason: 'check it' }),
  PermissionDenied: () => ToolHookContext.permissionDenied(call, { reason: 'not on Fridays' }),
  PostToolUse: () => ToolHookContext.afterToolUse(ToolExecution.success(call, { stdout: 'files' }, 12)),
  PostToolUseFailure: () => ToolHookContext.toolFailure(call, new Error('Exit code 1')),
  PostToolBatch: () =>
    new ToolBatchHookContext({ stepIndex: 0, toolCalls: [call, mcpCall], executions: [ToolExecution.success(call, 'files'), ToolExecution.failure(mcpCall, new Error('down'))] }),
  UserPromptSubmit: () => PromptHookContext.onSubmit('Run the tests.'),
  SessionStart: () => SessionHookContext.onStart({ source: 'startup', model: 'scripted' }),
  SessionEnd: () => SessionHookContext.onEnd({ reason: 'other' }),
  SubagentStart: () => SubagentHookContext.onStart({ name: 'a1', type: 'Explore', task: 'Look around' }),
  SubagentStop: () => StopHookContext.subagentStop({ stopReason: 'no_tool_calls', finalMessage: 'Found it.', subagentName: 'a1', subagentType: 'Explore' }),
  Stop: () => StopHookContext.stop({ stopReason: 'no_tool_calls', finalMessage: 'Done.' }),
  StopFailure: () => FailureHookContext.onStopFailure(Object.assign(new Error('Overloaded'), { status: 529 }), { finalMessage: 'Working on it.' }),
  PreCompact: () => CompactHookContext.before({ trigger: 'auto', messagesBefore: [] }),
  PostCompact: () => CompactHookContext.after({ trigger: 'auto', messagesBefore: [], messagesAfter: [{ role: 'system', content: 'Summary.' }] }),
  Notification: () => NotificationHookContext.notify('Approval needed', { notificationType: 'permission_prompt', title: 'Approval' }),
};

/** Keys Claude Code always sends that an agent built here has nothing for, and why. */
const NOT_SENT_HERE: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  SubagentStop: { agent_transcript_path: 'a subagent here keeps no transcript file of its own: its messages are in the parent’s transcript_path' },
};

const LOADED = HookEvent.all.filter((event) => HookEvent.toDialect(event, 'claude') !== undefined);

describe('Claude Code’s payloads: the keys our dialect writes against the keys Claude Code 2.1.330 sends', () => {
  it('covers every Claude Code event an agent built here loads', () => {
    expect(Object.keys(CONTEXTS).sort()).toEqual(LOADED.map((e) => HookEvent.toDialect(e, 'claude')!).sort());
  });

  for (const event of LOADED) {
    const name = HookEvent.toDialect(event, 'claude')!;
    it(`${name}: writes only keys Claude Code sends, and every key it always sends`, () => {
      const ctx = CONTEXTS[name]!();
      const ours = new Set(Object.keys(claudeDialect.payload(ctx, { eventName: name, workDir: '/project', hookName: 'h' })));
      const { all, required } = claudeKeys(name);
      expect([...ours].filter((key) => !all.has(key)), 'keys Claude Code does not send').toEqual([]);
      const missing = [...required].filter((key) => !ours.has(key));
      expect(missing.sort(), 'keys Claude Code always sends').toEqual(Object.keys(NOT_SENT_HERE[name] ?? {}).sort());
    });
  }

  it('the payloads captured from the binary hold only keys the SDK types name, and every key they require', () => {
    const dir = join(import.meta.dirname, '..', 'bridge', 'fixtures', 'claude');
    const files = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'tools.json');
    expect(files.length).toBeGreaterThanOrEqual(11);
    for (const file of files) {
      const payload = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
      const { all, required } = claudeKeys(String(payload.hook_event_name));
      expect(Object.keys(payload).filter((key) => !all.has(key)), file).toEqual([]);
      expect([...required].filter((key) => !(key in payload)), file).toEqual([]);
    }
  });
});

/** The decision our reader comes to, in a form rows compare. */
interface Reading {
  readonly kind: Decision['kind'];
  readonly reason?: string | undefined;
  readonly granted?: boolean | undefined;
  readonly deferred?: boolean | undefined;
  readonly additionalContext?: readonly string[];
  readonly systemMessage?: string | undefined;
  readonly args?: Record<string, unknown> | undefined;
  readonly result?: unknown;
  readonly retry?: boolean | undefined;
  readonly updatedPermissions?: unknown;
}

const HOOK = { name: 'h', failClosed: false, timeoutMs: 1000 };

function read(ctx: AnyHookContext, answer: Record<string, unknown>, exitCode = 0): { reading: Reading; decision: Decision } {
  const decision = claudeDialect.interpret({ exitCode, signal: null, stdout: JSON.stringify(answer), stderr: '', timedOut: false, aborted: false, overflow: undefined, durationMs: 1, pid: 1 }, ctx, HOOK);
  const changed = decision.ctx;
  const reading: Reading = {
    kind: decision.kind,
    ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
    ...(decision.granted ? { granted: true } : {}),
    ...(decision.deferred ? { deferred: true } : {}),
    ...(decision.additionalContext.length > 0 ? { additionalContext: decision.additionalContext } : {}),
    ...(decision.systemMessage !== undefined ? { systemMessage: decision.systemMessage } : {}),
    ...(changed !== undefined && 'toolCall' in changed && changed.toolCall !== (ctx as ToolHookContext).toolCall ? { args: { ...changed.toolCall.args } } : {}),
    ...(changed?.event === 'PostToolUse' && changed.execution !== (ctx as ToolHookContext<'PostToolUse'>).execution ? { result: changed.execution.result } : {}),
    ...(changed?.event === 'PermissionDenied' && changed.retry ? { retry: true } : {}),
    ...(changed?.event === 'PermissionRequest' && changed.updatedPermissions !== undefined ? { updatedPermissions: changed.updatedPermissions } : {}),
  };
  return { reading, decision };
}

/** The outcome a script hook makes of `decision` (as `ProcessHook` does). */
function outcomeOf(decision: Decision): HookOutcome {
  const extras = { additionalContext: decision.additionalContext, systemMessage: decision.systemMessage };
  switch (decision.kind) {
    case 'block':
      return HookOutcome.block(decision.reason!, extras);
    case 'stop':
      return HookOutcome.stop(decision.reason!, extras);
    case 'ask':
      return HookOutcome.ask(decision.reason!, { ...extras, context: decision.ctx, defer: decision.deferred === true });
    default:
      return decision.granted ? HookOutcome.allow(decision.ctx, { ...extras, ...(decision.reason !== undefined ? { reason: decision.reason } : {}) }) : HookOutcome.proceed(decision.ctx, extras);
  }
}

/** One answer field Claude Code reads: on which event, what a Claude Code hook prints, and what it must come to here. */
interface Row {
  readonly event: string;
  /** The field, as a path in the answer (`hookSpecificOutput.retry`). */
  readonly field: string;
  /** What the hook prints. */
  readonly answer: Record<string, unknown>;
  /** What our reader must make of it. */
  readonly reads: Reading;
  /** Where the bridge's answer holds the field (a path in its JSON), when it writes it back as the same field. */
  readonly written?: string;
  /** A context other than the event's usual one. */
  readonly ctx?: () => AnyHookContext;
}

const specific = (event: string, fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: event, ...fields } });

/**
 * A Stop Claude Code sent through the bridge: the block's reason goes back plain, and Claude Code words it. (A Stop of
 * an agent built here gets the reason in Claude Code's own words: test/agents/claude-rules-stop.test.ts.)
 */
const bridgedStop = () => CONTEXTS.Stop!().withOrigin({ agent: 'claude', eventName: 'Stop', payload: {}, fields: new Set() });

const ROWS: readonly Row[] = [
  // The fields of every answer (SyncHookJSONOutput).
  { event: 'PreToolUse', field: 'continue', answer: { continue: false, stopReason: 'halt' }, reads: { kind: 'stop', reason: 'halt' }, written: 'continue' },
  { event: 'Stop', field: 'stopReason', answer: { continue: false, stopReason: 'out of budget' }, reads: { kind: 'stop', reason: 'out of budget' }, written: 'stopReason' },
  { event: 'PostToolUse', field: 'systemMessage', answer: { systemMessage: 'linted' }, reads: { kind: 'proceed', systemMessage: 'linted' }, written: 'systemMessage' },
  { event: 'UserPromptSubmit', field: 'decision', answer: { decision: 'block', reason: 'no secrets' }, reads: { kind: 'block', reason: 'no secrets' }, written: 'decision' },
  { event: 'Stop', field: 'reason', answer: { decision: 'block', reason: 'run the tests' }, reads: { kind: 'block', reason: 'run the tests' }, written: 'reason', ctx: bridgedStop },
  { event: 'PreToolUse', field: 'decision', answer: { decision: 'approve' }, reads: { kind: 'proceed', granted: true }, written: 'hookSpecificOutput.permissionDecision' },
  // PreToolUse.
  { event: 'PreToolUse', field: 'hookSpecificOutput.permissionDecision', answer: specific('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: 'no' }), reads: { kind: 'block', reason: 'no' }, written: 'hookSpecificOutput.permissionDecision' },
  { event: 'PreToolUse', field: 'hookSpecificOutput.permissionDecision', answer: specific('PreToolUse', { permissionDecision: 'allow' }), reads: { kind: 'proceed', granted: true }, written: 'hookSpecificOutput.permissionDecision' },
  { event: 'PreToolUse', field: 'hookSpecificOutput.permissionDecision', answer: specific('PreToolUse', { permissionDecision: 'ask', permissionDecisionReason: 'sure?' }), reads: { kind: 'ask', reason: 'sure?' }, written: 'hookSpecificOutput.permissionDecision' },
  // `defer` leaves the call to later: headless Claude Code 2.1.332 ends with the tool not run; here a deferred ask.
  { event: 'PreToolUse', field: 'hookSpecificOutput.permissionDecision', answer: specific('PreToolUse', { permissionDecision: 'defer', permissionDecisionReason: 'not mine' }), reads: { kind: 'ask', deferred: true, reason: 'not mine' }, written: 'hookSpecificOutput.permissionDecision' },
  { event: 'PreToolUse', field: 'hookSpecificOutput.permissionDecisionReason', answer: specific('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: 'rm is off limits' }), reads: { kind: 'block', reason: 'rm is off limits' }, written: 'hookSpecificOutput.permissionDecisionReason' },
  { event: 'PreToolUse', field: 'hookSpecificOutput.updatedInput', answer: specific('PreToolUse', { updatedInput: { command: 'ls -la' } }), reads: { kind: 'proceed', args: { command: 'ls -la' } }, written: 'hookSpecificOutput.updatedInput' },
  { event: 'PreToolUse', field: 'hookSpecificOutput.additionalContext', answer: specific('PreToolUse', { additionalContext: 'use pnpm' }), reads: { kind: 'proceed', additionalContext: ['use pnpm'] }, written: 'hookSpecificOutput.additionalContext' },
  // PermissionRequest.
  { event: 'PermissionRequest', field: 'hookSpecificOutput.decision.behavior', answer: specific('PermissionRequest', { decision: { behavior: 'allow' } }), reads: { kind: 'proceed', granted: true }, written: 'hookSpecificOutput.decision.behavior' },
  { event: 'PermissionRequest', field: 'hookSpecificOutput.decision.behavior', answer: specific('PermissionRequest', { decision: { behavior: 'deny', message: 'not today' } }), reads: { kind: 'block', reason: 'not today' }, written: 'hookSpecificOutput.decision.behavior' },
  { event: 'PermissionRequest', field: 'hookSpecificOutput.decision.message', answer: specific('PermissionRequest', { decision: { behavior: 'deny', message: 'ask the owner' } }), reads: { kind: 'block', reason: 'ask the owner' }, written: 'hookSpecificOutput.decision.message' },
  // Claude Code denies and aborts the turn: a stop.
  { event: 'PermissionRequest', field: 'hookSpecificOutput.decision.interrupt', answer: specific('PermissionRequest', { decision: { behavior: 'deny', message: 'stop everything', interrupt: true } }), reads: { kind: 'stop', reason: 'stop everything' }, written: 'hookSpecificOutput.decision.interrupt' },
  { event: 'PermissionRequest', field: 'hookSpecificOutput.decision.updatedInput', answer: specific('PermissionRequest', { decision: { behavior: 'allow', updatedInput: { command: 'ls -a' } } }), reads: { kind: 'proceed', granted: true, args: { command: 'ls -a' } }, written: 'hookSpecificOutput.decision.updatedInput' },
  {
    event: 'PermissionRequest',
    field: 'hookSpecificOutput.decision.updatedPermissions',
    answer: specific('PermissionRequest', { decision: { behavior: 'allow', updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'ls:*' }], behavior: 'allow', destination: 'session' }] } }),
    reads: { kind: 'proceed', granted: true, updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'ls:*' }], behavior: 'allow', destination: 'session' }] },
    written: 'hookSpecificOutput.decision.updatedPermissions',
  },
  // PostToolUse.
  // Beside the kept result, in Claude Code 2.1.332's words (test/agents/claude-rules.test.ts records them from the binary).
  { event: 'PostToolUse', field: 'decision', answer: { decision: 'block', reason: 'lint failed' }, reads: { kind: 'proceed', additionalContext: ['PostToolUse:Bash hook blocking error from command: "h": lint failed'] }, written: 'hookSpecificOutput.additionalContext' },
  { event: 'PostToolUse', field: 'hookSpecificOutput.additionalContext', answer: specific('PostToolUse', { additionalContext: 'formatted' }), reads: { kind: 'proceed', additionalContext: ['formatted'] }, written: 'hookSpecificOutput.additionalContext' },
  // On Bash only Bash's output object counts, as in Claude Code 2.1.332 (a string there is ignored, with a warning).
  { event: 'PostToolUse', field: 'hookSpecificOutput.updatedToolOutput', answer: specific('PostToolUse', { updatedToolOutput: { stdout: 'redacted', stderr: '', interrupted: false, isImage: false } }), reads: { kind: 'proceed', result: 'redacted' }, written: 'hookSpecificOutput.updatedToolOutput' },
  {
    event: 'PostToolUse',
    field: 'hookSpecificOutput.updatedMCPToolOutput',
    ctx: () => ToolHookContext.afterToolUse(ToolExecution.success(mcpCall, { items: 3 })),
    answer: specific('PostToolUse', { updatedMCPToolOutput: { items: 0 } }),
    reads: { kind: 'proceed', result: { items: 0 } },
    // Written back as updatedToolOutput, which Claude Code prefers and reads for every tool.
    written: 'hookSpecificOutput.updatedToolOutput',
  },
  { event: 'PostToolUseFailure', field: 'hookSpecificOutput.additionalContext', answer: specific('PostToolUseFailure', { additionalContext: 'retry with -f' }), reads: { kind: 'proceed', additionalContext: ['retry with -f'] }, written: 'hookSpecificOutput.additionalContext' },
  // PostToolBatch: context for the next model call; a block ends the turn (the run here).
  { event: 'PostToolBatch', field: 'hookSpecificOutput.additionalContext', answer: specific('PostToolBatch', { additionalContext: 'both ran' }), reads: { kind: 'proceed', additionalContext: ['both ran'] }, written: 'hookSpecificOutput.additionalContext' },
  { event: 'PostToolBatch', field: 'decision', answer: { decision: 'block', reason: 'enough' }, reads: { kind: 'block', reason: 'enough' }, written: 'decision' },
  // PermissionDenied.
  { event: 'PermissionDenied', field: 'hookSpecificOutput.retry', answer: specific('PermissionDenied', { retry: true }), reads: { kind: 'proceed', retry: true }, written: 'hookSpecificOutput.retry' },
  // The events whose only answer is context.
  { event: 'UserPromptSubmit', field: 'hookSpecificOutput.additionalContext', answer: specific('UserPromptSubmit', { additionalContext: 'branch: main' }), reads: { kind: 'proceed', additionalContext: ['branch: main'] }, written: 'hookSpecificOutput.additionalContext' },
  { event: 'SessionStart', field: 'hookSpecificOutput.additionalContext', answer: specific('SessionStart', { additionalContext: 'open tasks: 2' }), reads: { kind: 'proceed', additionalContext: ['open tasks: 2'] }, written: 'hookSpecificOutput.additionalContext' },
  { event: 'SubagentStart', field: 'hookSpecificOutput.additionalContext', answer: specific('SubagentStart', { additionalContext: 'be brief' }), reads: { kind: 'proceed', additionalContext: ['be brief'] }, written: 'hookSpecificOutput.additionalContext' },
  { event: 'Notification', field: 'hookSpecificOutput.additionalContext', answer: specific('Notification', { additionalContext: 'the user is away' }), reads: { kind: 'proceed', additionalContext: ['the user is away'] }, written: 'hookSpecificOutput.additionalContext' },
  // Stop and SubagentStop: context keeps the agent working, as a block does (the bridge writes it as one).
  { event: 'Stop', field: 'hookSpecificOutput.additionalContext', answer: specific('Stop', { additionalContext: 'also update the changelog' }), reads: { kind: 'block', reason: 'also update the changelog' }, written: 'reason', ctx: bridgedStop },
  { event: 'SubagentStop', field: 'hookSpecificOutput.additionalContext', answer: specific('SubagentStop', { additionalContext: 'check one more file' }), reads: { kind: 'block', reason: 'check one more file' }, written: 'reason' },
];

/** Answer fields Claude Code reads that have nothing to act on here, and why (docs/other-agents.md says so too). */
const WITHOUT_EFFECT: readonly { readonly event: string; readonly field: string; readonly answer: Record<string, unknown>; readonly why: RegExp }[] = [
  { event: 'PostToolUse', field: 'suppressOutput', answer: { suppressOutput: true }, why: /transcript/ },
  { event: 'Notification', field: 'terminalSequence', answer: { terminalSequence: '\u001b]9;done\u0007' }, why: /terminal/ },
  { event: 'PostToolUse', field: 'hookSpecificOutput.classifierContext', answer: specific('PostToolUse', { classifierContext: 'benign' }), why: /classifier/ },
  { event: 'UserPromptSubmit', field: 'hookSpecificOutput.sessionTitle', answer: specific('UserPromptSubmit', { sessionTitle: 'Tests' }), why: /names the session/ },
  { event: 'UserPromptSubmit', field: 'hookSpecificOutput.suppressOriginalPrompt', answer: specific('UserPromptSubmit', { suppressOriginalPrompt: true }), why: /hides the user's prompt/ },
  { event: 'SessionStart', field: 'hookSpecificOutput.sessionTitle', answer: specific('SessionStart', { sessionTitle: 'Tests' }), why: /names the session/ },
  { event: 'SessionStart', field: 'hookSpecificOutput.initialUserMessage', answer: specific('SessionStart', { initialUserMessage: 'hi' }), why: /first prompt/ },
  { event: 'SessionStart', field: 'hookSpecificOutput.watchPaths', answer: specific('SessionStart', { watchPaths: ['a'] }), why: /FileChanged/ },
  { event: 'SessionStart', field: 'hookSpecificOutput.reloadSkills', answer: specific('SessionStart', { reloadSkills: true }), why: /skills/ },
];

/** Why Claude Code's top-level fields without effect here have none. */
const TOP_LEVEL_WITHOUT_EFFECT: Readonly<Record<string, string>> = {
  suppressOutput: "it hides the hook's output from Claude Code's transcript view; an agent here shows a hook's output nowhere",
  terminalSequence: 'Claude Code writes it to its terminal (a desktop notification); an agent here has no terminal of its own',
};

const at = (value: unknown, path: string): unknown => path.split('.').reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), value);

describe('Claude Code’s answers: each field it reads, as our reader acts on it and the bridge writes it back', () => {
  it('covers every field of SyncHookJSONOutput and of the hookSpecificOutput of every event loaded here', () => {
    const covered = new Set([...ROWS.map((r) => `${r.event} ${r.field}`), ...WITHOUT_EFFECT.map((r) => `${r.event} ${r.field}`)]);
    const fieldsCovered = new Set([...ROWS, ...WITHOUT_EFFECT].map((r) => r.field));
    for (const field of sdkFields('SyncHookJSONOutput').keys()) {
      if (field === 'hookSpecificOutput') continue;
      expect(fieldsCovered.has(field) || field in TOP_LEVEL_WITHOUT_EFFECT, `SyncHookJSONOutput.${field}`).toBe(true);
    }
    const uncovered: string[] = [];
    for (const event of LOADED) {
      const name = HookEvent.toDialect(event, 'claude')!;
      if (!SDK_TYPES.includes(`export declare type ${name}HookSpecificOutput = `)) continue;
      for (const field of sdkFields(`${name}HookSpecificOutput`).keys()) {
        if (field === 'hookEventName') continue;
        const path = `hookSpecificOutput.${field}`;
        // PermissionRequest's decision is covered field by field.
        const seen = covered.has(`${name} ${path}`) || [...covered].some((c) => c.startsWith(`${name} ${path}.`));
        if (!seen) uncovered.push(`${name} ${path}`);
      }
    }
    expect(uncovered).toEqual([]);
    for (const field of ['behavior', 'message', 'interrupt', 'updatedInput', 'updatedPermissions']) {
      expect(SDK_TYPES, `PermissionRequest decision.${field}`).toMatch(new RegExp(`PermissionRequestHookSpecificOutput = \\{[\\s\\S]*?${field}\\??:`));
    }
  });

  for (const row of ROWS) {
    it(`${row.event} ${row.field} ${JSON.stringify(row.answer)}: read as ${row.reads.kind}, written back as ${row.written}`, () => {
      const ctx = (row.ctx ?? CONTEXTS[row.event]!)();
      const first = read(ctx, row.answer);
      expect(first.reading).toEqual(row.reads);
      expect(first.decision.notes.filter((n) => n.level === 'warning')).toEqual([]);

      const answer = bridgeAnswer('claude', outcomeOf(first.decision), ctx, row.event);
      expect(answer.exitCode).toBe(0);
      const written = JSON.parse(answer.stdout) as Record<string, unknown>;
      expect(at(written, row.written!), `the bridge's answer ${answer.stdout}`).toBeDefined();
      // And Claude Code, reading what the bridge wrote, comes to the same decision.
      expect(read(ctx, written).reading).toEqual(row.reads);
    });
  }

  for (const row of WITHOUT_EFFECT) {
    it(`${row.event} ${row.field}: read without effect (${row.why.source})`, () => {
      const ctx = CONTEXTS[row.event]!();
      const { reading, decision } = read(ctx, row.answer);
      expect(reading).toEqual({ kind: 'proceed' });
      expect(decision.notes.filter((n) => n.level === 'warning')).toEqual([]);
      const said = row.field.startsWith('hookSpecificOutput.') ? decision.notes.map((n) => n.message).join(' ') : TOP_LEVEL_WITHOUT_EFFECT[row.field]!;
      expect(said).toMatch(row.why);
    });
  }

  it('writes no hookSpecificOutput on an event whose answer Claude Code has none for, and no additionalContext where it reads none', () => {
    for (const name of ['SessionEnd', 'PreCompact', 'PostCompact', 'StopFailure', 'PermissionDenied', 'Stop', 'SubagentStop']) {
      const ctx = CONTEXTS[name]!();
      const answer = bridgeAnswer('claude', HookOutcome.proceed(undefined, { additionalContext: 'for the model', systemMessage: 'for the user' }), ctx, name);
      const written = JSON.parse(answer.stdout) as Record<string, unknown>;
      expect(written, name).toEqual({ systemMessage: 'for the user' });
    }
  });
});
