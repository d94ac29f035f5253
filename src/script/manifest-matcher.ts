/**
 * The kernel matcher for a HOOK.md `matcher: { tool, pattern }`, so the stack leaves a hook out before anything is
 * spawned.
 *
 * @module
 */
import {
  boundedTest,
  CallableMatcher,
  CompositeMatcher,
  HookEvent,
  InputPatternMatcher,
  ToolNameMatcher,
  type AnyHookContext,
  type HookMatcher,
} from '../core/index.js';
import { messageOf } from '../core/internal/message-of.js';
import type { HookManifest } from './manifest.js';
import { compileManifestRegex } from './manifest-regex.js';

// Tool arguments are JSON-like; deeper nesting than this is not worth walking on every dispatch.
const MAX_DEPTH = 16;

// A list of what is left to look at rather than recursion, and each object once: neither the depth of the input nor
// an object it refers to from many places can make one match cost more than a walk over the input.
function someString(value: unknown, test: (s: string) => boolean): boolean {
  const pending: [item: unknown, depth: number][] = [[value, 0]];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item === 'string') {
      if (test(item)) return true;
      continue;
    }
    if (item === null || typeof item !== 'object' || depth >= MAX_DEPTH || seen.has(item)) continue;
    seen.add(item);
    for (const child of Array.isArray(item) ? item : Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * `pattern` matches the tool input's JSON (so `rm -rf` is found in any argument), or any one string argument on its
 * own: the spec's own example `\.py$` must match `{"file_path": "a.py"}`, whose JSON ends in `"}`, and a path or a
 * command with quotes or newlines must match as written, not as JSON escapes it. Neither is tested past
 * `MATCH_INPUT_LIMIT` characters: an input too long to test counts as a match, so the hook runs and judges it whole.
 */
function inputMatcher(pattern: string): HookMatcher {
  const re = compileManifestRegex(pattern);
  const test = (s: string): boolean => boundedTest(re, s);
  return CompositeMatcher.or(
    new InputPatternMatcher(re),
    new CallableMatcher(function anyArgument(ctx: AnyHookContext) {
      return 'toolCall' in ctx && someString(ctx.toolCall.args, test);
    }),
  );
}

/**
 * The matcher for `manifest.matcher`: `tool` is an unanchored regex over the tool name, `pattern` a regex over the
 * tool input, both compiled as validation compiles them (so a regex that can backtrack catastrophically is refused);
 * both must match when both are given. Neither regex is tested against more than {@link MATCH_INPUT_LIMIT}
 * characters: a longer name or input counts as a match. `undefined` when there
 * is nothing to match — no matcher, or a trigger that is not a tool event, where the spec gives a matcher no meaning
 * (validation drops it with an `ignored-matcher` warning; the hook is not silently disabled).
 *
 * @throws Error naming the hook, its file and the field when a regex does not compile.
 *
 * @internal
 */
export function manifestMatcher(manifest: HookManifest): HookMatcher | undefined {
  const spec = manifest.matcher;
  if (spec === undefined || !HookEvent.isToolEvent(manifest.trigger)) return undefined;
  const parts: HookMatcher[] = [];
  const build = (field: string, make: () => HookMatcher): void => {
    try {
      parts.push(make());
    } catch (error) {
      throw new Error(`Hook '${manifest.name}' (${manifest.file}): matcher.${field}: ${messageOf(error)}`, { cause: error });
    }
  };
  const { tool, pattern } = spec;
  if (tool !== undefined && tool !== '') build('tool', () => new ToolNameMatcher(compileManifestRegex(tool)));
  if (pattern !== undefined && pattern !== '') build('pattern', () => inputMatcher(pattern));
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : CompositeMatcher.and(...parts);
}
