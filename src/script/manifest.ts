/**
 * What discovery knows about one HOOK.md hook before it ever runs: its frontmatter and where it lives.
 *
 * @module
 */
import type { HookEventName } from '../core/index.js';

/** Where a hook folder was found. User-level hooks run before project-level ones at equal priority. */
export type HookSource = 'user' | 'project' | 'extra';

/** The `matcher` of a HOOK.md: regexes over the tool name and over the tool input (JSON). Both must match. */
export interface ManifestMatcher {
  /** A regex over the tool name (unanchored, as the spec's examples use it). */
  readonly tool?: string | undefined;
  /** A regex over the tool input, serialized as JSON. */
  readonly pattern?: string | undefined;
}

/**
 * A validated HOOK.md frontmatter plus its location. Only the frontmatter has been read: the body is read on demand
 * and the script entry is resolved when the hook runs.
 */
export interface HookManifest {
  /** The hook's name (equal to its folder's name). */
  readonly name: string;
  /** What the hook does. */
  readonly description: string;
  /** The canonical event it runs for. */
  readonly trigger: HookEventName;
  /** The event name as written in the frontmatter (`pre-tool-call`, `before_tool`, `PreToolUse`, …). */
  readonly triggerName: string;
  /** The matcher, when given. */
  readonly matcher: ManifestMatcher | undefined;
  /** Milliseconds before the process is killed (100–600000, default 30000). */
  readonly timeout: number;
  /** Whether the hook runs in the background, without deciding anything (default false). */
  readonly async: boolean;
  /** Higher runs first (0–1000, default 100). */
  readonly priority: number;
  /** Free-form metadata from the frontmatter (`metadata.failClosed: true` makes failures block). */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** The hook's folder (absolute). */
  readonly dir: string;
  /** The HOOK.md file (absolute). */
  readonly file: string;
  /** The level it was found at. */
  readonly source: HookSource;
  /** Byte offset in `file` where the body starts (after the closing `---` line). */
  readonly bodyOffset: number;
}
