/**
 * Claude Code's hooks: `~/.claude/settings.json`, `.claude/settings.json` and `.claude/settings.local.json`.
 *
 * @module
 */
import { join } from 'node:path';
import { claudeDialect } from '../../dialects/claude.js';
import { isRecord } from '../../dialects/wire-output.js';
import type { HookProblem } from '../../script/problem.js';
import {
  ConfigCollector,
  commandName,
  configPlaces,
  explicitFiles,
  eventNamesIn,
  type AgentEvents,
  type ConfigFileLocation,
  type ConfigLoadOptions,
  type LoadedConfigHooks,
} from '../../config/config-source.js';
import { claudeHandlerFields } from './handler-fields.js';
import { PromptHook } from '../../config/prompt-hook.js';
import { AgentHook, CLAUDE_AGENT_HOOK_TIMEOUT_MS } from '../../config/agent-hook.js';
import { httpHookFromEntry } from '../../config/http-hook.js';
import { existingFiles, type ConfigLoader } from '../config-loader.js';
import { claudeHooksSwitchedOff, claudeHooksSwitchMessage, claudeManagedSettingsFile } from './hooks-switch.js';
import { nodeFs } from '../../core/internal/node-fs.js';
import type { CommandHookOrigin, ConfigLevel } from '../../script/command-hook.js';
import type { AgentId } from '../agent-id.js';
import { boundedTest, CallableMatcher, CompositeMatcher, type AnyHookContext, type HookEventName, type HookMatcher } from '../../core/index.js';
import { compileManifestRegex } from '../../script/manifest-regex.js';
import { messageOf } from '../../core/internal/message-of.js';
import type { MatcherRule } from '../../config/config-matcher.js';

const { existsSync } = nodeFs;

/** The address `bridge --install claude --http` writes: an `agent-hooks serve` endpoint. */
const SERVED_BRIDGE_URL = /\/hooks\/claude(?:\/[A-Za-z]+)?\/?$/;

/**
 * Claude Code's default timeout for command hooks, in milliseconds (ten minutes).
 *
 * @internal
 */
export const CLAUDE_COMMAND_TIMEOUT_MS = 600_000;
/**
 * Claude Code's default timeout for UserPromptSubmit command hooks, in milliseconds: the prompt waits on them.
 *
 * @internal
 */
export const CLAUDE_PROMPT_SUBMIT_TIMEOUT_MS = 30_000;
/**
 * Claude Code's default timeout for prompt hooks, in milliseconds.
 *
 * @internal
 */
export const CLAUDE_PROMPT_TIMEOUT_MS = 30_000;

const EVENTS = eventNamesIn('claude');

/** Every event Claude Code 2.1.332 fires (its settings schema's list, read from the binary). */
const CLAUDE_EVENTS: AgentEvents = {
  agent: 'Claude Code',
  names: new Set([
    'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Notification', 'UserPromptSubmit', 'UserPromptExpansion',
    'SessionStart', 'SessionEnd', 'Stop', 'StopFailure', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact',
    'PreModelSwitch', 'PostModelSwitch', 'PermissionRequest', 'PermissionDenied', 'Setup', 'TeammateIdle', 'TaskCreated',
    'TaskCompleted', 'Elicitation', 'ElicitationResult', 'ConfigChange', 'WorktreeCreate', 'WorktreeRemove',
    'InstructionsLoaded', 'CwdChanged', 'FileChanged', 'DirectoryAdded', 'MessageDisplay', 'PreSkillShellCommand',
  ]),
};

/**
 * The settings files Claude Code reads, in the order they merge: user, project, local.
 *
 * @internal
 */
