/**
 * Cline's CLI: everything the project knows of its hooks.
 *
 * @module
 * @internal
 */
import type { AnyHookContext, HookEventName, HookOutcome } from '../../core/index.js';
import type { AgentProfile } from '../profile.js';
import { vocabularyOf } from '../tool-names.js';
import { clineAnswer } from './answer.js';
import { clineEventOf, clineLight } from './light.js';
import { readClinePayload } from './payload.js';

/**
 * Cline's CLI.
 *
 * @internal
 */
export const clineProfile: AgentProfile<'cline'> = {
  id: 'cline',
  title: 'Cline CLI',
  light: clineLight,
  // Cline's hook files speak a protocol the project answers (the bridge) but does not run hooks in.
  dialect: undefined,
  // A `hookName` (`tool_call`) or a hook file's name (`PreToolUse`, `TaskStart`).
  eventOf: (written) => clineEventOf(written) as HookEventName | undefined,
  readPayload: readClinePayload,
  answer: (outcome: HookOutcome, ctx: AnyHookContext) => clineAnswer(outcome, ctx),
  // Cline's answer has no field its user sees: a notice goes to stderr, which Cline logs.
  userMessageField: undefined,
  // One executable per event in `.clinerules/hooks/`, run in the workspace root with no project variable; Cline
  // gives each 120 s and has no timeout of its own to write.
  install: {
    title: 'Cline CLI',
    file: '.clinerules/hooks',
    projectVariable: undefined,
    layout: 'scripts',
    version: undefined,
    typed: false,
    commandField: 'command',
    timeout: { field: 'timeout', unit: 's' },
    fixedTimeoutSeconds: 120,
    eventArgument: false,
    names: {
      SessionStart: 'TaskStart',
      UserPromptSubmit: 'UserPromptSubmit',
      PreToolUse: 'PreToolUse',
      PostToolUse: 'PostToolUse',
      Stop: 'TaskComplete',
      StopFailure: 'TaskError',
      SessionEnd: 'TaskCancel',
    },
    extraEvents: { TaskResume: 'SessionStart', SessionShutdown: 'SessionEnd' },
  },
  // A project's `.clinerules/` can hold any executable; its hooks' environment is Cline's own.
  projectSetsEnv: false,
  projectReference: 'plain',
  // Cline has no matchers: each hook file runs for every tool.
  matcherSyntax: undefined,
  userHookFile: () => undefined,
  httpHooks: false,
  tools: vocabularyOf('cline'),
  config: undefined,
  checkedAgainst: { package: 'cline', version: '3.0.65' },
};
