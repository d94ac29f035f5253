/**
 * OpenCode (`opencode run --format json PROMPT`) and Kilo (`kilo run …`, the same engine), headless, against the mock
 * Chat Completions API as an `@ai-sdk/openai-compatible` provider named in the project's `opencode.json` / `kilo.json`
 * (the provider package is bundled: nothing is fetched for it). Neither has command hooks: a project's JavaScript
 * plugins, `.opencode/plugin/*.js` (Kilo reads only `.kilo/plugin/`), are loaded into the agent's own process, each an
 * async function of the agent's context returning hooks — `tool.execute.before(input, output)` (`input`: `tool`,
 * `sessionID`, `callID`; `output.args` the call's arguments, changed in place; a throw refuses the call with its
 * message), `tool.execute.after`, `chat.message`, `chat.params`, `permission.ask` and `event` (every bus event:
 * `session.created`, `session.idle`, …). Its shell tool is `bash`.
 *
 * Headless, for every config folder it reads (`.opencode/`, `.kilo/`), it starts a background `npm install` of
 * `@opencode-ai/plugin` there; the run sets `npm_config_offline`, so that install fails at once (a warning in its
 * log) and nothing reaches the registry: a plugin that needs the package must bring it.
 *
 * The project loads our plugin as a user's would: `agent-hooks bridge --install opencode` (or `kilo`) writes the
 * plugin file, which re-exports `agent-hooks/opencode`, and the package is linked into the project's `node_modules` as
 * `npm install agent-hooks` would put it (the built package: `dist/`). When recording, a recorder takes its place.
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentBin, REPO, runBounded, type AgentDriver, type AgentName, type AgentProject, type AgentRun } from '../support/harness.js';
import type { MockServer } from '../support/mock-server.js';
import { ensureCliBuilt } from '../../support/build.js';
import { MOCK_MODEL, openAiChatApi } from '../mock/openai-chat.js';

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** A plugin that writes each hook call (and each bus event the suite's events stand for) to `evidence/raw/`. */
const RECORDER = `import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
let n = 0;
const plain = (value) => JSON.parse(JSON.stringify(value, (key, v) => (typeof v === 'function' ? '[function]' : v)) ?? 'null');
const record = (event, value) => {
  const dir = join(process.env.AGENT_HOOKS_EVIDENCE, 'raw');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, \`\${Date.now()}\${String(n++).padStart(3, '0')}-\${process.pid}-\${event}.json\`), JSON.stringify(plain(value)));
};
const EVENTS = new Set(['session.created', 'session.idle', 'session.error', 'session.deleted']);
export const Recorder = async (context) => {
  record('plugin', { context: Object.keys(context) });
  return {
    event: async ({ event }) => { if (EVENTS.has(event.type)) record(event.type, event); },
    'chat.message': async (input, output) => record('chat.message', { input, output }),
    'tool.execute.before': async (input, output) => record('tool.execute.before', { input, output }),
    'tool.execute.after': async (input, output) => record('tool.execute.after', { input, output }),
    'permission.ask': async (input, output) => record('permission.ask', { input, output }),
  };
};
`;


function driverFor(name: Extract<AgentName, 'opencode' | 'kilo'>, folder: string, configFile: string, envPrefix: string): AgentDriver {
  return {
    name,
    shellTool: 'bash',
    api: openAiChatApi,
    async configure(project: AgentProject, mock: MockServer, { record = false }) {
      await ensureCliBuilt();
      writeFileSync(
        join(project.dir, configFile),
        json({
          provider: { mock: { npm: '@ai-sdk/openai-compatible', name: 'Mock', options: { baseURL: `${mock.url}/v1`, apiKey: 'mock' }, models: { [MOCK_MODEL]: { name: 'Mock', tool_call: true } } } },
          model: `mock/${MOCK_MODEL}`,
          autoupdate: false,
          share: 'disabled',
          // Headless: nobody is there to approve a tool call, and a plugin's refusal must be the only thing refusing one.
          permission: { bash: 'allow', edit: 'allow' },
        }),
      );
      if (record) {
        const plugins = join(project.dir, folder, 'plugin');
        mkdirSync(plugins, { recursive: true });
        writeFileSync(join(plugins, 'agent-hooks.js'), RECORDER);
        return;
      }
      // The package the plugin imports, as `npm install agent-hooks` would put it, and the plugin file as the user's
      // `bridge --install` writes it.
      const installed = join(project.dir, 'node_modules', 'agent-hooks');
      if (!existsSync(installed)) symlinkSync(REPO, installed);
      project.cli('bridge', '--install', name);
    },
    run(project: AgentProject, _mock: MockServer, prompt: string, timeoutMs: number): Promise<AgentRun> {
      return runBounded(agentBin(name), ['run', '--format', 'json', prompt], {
        cwd: project.dir,
        env: {
          ...project.env,
          XDG_DATA_HOME: join(project.home, '.local', 'share'),
          XDG_STATE_HOME: join(project.home, '.local', 'state'),
          // The mock is the only server there is: no update check, model catalogue, sharing or LSP download, and
          // the background install of the plugin package fails at once rather than reaching the registry.
          [`${envPrefix}_DISABLE_AUTOUPDATE`]: '1',
          [`${envPrefix}_DISABLE_MODELS_FETCH`]: '1',
          [`${envPrefix}_DISABLE_SHARE`]: '1',
          [`${envPrefix}_DISABLE_LSP_DOWNLOAD`]: '1',
          npm_config_offline: 'true',
          // Kilo's PostHog client: on unless this says `all`.
          ...(name === 'kilo' ? { KILO_TELEMETRY_LEVEL: 'off' } : {}),
        },
        timeoutMs,
      });
    },
  };
}

/** OpenCode 1.18, through our plugin. */
export const opencodeDriver = driverFor('opencode', '.opencode', 'opencode.json', 'OPENCODE');
/** Kilo 7.7, OpenCode's engine, through the same plugin in `.kilo/plugin/`. */
export const kiloDriver = driverFor('kilo', '.kilo', 'kilo.json', 'KILO');
