/**
 * Codex CLI's hooks: `$CODEX_HOME/hooks.json` (default `~/.codex/hooks.json`) and `.codex/hooks.json`.
 *
 * @module
 */
import { join, resolve } from 'node:path';
import { CallableMatcher, CompositeMatcher, HookEvent, ToolNameMatcher, type AnyHookContext, type HookEventName, type HookMatcher } from '../../core/index.js';
import { codexDialect, CODEX_EVENTS } from '../../dialects/codex.js';
import { isRecord } from '../../dialects/wire-output.js';
import type { ConfigLevel } from '../../script/command-hook.js';
import type { HookEnv } from '../../script/hook-dirs.js';
import { ConfigCollector, commandName, configPlaces, explicitFiles, type ConfigFileLocation, type ConfigLoadOptions, type LoadedConfigHooks } from '../../config/config-source.js';
import { existingFiles, type ConfigLoader } from '../config-loader.js';

/**
 * Codex's timeout for a command hook that names none, in milliseconds (`timeout` is in seconds; 600 by default).
 *
 * @internal
 */
export const CODEX_HOOK_TIMEOUT_MS = 600_000;
/**
 * Codex's ceiling on a SessionEnd hook, in milliseconds: it runs while the session closes.
 *
 * @internal
 */
export const CODEX_SESSION_END_TIMEOUT_MS = 3_000;

/** Codex events that have no counterpart among ours: Codex runs them, this loader cannot. */
const UNMAPPED_EVENTS: ReadonlySet<string> = new Set(['PostModelRequest', 'Interrupt']);
/** The names a Codex matcher also tests for `apply_patch`, besides its own (Codex's matcher aliases). */
const APPLY_PATCH_ALIASES: readonly string[] = Object.freeze(['Write', 'Edit']);
const HANDLER_TYPES = ['command', 'prompt', 'agent'];

/** Options of {@link loadCodexHooks}. */
export interface CodexLoadOptions extends ConfigLoadOptions {
  /** Codex's home, where the user's `hooks.json` is (default: `CODEX_HOME`, else `~/.codex`). */
  readonly codexHome?: string | undefined;
  /**
   * The environment `CODEX_HOME` is read from (default: `process.env`, unless `homeDir` is given: a sandboxed home
   * reads no variable of this process).
   */
  readonly hostEnv?: HookEnv | undefined;
}

/**
 * Where Codex keeps the user's files: `codexHome`, else `CODEX_HOME`, else `.codex` in the home; `undefined` when
 * user files are skipped (`homeDir: false`).
 *
 * @internal
 */
export function codexHomeDir(options: CodexLoadOptions = {}): string | undefined {
  const places = configPlaces(options);
  if (places.homeDir === undefined) return undefined;
  if (options.codexHome !== undefined) return resolve(options.codexHome);
  const env = options.hostEnv ?? (options.homeDir === undefined ? process.env : {});
  const fromEnv = env['CODEX_HOME'];
  return fromEnv !== undefined && fromEnv !== '' ? resolve(fromEnv) : join(places.homeDir, '.codex');
}

/**
 * The hook files Codex reads, in the order their hooks are listed: the user's, then the project's.
 *
 * @internal
 */
export function codexHookFiles(options: CodexLoadOptions = {}): ConfigFileLocation[] {
  const explicit = explicitFiles(options);
  if (explicit !== undefined) return explicit;
  const places = configPlaces(options);
  const files: { file: string; level: ConfigLevel }[] = [];
  const home = codexHomeDir(options);
  if (home !== undefined) files.push({ file: join(home, 'hooks.json'), level: 'user' });
  if (places.project) files.push({ file: join(places.projectDir, '.codex', 'hooks.json'), level: 'project' });
  return files;
}

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);

/**
 * The first thing in a hooks file that Codex cannot read, as a field and what is wrong with it. Codex reads the file
 * in one piece: one bad value anywhere under a known event and it loads none of the file's hooks.
 */
