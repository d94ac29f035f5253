import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineSubagent, defineTool } from 'agent-hooks';

describe('defineTool', () => {
  it('describes the input the model must send: a field with a default is optional, a transformed field keeps its type', () => {
    const tool = defineTool({
      name: 'search',
      input: z.object({ query: z.string().transform((q) => q.trim()), limit: z.number().default(10) }),
      execute: () => [],
    });
    expect(tool.inputSchema).toMatchObject({
      type: 'object',
      properties: { query: { type: 'string' }, limit: { type: 'number', default: 10 } },
      required: ['query'],
    });
  });

  it('refuses a schema with no JSON Schema form, naming the tool', () => {
    expect(() => defineTool({ name: 'odd', input: z.object({ when: z.date() }), execute: () => 0 })).toThrow(/Tool 'odd'.*JSON Schema/);
  });

  it('the model is sent the same schemas, for tools and subagents alike', async () => {
    const model = new ScriptedModel(['Done.']);
    const tool = defineTool({ name: 'count', input: z.object({ n: z.number().default(1) }), execute: ({ n }) => n });
    await AgentBuilder.new().withModel(model).withTools(tool).withSubagents(defineSubagent({ name: 'helper', description: 'Helps' })).build().run('Go');
    const sent = Object.fromEntries(model.requests[0]!.tools.map((t) => [t.name, t.inputSchema]));
    expect(sent['count']).toEqual(tool.inputSchema);
    expect(sent['count']).not.toHaveProperty('required');
    expect(sent['helper']).toMatchObject({ properties: { task: { type: 'string' } }, required: ['task'] });
  });
});
