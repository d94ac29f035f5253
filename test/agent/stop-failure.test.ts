import { describe, expect, it } from 'vitest';
import { AgentBuilder, HookOutcome, ScriptedModel, defineSubagent, type ContextFor } from 'agent-hooks';
import { callStep, collectWarnings, echoTool, recordEvents } from './support.js';

/** An API error as the Anthropic and OpenAI SDKs throw it: an Error with the HTTP status. */
const apiError = (status: number, message: string): Error => Object.assign(new Error(message), { status });

/** A model that calls echo once, says something, then fails with `error`. */
function failingAfterOneStep(error: unknown) {
  let call = 0;
  return new ScriptedModel(() => {
    if (call++ === 0) return { text: 'Echoing first.', toolCalls: [{ name: 'echo', args: { text: 'hi' } }] };
    throw error;
  });
}

describe('StopFailure in the run loop', () => {
  it('fires in place of Stop when the turn ends on a model error, before AgentFailed, with the kind of error and the last words', async () => {
    const error = apiError(429, 'Too many requests');
    const builder = AgentBuilder.new().withModel(failingAfterOneStep(error)).withTools(echoTool().tool);
    const rec = recordEvents(builder);
    await expect(builder.build().run('Go')).rejects.toBe(error);

    expect(rec.events).not.toContain('Stop');
    expect(rec.events.slice(-3)).toEqual(['StopFailure', 'AgentFailed', 'ExecutionEnd']);
    const failure = rec.contexts.at(-3) as ContextFor<'StopFailure'>;
    expect(failure.error).toBe(error);
    expect(failure.errorType).toBe('rate_limit');
    expect(failure.errorMessage).toBe('Too many requests');
    expect(failure.finalMessage).toBe('Echoing first.');
  });

  it('tells the kind of error from its HTTP status', async () => {
    const kinds: string[] = [];
    for (const status of [400, 401, 402, 404, 500, 529, undefined]) {
      const error = status === undefined ? new Error('socket hang up') : apiError(status, `status ${status}`);
      const agent = AgentBuilder.new()
        .withModel(new ScriptedModel(() => Promise.reject(error)))
        .onStopFailure((ctx) => void kinds.push(ctx.errorType))
        .build();
      await agent.run('Go', { rejectOnFailure: false });
    }
    expect(kinds).toEqual(['invalid_request', 'authentication_failed', 'billing_error', 'model_not_found', 'server_error', 'overloaded', 'unknown']);
  });

  it('lets a hook that throws change nothing: the run fails with the model’s error, and a warning names the hook’s', async () => {
    const error = apiError(500, 'upstream down');
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel(() => Promise.reject(error)))
      .onStopFailure(() => {
        throw new Error('alerting is down too');
      })
      .build();
    const warnings = collectWarnings(agent);
    const result = await agent.run('Go', { rejectOnFailure: false });

    expect(result.status).toBe('failed');
    expect(result.error).toBe(error);
    expect(warnings).toContainEqual(expect.objectContaining({ code: 'hook-error', event: 'StopFailure', message: expect.stringContaining('alerting is down too') }));
  });

  it('warns that a block, or context for the model, is ignored', async () => {
    for (const answer of [HookOutcome.block('try again'), HookOutcome.proceed(undefined, { additionalContext: 'for nobody' })]) {
      const agent = AgentBuilder.new()
        .withModel(new ScriptedModel(() => Promise.reject(apiError(500, 'down'))))
        .onStopFailure(() => answer)
        .build();
      const warnings = collectWarnings(agent);
      await agent.run('Go', { rejectOnFailure: false });
      expect(warnings).toContainEqual(expect.objectContaining({ code: 'ignored-outcome', event: 'StopFailure' }));
    }
  });

  it('does not fire when a hook fails the run, nor when the run is cancelled: those are not the model’s errors', async () => {
    const hookFailure = AgentBuilder.new()
      .withModel(new ScriptedModel(['never']))
      .onBeforeModel(() => {
        throw new Error('hook bug');
      });
    const rec = recordEvents(hookFailure);
    await hookFailure.build().run('Go', { rejectOnFailure: false });
    expect(rec.events).toContain('AgentFailed');
    expect(rec.events).not.toContain('StopFailure');

    const controller = new AbortController();
    const cancelled = AgentBuilder.new().withModel(
      new ScriptedModel(() => {
        controller.abort(new Error('user cancelled'));
        throw new Error('aborted request');
      }),
    );
    const seen = recordEvents(cancelled);
    await cancelled.build().run('Go', { signal: controller.signal, rejectOnFailure: false });
    expect(seen.events).toContain('AgentFailed');
    expect(seen.events).not.toContain('StopFailure');
  });

  it('fires in a subagent’s own run when its model fails; the parent goes on, told the subagent failed', async () => {
    const error = apiError(503, 'overloaded upstream');
    const model = new ScriptedModel((_request, call) => {
      if (call === 0) return callStep('helper', { task: 'Look around' });
      if (call === 1) throw error;
      return 'Done without help.';
    });
    const builder = AgentBuilder.new().withModel(model).withSubagents(defineSubagent({ name: 'helper' }));
    const rec = recordEvents(builder);
    const result = await builder.build().run('Go');

    expect(result.status).toBe('completed');
    const failure = rec.contexts.find((c) => c.event === 'StopFailure') as ContextFor<'StopFailure'>;
    expect(failure.state.parentAgentId).toBeDefined();
    expect(failure.errorType).toBe('server_error');
    expect(rec.labelled().filter((e) => e.endsWith('StopFailure'))).toEqual(['child:StopFailure']);
  });
});
