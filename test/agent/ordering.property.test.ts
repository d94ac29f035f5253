import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AgentBuilder, ScriptedModel, type Hook } from 'agent-hooks';
import { callStep, echoTool } from './support.js';

/** How a hook is registered: each way must land in the same order. */
const WAYS = ['onBeforeToolUse', 'addHook alias', 'withHook'] as const;

describe('hook order in a real run (property)', () => {
  it('runs PreToolUse hooks by priority desc, then registration order, however they were registered', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ priority: fc.integer({ min: -5, max: 5 }), way: fc.constantFrom(...WAYS) }), { maxLength: 12 }),
        async (hooks) => {
          const fired: number[] = [];
          const builder = AgentBuilder.new()
            .withModel(new ScriptedModel([callStep('echo', { text: 'hi' }), 'Done.']))
            .withTools(echoTool().tool);
          hooks.forEach(({ priority, way }, i) => {
            const record = () => {
              fired.push(i);
            };
            if (way === 'onBeforeToolUse') builder.onBeforeToolUse(record, { priority });
            else if (way === 'addHook alias') builder.addHook('pre-tool-call', record, { priority });
            else {
              const hook: Hook = {
                events: ['PreToolUse'],
                handle: (ctx, next) => {
                  record();
                  return next(ctx);
                },
              };
              builder.withHook(hook, { priority });
            }
          });
          await builder.build().run('Go');

          const expected = hooks
            .map(({ priority }, i) => ({ priority, i }))
            .sort((a, b) => b.priority - a.priority || a.i - b.i)
            .map(({ i }) => i);
          expect(fired).toEqual(expected);
        },
      ),
      { numRuns: 100 },
    );
  });
});
