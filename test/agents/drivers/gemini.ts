/**
 * Gemini CLI, headless (`gemini -p … --output-format stream-json --approval-mode yolo`), against the mock Gemini API
 * (`GOOGLE_GEMINI_BASE_URL`, with an API key). Its user settings live in the project's temporary HOME: API-key auth,
 * nothing sent anywhere but the mock, and the project marked trusted — Gemini CLI loads a project's
 * `.gemini/settings.json`, where `agent-hooks bridge --install gemini` writes, only in a trusted folder.
 *
 * What this version does with its command hooks, as seen from hooks that record what they get (and read from its
 * source): it runs each as `bash -c COMMAND`, after replacing `$GEMINI_PROJECT_DIR` in COMMAND with the shell-quoted
 * project path, in the session's working directory, in Gemini CLI's own process group (a hook leads none), with
 * `GEMINI_PROJECT_DIR` and `CLAUDE_PROJECT_DIR` set. The entry's `timeout` is in milliseconds; at it Gemini CLI sends
 * SIGTERM to that one process (bash has exec'd the bridge, a single command) and waits for it to exit,
 * however long that takes, then goes on as if the hook had said nothing. Exit 1 is a warning; any other failing exit
 * with text on stdout or stderr refuses the action with that text. `test/bridge/fixtures/gemini/README.md` has the
 * payloads and the answers it honours.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentBin, installBridge, runBounded, type AgentDriver, type AgentProject, type AgentRun } from '../support/harness.js';
import type { MockServer } from '../support/mock-server.js';
import { geminiApi, SHELL_TOOL_NAME } from '../mock/gemini.js';

/** A model of Gemini CLI's own catalog: named with `-m`, it takes every request of the chat, with no routing. */
const MODEL = 'gemini-2.5-flash';

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** Gemini CLI's user settings in the project's HOME: API-key auth, nothing sent but to the mock, the project trusted. */
export function writeUserSettings(project: AgentProject): void {
  const dir = join(project.home, '.gemini');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'settings.json'),
    json({
      security: { auth: { selectedType: 'gemini-api-key' } },
      // The mock is the only server there is: no update check, usage statistics or telemetry.
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      ide: { enabled: false },
    }),
  );
  writeFileSync(join(dir, 'trustedFolders.json'), json({ [project.dir]: 'TRUST_FOLDER' }));
}

/** Gemini CLI 0.61, through `agent-hooks bridge --from gemini`. */
export const geminiDriver: AgentDriver = {
  name: 'gemini',
  shellTool: SHELL_TOOL_NAME,
  api: geminiApi,
  configure(project, _mock, { events, timeoutSec }) {
    writeUserSettings(project);
    installBridge(project, 'gemini', events, timeoutSec);
  },
  run(project: AgentProject, mock: MockServer, prompt: string, timeoutMs: number): Promise<AgentRun> {
    // yolo: a headless run has nobody to approve a command, and a hook's deny must be the only thing refusing one.
    return runBounded(agentBin('gemini'), ['-p', prompt, '--output-format', 'stream-json', '--approval-mode', 'yolo', '-m', MODEL], {
      cwd: project.dir,
      env: {
        ...project.env,
        GOOGLE_GEMINI_BASE_URL: mock.url,
        GEMINI_API_KEY: 'test',
        // Else the CLI starts itself again in a second node process with a larger heap: a second startup per run.
        GEMINI_CLI_NO_RELAUNCH: 'true',
      },
      timeoutMs,
    });
  },
};
