/**
 * Claude Code's `type: "http"` hooks: the event is POSTed as JSON to a URL, and the answer's body is read as a command
 * hook's output.
 *
 * @module
 */
import { EventEmitter } from 'eventemitter3';
import {
  HookEvent,
  HookOutcome,
  type AnyHookContext,
  type HookEventName,
  type HookMatcher,
  type HookNote,
  type HookScope,
  type NextFn,
} from '../core/index.js';
import { continueChain } from '../core/internal/continue-chain.js';
import { jsonDepthProblem } from '../core/internal/json-depth.js';
import { messageOf } from '../core/internal/message-of.js';
import { claudeDialect } from '../dialects/claude.js';
import type { Decision, WireHookInfo } from '../dialects/dialect.js';
import { failureDecision, tail } from '../dialects/failure.js';
import type { ProcessResult } from '../dialects/process-result.js';
import { PROCEED, isRecord } from '../dialects/wire-output.js';
import { DEFAULT_MAX_OUTPUT_BYTES } from '../process/run-process.js';
import type { CommandHookOrigin } from '../script/command-hook.js';
import type { HookProblem } from '../script/problem.js';
import { commandName, type ConfigHook } from './config-source.js';
import { ENV_VAR_NAME, FRAMING_HEADERS, envReferences, interpolateHeader } from './internal/header-values.js';
import { postJson, type PostResult } from './internal/post-json.js';

/**
 * Claude Code's default timeout for http hooks, in milliseconds (ten minutes, as for command hooks).
 *
 * @internal
 */
export const CLAUDE_HTTP_TIMEOUT_MS = 600_000;

/** What an {@link HttpHook} is built from. */
export interface HttpHookSpec {
  /** The hook's name, for listings, notes and reasons (default: `http: <url>`). */
  readonly name?: string | undefined;
  /** Where the event is POSTed: an `http:` or `https:` URL. */
  readonly url: string;
  /** The one event it runs for. */
  readonly event: HookEventName;
  /** The event's name as written in the file, sent as `hook_event_name` (default: Claude Code's name for `event`). */
  readonly eventName?: string | undefined;
  /** Which contexts it applies to; `undefined` for all of its event's. */
  readonly matcher: HookMatcher | undefined;
  /**
   * Headers sent besides `Content-Type: application/json`, as written: `$VAR` and `${VAR}` in a value are replaced on
   * each request by the variable's value when {@link HttpHookSpec.allowedEnvVars} lists it, and by nothing otherwise.
   * `Content-Length` and `Transfer-Encoding` are dropped: the request sets them from its body.
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The variables header values may use (default none). */
  readonly allowedEnvVars?: readonly string[] | undefined;
  /** Where the variables are read from, on each request (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Milliseconds before the request is aborted (default 600 000, ten minutes, as Claude Code). */
  readonly timeoutMs?: number | undefined;
  /**
   * Whether a failure (no answer, a status other than 2xx, a body that is not a valid answer) blocks the action instead
   * of letting it go on: Claude Code's `onFailure: "block"`. It blocks what a block refuses (a tool call, a permission,
   * a prompt, …); on Stop and SubagentStop, where a block would keep the agent working, the failure lets it stop.
   */
  readonly failClosed?: boolean | undefined;
  /** Higher runs first (default 100). */
  readonly priority?: number | undefined;
  /** The project directory. */
  readonly projectDir: string;
  /** The most bytes of answer body read (default 1 MiB); a longer body is a failure. */
  readonly maxResponseBytes?: number | undefined;
  /** The text Claude Code shows while the request runs; kept for listings. */
  readonly statusMessage?: string | undefined;
  /** Where it was defined. */
  readonly origin: CommandHookOrigin;
}

/** What {@link HttpHook.emitter} reports for every request, whatever it decided, for logs and metrics. */
export interface HttpHookExchange {
  /** The hook's name. */
  readonly hookName: string;
  /** The event dispatched. */
  readonly event: HookEventName;
  /** The URL, without credentials. */
  readonly url: string;
  /** How the request ended. */
  readonly result: PostResult['kind'];
  /** The answer's status, when one came. */
  readonly status: number | undefined;
  /** From the request to its end, in milliseconds. */
  readonly durationMs: number;
}

