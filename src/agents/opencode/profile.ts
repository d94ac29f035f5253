/**
 * OpenCode and Kilo (OpenCode's engine under another name): everything the project knows of them. Neither has
 * command hooks: the project's hooks run in `agent-hooks/opencode`, a plugin loaded into the agent's own process from
 * its project plugin folder (`.opencode/plugin/`, Kilo's `.kilo/plugin/`) — the one thing the two differ in here.
 * So there is no payload for the bridge to read and no answer to write: the profile's reader refuses with the way to
 * install the plugin, and `--install` writes the plugin file.
 *
 * @module
 * @internal
 */
import type { AnyHookContext, HookEventName, HookOutcome } from '../../core/index.js';
import type { BridgeAnswer } from '../../dialects/outcome-changes.js';
import type { Json, LightAgentProfile } from '../light-profile.js';
import type { AgentProfile } from '../profile.js';
import { vocabularyOf } from '../tool-names.js';
import { kiloLight, opencodeLight } from './light.js';

/**
 * The plugin hooks and bus events the plugin serves, by the canonical event each is: what `--install` lists and the
 * docs name. `session.created` stands for SessionStart, which the plugin runs at a session's first message.
 */
const NAMES = Object.freeze({
  SessionStart: 'session.created',
  UserPromptSubmit: 'chat.message',
  PreToolUse: 'tool.execute.before',
  PostToolUse: 'tool.execute.after',
  Stop: 'session.idle',
  SessionEnd: 'session.deleted',
} satisfies Partial<Record<HookEventName, string>>);

const EVENTS: Readonly<Record<string, HookEventName>> = Object.freeze(Object.fromEntries(Object.entries(NAMES).map(([event, name]) => [name, event as HookEventName])));

/**
 * The text of the plugin file `--install` writes. It imports the package at run time, not with an `import` statement:
 * OpenCode skips a plugin file whose import fails, saying nothing on `run`'s stderr, and runs every tool unguarded.
 * This one loads either way, and without the package it refuses every tool call, saying why.
 */
const PLUGIN_FILE = (title: string, id: string): string => `// ${title} loads this file: it runs the project's hooks through agent-hooks (npx agent-hooks bridge --install ${id}).
// Without the agent-hooks package (npm install --save-dev agent-hooks), every tool call is refused, saying why.
import { fileURLToPath } from 'node:url';

// The project is the folder this plugin folder is in, wherever in it ${title} was started.
const projectDir = fileURLToPath(new URL('../..', import.meta.url));
const loaded = await import('agent-hooks/opencode').then((m) => m.createAgentHooksPlugin({ projectDir })).catch((error) => error);

export const AgentHooks = async (context) => {
  if (typeof loaded === 'function') return loaded(context);
  const reason = \`agent-hooks could not be loaded (\${loaded instanceof Error ? loaded.message : String(loaded)}), so ${title} runs no hook of this project and refuses every tool call: run 'npm install --save-dev agent-hooks' in \${projectDir}.\`;
  process.stderr.write(\`agent-hooks: \${reason}\\n\`);
  return {
    'tool.execute.before': async () => {
      throw new Error(reason);
    },
  };
};
`;

function pluginAgent<Id extends 'opencode' | 'kilo'>(id: Id, title: string, folder: string, light: LightAgentProfile<Id>, pkg: string, version: string): AgentProfile<Id> {
  const refuse = (): never => {
    throw new Error(`${title} runs no command hooks, so the bridge has no answer to give it: its hooks run in the agent-hooks plugin (npx agent-hooks bridge --install ${id}).`);
  };
  return {
    id,
    title,
    light,
    // The plugin runs the stack in-process: there is no wire protocol.
    dialect: undefined,
    eventOf: (written) => (Object.hasOwn(EVENTS, written) ? EVENTS[written] : undefined),
    readPayload: (_payload: Json, _given: string | undefined, fail: (message: string) => Error) => {
      throw fail(`${title} runs no command hooks, so there is no payload of its to read: its hooks run inside it, in the agent-hooks plugin. Run 'npx agent-hooks bridge --install ${id}' in the project instead.`);
    },
    // Never reached: no payload of it is ever read.
    answer: (_outcome: HookOutcome, _ctx: AnyHookContext): BridgeAnswer => refuse(),
    userMessageField: undefined,
    // One plugin file, re-exporting the plugin; the entry fields below describe no entry and are not written.
    install: {
      title,
      file: `${folder}/plugin/agent-hooks.js`,
      projectVariable: undefined,
      layout: 'plugin',
      plugin: PLUGIN_FILE(title, id),
      pluginEntry: 'agent-hooks/opencode',
      // Both agents load `*.js` and `*.ts` from either spelling of the folder.
      pluginFolders: [`${folder}/plugin`, `${folder}/plugins`],
      version: undefined,
      typed: false,
      commandField: 'command',
      timeout: { field: 'timeout', unit: 's' },
      eventArgument: false,
      names: NAMES,
    },
    // Checked against the binaries: neither loads a project's `.env` into its own environment.
    projectSetsEnv: false,
    projectReference: 'plain',
    matcherSyntax: undefined,
    userHookFile: () => undefined,
    httpHooks: false,
    tools: vocabularyOf('opencode'),
    config: undefined,
    checkedAgainst: { package: pkg, version },
  };
}

/**
 * OpenCode.
 *
 * @internal
 */
export const opencodeProfile: AgentProfile<'opencode'> = pluginAgent('opencode', 'OpenCode', '.opencode', opencodeLight, 'opencode-ai', '1.18.33');

/**
 * Kilo: OpenCode's engine, which loads a project's plugins from `.kilo/plugin/` only.
 *
 * @internal
 */
export const kiloProfile: AgentProfile<'kilo'> = pluginAgent('kilo', 'Kilo', '.kilo', kiloLight, '@kilocode/cli', '7.7.7');
