/**
 * GitHub Copilot CLI, headless (`copilot -p … --output-format json`), offline against the mock Anthropic Messages
 * API as a custom provider (`COPILOT_PROVIDER_*`). It reads the project's `.github/hooks/*.json` in prompt mode
 * without a trust prompt, so the file `agent-hooks bridge --install copilot` writes is all it needs.
 *
 * What this version does with its command hooks, as seen from hooks that record what they get:
 * - it runs each one in the repository's root (outside a repository, in its own working directory), as the leader
 *   of a process group of its own, with `COPILOT_PROJECT_DIR` and `CLAUDE_PROJECT_DIR` set; at `timeoutSec` it sends
 *   SIGTERM to that group, SIGKILL two seconds later, and goes on as if the hook had said nothing;
 * - a preToolUse hook that exits other than 0 or 2 denies the call ("hook errored"); exit 2 denies it with a reason
 *   of its own, not the hook's stderr; so does any failing exit of a permissionRequest hook; on every other event a
 *   failing exit, 2 included, is only logged;
 * - it reads `.github/hooks/` once, before the prompt, and says so only in its debug log (`loaded repo hooks
 *   (hookCount=N)`); a failure to read them is logged there too, and the run goes on with no hooks at all.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentBin, agentsDir, installBridge, runBounded, type AgentDriver, type AgentProject, type AgentRun } from '../support/harness.js';
import type { MockServer } from '../support/mock-server.js';
import { anthropicApi } from '../mock/anthropic.js';

/** The model Copilot asks the provider for; the mock answers as whichever model it is asked for. */
const MODEL = 'claude-sonnet-4.5';

/**
 * Where the CLI unpacks the JavaScript it carries (some 230 MB) on its first run: in the agents' install folder, so
 * that it happens once per pinned version rather than once per temporary HOME.
 */
const packageCache = (): string => join(agentsDir(), 'copilot-cache');

/** Where a run keeps its debug log: in the project's root, outside the repository the hooks are read from. */
const logDir = (project: AgentProject): string => join(project.root, 'copilot-logs');

/** The lines of a run's debug log that tell how hooks were loaded and run (the log also holds every request in full). */
function hookLog(project: AgentProject): string {
  const dir = logDir(project);
  if (!existsSync(dir)) return '';
  return readdirSync(dir)
    .sort()
    .flatMap((file) => readFileSync(join(dir, file), 'utf8').split('\n'))
    .filter((line) => /^\d{4}-/.test(line) && /hook|\[(ERROR|WARNING)\]/i.test(line))
    .map((line) => line.slice(0, 400))
    .join('\n');
}

/** One headless `copilot -p` run; `extra` are further arguments (`--resume=<session>` for a session's next prompt). */
export function runCopilot(project: AgentProject, mock: MockServer, prompt: string, timeoutMs: number, extra: readonly string[] = []): Promise<AgentRun> {
  return runBounded(agentBin('copilot'), ['-p', prompt, ...extra, '--output-format', 'json', '--log-level', 'debug', '--log-dir', logDir(project)], {
    cwd: project.dir,
    env: {
      ...project.env,
      COPILOT_PROVIDER_BASE_URL: mock.url,
      COPILOT_PROVIDER_TYPE: 'anthropic',
      COPILOT_OFFLINE: 'true',
      COPILOT_MODEL: MODEL,
      // Headless: nobody is there to approve a tool call, and a hook's deny must be the only thing refusing one.
      COPILOT_ALLOW_ALL: 'true',
      COPILOT_PKG_CACHE_HOME: packageCache(),
      // Else a newer version found in the package cache would run instead of the pinned one.
      COPILOT_AUTO_UPDATE: 'false',
    },
    timeoutMs,
  });
}

export const copilotDriver: AgentDriver = {
  name: 'copilot',
  // The camelCase payloads carry the model-facing name; only the PascalCase (Claude-compatible) ones say `Bash`.
  shellTool: 'bash',
  api: anthropicApi,
  configure(project, _mock, { events, timeoutSec }) {
    installBridge(project, 'copilot', events, timeoutSec);
  },
  run: (project: AgentProject, mock: MockServer, prompt: string, timeoutMs: number): Promise<AgentRun> => runCopilot(project, mock, prompt, timeoutMs),
  log: hookLog,
  unloadedHooks(project) {
    const log = hookLog(project);
    if (log === '') return undefined;
    // What `copilot -p` logs once it has read `.github/hooks/` (at debug level): `loaded repo hooks (hookCount=N)`.
    if (/loaded repo hooks \(hookCount=[1-9]\d*\)/.test(log)) return undefined;
    const said = log.split('\n').filter((line) => /deferred repo hooks|loadDeferredRepoHooks|failed to load repo hooks/i.test(line));
    return said.length > 0 ? said.join(' | ') : 'its log has no "loaded repo hooks" line';
  },
};