/** The events of {@link HttpHook.emitter}. */
export interface HttpHookEvents {
  /** A note the hook also reported to the dispatch (a failure it failed open or closed on, ignored output, …). */
  note: [note: HookNote];
  /** A request ended. */
  exchange: [exchange: HttpHookExchange];
}

/** A header value that uses a variable `allowedEnvVars` does not list: it is sent without it. */
export interface UnlistedHeaderVariable {
  /** The header, as written. */
  readonly header: string;
  /** The variable. */
  readonly name: string;
}

/** `url` without its user name and password, for messages and listings. */
function displayUrl(url: URL): string {
  if (url.username === '' && url.password === '') return url.href;
  const shown = new URL(url.href);
  shown.username = '';
  shown.password = '';
  return shown.href;
}

/** Why the tool input or result of `ctx` cannot be serialised safely; `undefined` when it can, and for other events. */
function toolDepthProblem(ctx: AnyHookContext): string | undefined {
  if (!('toolCall' in ctx)) return undefined;
  const problem = jsonDepthProblem(ctx.toolCall.args);
  if (problem !== undefined || ctx.execution === undefined) return problem;
  return jsonDepthProblem(ctx.execution.result);
}

/** An answer body as a process's output on exit 0, for the dialect to read. */
function asExitZero(body: string, durationMs: number): ProcessResult {
  return { exitCode: 0, signal: null, stdout: body, stderr: '', timedOut: false, aborted: false, overflow: undefined, durationMs, pid: undefined };
}

/**
 * One `type: "http"` hook of Claude Code's settings, as a middleware of the stack. It POSTs the event — the JSON a
 * command hook gets on stdin — to its URL, with `Content-Type: application/json` and its headers, and reads the answer
 * as Claude Code does:
 * - a 2xx answer's body is the hook's output, read exactly as a command hook's stdout on exit 0 (a deny blocks,
 *   `updatedInput` rewrites, `additionalContext` reaches the model, …); an empty body decides nothing; a body that is
 *   not a JSON object, or that Claude Code's schema refuses, is a failure;
 * - any other status (a 3xx too: redirects are not followed), a connection error, a timeout (the request is then
 *   aborted) or a body over the cap is a failure;
 * - a failure lets the action go on, with a warning, unless the hook fails closed (`onFailure: "block"`); there is no
 *   exit code, so nothing means "exit 2".
 *
 * A cancelled run aborts the request, and is refused wherever a block means something, as for command hooks.
 *
 * ```ts
 * const hook = new HttpHook({ url: 'http://127.0.0.1:8080/guard', event: 'PreToolUse', matcher: undefined, projectDir: process.cwd(), origin });
 * AgentBuilder.new().withHook(hook);
 * ```
 */
export class HttpHook implements ConfigHook {
  /** The hook's name. */
  readonly name: string;
  /** The one event it runs for. */
  readonly events: readonly HookEventName[];
  /** Which contexts it applies to. */
  readonly matcher: HookMatcher | undefined;
  /** The priority to register it at. */
  readonly priority: number;
  /** Milliseconds before the request is aborted. */
  readonly timeoutMs: number;
  /** Where it was defined. */
  readonly origin: CommandHookOrigin;
  /** The URL, as written. */
  readonly url: string;
  /** The headers as written, before variables are filled in (`Content-Length` and `Transfer-Encoding` left out). */
  readonly headers: Readonly<Record<string, string>>;
  /** The variables header values may use. */
  readonly allowedEnvVars: readonly string[];
  /** Whether a failure blocks what a block refuses (`onFailure: "block"`). */
  readonly failClosed: boolean;
  /** The event's name as the payload's `hook_event_name`. */
  readonly eventName: string;
  /** The project directory. */
  readonly projectDir: string;
  /** The most bytes of answer body read. */
  readonly maxResponseBytes: number;
  /** The text Claude Code shows while the request runs. */
  readonly statusMessage: string | undefined;
  /** Notes and exchanges, for observers that are not part of a dispatch. Listener errors are ignored. */
  readonly emitter = new EventEmitter<HttpHookEvents>();
  private readonly target: URL;
  private readonly shownUrl: string;
  private readonly allowed: ReadonlySet<string>;
  private readonly variables: Readonly<Record<string, string | undefined>> | undefined;

