// Internal: not exported from the package.
import { lazyValue } from '../../core/internal/lazy-module.js';
import { zod } from '../../core/internal/zod-module.js';

/** The input the model gives a subagent, as it gives any tool its input. */
export const subagentInput = lazyValue(() => {
  const z = zod();
  return z.object({ task: z.string().describe('What the subagent should do') });
});

/** Its JSON Schema, the same for every subagent. */
export const subagentInputSchema = lazyValue(
  (): Readonly<Record<string, unknown>> => Object.freeze(zod().toJSONSchema(subagentInput(), { io: 'input' }) as Record<string, unknown>),
);
