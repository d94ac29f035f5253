/**
 * Gemini CLI's hooks: `~/.gemini/settings.json` and `.gemini/settings.json`.
 *
 * @module
 */
import { join } from 'node:path';
import type { ConfigLevel } from '../script/command-hook.js';
import { geminiDialect } from '../script/dialects/gemini.js';
import { isRecord } from '../script/dialects/wire-output.js';
import { readConfigFile } from './config-file.js';
import { ConfigCollector, commandName, configPlaces, eventNamesIn, explicitFiles, type ConfigLoadOptions, type LoadedConfigHooks } from './config-source.js';

/** Gemini CLI's default hook timeout, in milliseconds. */
export const GEMINI_HOOK_TIMEOUT_MS = 60_000;

const EVENTS = eventNamesIn('gemini');

/**
 * Loads Gemini CLI's hooks (user file, then project file): event → definitions `{matcher, sequential, hooks: [{type:
 * "command", command, name, timeout}]}`, with the timeout in MILLISECONDS (default 60000) and the matcher an
 * unanchored regex over tool names. `GEMINI_PROJECT_DIR` and `CLAUDE_PROJECT_DIR` are set, as Gemini CLI sets both.
 * A definition's hooks run one after another in the order written, so a hook sees the input the one before rewrote —
 * what Gemini CLI does with `sequential: true`; without it Gemini CLI starts them together, and the decisions merge
 * the same way (see the README's compatibility notes).
 */
export async function loadGeminiHooks(options: ConfigLoadOptions = {}): Promise<LoadedConfigHooks> {
  const out = new ConfigCollector(options);
  const places = configPlaces(options);
  const files: { file: string; level: ConfigLevel }[] = explicitFiles(options) ?? [];
  if (options.files === undefined) {
    if (places.homeDir !== undefined) files.push({ file: join(places.homeDir, '.gemini', 'settings.json'), level: 'user' });
    if (places.project) files.push({ file: join(places.projectDir, '.gemini', 'settings.json'), level: 'project' });
  }
  for (const { file, level } of files) {
    const read = await readConfigFile(file);
    if (read.status === 'missing') continue;
    out.files.push(file);
    if (read.status === 'invalid') {
      out.problem(read.problem);
      continue;
    }
    const settings = read.value;
    if (!isRecord(settings) || settings.hooks === undefined) continue;
    if (!isRecord(settings.hooks)) {
      out.problem({ file, field: 'hooks', severity: 'error', code: 'invalid-config', allowed: 'an object of event names', message: '"hooks" must map event names to lists of hook definitions.' });
      continue;
    }
    for (const [eventName, definitions] of Object.entries(settings.hooks)) {
      const field = `hooks.${eventName}`;
      // Gemini's `hooks` object also holds switches such as `enabled` and `disabled`.
      if (eventName === 'enabled' || eventName === 'disabled') continue;
      const event = out.event(eventName, EVENTS, file, field);
      if (event === undefined) continue;
      if (!Array.isArray(definitions)) {
        out.problem({ file, field, severity: 'error', code: 'invalid-config', allowed: 'a list of {matcher, hooks} definitions', message: 'Each event holds a list of hook definitions.' });
        continue;
      }
      definitions.forEach((definition: unknown, d) => {
        const at = `${field}[${d}]`;
        if (!isRecord(definition) || !Array.isArray(definition.hooks)) {
          out.problem({ file, field: at, severity: 'error', code: 'invalid-config', allowed: '{"matcher": "…", "hooks": [ … ]}', message: 'A hook definition needs a "hooks" list.' });
          return;
        }
        if (definition.sequential !== undefined && typeof definition.sequential !== 'boolean') {
          out.problem({ file, field: `${at}.sequential`, found: JSON.stringify(definition.sequential), allowed: 'true, false', severity: 'warning', code: 'invalid-config', message: '"sequential" must be a boolean; it is ignored.' });
        }
        const matcher = out.matcher(definition.matcher, event, 'regex', file, `${at}.matcher`);
        if (matcher === null) return;
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
          out.add(
            out.commandHook({
              name: typeof hook.name === 'string' && hook.name.trim() !== '' ? hook.name : commandName(hook.command),
              command: hook.command,
              event,
              eventName,
              matcher,
              dialect: geminiDialect,
              timeoutMs: out.timeout(hook.timeout, 'ms', GEMINI_HOOK_TIMEOUT_MS, file, `${hookAt}.timeout`),
              projectDir: places.projectDir,
              env: { GEMINI_PROJECT_DIR: places.projectDir, CLAUDE_PROJECT_DIR: places.projectDir },
              origin: { kind: 'gemini', level, file, field: `${hookAt}.command`, matcher: typeof definition.matcher === 'string' ? definition.matcher : undefined },
            }),
          );
        });
      });
    }
  }
  return out.result();
}
