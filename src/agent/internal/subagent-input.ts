// Internal: not exported from the package.
import { z } from 'zod';
import { lazyValue } from '../../core/internal/lazy-module.js';

/** The input the model gives a subagent, as it gives any tool its input. */
export const subagentInput = lazyValue(() => z.object({ task: z.string().describe('What the subagent should do') }));

/** Its JSON Schema, the same for every subagent. */
export const subagentInputSchema = lazyValue(
  (): Readonly<Record<string, unknown>> => Object.freeze(z.toJSONSchema(subagentInput(), { io: 'input' }) as Record<string, unknown>),
);