function fileProblem(config: Record<string, unknown>): { field: string; found: string; allowed: string } | undefined {
  const hooks = config.hooks;
  if (hooks === undefined) return undefined;
  if (!isRecord(hooks)) return { field: 'hooks', found: typeOf(hooks), allowed: 'an object of event names' };
  for (const [eventName, groups] of Object.entries(hooks)) {
    if (CODEX_EVENTS[eventName] === undefined && !UNMAPPED_EVENTS.has(eventName)) continue;
    const field = `hooks.${eventName}`;
    if (!Array.isArray(groups)) return { field, found: typeOf(groups), allowed: 'a list of {matcher, hooks} groups' };
    for (const [g, group] of groups.entries()) {
      const at = `${field}[${g}]`;
      if (!isRecord(group)) return { field: at, found: typeOf(group), allowed: '{"matcher": "…", "hooks": [ … ]}' };
      if (group.matcher !== undefined && group.matcher !== null && typeof group.matcher !== 'string') return { field: `${at}.matcher`, found: typeOf(group.matcher), allowed: 'a string' };
      if (group.hooks === undefined) continue;
      if (!Array.isArray(group.hooks)) return { field: `${at}.hooks`, found: typeOf(group.hooks), allowed: 'a list of handlers' };
      for (const [h, handler] of group.hooks.entries()) {
        const hAt = `${at}.hooks[${h}]`;
        if (!isRecord(handler)) return { field: hAt, found: typeOf(handler), allowed: '{"type": "command", "command": "…"}' };
        if (typeof handler.type !== 'string' || !HANDLER_TYPES.includes(handler.type)) {
          return { field: `${hAt}.type`, found: handler.type === undefined ? 'nothing' : JSON.stringify(handler.type), allowed: HANDLER_TYPES.join(', ') };
        }
        if (handler.type !== 'command') continue;
        if (typeof handler.command !== 'string') return { field: `${hAt}.command`, found: handler.command === undefined ? 'nothing' : typeOf(handler.command), allowed: 'a string' };
        const timeout = handler.timeout;
        if (timeout !== undefined && timeout !== null && !(typeof timeout === 'number' && Number.isInteger(timeout) && timeout >= 0)) {
          return { field: `${hAt}.timeout`, found: JSON.stringify(timeout), allowed: 'a whole number of seconds ≥ 0' };
        }
        if (handler.async !== undefined && typeof handler.async !== 'boolean') return { field: `${hAt}.async`, found: JSON.stringify(handler.async), allowed: 'true, false' };
        if (handler.statusMessage !== undefined && handler.statusMessage !== null && typeof handler.statusMessage !== 'string') {
          return { field: `${hAt}.statusMessage`, found: typeOf(handler.statusMessage), allowed: 'a string' };
        }
      }
    }
  }
  return undefined;
}

/**
 * A tool matcher as Codex applies it: `apply_patch` is also tested under the names `Write` and `Edit`, so a hook for
 * `Write` sees Codex's patches.
 */
function withPatchAliases(matcher: HookMatcher | undefined): HookMatcher | undefined {
  if (!(matcher instanceof ToolNameMatcher)) return matcher;
  const alias = new CallableMatcher(function codexPatchAlias(ctx: AnyHookContext) {
    return 'toolCall' in ctx && ctx.toolCall.name === 'apply_patch' && APPLY_PATCH_ALIASES.some((name) => matcher.matchesName(name));
  });
  return CompositeMatcher.or(matcher, alias);
}

/** A handler's timeout in milliseconds, as Codex reads it: whole seconds, at least one, 600 without one. */
function timeoutMs(value: unknown, event: HookEventName): { ms: number; clamped: boolean } {
  const seconds = typeof value === 'number' ? Math.max(1, value) : CODEX_HOOK_TIMEOUT_MS / 1000;
  const ms = seconds * 1000;
  if (event === 'SessionEnd' && ms > CODEX_SESSION_END_TIMEOUT_MS) return { ms: CODEX_SESSION_END_TIMEOUT_MS, clamped: typeof value === 'number' };
  return { ms, clamped: false };
}

/**
 * Loads Codex CLI's hooks, user file first, then the project's — the order Codex lists them in. The files are Claude
 * Code's shape: `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "…",
 * "timeout": 30, "async": false, "statusMessage": "…"}]}]}}`, under Codex's event names (PreToolUse,
 * PermissionRequest, PostToolUse, UserPromptSubmit, Stop, SessionStart, SessionEnd, SubagentStart, SubagentStop,
 * PreCompact, PostCompact, and PreModelRequest, which is BeforeStep).
 *
 * As Codex does:
 * - a command runs through the shell in the project directory (Codex runs every hook, the user's too, in the
 *   session's working directory) and sets no project variable; `timeout` is in seconds, at least 1, default 600
 *   (`timeoutSec` is not read: a warning says so), and a SessionEnd hook gets 3 at most; `async: true` runs it in the
 *   background, unable to decide anything;
 * - a matcher is `*`, `""` or absent for everything; only letters, digits, `_` and `|` make an exact name or a `|`
 *   list of them; anything else is an unanchored regular expression (the `codex` matcher rule). It tests the
 *   tool's name on PreToolUse, PermissionRequest and PostToolUse (`apply_patch` also as `Write` and `Edit`), the
 *   source on SessionStart, the agent type on SubagentStart and SubagentStop, the trigger on PreCompact and
 *   PostCompact, and nothing elsewhere. A group whose matcher does not compile is left out;
 * - a file Codex cannot read whole (a handler without `type` or `command`, a timeout that is not a whole number, …)
 *   loads none of its hooks, with an error naming the field; `prompt` and `agent` handlers, which Codex does not
 *   run, and empty commands are left out with a warning; the same command twice runs twice.
 *
 * Unlike Codex, the project's hooks need this library's trust (`agent-hooks trust`), not Codex's own review; the
 * user's do not. Hooks of one event run one after another by priority here, where Codex starts them all at once
 * (see the README's compatibility notes), and the command runs in `/bin/sh -c` where Codex uses the user's login shell
 * (`$SHELL -lc`). `config.toml`'s inline `[hooks]` tables are not read.
 *
 * ```ts
 * const { hooks, problems } = await loadCodexHooks({ projectDir: process.cwd() });
 * ```
 */
