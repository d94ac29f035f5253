/**
 * Codex CLI, headless (`codex exec --json`), against the mock Responses API. Its home (`CODEX_HOME`) lives in the
 * project's temporary HOME: a `config.toml` that names the mock as the model provider and trusts the project, so
 * that `.codex/hooks.json` — where `agent-hooks bridge --install codex` writes — is read.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentBin, installBridge, runBounded, type AgentDriver, type AgentProject, type AgentRun } from '../support/harness.js';
import type { MockServer } from '../support/mock-server.js';
import { openAiResponsesApi } from '../mock/openai-responses.js';

/**
 * A model of Codex's own catalog: with its metadata Codex offers the tools a user's session has (the freeform
 * `apply_patch`, `tool_search`), where an unknown name falls back to a reduced set and a warning on every run.
 */
const MODEL = 'gpt-5.5';
/** The variable Codex reads the mock's key from: any value does, but a turn fails when it is not set. */
const KEY_VARIABLE = 'AGENT_HOOKS_E2E_MOCK_KEY';

const codexHome = (project: AgentProject): string => join(project.home, '.codex');

/** A TOML basic string. */
const toml = (value: string): string => JSON.stringify(value);

/** Codex's `config.toml` in the project's HOME: the mock as the model provider, the project trusted, nothing asked. */
export function writeConfig(project: AgentProject, mock: MockServer): void {
  const home = codexHome(project);
  mkdirSync(home, { recursive: true });
  // workspace-write: commands run in Codex's sandbox and may write inside the project, which is what the cases check;
  // `never`: a headless run has nobody to ask, so nothing waits for an approval.
  writeFileSync(
    join(home, 'config.toml'),
    [
      `model = ${toml(MODEL)}`,
      'model_provider = "mock"',
      'approval_policy = "never"',
      'sandbox_mode = "workspace-write"',
      '',
      '[model_providers.mock]',
      'name = "mock"',
      `base_url = ${toml(`${mock.url}/v1`)}`,
      'wire_api = "responses"',
      `env_key = ${toml(KEY_VARIABLE)}`,
      // A failed request is the mock's bug, not a network's: retrying would only hide it and slow the run.
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
      `[projects.${toml(project.dir)}]`,
      'trust_level = "trusted"',
      '',
    ].join('\n'),
  );
}

export const codexDriver: AgentDriver = {
  name: 'codex',
  // What Codex's hook payloads call its shell tool, whatever the model-facing name (`exec_command`).
  shellTool: 'Bash',
  api: openAiResponsesApi,
  configure(project, mock, { events, timeoutSec }) {
    writeConfig(project, mock);
    installBridge(project, 'codex', events, timeoutSec);
  },
  run(project, _mock, prompt, timeoutMs): Promise<AgentRun> {
    return runBounded(
      agentBin('codex'),
      // --dangerously-bypass-hook-trust: Codex asks a person to review a new project hook before it runs; the
      // project here is written by the test a second earlier.
      ['exec', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', '--json', '--cd', project.dir, prompt],
      { cwd: project.dir, env: { ...project.env, CODEX_HOME: codexHome(project), [KEY_VARIABLE]: 'mock' }, timeoutMs },
    );
  },
};
