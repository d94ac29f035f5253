/**
 * How `test` and `run` print a dispatch: its merged outcome, each hook's part, the notes.
 *
 * @module
 */
import { HookEvent, type AnyHookContext, type HookNote, type HookOutcome } from '../core/index.js';
import { messageOf } from '../core/internal/message-of.js';
import { ExitCode } from './command.js';
import type { Style } from './io.js';
import { isFailure, modifiedInput, type ObservedDispatch } from './observed-dispatch.js';
import { oneLine } from './output.js';

/** The decision of a dispatch, as `--json` prints it. */
export interface OutcomeJson {
  /** `proceed`, `block`, `stop` or `ask`; `null` when a hook threw. */
  readonly outcome: string | null;
  /** The same in permission terms: `allow`, `deny` or `ask`. */
  readonly decision: string | null;
  /** Why (block, stop, ask, and an allow that gave one). */
  readonly reason: string | null;
  /** The tool input the action goes on with, when a hook rewrote it. */
  readonly modifiedInput: Readonly<Record<string, unknown>> | null;
  /** Text for the model, in order. */
  readonly additionalContext: readonly string[];
  /** Messages for the user, in order. */
  readonly systemMessages: readonly string[];
}

/** The decision fields of `outcome` for `ctx`. */
export function outcomeJson(ctx: AnyHookContext, outcome: HookOutcome | undefined): OutcomeJson {
  return {
    outcome: outcome?.type ?? null,
    decision: outcome?.decision ?? null,
    reason: outcome?.reason ?? null,
    modifiedInput: modifiedInput(ctx, outcome) ?? null,
    additionalContext: [...(outcome?.additionalContext ?? [])],
    systemMessages: [...(outcome?.systemMessages ?? [])],
  };
}

/** A note as `--json` prints it. */
export const noteJson = (note: HookNote) => ({ level: note.level, hookName: note.hookName, code: note.code, message: note.message });

/** Exit 1 when a hook failed: it threw, or a note says its process failed; what hooks decided never counts. */
export function dispatchExitCode(dispatch: ObservedDispatch): number {
  return dispatch.error !== undefined || dispatch.notes.some(isFailure) ? ExitCode.problems : ExitCode.ok;
}

/** `deny (block)`, coloured by what it means for the action. */
export function decisionText(style: Style, outcome: HookOutcome | undefined): string {
  if (outcome === undefined) return style.red('error');
  const text = outcome.type === 'proceed' ? outcome.decision : `${outcome.decision} (${outcome.type})`;
  return outcome.decision === 'allow' ? style.green(text) : outcome.decision === 'ask' ? style.yellow(text) : style.red(text);
}

/** The event and what it is about, on one line: `PreToolUse bash {"command":"ls -la"}`. */
export function eventLine(ctx: AnyHookContext): string {
  const name = HookEvent.toDialect(ctx.event, 'hookmd');
  const head = name === undefined || name === ctx.event ? ctx.event : `${ctx.event} (${name})`;
  switch (ctx.event) {
    case 'PreToolUse':
    case 'PermissionRequest':
    case 'PermissionDenied':
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return `${head}  ${ctx.toolCall.name} ${oneLine(ctx.toolCall.args)}`;
    case 'PostToolBatch':
      return `${head}  ${ctx.toolCalls.map((c) => c.name).join(', ')}`;
    case 'UserPromptSubmit':
      return `${head}  ${oneLine(ctx.prompt)}`;
    case 'Stop':
    case 'SubagentStop':
    case 'AfterStop':
    case 'AfterAgent':
      return `${head}  ${ctx.stopReason}, ${ctx.stepCount} steps`;
    default:
      return head;
  }
}

/** `label  value` lines, labels padded to one width. */
export function fields(style: Style, rows: readonly (readonly [label: string, value: string | undefined])[]): string {
  const shown = rows.filter((row): row is readonly [string, string] => row[1] !== undefined);
  const width = Math.max(...shown.map(([label]) => label.length));
  return shown
    .map(([label, value]) => {
      const [first, ...rest] = value.split('\n');
      const indent = ' '.repeat(width + 2);
      return [`${style.dim(label.padEnd(width))}  ${first}`, ...rest.map((line) => `${indent}${line}`)].join('\n');
    })
    .join('\n');
}

/** The merged decision's lines: decision, reason, modified input, context, messages, error. */
export function outcomeFields(style: Style, dispatch: ObservedDispatch): [string, string | undefined][] {
  const { ctx, outcome, error } = dispatch;
  const json = outcomeJson(ctx, outcome);
  return [
    ['decision', decisionText(style, outcome)],
    ['reason', json.reason ?? undefined],
    ['modified input', json.modifiedInput === null ? (HookEvent.isToolEvent(ctx.event) ? style.dim('(unchanged)') : undefined) : JSON.stringify(json.modifiedInput)],
    ['context', json.additionalContext.length > 0 ? json.additionalContext.join('\n') : undefined],
    ['message', json.systemMessages.length > 0 ? json.systemMessages.join('\n') : undefined],
    ['error', error === undefined ? undefined : style.red(messageOf(error))],
  ];
}

/** The notes, one per line, warnings in yellow. */
export function noteLines(style: Style, notes: readonly HookNote[]): string[] {
  return notes.map((n) => `${n.level === 'warning' ? style.yellow('warning') : style.dim('note')} ${n.message}`);
}
