/**
 * The fields a Claude Code hook handler shares across its types — `if`, `onFailure`, `async`, `asyncRewake`, `once`,
 * `shell`, `args`, `statusMessage` — read as Claude Code 2.1 reads them.
 *
 * @module
 */
import { CompositeMatcher, HookEvent, type HookEventName, type HookMatcher } from '../../core/index.js';
import type { HookProblem } from '../../script/problem.js';
import { parsePermissionRule, permissionRuleMatcher, understoodSpecifier } from '../../config/permission-rule.js';

/** The events where Claude Code ignores `onFailure`: a failure there has nothing to block. */
const NOTHING_TO_BLOCK: ReadonlySet<HookEventName> = new Set(['Stop', 'SubagentStop']);

/** The path placeholders Claude Code fills in each element of an exec form's `args` (and its `command`). */
const PLACEHOLDERS = /\$\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}/g;

/** What the shared fields of one handler decide. */
export interface ClaudeHandlerFields {
  /** The matcher of the group, narrowed by `if`. */
  readonly matcher: HookMatcher | undefined;
  /** `onFailure: "block"`, where it counts: a failure of the hook blocks the action it guards. */
  readonly failClosed: boolean;
  /** `async` or `asyncRewake`: it runs in the background and answers nothing. */
  readonly async: boolean;
  /** `shell: "powershell"`; `undefined` for the default. */
  readonly shell: 'powershell' | undefined;
  /** The exec form's executable and arguments, placeholders filled; `undefined` for the shell form. */
  readonly exec: { readonly command: string; readonly args: readonly string[] } | undefined;
}

/** Where the handler is, and what it needs to be read. */
export interface ClaudeHandlerPlace {
  readonly file: string;
  /** The handler's JSON path, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  readonly field: string;
  readonly event: HookEventName;
  /** The group's matcher. */
  readonly matcher: HookMatcher | undefined;
  readonly projectDir: string;
  /** Reports a problem with the handler. */
  readonly problem: (problem: HookProblem) => void;
}

const text = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value));

/**
 * Reads the shared fields of `handler` (of type `type`), reporting each problem with its field and the fix; `null`
 * when the handler is not loaded — as Claude Code refuses the entry (a field of the wrong type or value), or never
 * runs it (an `if` that is not a permission rule, or an `if` on an event without a tool call).
 */
export function claudeHandlerFields(handler: Readonly<Record<string, unknown>>, type: 'command' | 'prompt' | 'agent' | 'http', place: ClaudeHandlerPlace): ClaudeHandlerFields | null {
  const { file, field, event, problem } = place;
  const refuse = (name: string, allowed: string, message: string): null => {
    problem({ file, field: `${field}.${name}`, found: text(handler[name]), allowed, severity: 'error', code: 'invalid-config', message });
    return null;
  };
  for (const flag of ['async', 'asyncRewake', 'once', 'continueOnBlock'] as const) {
    if (handler[flag] !== undefined && typeof handler[flag] !== 'boolean') {
      return refuse(flag, 'true or false', `"${flag}" must be true or false; Claude Code does not load this hook as written.`);
    }
  }
  if (handler.statusMessage !== undefined && typeof handler.statusMessage !== 'string') {
    return refuse('statusMessage', 'a string', '"statusMessage" must be a string; Claude Code does not load this hook as written.');
  }
  // A prompt or agent handler has no onFailure: Claude Code leaves the field out.
  const onFailure = type === 'prompt' || type === 'agent' ? undefined : handler.onFailure;
  if (onFailure !== undefined && onFailure !== 'continue' && onFailure !== 'block') {
    return refuse('onFailure', '"continue" or "block"', '"onFailure" is "continue" (a failure lets the action go on, the default) or "block" (a failure blocks it); Claude Code does not load this hook as written.');
  }
  const async = type === 'command' && (handler.async === true || handler.asyncRewake === true);

  let shell: ClaudeHandlerFields['shell'];
  let exec: ClaudeHandlerFields['exec'];
  if (type === 'command') {
    if (handler.shell !== undefined && handler.shell !== 'bash' && handler.shell !== 'powershell') {
      return refuse('shell', '"bash" or "powershell"', '"shell" is "bash" (the default) or "powershell"; Claude Code does not load this hook as written.');
    }
    // Claude Code 2.1 runs "bash" commands with /bin/sh -c on Linux and macOS, as its default is: so do we.
    shell = handler.shell === 'powershell' ? 'powershell' : undefined;
    if (handler.args !== undefined) {
      if (!Array.isArray(handler.args) || handler.args.some((a) => typeof a !== 'string')) {
        return refuse('args', 'a list of strings', '"args" (the exec form) is a list of strings, the arguments "command" is started with.');
      }
      const fill = (value: string): string => value.replace(PLACEHOLDERS, (whole, name: string) => (name === 'CLAUDE_PROJECT_DIR' ? place.projectDir : whole));
      exec = { command: fill(String(handler.command)), args: (handler.args as string[]).map(fill) };
    }
  }

  const failClosed = onFailure === 'block' && !async && !NOTHING_TO_BLOCK.has(event);
  let matcher = place.matcher;
  if (handler.if !== undefined) {
    if (typeof handler.if !== 'string') return refuse('if', 'a permission rule, e.g. "Bash(git *)"', '"if" is a permission rule such as "Bash(git *)"; Claude Code does not load this hook as written.');
    const rule = parsePermissionRule(handler.if);
    if (!('tool' in rule)) {
      problem({ file, field: `${field}.if`, found: text(handler.if), allowed: 'a permission rule, e.g. "Bash(git *)"', severity: 'warning', code: 'invalid-if', message: `${rule.message} The hook is not loaded.` });
      return null;
    }
    if (!HookEvent.isToolEvent(event)) {
      problem({
        file,
        field: `${field}.if`,
        found: text(handler.if),
        allowed: 'no "if" on an event without a tool call',
        severity: 'warning',
        code: 'if-without-tool',
        message: `${event} has no tool call for "if" to match, so Claude Code never runs this hook; it is not loaded. Remove "if" to run it on every ${event}.`,
      });
      return null;
    }
    if (!understoodSpecifier(rule)) {
      problem({
        file,
        field: `${field}.if`,
        found: text(handler.if),
        allowed: 'Bash(command), a path rule of Edit, Write, Read, … or WebFetch(domain:…)',
        severity: 'warning',
        code: 'if-not-checked',
        message: `What "${rule.specifier}" says of a ${rule.tool} call is not checked here: the hook runs on every ${rule.tool} call, so it never misses one Claude Code would run it on.`,
      });
    }
    const ruleMatcher = permissionRuleMatcher(rule, event, place.projectDir);
    matcher = matcher === undefined ? ruleMatcher : CompositeMatcher.and(matcher, ruleMatcher);
  }
  return { matcher, failClosed, async, shell, exec };
}
