/**
 * GitHub Copilot CLI: everything the project knows of it.
 *
 * @module
 * @internal
 */
import { isAbsolute } from 'node:path';
import { dialectNames } from '../event-names.js';
import type { AgentProfile } from '../profile.js';
import { copilotLight } from './light.js';
import { githubConfigLoader } from './github-config.js';
import { copilotHooksSwitchedOffWarning } from './hooks-switch.js';
import { COPILOT_WIRE } from './wire.js';
import { vocabularyOf } from '../tool-names.js';

/**
 * GitHub Copilot CLI.
 *
 * @internal
 */
export const copilotProfile: AgentProfile<'copilot'> = {
  id: 'copilot',
  title: 'GitHub Copilot CLI',
  light: copilotLight,
  ...COPILOT_WIRE,
  // Copilot runs hooks in the repository's root and its payloads name no event.
  install: {
    title: 'GitHub Copilot CLI',
    file: '.github/hooks/agent-hooks.json',
    projectVariable: undefined,
    layout: 'flat',
    version: 1,
    typed: true,
    commandField: 'bash',
    timeout: { field: 'timeoutSec', unit: 's' },
    eventArgument: true,
    names: dialectNames('copilot'),
  },
  projectSetsEnv: false,
  projectReference: 'plain',
  matcherSyntax: 'anchored',
  // Copilot CLI reads the user's hooks from $COPILOT_HOME/hooks when it is set, and nothing of ~/.copilot then.
  userHookFile(home, env) {
    const copilotHome = env['COPILOT_HOME'];
    return copilotHome !== undefined && isAbsolute(copilotHome) ? { dir: copilotHome, file: 'hooks/agent-hooks.json' } : { dir: home, file: '.copilot/hooks/agent-hooks.json' };
  },
  httpHooks: false,
  tools: vocabularyOf('copilot'),
  config: { loader: githubConfigLoader, order: 2, sideBySide: false },
  checkedAgainst: { package: '@github/copilot', version: '1.0.102' },
  hooksSwitchedOff: (projectDir) => copilotHooksSwitchedOffWarning(projectDir),
};
