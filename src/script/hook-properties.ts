/**
 * One hook's parsed frontmatter, defaults filled in: what the reference CLI's `read-properties` prints.
 *
 * @module
 */
import { nodeFs } from '../core/internal/node-fs.js';
import { basename, dirname, resolve } from 'node:path';
import type { HookEventName } from '../core/index.js';
import { loadManifest } from './load-manifest.js';
import type { HookManifest, ManifestMatcher } from './manifest.js';
import type { HookProblem } from './problem.js';

const { statSync } = nodeFs;

/** The values of one HOOK.md, as the hook would run with them. */
export interface HookProperties {
  /** The hook's name (NFKC-normalised, trimmed). */
  readonly name: string;
  /** What it does (trimmed). */
  readonly description: string;
  /** The trigger as written (`pre-tool-call`, or an alias such as `before_tool`). */
  readonly trigger: string;
  /** The canonical event the trigger names. */
  readonly event: HookEventName;
  /** The matcher, when it has one that applies (a tool event's). */
  readonly matcher?: ManifestMatcher;
  /** Milliseconds before the process is killed (default 30000). */
  readonly timeout: number;
  /** Whether it runs in the background (default false). */
  readonly async: boolean;
  /** Higher runs first (default 100). */
  readonly priority: number;
  /** The free-form metadata (default `{}`). */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** The HOOK.md file (absolute). */
  readonly location: string;
}

/** What {@link readHookProperties} found. */
export interface HookPropertiesResult {
  /** The properties, or `undefined` when an error keeps the hook from loading. */
  readonly properties: HookProperties | undefined;
  /** Every problem found, errors and warnings. */
  readonly problems: readonly HookProblem[];
}

/**
 * The properties of a loaded manifest.
 *
 * @internal
 */
export function propertiesOf(manifest: HookManifest): HookProperties {
  const matcher =
    manifest.matcher === undefined
      ? undefined
      : {
          ...(manifest.matcher.tool !== undefined ? { tool: manifest.matcher.tool } : {}),
          ...(manifest.matcher.pattern !== undefined ? { pattern: manifest.matcher.pattern } : {}),
        };
  return {
    name: manifest.name,
    description: manifest.description,
    trigger: manifest.triggerName,
    event: manifest.trigger,
    ...(matcher !== undefined ? { matcher } : {}),
    timeout: manifest.timeout,
    async: manifest.async,
    priority: manifest.priority,
    metadata: manifest.metadata,
    location: manifest.file,
  };
}

/**
 * Reads one hook's HOOK.md (or lowercase `hook.md`) and returns its values with the defaults filled in, validated as
 * discovery validates them (the script entry is not looked for: nothing runs). `path` is the hook folder or the file
 * itself. A folder without a HOOK.md gives a `missing-file` problem.
 *
 * ```ts
 * const { properties, problems } = await readHookProperties('.agents/hooks/block-dangerous-commands');
 * if (properties) console.log(properties.trigger, properties.timeout); // 'pre-tool-call' 30000
 * ```
 */
export async function readHookProperties(path: string): Promise<HookPropertiesResult> {
  const full = resolve(path);
  let dir = full;
  try {
    if (statSync(full).isFile()) dir = dirname(full);
  } catch {
    // A path that does not exist is reported below as a folder without a HOOK.md.
  }
  const load = await loadManifest(dir, { checkEntry: false });
  if (!load.found) {
    return {
      properties: undefined,
      problems: [{ file: full, hookName: basename(dir), message: 'There is no HOOK.md here: give a hook folder or its HOOK.md.', severity: 'error', code: 'missing-file' }],
    };
  }
  return { properties: load.manifest === undefined ? undefined : propertiesOf(load.manifest), problems: load.problems };
}
