/**
 * A child process for hook-timeout.test.ts: one agent run whose PreToolUse hook never settles (`hang`) or answers at
 * once (`fast`), under the agent's default timeout unless `hookTimeout` is given. It prints what the run ended with and
 * does not call process.exit: the process ends when nothing holds it, which is what the test measures.
 *
 * Usage: node --import tsx hook-timeout-process.ts hang|fast [hookTimeoutMs]
 */
import { z } from 'zod';
// The sources, as the parent test runs them (the package's own name would resolve to its build).
import { AgentBuilder, HookError, ScriptedModel, defineTool } from '../../src/index.js';

const [mode, timeout] = process.argv.slice(2);
const echo = defineTool({ name: 'echo', input: z.object({ text: z.string() }), execute: (input) => `echo: ${input.text}` });
const model = new ScriptedModel([{ toolCalls: [{ name: 'echo', args: { text: 'hi' } }] }, 'Done.']);
const builder = AgentBuilder.new().withModel(model).withTools(echo);
if (timeout !== undefined) builder.withOptions({ hookTimeout: Number(timeout) });
let aborted = false;
builder.onBeforeToolUse(
  mode === 'hang'
    ? (_ctx, { signal }) =>
        new Promise<void>(() => {
          signal?.addEventListener('abort', () => (aborted = true));
        })
    : async () => undefined,
  { name: mode === 'hang' ? 'never-settles' : 'fast' },
);
const started = performance.now();
const outcome = await builder
  .build()
  .run('Go')
  .then(
    (result) => ({ status: result.status }),
    (error: unknown) => ({ error: HookError.isHookError(error) ? { code: error.code, hookName: error.hookName, message: error.message } : String(error) }),
  );
process.stdout.write(`${JSON.stringify({ ...outcome, aborted, ms: Math.round(performance.now() - started) })}\n`);
