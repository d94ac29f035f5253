/**
 * Gemini CLI's switches for its hooks: `hooksConfig.enabled` and `hooksConfig.disabled` in its settings files.
 *
 * @module
 */
import { isRecord } from '../../dialects/wire-output.js';
import type { HookProblem } from '../../script/problem.js';

/** What the settings files Gemini CLI reads say about its hooks, merged as Gemini merges them. */
export interface GeminiHookSwitches {
  /** `hooksConfig.enabled: false` in the last file that sets it (the project's over the user's): no hook runs. */
  readonly allOff?: { readonly file: string } | undefined;
  /** The names in `hooksConfig.disabled`, in every file (Gemini takes their union), each with the file that names it. */
  readonly disabled: ReadonlyMap<string, string>;
  /** Switches of the wrong type, ignored as Gemini CLI's settings schema would refuse them. */
  readonly problems: readonly HookProblem[];
}

/**
 * The switches of `files` (user's first, then the project's): `enabled` is the last one set, as Gemini CLI 0.61 lets a
 * workspace setting override the user's; the `disabled` lists are joined.
 */
export function geminiHookSwitches(files: readonly { readonly file: string; readonly settings: Record<string, unknown> }[]): GeminiHookSwitches {
  let enabled: { value: boolean; file: string } | undefined;
  const disabled = new Map<string, string>();
  const problems: HookProblem[] = [];
  for (const { file, settings } of files) {
    const config = settings.hooksConfig;
    if (config === undefined) continue;
    if (!isRecord(config)) {
      problems.push({ file, field: 'hooksConfig', found: JSON.stringify(config), allowed: 'an object', severity: 'warning', code: 'invalid-config', message: '"hooksConfig" must be an object; it is ignored.' });
      continue;
    }
    if (typeof config.enabled === 'boolean') enabled = { value: config.enabled, file };
    else if (config.enabled !== undefined) {
      problems.push({ file, field: 'hooksConfig.enabled', found: JSON.stringify(config.enabled), allowed: 'true, false', severity: 'warning', code: 'invalid-config', message: '"hooksConfig.enabled" must be a boolean; it is ignored.' });
    }
    if (Array.isArray(config.disabled)) {
      for (const name of config.disabled) if (typeof name === 'string' && !disabled.has(name)) disabled.set(name, file);
    } else if (config.disabled !== undefined) {
      problems.push({ file, field: 'hooksConfig.disabled', found: JSON.stringify(config.disabled), allowed: 'a list of hook names', severity: 'warning', code: 'invalid-config', message: '"hooksConfig.disabled" must be a list of hook names; it is ignored.' });
    }
  }
  return { allOff: enabled?.value === false ? { file: enabled.file } : undefined, disabled, problems };
}

/** The name Gemini CLI 0.61 knows a command hook by, and matches against `hooksConfig.disabled`: its `name`, else its `command`. */
export function geminiHookName(hook: Record<string, unknown>): string {
  return (typeof hook.name === 'string' && hook.name !== '' ? hook.name : typeof hook.command === 'string' ? hook.command : '') || 'unknown-command';
}

/**
 * Why Gemini CLI does not run the hook named `name` under `switches` — `hooksConfig.enabled is false in FILE` or
 * `"NAME" is in hooksConfig.disabled of FILE` — and how to undo it; `undefined` when it does run it.
 */
export function geminiSwitchedOff(switches: GeminiHookSwitches, name: string): { readonly cause: string; readonly fix: string } | undefined {
  if (switches.allOff !== undefined) return { cause: `hooksConfig.enabled is false in ${switches.allOff.file}`, fix: 'remove that setting' };
  const file = switches.disabled.get(name);
  if (file !== undefined) return { cause: `"${name}" is in hooksConfig.disabled of ${file}`, fix: 'take it off that list' };
  return undefined;
}
