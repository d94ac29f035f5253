/**
 * Factory Droid, headless (`droid exec --auto high -m custom:Mock-0 -o json`), against the mock Anthropic Messages API
 * as a custom model in the temporary HOME's `~/.factory/settings.json`, in air-gap mode (`FACTORY_AIRGAP_ENABLED`:
 * no organisation settings are fetched). It reads the project's `.factory/hooks.json` with no trust dialog: Claude
 * Code's format with the events at the top level (a `{"hooks": …}` wrapper is not read). The entries are those
 * `agent-hooks bridge --install droid` writes (`agent-hooks bridge --from droid` under `$FACTORY_PROJECT_DIR`).
 *
 * What this version does with its command hooks (read from runs with hooks that record what they get): it runs each
 * with `FACTORY_PROJECT_DIR`, `DROID_PROJECT_DIR` and `CLAUDE_PROJECT_DIR` set to the project; its payloads are
 * Claude Code's with other keys (no `tool_use_id`; a SessionStart's `CLAUDE_ENV_FILE`; a Stop's `message_id`,
 * `tool_execution_count` and `elapsed_time`; a SessionEnd's `session_duration_ms` and `message_count`), its shell
 * tool is `Execute` (with `summary`, `riskLevel` and `riskLevelReason` in its input), and a tool's `tool_response` is
 * the text the model is shown. `droid exec` fires no UserPromptSubmit. `test/agents/fixtures/droid/` has the payloads.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { agentBin, installBridge, runBounded, type AgentDriver, type AgentProject, type AgentRun } from '../support/harness.js';
import type { MockServer } from '../support/mock-server.js';
import { anthropicApi } from '../mock/anthropic.js';

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** The custom model's id: `custom:` and its display name, then its index in `customModels`. */
const MODEL = 'custom:Mock-0';

/** The user's settings: the mock as a custom model. */
export function writeUserSettings(project: AgentProject, mock: MockServer): void {
  const dir = join(project.home, '.factory');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'settings.json'),
    json({ customModels: [{ model: 'claude-mock', displayName: 'Mock', baseUrl: mock.url, apiKey: 'mock', provider: 'anthropic', maxOutputTokens: 4096 }] }),
  );
}

/** Factory Droid 0.215, through the entries `agent-hooks bridge --install droid` writes. */
export const droidDriver: AgentDriver = {
  name: 'droid',
  shellTool: 'Execute',
  api: anthropicApi,
  configure(project, mock, { events, timeoutSec }) {
    writeUserSettings(project, mock);
    // The file as a user gets it: the bridge's entries, written by the CLI.
    installBridge(project, 'droid', events, timeoutSec);
  },
  run(project: AgentProject, _mock: MockServer, prompt: string, timeoutMs: number): Promise<AgentRun> {
    // --auto high: a headless run has nobody to approve a command, and a hook's deny must be the only thing refusing one.
    return runBounded(agentBin('droid'), ['exec', '--auto', 'high', '-m', MODEL, '-o', 'json', prompt], {
      cwd: project.dir,
      env: { ...project.env, FACTORY_AIRGAP_ENABLED: 'true', FACTORY_DROID_AUTO_UPDATE_ENABLED: 'false' },
      timeoutMs,
    });
  },
  differs: {
    'context: UserPromptSubmit context reaches the model': {
      title: 'runs no UserPromptSubmit hook, so no prompt context reaches the model (droid exec never fires UserPromptSubmit)',
      check({ project, mock }) {
        expect(project.evidenceOf('context-prompt')).toEqual([]);
        expect(mock.mainRequests().map((r) => JSON.stringify(r.body)).join('\n')).not.toContain('E2E-PROMPT-CONTEXT');
        // The hook of the event before it did run: the bridge was there to be called.
        expect(project.evidenceOf('context-session').length).toBeGreaterThan(0);
      },
    },
  },
};
