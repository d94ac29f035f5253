/**
 * What the bridge's first stage learns when its index does not know something yet, worked out by the very functions
 * the full path uses (the frontmatter reader and parser, the event table, the tool vocabulary), so that what is learnt
 * is what the full path would conclude. Loaded only then.
 *
 * @module
 * @internal
 */
import { lightProfileOf } from '../agents/light-registry.js';
import { HookEvent, type HookEventName } from '../core/events.js';
import { toolAliases } from '../core/tool-vocabulary.js';
import { parseFrontmatter } from '../script/frontmatter.js';
import { noHookFile, readHookFile } from '../script/internal/known-manifest.js';
import { toolNamesOf } from '../script/internal/call-filter.js';
import { deferredMatcherProblems } from '../script/internal/matcher-problems.js';
import type { HookManifest } from '../script/manifest.js';
import { hookMdEventName } from '../dialects/hookmd-event-name.js';
import { folderKey, type FolderVerdict } from './first-stage-index.js';
import type { HookFilter } from './hook-filter.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The {@link HookFilter} of a hook whose raw frontmatter is `data`: what `mayRunOn` reads of it.
 *
 * @internal
 */
export function filterOf(data: unknown): HookFilter {
  if (!isRecord(data) || typeof data['trigger'] !== 'string') return 'always';
  let event: HookEventName;
  try {
    event = HookEvent.parse(data['trigger']);
  } catch {
    return 'always';
  }
  if (!HookEvent.isToolEvent(event)) return { event, tools: null };
  const matcher = data['matcher'];
  if (!isRecord(matcher) || typeof matcher['tool'] !== 'string' || matcher['tool'] === '') return { event, tools: null };
  const names = toolNamesOf(matcher['tool']);
  if (names === undefined) return { event, tools: null };
  return { event, tools: names.kind === 'exact' ? { kind: 'exact', names: [...names.names] } : { kind: 'contains', parts: [...names.parts] } };
}

/**
 * What hook folder `dir` holds, read as discovery reads it (HOOK.md, else hook.md), with the key it was read under;
 * `undefined` when the file changed while it was read.
 *
 * @internal
 */
export async function learnFolder(dir: string): Promise<{ key: string; verdict: FolderVerdict } | undefined> {
  const key = folderKey(dir);
  const found = await readHookFile(dir);
  let verdict: FolderVerdict;
  if (noHookFile(found)) {
    verdict = 'none';
  } else {
    const { read, file } = found;
    const parsed = read.ok ? parseFrontmatter(read, file) : read;
    verdict = parsed.ok ? filterOf(parsed.data) : 'problem';
  }
  return folderKey(dir) === key ? { key, verdict } : undefined;
}

/**
 * The canonical event an agent's event name `written` reads as under `rule`, as the bridge's payload reader reads it;
 * `null` when it reads as none (the full path then refuses the payload). The rule names the agent whose light profile
 * reads it (see `WrittenEvent.rule`).
 *
 * @internal
 */
export async function learnEvent(rule: string, written: string): Promise<string | null> {
  const reader = lightProfileOf(rule.split('-')[0]!);
  return reader === undefined ? null : reader.learnEvent(rule, written);
}

/**
 * Every name of `tool`, itself first among them.
 *
 * @internal
 */
export function learnAliases(tool: string): readonly string[] {
  return [...toolAliases(tool)];
}

/**
 * The `event_type` a HOOK.md script gets on canonical `event` when its trigger is written `trigger`: the name the
 * HOOK.md dialect gives it.
 *
 * @internal
 */
export function learnHookEventName(event: string, trigger: string): string {
  return hookMdEventName(event as HookEventName, trigger);
}

/**
 * Whether a trusted project hook whose `matcher.tool` is `tool` (and which has no `matcher.pattern`) loads without a
 * problem about it: the analysis its regex waits for until the hook is trusted, and the warning about a tool no agent
 * has, as discovery makes them (`deferredMatcherProblems`) — which read the regex alone.
 *
 * @internal
 */
export function learnToolMatcherClean(tool: string): boolean {
  const manifest = { name: 'hook', file: 'HOOK.md', matcher: { tool } } as unknown as HookManifest;
  return deferredMatcherProblems(manifest).length === 0;
}
