/**
 * Qwen Code, headless (`qwen -p … --auth-type openai --yolo --output-format stream-json`), against the mock OpenAI
 * Chat Completions API (`OPENAI_BASE_URL`, `OPENAI_API_KEY`, `OPENAI_MODEL`). It reads the project's
 * `.qwen/settings.json` hooks, in Claude Code's format, with no trust dialog; the entries are those
 * `agent-hooks bridge --install qwen` writes (`agent-hooks bridge --from qwen` under `$QWEN_PROJECT_DIR`).
 *
 * What this version does with its command hooks (read from runs with hooks that record what they get): it runs each
 * with `QWEN_PROJECT_DIR`, `CLAUDE_PROJECT_DIR` and `GEMINI_PROJECT_DIR` set to the project; its payloads are Claude
 * Code's with more keys (`timestamp`, `prompt_id`, a `tool_call_id` beside `tool_use_id`, a `submitted_prompt`, a
 * Stop's `background_tasks`, `crons` and context figures), its shell tool is `run_shell_command`, and a tool's
 * `tool_response` is an object (`llmContent`, `returnDisplay`). It fires UserPromptSubmit again, with an empty
 * prompt, on each continuation after a tool call; `qwen -p` fires no SessionEnd. A PreToolUse answer's
 * `updatedInput` is not applied (only a PermissionRequest's is). `test/agents/fixtures/qwen/` has the payloads.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { agentBin, installBridge, runBounded, type AgentDriver, type AgentProject, type AgentRun } from '../support/harness.js';
import type { MockServer } from '../support/mock-server.js';
import { MOCK_MODEL, openAiChatApi } from '../mock/openai-chat.js';

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** The user's settings: the mock as the model, and nothing reaching out. */
export function writeUserSettings(project: AgentProject): void {
  const dir = join(project.home, '.qwen');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'settings.json'),
    json({
      security: { auth: { selectedType: 'openai' } },
      // The mock is the only server there is: no update check, usage statistics or telemetry.
      general: { enableAutoUpdate: false, disableAutoUpdate: true, disableUpdateNag: true },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      ide: { enabled: false },
    }),
  );
}

/** Qwen Code 0.24, through the entries `agent-hooks bridge --install qwen` writes. */
export const qwenDriver: AgentDriver = {
  name: 'qwen',
  shellTool: 'run_shell_command',
  api: openAiChatApi,
  configure(project, _mock, { events, timeoutSec }) {
    writeUserSettings(project);
    // The file as a user gets it: the bridge's entries, written by the CLI.
    installBridge(project, 'qwen', events, timeoutSec);
  },
  run(project: AgentProject, mock: MockServer, prompt: string, timeoutMs: number): Promise<AgentRun> {
    // yolo: a headless run has nobody to approve a command, and a hook's deny must be the only thing refusing one.
    return runBounded(agentBin('qwen'), ['-p', prompt, '--auth-type', 'openai', '--yolo', '--output-format', 'stream-json'], {
      cwd: project.dir,
      env: {
        ...project.env,
        OPENAI_BASE_URL: `${mock.url}/v1`,
        OPENAI_API_KEY: 'mock',
        OPENAI_MODEL: MOCK_MODEL,
        QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
      },
      timeoutMs,
    });
  },
  differs: {
    'rewrite: what ran is the rewritten command': {
      title: 'does not apply a PreToolUse rewrite: what ran is the original command (Qwen Code ignores a PreToolUse updatedInput)',
      check({ project }) {
        // The hook was asked and rewrote the command; the bridge answered Claude Code's way (`updatedInput`).
        const guard = project.evidenceOf('guard-shell') as { tool_input?: { command?: string } }[];
        expect(guard.map((p) => p.tool_input?.command)).toContain('echo original > out.txt');
        expect(readFileSync(join(project.dir, 'out.txt'), 'utf8').trim()).toBe('original');
      },
    },
  },
};