export function claudeSettingsFiles(options: ConfigLoadOptions = {}): ConfigFileLocation[] {
  const explicit = explicitFiles(options);
  if (explicit !== undefined) return explicit;
  const places = configPlaces(options);
  const files: ConfigFileLocation[] = [];
  if (places.homeDir !== undefined) files.push({ file: join(places.homeDir, '.claude', 'settings.json'), level: 'user' });
  if (places.project) {
    files.push({ file: join(places.projectDir, '.claude', 'settings.json'), level: 'project' });
    files.push({ file: join(places.projectDir, '.claude', 'settings.local.json'), level: 'local' });
  }
  return files;
}

/**
 * An agent that keeps its hooks in Claude Code's format (matcher groups of `command`, `http`, `prompt` and `agent`
 * handlers), in files and with variables of its own.
 *
 * @internal
 */
export interface ClaudeShapedFormat {
  /**
   * The agent whose files these are: its hooks' {@link CommandHookOrigin.kind}, which `list` shows, the trust store
   * pins, and `withHooksFrom`'s `parallel` reads that agent's own rule by.
   */
  readonly kind: AgentId;
  /** Every event the agent fires, for the message on one of them that has no counterpart here. */
  readonly events: AgentEvents;
  /**
   * Its files, in the order they merge (the user's first), each with where it holds the events when not
   * {@link hooksAt}, and its `folder` when an event's list in a later file of the same folder replaces this file's list
   * of that event (an agent's hooks file over its settings file); or, with `unread`, a file the agent does
   * not read, whose existence is reported with that reason and which loads nothing.
   */
  files(options: ConfigLoadOptions): (ConfigFileLocation & { readonly hooksAt?: 'hooks' | 'top'; readonly folder?: string; readonly unread?: string })[];
  /**
   * Where a file holds the events: under `hooks` (Claude Code's settings), or at its top level (`top`), where a
   * `hooks` key is not read — it is reported, since the agent runs none of what it holds.
   */
  readonly hooksAt: 'hooks' | 'top';
  /** Keys beside the events that are settings, not events. */
  readonly settingKeys?: readonly string[];
  /**
   * A key whose `true` switches off every hook the agent runs (the last file that sets it decides) — beside the events
   * (`events`), or at the top level of the file (`file`): nothing loads then, and a `hooks-disabled` warning names the
   * file.
   */
  readonly offSwitch?: { readonly key: string; readonly at: 'events' | 'file' };
  /** How its matchers read (Claude Code's rule by default). */
  readonly matcherRule?: MatcherRule;
  /**
   * Whether a matcher group's `commandRegex` narrows its hooks to the calls whose `command` it matches (an unanchored
   * regex; a call without a command runs none of them).
   */
  readonly commandRegex?: boolean;
  /** The variables the agent sets for a command hook of `event` (its project variables among them). */
  env(projectDir: string, event: HookEventName): Record<string, string>;
  /** A command hook's timeout when its entry gives none, by event, in milliseconds. */
  commandTimeoutMs(event: HookEventName): number;
  /** Whether a `disableAllHooks` in its files (or Claude Code's managed settings) switches every hook off. */
  readonly hooksSwitch: boolean;
}

const CLAUDE_FORMAT: ClaudeShapedFormat = {
  kind: 'claude',
  events: CLAUDE_EVENTS,
  files: claudeSettingsFiles,
  hooksAt: 'hooks',
  env: (projectDir) => ({
    CLAUDE_PROJECT_DIR: projectDir,
    CLAUDECODE: '1',
  }),
  commandTimeoutMs: (event) => (event === 'UserPromptSubmit' ? CLAUDE_PROMPT_SUBMIT_TIMEOUT_MS : CLAUDE_COMMAND_TIMEOUT_MS),
  hooksSwitch: true,
};

/**
 * A group's `commandRegex`: its hooks run only on a call whose `command` the regex matches; `undefined` (after `fail`
 * with why) when it is no string or does not compile safely.
 */