  /** @throws TypeError when `url` is not an `http:` or `https:` URL. */
  constructor(spec: HttpHookSpec) {
    const target = URL.canParse(spec.url) ? new URL(spec.url) : undefined;
    if (target === undefined || (target.protocol !== 'http:' && target.protocol !== 'https:')) {
      throw new TypeError(`An http hook needs an http: or https: URL, got ${JSON.stringify(spec.url)}.`);
    }
    this.target = target;
    this.shownUrl = displayUrl(target);
    this.url = spec.url;
    this.name = spec.name ?? `http: ${commandName(this.shownUrl)}`;
    this.events = Object.freeze([spec.event]);
    this.matcher = spec.matcher;
    this.priority = spec.priority ?? 100;
    this.timeoutMs = spec.timeoutMs ?? CLAUDE_HTTP_TIMEOUT_MS;
    this.origin = spec.origin;
    this.headers = Object.freeze(Object.fromEntries(Object.entries(spec.headers ?? {}).filter(([key]) => !FRAMING_HEADERS.has(key.toLowerCase()))));
    this.allowedEnvVars = Object.freeze([...(spec.allowedEnvVars ?? [])]);
    this.allowed = new Set(this.allowedEnvVars);
    this.variables = spec.env;
    this.failClosed = spec.failClosed === true;
    this.eventName = spec.eventName ?? claudeDialect.eventName(spec.event);
    this.projectDir = spec.projectDir;
    this.maxResponseBytes = spec.maxResponseBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    this.statusMessage = spec.statusMessage;
  }

  /** The variables header values use that `allowedEnvVars` does not list: each is sent as an empty string. */
  unlistedVariables(): UnlistedHeaderVariable[] {
    return Object.entries(this.headers).flatMap(([header, value]) =>
      envReferences(value)
        .filter((name) => !this.allowed.has(name))
        .map((name) => ({ header, name })),
    );
  }

  /** The headers of one request, variables filled in from the environment as it is now. */
  requestHeaders(body: string): Record<string, string> {
    const env = this.variables ?? process.env;
    // Names differ only by case in HTTP: a header given in the file replaces ours, whatever its case.
    const byName = new Map<string, [string, string]>([['content-type', ['Content-Type', 'application/json']]]);
    for (const [header, value] of Object.entries(this.headers)) byName.set(header.toLowerCase(), [header, interpolateHeader(value, this.allowed, env)]);
    byName.set('content-length', ['Content-Length', String(Buffer.byteLength(body))]);
    return Object.fromEntries(byName.values());
  }

  /** Posts the event and turns the answer into the outcome (see the class description). */
  async handle(ctx: AnyHookContext, next: NextFn, scope: HookScope): Promise<HookOutcome> {
    const decision = await this.decide(ctx, scope);
    for (const note of decision.notes) this.report(note, scope);
    return continueChain(this.outcomeOf(decision), ctx, next);
  }

  /** Whether a failure blocks `ctx`: only where a block refuses the action (never on a stop gate). */
  private blocksOnFailure(ctx: AnyHookContext): boolean {
    if (!this.failClosed) return false;
    const info = HookEvent.info(ctx.event);
    return info.canBlock && info.family !== 'stop';
  }

  private wire(ctx: AnyHookContext): WireHookInfo {
    return { name: this.name, failClosed: this.blocksOnFailure(ctx), timeoutMs: this.timeoutMs, maxOutputBytes: this.maxResponseBytes, async: false };
  }

