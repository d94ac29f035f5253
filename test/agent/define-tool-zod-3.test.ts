import { describe, expect, it } from 'vitest';
import { z as zod3 } from 'zod-3';
import { z as zod4Of3 } from 'zod-3/v4';
import { AgentBuilder, ScriptedModel, defineTool } from 'agent-hooks';

describe('defineTool with the schemas of zod 3 (zod 3.25, the real package)', () => {
  it('refuses a zod 3 schema, at compile time and at run time, saying zod 4 is needed and how to get it', () => {
    const define = () =>
      defineTool({
        name: 'greet',
        // @ts-expect-error a zod 3 schema is not a zod 4 schema (it has no `_zod`, no `toJSONSchema`)
        input: zod3.object({ who: zod3.string() }),
        execute: ({ who }: { who: string }) => `hello ${who}`,
      });
    expect(define).toThrow(TypeError);
    expect(define).toThrow(
      "Tool 'greet': its input schema is a zod 3 schema; defineTool() needs a zod 4 schema. Install zod 4 (npm install zod@^4) and import { z } from 'zod', or, with zod 3.25, import { z } from 'zod/v4'.",
    );
  });

  it('refuses what is no zod schema at all, naming it', () => {
    // @ts-expect-error not a schema
    expect(() => defineTool({ name: 'greet', input: { who: 'string' }, execute: () => 'hi' })).toThrow(
      "Tool 'greet': its input schema is not a zod schema (object); defineTool() needs a zod 4 schema.",
    );
  });

  it('accepts the zod 4 schemas zod 3.25 ships under zod/v4, which validate and describe the input in a real run', async () => {
    const greet = defineTool({ name: 'greet', input: zod4Of3.object({ who: zod4Of3.string() }), execute: ({ who }) => `hello ${who}` });
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