function commandRegexMatcher(pattern: unknown, fail: (message: string) => void): HookMatcher | undefined {
  if (typeof pattern !== 'string') {
    fail('"commandRegex" must be a string: a regex over the command of the call. This group\'s hooks are not loaded.');
    return undefined;
  }
  let re: RegExp;
  try {
    re = compileManifestRegex(pattern, 'javascript');
  } catch (error) {
    fail(`"commandRegex" is not a regex this can run: ${messageOf(error)} This group's hooks are not loaded.`);
    return undefined;
  }
  return new CallableMatcher(function commandRegex(ctx: AnyHookContext) {
    const command = 'toolCall' in ctx ? ctx.toolCall.args['command'] : undefined;
    return typeof command === 'string' && boundedTest(re, command);
  });
}

/**
 * Loads the hooks of Claude Code's settings files, merged in Claude Code's order (user, project, local): each event's
 * matcher groups, each group's handlers. `type: "command"` handlers run through the shell with `CLAUDE_PROJECT_DIR`
 * set, and `CLAUDECODE=1` (timeout in seconds, default 600, 30 on UserPromptSubmit; `async: true` runs it in
 * the background, where it cannot block; `args` is the exec form, no shell between); SessionStart hooks also get
 * `CLAUDE_ENV_FILE`; `type: "http"` handlers POST the same payload to their `url` (see {@link HttpHook});
 * `type: "prompt"` handlers are judged by `options.judge` (the agent's model), `type: "agent"` handlers verified by
 * `options.verify` (see {@link AgentHook}); each is reported as a problem without it.
 * Every handler takes `if`, a permission rule (`Bash(git *)`) that narrows it to the calls it matches, and
 * `onFailure: "block"`, which makes a failure of the hook block what it guards. A command that appears more than once for the same event and matcher — in
 * one file or across them — runs once, as in Claude Code. Matchers follow Claude Code's rules: `*`, `""` or none
 * match everything, a value of only letters, digits, `_`, `-` and `|` is an exact name or a `|` list of them, and
 * anything else is an unanchored regex. `"disableAllHooks": true` in any of the files (the last one that sets it
 * decides), or in the organisation's managed settings, loads no hook at all, as Claude Code runs none: a
 * `hooks-disabled` warning names the file.
 *
 * ```ts
 * const { hooks, problems } = await loadClaudeHooks({ projectDir: process.cwd() });
 * ```
 */
export function loadClaudeHooks(options: ConfigLoadOptions = {}): Promise<LoadedConfigHooks> {
  return loadClaudeShapedHooks(CLAUDE_FORMAT, options);
}

/**
 * Loads the hooks of the files of an agent that speaks Claude Code's format (see {@link loadClaudeHooks}), with the
 * files, variables and defaults `format` gives.
 *
 * @internal
 */