  /** Expected failures (an event that is not JSON, no answer, a bad one) are decisions here, never errors. */
  private async decide(ctx: AnyHookContext, scope: HookScope): Promise<Decision> {
    const hook = this.wire(ctx);
    const fail = (code: string, cause: string, data?: Record<string, unknown>): Decision =>
      failureDecision({ code, cause, data: { url: this.shownUrl, ...data } }, undefined, ctx, hook);
    let body: string | undefined;
    let unsendable: string | undefined;
    try {
      unsendable = toolDepthProblem(ctx);
      if (unsendable === undefined) {
        const payload = claudeDialect.payload(ctx, { eventName: this.eventName, workDir: this.projectDir, hookName: this.name });
        unsendable = jsonDepthProblem(payload);
        if (unsendable === undefined) body = JSON.stringify(payload);
      }
    } catch (error) {
      unsendable = messageOf(error);
    }
    if (body === undefined) return fail('invalid-input', `could not be sent the event as JSON: ${unsendable ?? 'it is not serialisable'}`);
    const result = await postJson({
      url: this.target,
      body,
      headers: this.requestHeaders(body),
      timeoutMs: this.timeoutMs,
      maxBodyBytes: this.maxResponseBytes,
      signal: scope.signal,
    });
    this.emit('exchange', {
      hookName: this.name,
      event: ctx.event,
      url: this.shownUrl,
      result: result.kind,
      status: result.kind === 'response' || result.kind === 'overflow' ? result.status : undefined,
      durationMs: Math.round(result.durationMs),
    });
    const timing = { durationMs: Math.round(result.durationMs) };
    // An answer that came as the run was cancelled decides nothing: a cancelled run acts on nothing.
    if (result.kind === 'aborted' || scope.signal?.aborted === true) return fail('aborted', 'was cancelled: the run was aborted', timing);
    switch (result.kind) {
      case 'timeout':
        return fail('timeout', `got no answer from ${this.shownUrl} within ${this.timeoutMs} ms, so the request was aborted`, timing);
      case 'error':
        return fail('http-error', `could not reach ${this.shownUrl}: ${result.message}`, { ...timing, ...(result.code === undefined ? {} : { errorCode: result.code }) });
      case 'overflow':
        if (result.status < 200 || result.status > 299) return fail('http-status', `got HTTP ${result.status} from ${this.shownUrl}`, { ...timing, status: result.status });
        return fail('output-overflow', `answered with a body over ${this.maxResponseBytes} bytes, so the request was aborted`, { ...timing, status: result.status });
      default:
        return this.read(result.status, result.body, result.durationMs, ctx, hook, fail);
    }
  }

  /** A complete answer: its status, then its body as a command hook's stdout on exit 0. */
  private read(
    status: number,
    bytes: Buffer,
    durationMs: number,
    ctx: AnyHookContext,
    hook: WireHookInfo,
    fail: (code: string, cause: string, data?: Record<string, unknown>) => Decision,
  ): Decision {
    const data = { durationMs: Math.round(durationMs), status };
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      if (status < 200 || status > 299) return fail('http-status', `got HTTP ${status} from ${this.shownUrl}`, data);
      return fail('invalid-output', 'answered with a body that is not UTF-8', data);
    }
    if (status < 200 || status > 299) {
      return fail('http-status', `got HTTP ${status} from ${this.shownUrl}`, { ...data, ...(text.trim() === '' ? {} : { body: tail(text) }) });
    }
    const trimmed = text.trim();
    if (trimmed === '') return PROCEED;
    // Plain text is no answer here: an http hook answers a JSON object, or nothing.
    if (!trimmed.startsWith('{')) return fail('invalid-output', 'answered with a body that is not a JSON object', { ...data, body: tail(text) });
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (error) {
      return fail('invalid-output', `answered with a body that is not valid JSON (${messageOf(error)})`, { ...data, body: tail(text) });
    }
    if (!isRecord(parsed)) return fail('invalid-output', 'answered with a body that is not a JSON object', { ...data, body: tail(text) });
    return claudeDialect.interpret(asExitZero(trimmed, durationMs), ctx, hook);
  }

  /** The decision as the outcome a callback would return. */
  private outcomeOf(decision: Decision): HookOutcome {
    const extras = { additionalContext: decision.additionalContext, systemMessage: decision.systemMessage };
    const reason = decision.reason?.trim() ? decision.reason : undefined;
    switch (decision.kind) {
      case 'block':
        return HookOutcome.block(reason ?? `blocked by hook '${this.name}'`, extras);
      case 'stop':
        return HookOutcome.stop(reason ?? `Hook '${this.name}' stopped the run.`, extras);
      case 'ask':
        return HookOutcome.ask(reason ?? `Hook '${this.name}' asks for approval.`, { ...extras, context: decision.ctx, defer: decision.deferred === true });
      default:
        return decision.granted
          ? HookOutcome.allow(decision.ctx, { ...extras, ...(reason !== undefined ? { reason } : {}) })
          : HookOutcome.proceed(decision.ctx, extras);
    }
  }

  private report(note: HookNote, scope: HookScope): void {
    scope.report(note);
    this.emit('note', note);
  }

  private emit<K extends keyof HttpHookEvents>(event: K, ...args: HttpHookEvents[K]): void {
    try {
      (this.emitter.emit as (event: K, ...args: HttpHookEvents[K]) => boolean)(event, ...args);
    } catch {
      // An observer's bug must not change what the hook decides.
    }
  }
}

