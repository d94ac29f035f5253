/**
 * OpenCode and Kilo through a plugin of ours: the suite's cases, waiting for `agent-hooks/opencode` — a plugin that
 * runs the project's hooks in the agent's own process (OpenCode has no command hooks). Named `.pending.ts` so that
 * `npm run test:agents` leaves it out; rename it to `opencode.test.ts` once the plugin ships.
 *
 * `src/agents/opencode/plugin.ts` is a prototype of it that serves `tool.execute.before` (proven in
 * `opencode-plugin.test.ts`). What the plugin must do, from the hook calls in `fixtures/opencode/1.18.33/`: export an async function of
 * OpenCode's context (`project`, `directory`, `worktree`, `client`, `$`, …) that builds one stack from the project's
 * hooks (as `withHooksFrom` does) and returns
 * - `tool.execute.before(input, output)` → PreToolUse with `input.tool` (`bash` is the shell) and `output.args`;
 *   a block throws an Error whose message is the reason (OpenCode hands it to the model as the tool's error), a
 *   rewrite assigns into `output.args`;
 * - `tool.execute.after(input, output)` → PostToolUse (`output.output` is what the model sees: added context is
 *   appended to it);
 * - `chat.message` → UserPromptSubmit, `event` `session.created` → SessionStart, `session.idle` → Stop (a stop gate
 *   must prompt the session again through `client`, since an event's answer is not read);
 * - fail closed by throwing, since a plugin that throws in `tool.execute.before` refuses the call.
 */
import { kiloDriver, opencodeDriver } from './drivers/opencode.js';
import { defineAgentSuite } from './support/suite.js';

defineAgentSuite(opencodeDriver);
defineAgentSuite(kiloDriver);
