// Internal: not exported from the package.
import { z } from 'zod';

/** The input the model gives a subagent, as it gives any tool its input. */
export const SUBAGENT_INPUT = z.object({ task: z.string().describe('What the subagent should do') });

/** Its JSON Schema, the same for every subagent. */
export const SUBAGENT_INPUT_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze(z.toJSONSchema(SUBAGENT_INPUT, { io: 'input' }) as Record<string, unknown>);
