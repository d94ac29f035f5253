/**
 * Cursor's hooks: `~/.cursor/hooks.json` and `.cursor/hooks.json`.
 *
 * @module
 */
import { dirname, join } from 'node:path';
import { CallableMatcher, CompositeMatcher, type AnyHookContext, type HookMatcher } from '../../core/index.js';
import type { ConfigLevel } from '../../script/command-hook.js';
import { COMMAND_FIELDS, createCursorDialect, CURSOR_EVENTS, PATH_FIELDS } from '../../dialects/cursor.js';
import { isRecord } from '../../dialects/wire-output.js';
import { ConfigCollector, commandName, configPlaces, explicitFiles, type ConfigLoadOptions, type LoadedConfigHooks } from '../../config/config-source.js';
import { existingFiles, type ConfigLoader } from '../config-loader.js';

/**
 * The timeout of a Cursor hook without one, in milliseconds.
 *
 * @internal
 */
export const CURSOR_HOOK_TIMEOUT_MS = 30_000;

const hasString = (args: Readonly<Record<string, unknown>>, fields: readonly string[]): boolean =>
  fields.some((f) => typeof args[f] === 'string');

/**
 * The tools each of Cursor's tool-specific events concerns: shell tools (a `command` argument), MCP tools (named
 * `mcp__server__tool`), file reads and file edits (a path argument, and a name that says read, or write/edit).
 */
const TOOL_KINDS: Readonly<Record<string, (ctx: AnyHookContext) => boolean>> = {
  beforeShellExecution: (ctx) => 'toolCall' in ctx && hasString(ctx.toolCall.args, COMMAND_FIELDS),
  afterShellExecution: (ctx) => 'toolCall' in ctx && hasString(ctx.toolCall.args, COMMAND_FIELDS),
  beforeMCPExecution: (ctx) => 'toolCall' in ctx && ctx.toolCall.name.startsWith('mcp__'),
  afterMCPExecution: (ctx) => 'toolCall' in ctx && ctx.toolCall.name.startsWith('mcp__'),
  beforeReadFile: (ctx) => 'toolCall' in ctx && /read/i.test(ctx.toolCall.name) && hasString(ctx.toolCall.args, PATH_FIELDS),
  afterFileEdit: (ctx) => 'toolCall' in ctx && /write|edit/i.test(ctx.toolCall.name) && hasString(ctx.toolCall.args, PATH_FIELDS),
};

/**
 * Loads Cursor's hooks (user file, then project file): `{version: 1, hooks: {event: [{command, matcher, timeout,
 * failClosed, loop_limit}]}}`. Commands of the user file run in `~/.cursor`, the project's in the project; `timeout`
 * is in seconds (default 30). `failClosed: true` makes a crash or timeout deny; `loop_limit` (default 5) caps the
 * follow-ups a stop hook sends in one turn. The tool-specific events (`beforeShellExecution`, `beforeMCPExecution`,
 * `beforeReadFile`, `afterFileEdit`, …) run on PreToolUse or PostToolUse for the tools they concern only.
 */
export async function loadCursorHooks(options: ConfigLoadOptions = {}): Promise<LoadedConfigHooks> {
  const out = new ConfigCollector(options);
  const places = configPlaces(options);
  const files: { file: string; level: ConfigLevel; cwd: string }[] = (explicitFiles(options) ?? []).map((f) => ({
    ...f,
    cwd: f.level === 'user' ? dirname(f.file) : places.projectDir,
  }));
  if (options.files === undefined) {
    if (places.homeDir !== undefined) {
      files.push({ file: join(places.homeDir, '.cursor', 'hooks.json'), level: 'user', cwd: join(places.homeDir, '.cursor') });
    }
    if (places.project) files.push({ file: join(places.projectDir, '.cursor', 'hooks.json'), level: 'project', cwd: places.projectDir });
  }
  for (const { file, level, cwd } of files) {
    const config = await out.readObject(file);
    if (config === undefined) continue;
    for (const { event, eventName, list: entries, field } of out.events(file, config.hooks ?? {}, CURSOR_EVENTS, 'hook entries')) {
      entries.forEach((entry: unknown, i) => {
        const at = `${field}[${i}]`;
        if (!isRecord(entry) || typeof entry.command !== 'string' || entry.command.trim() === '') {
          out.problem({ file, field: `${at}.command`, severity: 'error', code: 'missing-field', message: 'A Cursor hook needs a non-empty "command".' });
          return;
        }
        const written = out.matcher(entry.matcher, event, 'regex', file, `${at}.matcher`);
        if (written === null) return;
        const kind = TOOL_KINDS[eventName];
        const parts: HookMatcher[] = [];
        if (kind !== undefined) parts.push(new CallableMatcher(kind));
        if (written !== undefined) parts.push(written);
        const matcher = parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : CompositeMatcher.and(...parts);
        let loopLimit: number | undefined;
        if (entry.loop_limit !== undefined) {
          if (typeof entry.loop_limit === 'number' && Number.isInteger(entry.loop_limit) && entry.loop_limit >= 0) loopLimit = entry.loop_limit;
          else out.problem({ file, field: `${at}.loop_limit`, found: JSON.stringify(entry.loop_limit), allowed: 'a whole number ≥ 0', severity: 'warning', code: 'invalid-config', message: 'loop_limit is ignored; the default of 5 applies.' });
        }
        if (entry.failClosed !== undefined && typeof entry.failClosed !== 'boolean') {
          out.problem({ file, field: `${at}.failClosed`, found: JSON.stringify(entry.failClosed), allowed: 'true, false', severity: 'warning', code: 'invalid-config', message: 'failClosed must be a boolean; the hook fails open.' });
        }
        out.add(
          out.commandHook({
            name: commandName(entry.command),
            command: entry.command,
            event,
            eventName,
            matcher,
            dialect: createCursorDialect({ loopLimit }),
            timeoutMs: out.timeout(entry.timeout, 's', CURSOR_HOOK_TIMEOUT_MS, file, `${at}.timeout`),
            failClosed: entry.failClosed === true,
            projectDir: places.projectDir,
            cwd,
            env: { CURSOR_PROJECT_DIR: places.projectDir },
            origin: {
              kind: 'cursor',
              level,
              file,
              field: `${at}.command`,
              matcher: typeof entry.matcher === 'string' ? entry.matcher : undefined,
              definition: { event: eventName, entry },
            },
          }),
        );
      });
    }
  }
  return out.result();
}

/**
 * Cursor's hooks files, as one of the config formats.
 *
 * @internal
 */
export const cursorConfigLoader: ConfigLoader = {
  kind: 'cursor',
  describedFiles: '.cursor/hooks.json',
  owns: ({ parent, base }) => parent === '.cursor' && base === 'hooks.json',
  projectFiles: (projectDir) => existingFiles(projectDir, ['.cursor/hooks.json']),
  load: (_agents, options) => loadCursorHooks(options),
};