export async function loadCodexHooks(options: CodexLoadOptions = {}): Promise<LoadedConfigHooks> {
  const out = new ConfigCollector(options);
  const places = configPlaces(options);
  for (const { file, level } of codexHookFiles(options)) {
    const config = await out.readObject(file);
    if (config === undefined) continue;
    const problem = fileProblem(config);
    if (problem !== undefined) {
      out.problem({
        file,
        field: problem.field,
        found: problem.found,
        allowed: problem.allowed,
        severity: 'error',
        code: 'invalid-config',
        message: `Codex cannot read this value and so runs none of this file's hooks; none are loaded here either. Make it ${problem.allowed}.`,
      });
      continue;
    }
    const hooks = isRecord(config.hooks) ? config.hooks : {};
    for (const name of Object.keys(hooks).filter((n) => UNMAPPED_EVENTS.has(n))) {
      out.problem({
        file,
        field: `hooks.${name}`,
        severity: 'warning',
        code: 'unsupported-event',
        message: `Codex runs ${name} hooks, but agent-hooks has no event it could be, so these hooks are not loaded.`,
      });
    }
    const known = Object.fromEntries(Object.entries(hooks).filter(([n]) => !UNMAPPED_EVENTS.has(n)));
    for (const { event, eventName, list: groups, field } of out.events(file, known, CODEX_EVENTS, '{matcher, hooks} groups')) {
      groups.forEach((group: unknown, g) => {
        const groupField = `${field}[${g}]`;
        const entry = group as Record<string, unknown>;
        const written = out.matcher(entry.matcher, event, 'codex', file, `${groupField}.matcher`);
        if (written === null) return;
        const matcher = HookEvent.isToolEvent(event) ? withPatchAliases(written) : written;
        const handlers = Array.isArray(entry.hooks) ? (entry.hooks as Record<string, unknown>[]) : [];
        handlers.forEach((handler, h) => {
          const at = `${groupField}.hooks[${h}]`;
          if (handler.type !== 'command') {
            out.problem({
              file,
              field: `${at}.type`,
              found: JSON.stringify(handler.type),
              allowed: 'command',
              severity: 'warning',
              code: 'unsupported-hook-type',
              message: `Codex does not run ${String(handler.type)} hooks (it skips them with a warning); this one is not loaded.`,
            });
            return;
          }
          const command = handler.command as string;
          if (command.trim() === '') {
            out.problem({ file, field: `${at}.command`, severity: 'warning', code: 'missing-field', message: 'The command is empty; Codex skips it, and so does this loader. Write the command to run.' });
            return;
          }
          if (handler.timeoutSec !== undefined && handler.timeout === undefined) {
            out.problem({
              file,
              field: `${at}.timeoutSec`,
              found: JSON.stringify(handler.timeoutSec),
              allowed: 'timeout',
              severity: 'warning',
              code: 'invalid-timeout',
              message: `Codex 0.171 reads "timeout", not "timeoutSec", so it gives this hook its default of ${CODEX_HOOK_TIMEOUT_MS / 1000} s, and so does this loader. Rename the field to "timeout".`,
            });
          }
          const timeout = timeoutMs(handler.timeout, event);
          if (timeout.clamped) {
            out.problem({
              file,
              field: `${at}.timeout`,
              found: JSON.stringify(handler.timeout),
              allowed: `at most ${CODEX_SESSION_END_TIMEOUT_MS / 1000}`,
              severity: 'warning',
              code: 'invalid-timeout',
              message: `Codex gives a ${eventName} hook ${CODEX_SESSION_END_TIMEOUT_MS / 1000} s at most, so it is cut to that.`,
            });
          }
          out.add(
            out.commandHook({
              name: commandName(command),
              command,
              event,
              eventName,
              matcher,
              dialect: codexDialect,
              timeoutMs: timeout.ms,
              async: handler.async === true,
              projectDir: places.projectDir,
              origin: {
                kind: 'codex',
                level,
                file,
                field: `${at}.command`,
                matcher: typeof entry.matcher === 'string' ? entry.matcher : undefined,
                definition: { event: eventName, matcher: entry.matcher, hook: handler },
              },
            }),
          );
        });
      });
    }
  }
  return out.result();
}

/**
 * Codex CLI's hooks files, as one of the config formats. A `hooks.json` elsewhere (the user's `$CODEX_HOME`) is
 * Codex's only when named so.
 *
 * @internal
 */
export const codexConfigLoader: ConfigLoader = {
  kind: 'codex',
  describedFiles: '.codex/hooks.json',
  owns: ({ parent, base }) => parent === '.codex' && base === 'hooks.json',
  projectFiles: (projectDir) => existingFiles(projectDir, ['.codex/hooks.json']),
  load: (_agents, options) => loadCodexHooks(options),
};
