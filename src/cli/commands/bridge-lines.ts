/**
 * Whether the bridge lines in the agents' configs are the ones `bridge --install` writes now, as far as safety goes:
 * a line of Claude Code or Gemini CLI, whose projects can set their hooks' variables, must clear `NODE_OPTIONS` and
 * `NODE_COMPILE_CACHE` first (see `NODE_VARIABLES_CLEARED`). `agent-hooks list` says when one does not.
 *
 * @module
 * @internal
 */
import { fsPromises } from '../../core/internal/node-fs.js';
import { join } from 'node:path';
import { isDetachedLine, undetached } from '../../bridge/detached-line.js';
import { INSTALL_AGENTS, INSTALL_TARGETS, type InstallAgent } from '../../bridge/install-targets.js';
import { servedFallback } from '../../bridge/served-bridge-line.js';
import { NODE_VARIABLES_CLEARED, PROJECT_ENV_AGENTS, userHookPath } from '../../bridge/user-bridge-command.js';

const BRIDGE = /(?:agent-hooks|cli\.[cm]?js)["']?\s+bridge\b/;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The bridge commands of `file` (an agent's grouped hook settings, the events under `hooks` or, `top`, at the top
 * level), by event; none when it cannot be read.
 */
async function bridgeCommands(file: string, eventsAt: 'hooks' | 'top' = 'hooks'): Promise<[event: string, command: string][]> {
  let settings: unknown;
  try {
    settings = JSON.parse(await fsPromises().readFile(file, 'utf8'));
  } catch {
    return [];
  }
  const hooks = eventsAt === 'top' ? settings : isRecord(settings) ? settings['hooks'] : undefined;
  if (!isRecord(hooks)) return [];
  const found: [string, string][] = [];
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    for (const group of list) {
      const handlers = isRecord(group) && Array.isArray(group['hooks']) ? group['hooks'] : [];
      for (const h of handlers) if (isRecord(h) && typeof h['command'] === 'string' && BRIDGE.test(h['command'])) found.push([event, h['command']]);
    }
  }
  return found;
}

/**
 * One line per bridge entry of Claude Code's or Gemini CLI's config — the project's, and the user's — whose command
 * does not start with `NODE_OPTIONS= NODE_COMPILE_CACHE= `: a repository that sets either (in its
 * `.claude/settings.json` `env` block, or its `.env`) runs its code inside that bridge before any guard does — a line
 * written before the compile cache was cleared too is outdated. The fix is to install it again.
 *
 * @internal
 */
export async function unclearedBridgeLines(projectDir: string, hostEnv: Readonly<Record<string, string | undefined>>): Promise<string[]> {
  const lines: string[] = [];
  for (const agent of PROJECT_ENV_AGENTS) {
    const target = INSTALL_TARGETS[agent];
    for (const [file, shown, isUser] of configFiles(agent, projectDir, hostEnv)) {
      for (const [event, command] of await bridgeCommands(file, target.eventsAt)) {
        // A line that posts to serve first runs the command bridge after its `|` when no server answers.
        if (undetached(servedFallback(command) ?? command).startsWith(NODE_VARIABLES_CLEARED)) continue;
        lines.push(
          `${shown}: the bridge's ${event} line does not clear NODE_OPTIONS and NODE_COMPILE_CACHE, so a repository that sets them runs its code before your hooks: run 'agent-hooks bridge --install ${agent}${isUser ? ' --user' : ''}' again.`,
        );
      }
    }
  }
  return lines;
}

/** The project's and the user's config file of `agent`: its path, how messages name it, and whether it is the user's. */
function configFiles(agent: InstallAgent, projectDir: string, hostEnv: Readonly<Record<string, string | undefined>>): [file: string, shown: string, user: boolean][] {
  const target = INSTALL_TARGETS[agent];
  const files: [string, string, boolean][] = [[join(projectDir, target.file), target.file, false]];
  const user = userHookPath(agent, hostEnv);
  if (user !== undefined) files.push([user, user, true]);
  return files;
}

/**
 * One line per bridge entry, in the project's or the user's config, of an event its agent fires as it exits (Claude
 * Code's StopFailure) whose command is not the detached line `--install` writes now (see
 * `src/bridge/detached-line.ts`): the agent ends that bridge before any of its hooks runs. The fix is to install it
 * again.
 *
 * @internal
 */
export async function undetachedExitLines(projectDir: string, hostEnv: Readonly<Record<string, string | undefined>>): Promise<string[]> {
  const lines: string[] = [];
  for (const agent of INSTALL_AGENTS) {
    const target = INSTALL_TARGETS[agent];
    const atExit = target.firedAtExit ?? [];
    if (atExit.length === 0) continue;
    for (const [file, shown, isUser] of configFiles(agent, projectDir, hostEnv)) {
      for (const [event, command] of await bridgeCommands(file, target.eventsAt)) {
        if (!atExit.includes(event) || isDetachedLine(command)) continue;
        lines.push(
          `${shown}: ${target.title} fires ${event} as it exits and ends every process of the hook right after, so the bridge's ${event} line is ended before its hooks run: run 'agent-hooks bridge --install ${agent}${isUser ? ' --user' : ''}' again.`,
        );
      }
    }
  }
  return lines;
}