/** What {@link httpHookFromEntry} needs besides the entry: where it is, and what the loader decided for it. */
export interface HttpHookEntryContext {
  /** The config file (absolute). */
  readonly file: string;
  /** The JSON path of the entry, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  readonly field: string;
  /** The event it runs for. */
  readonly event: HookEventName;
  /** The event's name as written in the file. */
  readonly eventName: string;
  /** Which contexts it applies to: the group's matcher, narrowed by the entry's `if`. */
  readonly matcher: HookMatcher | undefined;
  /** The project directory, absolute. */
  readonly projectDir: string;
  /** Higher runs first (default 100). */
  readonly priority?: number | undefined;
  /** Where header variables are read from, on each request. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where it was defined (with `definition`, the entry as written, for trust to pin). */
  readonly origin: CommandHookOrigin;
  /** Records a problem with the entry. */
  readonly problem: (problem: HookProblem) => void;
  /** Whether every hook of the load fails closed, whatever its `onFailure` (default false). */
  readonly failClosed?: boolean | undefined;
  /** The most bytes of answer body read (default 1 MiB). */
  readonly maxResponseBytes?: number | undefined;
}

/**
 * The {@link HttpHook} of one `{"type": "http", …}` entry of Claude Code's settings, or `undefined` when the entry
 * cannot run: a missing or invalid `url`, `headers` that are not an object of strings, an `allowedEnvVars` that is not
 * a list of strings, an `onFailure` other than `continue` or `block` (each an error problem). A header that uses a
 * variable `allowedEnvVars` does not list, a `Content-Length` or `Transfer-Encoding` header, an invalid `timeout` and
 * an `allowedEnvVars` entry that is not a variable name are warnings: the hook loads. The fields every handler type
 * shares (`if`, `once`, …) are the loader's to read: `if` arrives here as part of `ctx.matcher`.
 */
