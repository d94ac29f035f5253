/**
 * The tool matchers `bridge --install` writes, and whether those an agent's config holds are still the ones the
 * project's hooks need (`agent-hooks list` says when they are not).
 *
 * @module
 * @internal
 */
import { fsPromises } from '../../core/internal/node-fs.js';
import { join } from 'node:path';
import { installMatcher, takesMatchers, type MatchedHook } from '../../bridge/install-matchers.js';
import { INSTALL_AGENTS, INSTALL_TARGETS, type InstallAgent } from '../../bridge/install-targets.js';
import type { HookStack } from '../../core/stack.js';
import { ScriptHook } from '../../script/script-hook.js';
import { findConfigModule } from '../config-module.js';
import { hookMdSource, loadProjectHooks } from '../hook-sources.js';

/** The HOOK.md hooks of `stack`, as their matchers read; `undefined` when the stack holds a hook of another kind. */
function matchedHooks(stack: HookStack): MatchedHook[] | undefined {
  const hooks: MatchedHook[] = [];
  for (const entry of stack.all()) {
    if (!(entry.hook instanceof ScriptHook)) return undefined;
    hooks.push({ event: entry.hook.manifest.trigger, tool: entry.hook.manifest.matcher?.tool });
  }
  return hooks;
}

/**
 * The matcher of each of `agent`'s events (by its own name) for the HOOK.md hooks in `stack` — user and project, as
 * loaded without trust — or none at all where what the bridge runs cannot be known from them: a line of the user's
 * own (`--command`, which may name other hook folders), or an `agent-hooks.config.*` module, whose hooks may match
 * any tool.
 *
 * @internal
 */
export async function bridgeMatchers(agent: InstallAgent, projectDir: string, stack: HookStack, ownCommand: boolean): Promise<(event: string) => string | undefined> {
  const none = (): undefined => undefined;
  if (ownCommand || !takesMatchers(agent) || (await findConfigModule(projectDir)) !== undefined) return none;
  const hooks = matchedHooks(stack);
  if (hooks === undefined) return none;
  const target = INSTALL_TARGETS[agent];
  return (name) => {
    const event = target.events[name];
    return event === undefined ? undefined : installMatcher(agent, event, hooks);
  };
}

const BRIDGE = /(?:agent-hooks|cli\.[cm]?js)["']?\s+bridge\b/;
/** The route of `agent-hooks serve` that an agent's `type: "http"` entry (`bridge --install claude --http`) posts to. */
const SERVE_ROUTE = (agent: InstallAgent): RegExp => new RegExp(`/hooks/${agent}(?:/\\w+)?/?$`);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One line per bridge entry of the project's agent configs — a command that runs `agent-hooks bridge`, or an http
 * entry that posts to `agent-hooks serve` — whose matcher is not the one `bridge --install` would write now (a hook
 * added or its matcher changed since): the file, the event, what is there, what the hooks need and how to mend it.
 * A matcher group the bridge shares with other hooks is not looked at.
 *
 * @internal
 */
export async function staleBridgeMatchers(projectDir: string, loadStack: () => Promise<HookStack>): Promise<string[]> {
  const lines: string[] = [];
  for (const agent of INSTALL_AGENTS) {
    if (!takesMatchers(agent)) continue;
    const target = INSTALL_TARGETS[agent];
    let settings: unknown;
    try {
      settings = JSON.parse(await fsPromises().readFile(join(projectDir, target.file), 'utf8'));
    } catch {
      continue;
    }
    const hooks = target.eventsAt === 'top' ? settings : isRecord(settings) ? settings['hooks'] : undefined;
    if (!isRecord(hooks)) continue;
    let matchers: ((event: string) => string | undefined) | undefined;
    for (const [name, list] of Object.entries(hooks)) {
      if (!Array.isArray(list)) continue;
      for (const item of list) {
        if (!isRecord(item)) continue;
        const handlers = target.layout === 'grouped' ? (Array.isArray(item['hooks']) ? item['hooks'] : []) : [item];
        const runsBridge = (h: Record<string, unknown>): boolean => typeof h[target.commandField] === 'string' && BRIDGE.test(h[target.commandField] as string);
        // An http entry sends the call to `agent-hooks serve`, which runs the same hooks: its matcher goes stale the same way.
        const postsToServe = (h: Record<string, unknown>): boolean => h['type'] === 'http' && typeof h['url'] === 'string' && SERVE_ROUTE(agent).test(h['url']);
        const ours = handlers.filter((h) => isRecord(h) && (runsBridge(h) || postsToServe(h)));
        if (ours.length === 0 || handlers.length !== 1) continue;
        const http = postsToServe(ours[0] as Record<string, unknown>);
        const found = typeof item['matcher'] === 'string' && item['matcher'] !== '' && item['matcher'] !== '*' ? item['matcher'] : undefined;
        // No matcher runs the bridge for every tool, which is never too narrow; and without one, no hook is loaded.
        if (found === undefined) continue;
        matchers ??= await bridgeMatchers(agent, projectDir, await loadStack(), false);
        const wanted = matchers(name);
        if (found === wanted) continue;
        const describe = (m: string | undefined): string => (m === undefined ? 'none (every tool)' : JSON.stringify(m));
        if (!http) {
          lines.push(`${target.file}: the bridge's ${name} matcher is ${describe(found)}, the hooks now need ${describe(wanted)}: run 'agent-hooks bridge --install ${agent}'.`);
          continue;
        }
        // `bridge --install … --http` keeps the matcher it finds, so installing again would not mend it.
        const mend = wanted === undefined ? `remove that "matcher" from ${target.file}` : `set that "matcher" to ${JSON.stringify(wanted)} in ${target.file}`;
        lines.push(`${target.file}: the http hooks' ${name} matcher is ${describe(found)}, the hooks now need ${describe(wanted)}: ${mend}.`);
      }
    }
  }
  return lines;
}

/**
 * {@link staleBridgeMatchers} for the project in `projectDir`, its HOOK.md hooks loaded as `bridge --install` loads
 * them (without trust, the user's included) — only when an agent's config holds a bridge entry with a matcher.
 *
 * @internal
 */
export async function staleMatcherLines(projectDir: string, hostEnv: Readonly<Record<string, string | undefined>>): Promise<string[]> {
  let stack: Promise<HookStack> | undefined;
  const load = (): Promise<HookStack> => (stack ??= loadProjectHooks({ projectDir, hooksDirs: [], hostEnv, trust: 'all' }, [hookMdSource]).then((p) => p.stack));
  return staleBridgeMatchers(projectDir, load);
}
