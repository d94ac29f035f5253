/**
 * A model as the verifier of Claude Code's agent hooks.
 *
 * @module
 */
import { ToolCall, type Message } from '../core/index.js';
import { lazyValue } from '../core/internal/lazy-module.js';
import { safeParseOf, zod } from '../core/internal/zod-module.js';
import type { VerifyFn, VerifyVerdict } from '../config/config-source.js';
import { readVerdict } from '../config/prompt-hook.js';
import type { Model } from './model.js';
import type { ToolDefinition } from './tool.js';

const verdictSchema = lazyValue(() => {
  const z = zod();
  return z.object({ ok: z.boolean(), reason: z.string().optional() });
});

/** The one tool the verifier has: Claude Code's, the way it answers. */
const structuredOutput = lazyValue(
  (): ToolDefinition =>
    Object.freeze({
      name: 'StructuredOutput',
      description: 'Return your verdict: whether the condition is met, and why.',
      inputSchema: Object.freeze({
        type: 'object',
        properties: {
          ok: { type: 'boolean', description: 'Whether the condition was met' },
          reason: { type: 'string', description: 'Reason, if the condition was not met' },
        },
        required: ['ok'],
        additionalProperties: false,
      }),
      input: verdictSchema(),
    }),
);

const NUDGE = 'Return your result using the StructuredOutput tool, always with a reason.';

/**
 * Has `model` verify one condition in a few turns, as Claude Code's agent hooks do: it gets the instructions and the
 * task, and one tool, `StructuredOutput`, to answer `{ ok, reason }` with. An answer without it is sent back with a
 * reminder (a model that writes the verdict as JSON text is taken at its word); a call of any other tool is answered
 * that there is none. Resolves `undefined` when no verdict came within `maxTurns` model calls.
 */
export function modelVerifier(model: Model): VerifyFn {
  return async ({ system, prompt, maxTurns }, signal) => {
    // A new list each turn: the model may keep the one it was given.
    let messages: readonly Message[] = [{ role: 'user', content: prompt }];
    for (let turn = 0; turn < maxTurns; turn++) {
      signal.throwIfAborted();
      const response = await model.generate({ system, messages, tools: [structuredOutput()], signal });
      const calls = (response.toolCalls ?? []).map((c) => (ToolCall.isToolCall(c) ? c : new ToolCall(c.name, c.args ?? {}, c.id)));
      const text = response.text ?? '';
      if (calls.length === 0) {
        const written = readVerdict(text);
        if (written !== undefined) return written;
        messages = [...messages, { role: 'assistant', content: text }, { role: 'user', content: NUDGE }];
        continue;
      }
      const answers: Message[] = [];
      let verdict: VerifyVerdict | undefined;
      for (const call of calls) {
        const answer = (content: string): void => void answers.push({ role: 'tool', content, toolCallId: call.id, name: call.name });
        if (call.name !== structuredOutput().name) {
          answer(`There is no tool ${call.name} here: return your result with StructuredOutput.`);
          continue;
        }
        const parsed = safeParseOf(verdictSchema(), call.args);
        if (!parsed.success) {
          answer(`The result needs "ok" (true or false) and may have "reason" (a string): ${parsed.error.issues.map((i) => i.message).join('; ')}.`);
          continue;
        }
        verdict ??= { ok: parsed.data.ok, ...(parsed.data.reason !== undefined && parsed.data.reason.trim() !== '' ? { reason: parsed.data.reason } : {}) };
        answer('Recorded.');
      }
      if (verdict !== undefined) return verdict;
      messages = [...messages, { role: 'assistant', content: text, toolCalls: calls }, ...answers];
    }
    return undefined;
  };
}