export function httpHookFromEntry(handler: Readonly<Record<string, unknown>>, ctx: HttpHookEntryContext): HttpHook | undefined {
  const { file, field } = ctx;
  const error = (at: string, code: string, message: string, found?: unknown, allowed?: string): undefined => {
    ctx.problem({ file, field: at, severity: 'error', code, message, ...(found === undefined ? {} : { found: JSON.stringify(found)?.slice(0, 80) }), ...(allowed === undefined ? {} : { allowed }) });
    return undefined;
  };
  const warn = (at: string, code: string, message: string, found?: unknown, allowed?: string): void => {
    ctx.problem({ file, field: at, severity: 'warning', code, message, ...(found === undefined ? {} : { found: JSON.stringify(found)?.slice(0, 80) }), ...(allowed === undefined ? {} : { allowed }) });
  };

  const url = handler.url;
  if (typeof url !== 'string' || url.trim() === '') {
    return error(`${field}.url`, 'missing-field', 'An http hook needs a "url" to POST the event to, such as "http://127.0.0.1:8080/hooks".', url);
  }
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    return error(`${field}.url`, 'invalid-url', 'The url is not an http: or https: URL; write it in full, such as "https://hooks.example.com/check".', url, 'an http: or https: URL');
  }

  let headers: Record<string, string> = {};
  if (handler.headers !== undefined && handler.headers !== null) {
    if (!isRecord(handler.headers)) return error(`${field}.headers`, 'invalid-config', 'headers must be an object of header names to string values.', handler.headers, 'an object of strings');
    for (const [name, value] of Object.entries(handler.headers)) {
      if (typeof value !== 'string') {
        return error(`${field}.headers.${name}`, 'invalid-config', 'A header value must be a string; quote it.', value, 'a string');
      }
    }
    headers = handler.headers as Record<string, string>;
  }

  let allowedEnvVars: string[] = [];
  if (handler.allowedEnvVars !== undefined && handler.allowedEnvVars !== null) {
    if (!Array.isArray(handler.allowedEnvVars) || handler.allowedEnvVars.some((name) => typeof name !== 'string')) {
      return error(`${field}.allowedEnvVars`, 'invalid-config', 'allowedEnvVars must be a list of variable names, such as ["API_TOKEN"].', handler.allowedEnvVars, 'a list of strings');
    }
    allowedEnvVars = handler.allowedEnvVars as string[];
    allowedEnvVars.forEach((name, i) => {
      if (!ENV_VAR_NAME.test(name)) {
        warn(`${field}.allowedEnvVars[${i}]`, 'invalid-env-var', `"${name}" is not a name a header can use ($ and then capitals, digits and _), so it never matches; write it as a bare name such as "API_TOKEN".`, name, 'a name like API_TOKEN');
      }
    });
  }

  const onFailure = handler.onFailure;
  if (onFailure !== undefined && onFailure !== 'continue' && onFailure !== 'block') {
    return error(`${field}.onFailure`, 'invalid-config', 'onFailure is "continue" (a failed request lets the action go on) or "block" (it blocks the action).', onFailure, 'continue, block');
  }

  let timeoutMs = CLAUDE_HTTP_TIMEOUT_MS;
  if (handler.timeout !== undefined && handler.timeout !== null) {
    if (typeof handler.timeout === 'number' && Number.isFinite(handler.timeout) && handler.timeout > 0) timeoutMs = handler.timeout * 1000;
    else warn(`${field}.timeout`, 'invalid-timeout', `The timeout is not a positive number; the default of ${CLAUDE_HTTP_TIMEOUT_MS / 1000} s applies.`, handler.timeout, 'a positive number of seconds');
  }

  const statusMessage = typeof handler.statusMessage === 'string' ? handler.statusMessage : undefined;
  if (handler.statusMessage !== undefined && statusMessage === undefined) {
    warn(`${field}.statusMessage`, 'invalid-config', 'statusMessage must be a string; it is ignored.', handler.statusMessage, 'a string');
  }

  for (const name of Object.keys(headers)) {
    if (FRAMING_HEADERS.has(name.toLowerCase())) {
      warn(`${field}.headers.${name}`, 'ignored-header', `${name} is set from the request body; the value given is ignored. Remove it.`, headers[name]);
    }
  }

  const hook = new HttpHook({
    url,
    event: ctx.event,
    eventName: ctx.eventName,
    matcher: ctx.matcher,
    headers,
    allowedEnvVars,
    env: ctx.env,
    timeoutMs,
    failClosed: onFailure === 'block' || ctx.failClosed === true,
    priority: ctx.priority,
    projectDir: ctx.projectDir,
    maxResponseBytes: ctx.maxResponseBytes,
    statusMessage,
    origin: ctx.origin,
  });
  for (const { header, name } of hook.unlistedVariables()) {
    warn(
      `${field}.headers.${header}`,
      'env-var-not-allowed',
      `The header "${header}" uses $${name}, which allowedEnvVars does not list, so it is sent as an empty string. Add "${name}" to allowedEnvVars to send its value.`,
      headers[header],
    );
  }
  return hook;
}
