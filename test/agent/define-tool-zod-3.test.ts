import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { z as zod3 } from 'zod-3';
import { z as zod4Of3 } from 'zod-3/v4';
import { AgentBuilder, ScriptedModel, defineTool } from 'agent-hooks';

describe('defineTool with the schemas of zod 3 (zod 3.25, the real package)', () => {
  it('refuses a zod 3 schema, saying zod 4 is needed and how to get it', () => {
    // TypeScript refuses it too (a zod 3 schema has no `_zod`): the cast is what a JavaScript caller, or one past the
    // types, gets to. Typed as unknown first, so that the compiler never compares the two zods' types.
    const schema: unknown = zod3.object({ who: zod3.string() });
    const define = () => defineTool({ name: 'greet', input: schema as z.ZodType<{ who: string }>, execute: ({ who }) => `hello ${who}` });
    expect(define).toThrow(TypeError);
    expect(define).toThrow(
      "Tool 'greet': its input schema is a zod 3 schema; defineTool() needs a zod 4 schema. Install zod 4 (npm install zod@^4) and import { z } from 'zod'.",
    );
  });

  it('refuses what is no zod schema at all, naming it', () => {
    expect(() => defineTool({ name: 'greet', input: { who: 'string' } as unknown as z.ZodType, execute: () => 'hi' })).toThrow(
      "Tool 'greet': its input schema is not a zod schema (object); defineTool() needs a zod 4 schema.",
    );
  });

  it('at run time, takes the zod 4 schemas zod 3.25 ships under zod/v4, which validate and describe the input in a real run', async () => {
    // Typed as unknown first: zod 3.25's copy of zod 4 has types of its own, which the compiler is not asked to compare.
    const schema: unknown = zod4Of3.object({ who: zod4Of3.string() });
    const greet = defineTool({ name: 'greet', input: schema as z.ZodType<{ who: string }>, execute: ({ who }) => `hello ${who}` });
    expect(greet.inputSchema).toMatchObject({ type: 'object', properties: { who: { type: 'string' } }, required: ['who'] });
    const outputs: unknown[] = [];
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([{ toolCalls: [{ name: 'greet', args: { who: 'ada' } }, { name: 'greet', args: { who: 42 } }] }, 'done']))
      .withTools(greet)
      .onAfterToolUse((ctx) => void outputs.push(ctx.execution!.result))
      .onToolFailure((ctx) => void outputs.push(`failed: ${ctx.errorMessage}`))
      .build();
    await agent.run('go');
    expect(outputs).toEqual(['hello ada', expect.stringMatching(/^failed: Invalid input for tool 'greet': who: /)]);
  });
});
