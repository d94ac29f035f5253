/**
 * Claude Code, headless (`claude -p … --output-format stream-json --verbose`), against the mock Anthropic Messages API
 * (`ANTHROPIC_BASE_URL`). In print mode it reads the project's `.claude/settings.json` hooks with no trust dialog
 * and no onboarding (an empty HOME is fine: it writes its own `~/.claude.json`), so the file
 * `agent-hooks bridge --install claude` writes is all the project needs.
 *
 * What this version does with its command hooks (read from runs with hooks that record what they get): it runs each
 * through a shell that leads a session and process group of its own, in the project, with `CLAUDE_PROJECT_DIR` set;
 * at the entry's `timeout` it sends SIGTERM to that group, SIGKILL about 1.5 s later, and lets the tool call go on.
 * A hook exiting other than 0 or 2 is ignored, on PreToolUse too. `test/bridge/fixtures/claude/README.md` has the
 * payloads and the answers it honours.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { agentBin, installBridge, runBounded, type AgentDriver, type AgentProject, type AgentRun } from '../support/harness.js';
import type { MockServer } from '../support/mock-server.js';
import { anthropicApi } from '../mock/anthropic.js';

/**
 * Claude Code's own scratch folder (per-session notes, shell output), which it would otherwise make under the
 * system's /tmp and leave there: inside the project's temporary root it goes when the project does. It must be
 * private to the user, or Claude Code refuses it.
 */
function scratchOf(project: AgentProject): string {
  const dir = join(project.root, 'claude-tmp');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

export const claudeDriver: AgentDriver = {
  name: 'claude',
  shellTool: 'Bash',
  api: anthropicApi,
  configure(project, _mock, { events, timeoutSec }) {
    installBridge(project, 'claude', events, timeoutSec);
  },
  run(project: AgentProject, mock: MockServer, prompt: string, timeoutMs: number): Promise<AgentRun> {
    // `--allowedTools Bash`: print mode has nobody to ask, and it ignores the project's `permissions.allow`; the
    // hooks' decisions must be the only thing that refuses a command. (`bypassPermissions` would do as well, but
    // as root Claude Code refuses it outside a sandbox.)
    return runBounded(agentBin('claude'), ['-p', prompt, '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash'], {
      cwd: project.dir,
      env: {
        ...project.env,
        ANTHROPIC_BASE_URL: mock.url,
        ANTHROPIC_API_KEY: 'mock',
        // No update checks, error reports or telemetry: the mock is the only server there is.
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        CLAUDE_CODE_TMPDIR: scratchOf(project),
      },
      timeoutMs,
    });
  },
};
