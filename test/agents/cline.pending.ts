/**
 * Cline's CLI through `agent-hooks bridge --from cline`: the suite's cases, waiting for the bridge to read Cline's
 * payloads and write its answers (today every `--from` refuses them, and Cline ignores the exit code, so a project
 * gets no protection: run today, the refused `rm -rf build` runs and 11 of the 13 cases fail). Named `.pending.ts`
 * so that `npm run test:agents` leaves it out; rename it to `cline.test.ts` once the profile is there.
 *
 * What the profile must do, from the payloads in `fixtures/cline/3.0.65/`:
 * - events by the payload's `hookName` (not the file's name): `agent_start` → SessionStart, `tool_call` →
 *   PreToolUse, `tool_result` → PostToolUse, `agent_end` → Stop; the tool call is `tool_call.{name, input}` (the
 *   input as objects; `preToolUse.parameters` holds each argument JSON-encoded as a string), the shell tool is
 *   `run_commands` with a list of `commands`; the project is `workspaceRoots[0]`, the session `taskId`;
 * - answers as JSON on stdout only, exit 0: a block on PreToolUse is `{"cancel": true, "errorMessage": REASON}`,
 *   which ends the whole task (Cline has no per-call refusal), an added context is `contextModification`, a rewrite
 *   `overrideInput`; Cline ignores exit codes, so a failing or timed-out hook that fails closed must still answer
 *   `cancel` on stdout, never exit 2.
 */
import { expect } from 'vitest';
import { clineDriver } from './drivers/cline.js';
import { defineAgentSuite } from './support/suite.js';

defineAgentSuite({
  ...clineDriver,
  differs: {
    'context: UserPromptSubmit context reaches the model': {
      title: 'runs no UserPromptSubmit hook headless, so no prompt context reaches the model (cline --json never fires it)',
      check({ project }) {
        expect(project.evidenceOf('context-prompt')).toEqual([]);
      },
    },
  },
});
