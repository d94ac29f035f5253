/**
 * Cline's CLI, headless (`cline --json PROMPT`, auto-approving), against the mock Chat Completions API as an
 * `openai-compatible` provider set up in the temporary HOME by `cline auth -p openai-compatible -b URL`, telemetry
 * opted out and updates off in `global-settings.json`, and `CLINE_SESSION_BACKEND_MODE=local`: else its hub daemon
 * outlives the run.
 *
 * Its hooks are one executable per event in the project's `.clinerules/hooks/`, named after the event (`TaskStart`,
 * `UserPromptSubmit`, `PreToolUse`, `PostToolUse`, `TaskComplete`, `TaskCancel`, `TaskResume`, `PreCompact`). What
 * this version does with them (read from runs with hooks that record what they get): it runs each with the payload on
 * stdin, in the project, and sets no project variable; the payload is its own (`clineVersion`, `hookName`, `taskId`,
 * `workspaceRoots`, …, and `preToolUse: {toolName, parameters}` with each parameter JSON-encoded as a string), whose
 * `hookName` is `agent_start`, `tool_call`, `tool_result` or `agent_end`, not the file's name. It reads only a JSON
 * answer (`cancel`, `errorMessage`, `contextModification`, `overrideInput`) and ignores the exit code. Headless, it
 * fires no UserPromptSubmit. Its shell tool is `run_commands`, a list of commands.
 *
 * Each hook is the script `agent-hooks bridge --install cline` writes, running `agent-hooks bridge --from cline`.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentBin, runBounded, type AgentDriver, type AgentProject, type AgentRun } from '../support/harness.js';
import type { MockServer } from '../support/mock-server.js';
import { MOCK_MODEL, openAiChatApi } from '../mock/openai-chat.js';

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** Cline's hook file for each canonical event the suite bridges. */
export const CLINE_HOOK_FILES: Readonly<Record<string, readonly string[]>> = {
  SessionStart: ['TaskStart'],
  UserPromptSubmit: ['UserPromptSubmit'],
  PreToolUse: ['PreToolUse'],
  PostToolUse: ['PostToolUse'],
  Stop: ['TaskComplete'],
  SessionEnd: ['TaskCancel'],
};

const settingsDir = (project: AgentProject): string => join(project.home, '.cline', 'data', 'settings');

function writeUserSettings(project: AgentProject, mock: MockServer): void {
  // The provider as a user sets it up: `cline auth` writes `providers.json` (a file written by hand, without the
  // fields it adds, leaves the run unable to reach the provider).
  execFileSync(agentBin('cline'), ['auth', '-p', 'openai-compatible', '-k', 'mock', '-m', MOCK_MODEL, '-b', `${mock.url}/v1`], { cwd: project.dir, env: clineEnv(project), stdio: 'ignore', timeout: 30_000 });
  // The mock is the only server there is: no PostHog telemetry, no update check.
  writeFileSync(join(settingsDir(project), 'global-settings.json'), json({ telemetryOptOut: true, autoUpdateEnabled: false }));
}

/** The environment every run of Cline's CLI gets. */
function clineEnv(project: AgentProject): NodeJS.ProcessEnv {
  return {
    ...project.env,
    CLINE_SESSION_BACKEND_MODE: 'local',
    CLINE_NO_AUTO_UPDATE: '1',
    CLINE_GLOBAL_SETTINGS_PATH: join(settingsDir(project), 'global-settings.json'),
  };
}

/** A hook file that records the payload it gets, where the recording shim does. */
const RECORDING_SCRIPT = '#!/bin/sh\nmkdir -p "$AGENT_HOOKS_EVIDENCE/raw"\ncat > "$AGENT_HOOKS_EVIDENCE/raw/$(date +%s%N | cut -c1-13)-$$-$(basename "$0").json"\n';

/** Cline's CLI 3.0, through the scripts `agent-hooks bridge --install cline` writes. */
export const clineDriver: AgentDriver = {
  name: 'cline',
  shellTool: 'run_commands',
  api: openAiChatApi,
  configure(project, mock, { events, record = false }) {
    writeUserSettings(project, mock);
    if (!record) {
      // The scripts as a user gets them: one per event, each running the project's bridge.
      project.cli('bridge', '--install', 'cline', '--events', events.join(','));
      return;
    }
    const dir = join(project.dir, '.clinerules', 'hooks');
    mkdirSync(dir, { recursive: true });
    for (const event of events) {
      for (const file of CLINE_HOOK_FILES[event] ?? []) {
        writeFileSync(join(dir, file), RECORDING_SCRIPT);
        chmodSync(join(dir, file), 0o755);
      }
    }
  },
  run(project: AgentProject, _mock: MockServer, prompt: string, timeoutMs: number): Promise<AgentRun> {
    return runBounded(agentBin('cline'), ['--json', '--auto-approve', 'true', prompt], {
      cwd: project.dir,
      env: clineEnv(project),
      timeoutMs,
    });
  },
};
