/**
 * Gemini CLI's hooks: `~/.gemini/settings.json` and `.gemini/settings.json`.
 *
 * @module
 */
import { join } from 'node:path';
import { CallableMatcher, CompositeMatcher, type AnyHookContext, type HookEventName } from '../../core/index.js';
import type { CommandHook, ConfigLevel } from '../../script/command-hook.js';
import { geminiDialect } from '../../dialects/gemini.js';
import { isRecord } from '../../dialects/wire-output.js';
import { BRIDGE_COMMAND, ConfigCollector, commandName, configPlaces, eventNamesIn, explicitFiles, type ConfigLoadOptions, type LoadedConfigHooks } from '../../config/config-source.js';
import { existingFiles, type ConfigLoader } from '../config-loader.js';
import { geminiHookName, geminiHookSwitches, geminiSwitchedOff } from './hook-switches.js';
import { compressOnEveryCall } from './compress-every-call.js';

/**
 * Gemini CLI's default hook timeout, in milliseconds.
 *
 * @internal
 */
export const GEMINI_HOOK_TIMEOUT_MS = 60_000;

const EVENTS = eventNamesIn('gemini');

// The failures Gemini CLI refuses before any hook runs: a call to a tool it does not have (or was not offered for the
// step), and arguments that fail the tool's schema (the model's, or a BeforeTool hook's rewrite). Only a tool that ran
// and failed reaches AfterTool.
const REFUSED_BEFORE_HOOKS: ReadonlySet<string> = new Set(['UnknownToolError', 'ToolNotOfferedError', 'ToolInputError']);

const toolRan = new CallableMatcher(function toolRan(ctx: AnyHookContext) {
  return ctx.event !== 'PostToolUseFailure' || !(ctx.error instanceof Error && REFUSED_BEFORE_HOOKS.has(ctx.error.name));
});

// Gemini CLI runs its AfterModel hooks on the model's chunks only: an answer a BeforeModel hook gave instead of the
// model goes to the user without them.
const modelAnswered = new CallableMatcher(function modelAnswered(ctx: AnyHookContext) {
  return ctx.event !== 'AfterModel' || !ctx.synthetic;
});

/**
 * An AfterTool hook runs for a failed tool call too: Gemini CLI has no failure event and sends the call as an AfterTool
 * whose tool_response holds the error. A command hook is built for one event; the failure event is added to it here.
 */
function alsoOnToolFailure(hook: CommandHook): CommandHook {
  const events: readonly HookEventName[] = Object.freeze(['PostToolUse', 'PostToolUseFailure']);
  Object.defineProperty(hook, 'events', { value: events, enumerable: true });
  return hook;
}

/**
 * Loads Gemini CLI's hooks (user file, then project file): event → definitions `{matcher, sequential, hooks: [{type:
 * "command", command, name, timeout}]}`, with the timeout in MILLISECONDS (default 60000) and the matcher an
 * unanchored regex over tool names. `GEMINI_PROJECT_DIR` and `CLAUDE_PROJECT_DIR` are set, as Gemini CLI sets both.
 * A definition's hooks run one after another in the order written, so a hook sees the input the one before rewrote —
 * what Gemini CLI does with `sequential: true`; without it Gemini CLI starts them together, and the decisions merge
 * the same way (see the README's compatibility notes). An AfterTool hook also runs when a tool that ran failed
 * (PostToolUseFailure), as Gemini CLI runs it then, but not for a call refused before it ran (an unknown tool, or
 * arguments that fail the tool's schema), which Gemini CLI runs no hook for. BeforeModel, BeforeToolSelection and
 * AfterModel hooks run on the model events of the same names; a matcher means nothing there (Gemini CLI ignores it,
 * and a warning says so), and an AfterModel hook does not run on an answer a BeforeModel hook gave instead of the
 * model, as Gemini CLI runs it on the model's own answers only. `hooksConfig.enabled: false` (the last file that sets it
 * wins) and `hooksConfig.disabled` (hook names, joined over every file) switch hooks off as in Gemini CLI: those hooks
 * are not loaded, each reported with a `disabled-by-settings` warning naming the file that switched it off. A
 * PreCompress hook runs before every model call (`trigger: "auto"`), compacting or not, as Gemini CLI 0.61.0 fires it.
 */