export async function loadClaudeShapedHooks(format: ClaudeShapedFormat, options: ConfigLoadOptions = {}): Promise<LoadedConfigHooks> {
  const out = new ConfigCollector(options);
  const places = configPlaces(options);
  const seen = new Set<string>();
  const read: { file: string; level: ConfigLevel; settings: Record<string, unknown>; hooksAt: 'hooks' | 'top'; folder?: string | undefined }[] = [];
  for (const { file, level, hooksAt = format.hooksAt, folder, unread } of format.files(options)) {
    if (unread !== undefined) {
      if (existsSync(file)) out.problem({ file, severity: 'warning', code: 'invalid-config', message: unread });
      continue;
    }
    const settings = await out.readObject(file);
    if (settings !== undefined) read.push({ file, level, settings, hooksAt, folder });
  }
  // The events of each file, where it holds them.
  const eventsOf = (settings: Record<string, unknown>, hooksAt: 'hooks' | 'top'): unknown => {
    if (hooksAt === 'hooks') return settings.hooks;
    const { hooks: _wrapper, ...top } = settings;
    return top;
  };
  if (format.offSwitch !== undefined) {
    const { key, at } = format.offSwitch;
    const setting = read
      .map(({ file, settings, hooksAt }) => ({ file, hooksAt, holder: at === 'file' ? settings : eventsOf(settings, hooksAt) }))
      .filter((r) => isRecord(r.holder) && typeof r.holder[key] === 'boolean')
      .at(-1);
    if (setting !== undefined && (setting.holder as Record<string, unknown>)[key] === true) {
      const field = at === 'file' || setting.hooksAt === 'top' ? key : `hooks.${key}`;
      out.problem({ file: setting.file, field, found: 'true', severity: 'warning', code: 'hooks-disabled', message: `${format.events.agent} runs no hook while ${field} is true here: none is loaded either.` });
      return out.result();
    }
  }
  // Files given by name are read alone; the usual places come with the organisation's managed file, which wins.
  const managedFile = explicitFiles(options) === undefined && format.hooksSwitch ? claudeManagedSettingsFile(options.platform) : undefined;
  const managed = managedFile === undefined ? undefined : await out.readObject(managedFile);
  const off = format.hooksSwitch ? claudeHooksSwitchedOff(read, managed === undefined ? undefined : { file: managedFile!, settings: managed }) : undefined;
  if (off !== undefined) {
    // As in Claude Code: one file's switch turns off every file's hooks. Said, never silent.
    out.problem({ file: off.file, field: 'disableAllHooks', found: 'true', severity: 'warning', code: 'hooks-disabled', message: claudeHooksSwitchMessage(off) });
    return out.result();
  }
  // An event a later file of the same folder hooks: this file's list of it is replaced, as the agent replaces it.
  const replacedIn = (index: number): Map<string, string> => {
    const replaced = new Map<string, string>();
    const { folder } = read[index]!;
    if (folder === undefined) return replaced;
    for (const later of read.slice(index + 1)) {
      const events = later.folder === folder ? eventsOf(later.settings, later.hooksAt) : undefined;
      if (!isRecord(events)) continue;
      // A list that is empty, or not a list, replaces nothing: the earlier file's hooks stay guarding.
      for (const [key, list] of Object.entries(events)) if (Array.isArray(list) && list.length > 0) replaced.set(key, later.file);
    }
    return replaced;
  };
  for (const [index, { file, level, settings, hooksAt }] of read.entries()) {
    if (hooksAt === 'top' && settings.hooks !== undefined) {
      out.problem({ file, field: 'hooks', severity: 'warning', code: 'invalid-config', message: `${format.events.agent} reads the events at the top level of this file and runs none of the hooks under "hooks": they are not loaded here either. Move each event up a level.` });
    }
    let events = eventsOf(settings, hooksAt);
    if (format.settingKeys !== undefined && isRecord(events)) {
      events = Object.fromEntries(Object.entries(events).filter(([key]) => !format.settingKeys!.includes(key)));
    }
    const replaced = replacedIn(index);
    if (replaced.size > 0 && isRecord(events)) {
      events = Object.fromEntries(
        Object.entries(events).filter(([key]) => {
          const by = replaced.get(key);
          if (by === undefined) return true;
          const field = hooksAt === 'top' ? key : `hooks.${key}`;
          out.problem({ file, field, severity: 'warning', code: 'invalid-config', message: `${format.events.agent} runs the ${key} hooks of ${by} and none of these, which that file's list replaces: they are not loaded here either. Move them into ${by}.` });
          return false;
        }),
      );
    }
    for (const { event, eventName, list: groups, field } of out.events(file, events, EVENTS, '{matcher, hooks} groups', format.events, hooksAt === 'top' ? '' : 'hooks')) {
      groups.forEach((group: unknown, g) => {
        const groupField = `${field}[${g}]`;
        if (!isRecord(group) || !Array.isArray(group.hooks)) {
          out.problem({ file, field: groupField, severity: 'error', code: 'invalid-config', allowed: '{"matcher": "…", "hooks": [ … ]}', message: 'A matcher group needs a "hooks" list.' });
          return;
        }
        let matcher = out.matcher(group.matcher, event, format.matcherRule ?? 'claude', file, `${groupField}.matcher`);
        if (matcher === null) return;
        if (format.commandRegex === true && group.commandRegex !== undefined) {
          const byCommand = commandRegexMatcher(group.commandRegex, (message) => out.problem({ file, field: `${groupField}.commandRegex`, found: JSON.stringify(group.commandRegex), severity: 'error', code: 'invalid-matcher', message }));
          // As the agent does with a regex it cannot compile, the group's hooks are left out (and that is said).
          if (byCommand === undefined) return;
          matcher = matcher === undefined ? byCommand : CompositeMatcher.and(matcher, byCommand);
        }
        const matcherText = typeof group.matcher === 'string' ? group.matcher : undefined;
        group.hooks.forEach((handler: unknown, h) => {
          const at = `${groupField}.hooks[${h}]`;
          const origin = { kind: format.kind, level, file, field: at, matcher: matcherText, definition: { event: eventName, matcher: group.matcher, hook: handler } };
          if (!isRecord(handler)) {
            out.problem({ file, field: at, severity: 'error', code: 'invalid-config', message: 'A hook handler must be an object with "type".' });
            return;
          }
          const place = { file, field: at, event, matcher, projectDir: places.projectDir, problem: (p: HookProblem) => out.problem(p) };
          if (handler.type === 'command') {
            if (typeof handler.command !== 'string' || handler.command.trim() === '') {
              out.problem({ file, field: `${at}.command`, severity: 'error', code: 'missing-field', message: 'A command hook needs a non-empty "command".' });
              return;
            }
            const fields = claudeHandlerFields(handler, 'command', place);
            if (fields === null) return;
            // Identical handlers run once, as in Claude Code: the same command, arguments and filter.
            const key = JSON.stringify([event, matcherText ?? '', handler.command, handler.args ?? null, handler.if ?? null, handler.shell ?? null]);
            if (seen.has(key)) return;
            seen.add(key);
            out.add(
              out.commandHook({
                name: commandName(handler.command),
                command: fields.exec?.command ?? handler.command,
                args: fields.exec?.args,
                shell: fields.shell,
                event,
                eventName,
                matcher: fields.matcher,
                failClosed: fields.failClosed,
                dialect: claudeDialect,
                timeoutMs: out.timeout(handler.timeout, 's', format.commandTimeoutMs(event), file, `${at}.timeout`),
                projectDir: places.projectDir,
                // A background hook answers nothing: it cannot block, modify or add context, as in Claude Code.
                async: fields.async,
                // asyncRewake: its exit 2 wakes the model, as Claude Code wakes it (see ProcessHookSettings.rewake).
                rewake: handler.asyncRewake === true,
                env: format.env(places.projectDir, event),
                origin,
              }),
            );
          } else if (handler.type === 'prompt') {
            if (typeof handler.prompt !== 'string' || handler.prompt.trim() === '') {
              out.problem({ file, field: `${at}.prompt`, severity: 'error', code: 'missing-field', message: 'A prompt hook needs a non-empty "prompt".' });
              return;
            }
            const fields = claudeHandlerFields(handler, 'prompt', place);
            if (fields === null) return;
            if (options.judge === undefined) {
              out.problem({
                file,
                field: at,
                severity: 'error',
                code: 'prompt-hook-needs-model',
                message: 'A prompt hook is judged by a model, and none was given: give the agent one with withModel(…), or pass `judge` to the loader.',
              });
              return;
            }
            out.add(
              new PromptHook({
                name: `prompt: ${commandName(handler.prompt)}`,
                prompt: handler.prompt,
                continueOnBlock: handler.continueOnBlock === true,
                event,
                matcher: fields.matcher,
                judge: options.judge,
                timeoutMs: out.timeout(handler.timeout, 's', CLAUDE_PROMPT_TIMEOUT_MS, file, `${at}.timeout`),
                priority: options.priority,
                projectDir: places.projectDir,
                origin,
              }),
            );
          } else if (handler.type === 'agent') {
            if (typeof handler.prompt !== 'string' || handler.prompt.trim() === '') {
              out.problem({ file, field: `${at}.prompt`, severity: 'error', code: 'missing-field', message: 'An agent hook needs a non-empty "prompt": what to verify.' });
              return;
            }
            if (event === 'PermissionRequest') {
              // Claude Code refuses it there too: a verdict of ok or not ok is no allow or deny.
              out.problem({ file, field: `${at}.type`, found: '"agent"', allowed: 'command, http', severity: 'warning', code: 'unsupported-hook-type', message: 'An agent hook answers ok or not ok, which is no allow or deny for a permission request: Claude Code does not run it on PermissionRequest, and it is not loaded. Use a command or http hook.' });
              return;
            }
            const fields = claudeHandlerFields(handler, 'agent', place);
            if (fields === null) return;
            if (options.verify === undefined) {
              out.problem({
                file,
                field: at,
                severity: 'error',
                code: 'agent-hook-needs-model',
                message: 'An agent hook is run by a model, and none was given: give the agent one with withModel(…), or pass `verify` to the loader.',
              });
              return;
            }
            out.add(
              new AgentHook({
                name: `agent: ${commandName(handler.prompt)}`,
                prompt: handler.prompt,
                event,
                matcher: fields.matcher,
                verify: options.verify,
                timeoutMs: out.timeout(handler.timeout, 's', CLAUDE_AGENT_HOOK_TIMEOUT_MS, file, `${at}.timeout`),
                priority: options.priority,
                projectDir: places.projectDir,
                origin,
              }),
            );
          } else if (handler.type === 'http' && typeof handler.url === 'string' && SERVED_BRIDGE_URL.test(handler.url)) {
            // `agent-hooks serve` answering Claude Code's http hooks: the same stack as the command bridge.
            out.problem({
              file,
              field: at,
              severity: 'info',
              code: 'bridge-skipped',
              message: 'This is agent-hooks serve, which runs the HOOK.md hooks this agent already loads directly; it is skipped so that they do not run twice.',
            });
          } else if (handler.type === 'http') {
            const fields = claudeHandlerFields(handler, 'http', place);
            if (fields === null) return;
            const hook = httpHookFromEntry(handler, {
              file,
              field: at,
              event,
              eventName,
              matcher: fields.matcher,
              projectDir: places.projectDir,
              priority: options.priority,
              env: process.env,
              origin,
              problem: (p) => out.problem(p),
              failClosed: fields.failClosed || options.failClosed === true,
              maxResponseBytes: options.maxOutputBytes,
            });
            if (hook === undefined) return;
            // Identical handlers run once, as in Claude Code: the same URL and filter.
            const key = JSON.stringify([event, matcherText ?? '', 'http', handler.url, handler.if ?? null]);
            if (seen.has(key)) return;
            seen.add(key);
            out.add(hook);
          } else {
            const why =
              handler.type === 'mcp_tool'
                ? 'An mcp_tool hook calls a tool of an MCP server Claude Code is connected to, and there is none here: it is not loaded. Run the same check as a command or http hook to have it run everywhere.'
                : 'Only command, prompt, agent and http hooks are supported; this one is not loaded.';
            out.problem({
              file,
              field: `${at}.type`,
              found: JSON.stringify(handler.type),
              allowed: 'command, prompt, agent, http',
              severity: 'warning',
              code: 'unsupported-hook-type',
              message: why,
            });
          }
        });
      });
    }
  }
  return out.result();
}

/**
 * Claude Code's settings files, as one of the config formats.
 *
 * @internal
 */
export const claudeConfigLoader: ConfigLoader = {
  kind: 'claude',
  describedFiles: '.claude/settings.json, .claude/settings.local.json',
  owns: ({ parent, base }) => parent === '.claude' && /^settings(\.local)?\.json$/.test(base),
  projectFiles: (projectDir) => existingFiles(projectDir, ['.claude/settings.json', '.claude/settings.local.json']),
  load: (_agents, options) => loadClaudeHooks(options),
};