export async function loadGeminiHooks(options: ConfigLoadOptions = {}): Promise<LoadedConfigHooks> {
  const out = new ConfigCollector(options);
  const places = configPlaces(options);
  const files: { file: string; level: ConfigLevel }[] = explicitFiles(options) ?? [];
  if (options.files === undefined) {
    if (places.homeDir !== undefined) files.push({ file: join(places.homeDir, '.gemini', 'settings.json'), level: 'user' });
    if (places.project) files.push({ file: join(places.projectDir, '.gemini', 'settings.json'), level: 'project' });
  }
  const read: { file: string; level: ConfigLevel; settings: Record<string, unknown> }[] = [];
  for (const { file, level } of files) {
    const settings = await out.readObject(file);
    if (settings !== undefined) read.push({ file, level, settings });
  }
  // Gemini CLI merges its switches over every file before it runs any hook: a project's file can switch off the user's.
  const switches = geminiHookSwitches(read);
  for (const problem of switches.problems) out.problem(problem);
  for (const { file, level, settings } of read) {
    // Gemini's `hooks` object also holds switches such as `enabled` and `disabled`.
    const hooks = isRecord(settings.hooks) ? { ...settings.hooks, enabled: undefined, disabled: undefined } : settings.hooks;
    const defined = isRecord(hooks) ? Object.fromEntries(Object.entries(hooks).filter(([, v]) => v !== undefined)) : hooks;
    for (const { event, eventName, list: definitions, field } of out.events(file, defined, EVENTS, '{matcher, hooks} definitions')) {
      definitions.forEach((definition: unknown, d) => {
        const at = `${field}[${d}]`;
        if (!isRecord(definition) || !Array.isArray(definition.hooks)) {
          out.problem({ file, field: at, severity: 'error', code: 'invalid-config', allowed: '{"matcher": "…", "hooks": [ … ]}', message: 'A hook definition needs a "hooks" list.' });
          return;
        }
        if (definition.sequential !== undefined && typeof definition.sequential !== 'boolean') {
          out.problem({ file, field: `${at}.sequential`, found: JSON.stringify(definition.sequential), allowed: 'true, false', severity: 'warning', code: 'invalid-config', message: '"sequential" must be a boolean; it is ignored.' });
        }
        const written = out.matcher(definition.matcher, event, 'gemini', file, `${at}.matcher`);
        if (written === null) return;
        const afterTool = event === 'PostToolUse';
        // A model event has nothing for a matcher to match (Gemini CLI ignores it too): `written` is undefined there.
        const matcher = event === 'AfterModel' ? modelAnswered : !afterTool ? written : written === undefined ? toolRan : CompositeMatcher.and(written, toolRan);
        definition.hooks.forEach((hook: unknown, h) => {
          const hookAt = `${at}.hooks[${h}]`;
          if (!isRecord(hook) || (hook.type !== undefined && hook.type !== 'command')) {
            out.problem({ file, field: hookAt, severity: 'warning', code: 'unsupported-hook-type', allowed: 'type: command', message: 'Only command hooks are supported; this one is not loaded.' });
            return;
          }
          if (typeof hook.command !== 'string' || hook.command.trim() === '') {
            out.problem({ file, field: `${hookAt}.command`, severity: 'error', code: 'missing-field', message: 'A command hook needs a non-empty "command".' });
            return;
          }
          const off = geminiSwitchedOff(switches, geminiHookName(hook));
          if (off !== undefined) {
            // The bridge switched off is every guard it runs switched off in Gemini CLI, by a file the user may not own.
            const bridge = BRIDGE_COMMAND.test(hook.command);
            out.problem({
              file,
              field: `${hookAt}.command`,
              severity: 'warning',
              code: bridge ? 'bridge-disabled' : 'disabled-by-settings',
              hookName: geminiHookName(hook),
              message: bridge
                ? `Gemini CLI will NOT run the agent-hooks bridge: ${off.cause}. None of the hooks it runs for Gemini CLI, your guards included, run there; ${off.fix} to run them.`
                : `Gemini CLI does not run this hook: ${off.cause}. It is not loaded here either; ${off.fix} to run it.`,
            });
            return;
          }
          const command = out.commandHook({
            name: typeof hook.name === 'string' && hook.name.trim() !== '' ? hook.name : commandName(hook.command),
            command: hook.command,
            event,
            eventName,
            matcher,
            dialect: geminiDialect,
            timeoutMs: out.timeout(hook.timeout, 'ms', GEMINI_HOOK_TIMEOUT_MS, file, `${hookAt}.timeout`),
            projectDir: places.projectDir,
            env: { GEMINI_PROJECT_DIR: places.projectDir, CLAUDE_PROJECT_DIR: places.projectDir },
            origin: {
              kind: 'gemini',
              level,
              file,
              field: `${hookAt}.command`,
              matcher: typeof definition.matcher === 'string' ? definition.matcher : undefined,
              definition: { event: eventName, matcher: definition.matcher, sequential: definition.sequential, hook },
            },
          });
          out.add(afterTool ? alsoOnToolFailure(command) : command);
        });
      });
    }
  }
  const loaded = await out.result();
  // Gemini CLI fires PreCompress before every model call, not only when it compresses.
  return { ...loaded, hooks: loaded.hooks.map((h) => (h.origin.kind === 'gemini' && h.events.includes('PreCompact') ? compressOnEveryCall(h) : h)) };
}

/**
 * Gemini CLI's settings files, as one of the config formats.
 *
 * @internal
 */
export const geminiConfigLoader: ConfigLoader = {
  kind: 'gemini',
  describedFiles: '.gemini/settings.json',
  owns: ({ parent, base }) => parent === '.gemini' && base === 'settings.json',
  projectFiles: (projectDir) => existingFiles(projectDir, ['.gemini/settings.json']),
  load: (_agents, options) => loadGeminiHooks(options),
};
