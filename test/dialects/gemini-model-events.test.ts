/**
 * Gemini CLI's BeforeModel, BeforeToolSelection and AfterModel hooks, loaded from a project's `.gemini/settings.json`
 * into an agent built here: real hook processes in the real agent loop, read by the Gemini dialect as Gemini CLI 0.61
 * acts on their answers (its bundle's `HookSystem.fire…Event`, `GeminiChat` and `HookAggregator`, and the runs recorded
 * in test/bridge/fixtures/gemini/README.md), with the payloads it sends (the fixtures).
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, type AgentWarning, type ModelRequest, type ScriptedStep } from 'agent-hooks';
import { sandbox } from '../config/support.js';

const setup = sandbox();

const FIXTURES = fileURLToPath(new URL('../bridge/fixtures/gemini/', import.meta.url));
const fixture = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

/** A Node script that reads the event from stdin (`input`) and runs `body`. */
const node = (body: string) => `#!/usr/bin/env node\nlet data = '';\nprocess.stdin.on('data', (c) => (data += c));\nprocess.stdin.on('end', () => {\n  const input = JSON.parse(data);\n${body}\n});\n`;
/** A script that prints `answer` as JSON. */
const answers = (answer: unknown) => node(`  console.log(${JSON.stringify(JSON.stringify(answer))});`);

/** `.gemini/settings.json` with the commands of each event, each in a definition of its own. */
const settings = (hooks: Record<string, string | readonly (string | { command: string; matcher?: string })[]>) => ({
  hooks: Object.fromEntries(
    Object.entries(hooks).map(([event, list]) => [
      event,
      (typeof list === 'string' ? [list] : list).map((hook) => {
        const { command, matcher } = typeof hook === 'string' ? { command: hook, matcher: undefined } : hook;
        return { ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command, timeout: 10000 }] };
      }),
    ]),
  ),
});

const tool = (name: string) => defineTool({ name, description: `The ${name} tool.`, input: z.object({}).passthrough(), execute: () => `${name} ran` });

/** An agent with the project's Gemini hooks, three tools, and a temperature of its own. */
async function agentWith(hooks: Record<string, string | readonly (string | { command: string; matcher?: string })[]>, scripts: Record<string, string>, steps: readonly ScriptedStep[]) {
  const { project, write, script } = await setup();
  for (const [name, text] of Object.entries(scripts)) await script(`hooks/${name}.js`, text);
  await write(project, '.gemini/settings.json', settings(hooks));
  const model = new ScriptedModel(steps);
  const agent = AgentBuilder.new()
    .withModel(model)
    .withTools(tool('run_shell_command'), tool('read_file'), tool('web_fetch'))
    .withModelSettings({ temperature: 0.7, topP: 0.9 })
    .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, gemini: true })
    .build();
  const warnings: AgentWarning[] = [];
  agent.events.on('warning', (w) => warnings.push(w));
  return { project, agent, model, warnings };
}

const hook = (name: string) => `node hooks/${name}.js`;
const text = (request: ModelRequest | undefined) => request?.messages.map((m) => `${m.role}:${m.content}`);
const toolNames = (request: ModelRequest | undefined) => request?.tools.map((t) => t.name);
/** A script that appends its payload to `<name>.jsonl`, then runs `body`. */
const recording = (name: string, body = '') => node(`  require('fs').appendFileSync('${name}.jsonl', data + '\\n');\n${body}`);
const recorded = async (project: string, name: string): Promise<Record<string, unknown>[]> =>
  (await readFile(join(project, `${name}.jsonl`), 'utf8'))
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Each field's JSON type, nested objects field by field: what two payloads must share. */
function shape(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length > 0 ? [shape(value[0])] : [];
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
  return typeof value;
}

describe('the payloads of Gemini CLI’s model events', () => {
  it('have the keys Gemini CLI 0.61 sends, of the same types: llm_request on all three, llm_response on AfterModel', async () => {
    const { project, agent } = await agentWith(
      { BeforeModel: hook('rec'), BeforeToolSelection: hook('rec'), AfterModel: hook('rec') },
      { rec: recording('payloads') },
      [{ text: 'Running it.', toolCalls: [{ name: 'run_shell_command', args: { command: 'echo hello' } }] }, { text: 'All done now.', usage: { inputTokens: 100, outputTokens: 10 } }],
    );
    await agent.run('Run the command.');
    const payloads = await recorded(project, 'payloads');
    const of = (event: string) => payloads.filter((p) => p.hook_event_name === event);
    expect(payloads.map((p) => p.hook_event_name)).toEqual(['BeforeModel', 'BeforeToolSelection', 'AfterModel', 'BeforeModel', 'BeforeToolSelection', 'AfterModel']);
    for (const [sent, name] of [
      [of('BeforeModel')[0]!, 'BeforeModel.json'],
      [of('BeforeToolSelection')[0]!, 'BeforeToolSelection.json'],
      [of('AfterModel')[1]!, 'AfterModel.json'],
    ] as const) {
      const real = fixture(name);
      expect(Object.keys(sent), name).toEqual(Object.keys(real));
      // The settings are each run's own (Gemini sends topK, which the models here do not have): the keys Gemini has.
      const [mine, theirs] = [sent.llm_request as Record<string, unknown>, real.llm_request as Record<string, unknown>];
      expect(Object.keys(mine), name).toEqual(Object.keys(theirs));
      expect(shape(mine.messages), name).toEqual(shape(theirs.messages));
      expect(typeof mine.model, name).toBe('string');
      for (const [key, value] of Object.entries(mine.config as object)) expect([key, typeof value], name).toEqual([key, typeof (theirs.config as Record<string, unknown>)[key]]);
      if (name === 'AfterModel.json') expect(shape(sent.llm_response)).toEqual(shape(real.llm_response));
    }
    // The text of the conversation only, as Gemini CLI's translator gives it: the call and its result have none.
    expect((of('BeforeModel')[1]!.llm_request as { messages: unknown }).messages).toEqual([
      { role: 'user', content: 'Run the command.' },
      { role: 'model', content: 'Running it.' },
    ]);
    expect(of('BeforeModel')[0]!.llm_request).toEqual({ model: 'scripted', messages: [{ role: 'user', content: 'Run the command.' }], config: { temperature: 0.7, topP: 0.9 } });
    expect((of('AfterModel')[0]!.llm_response as { text: string }).text).toBe('Running it.');
    expect(of('AfterModel')[1]!.llm_response).toEqual({
      text: 'All done now.',
      candidates: [{ content: { role: 'model', parts: ['All done now.'] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
    });
  });
});

describe('BeforeModel hooks of a Gemini settings file', () => {
  it('hookSpecificOutput.llm_request rewrites this call: messages laid over the request in order, config replacing the settings', async () => {
    const { agent, model } = await agentWith(
      {
        BeforeModel: hook('rewrite'),
      },
      {
        rewrite: node(`  if (input.llm_request.messages.length > 1) return;
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'BeforeModel', llm_request: { messages: [{ role: 'user', content: 'REWRITTEN ' + input.llm_request.messages[0].content }, { role: 'system', content: 'Be brief.' }], config: { temperature: 0.1 } } } }));`),
      },
      ['First answer.'],
    );
    const result = await agent.run('Hello');
    expect(text(model.requests[0])).toEqual(['user:REWRITTEN Hello', 'system:Be brief.']);
    // Gemini CLI replaces the four settings with the config's: topP, left out, is cleared.
    expect(model.requests[0]!.settings).toEqual({ temperature: 0.1, maxTokens: undefined, topP: undefined });
    // The conversation itself is not rewritten, as Gemini CLI's history is not.
    expect(result.messages.map((m) => m.content)).toEqual(['Hello', 'First answer.']);
  });

  it('a rewrite keeps the tool calls of the model’s turns and the tool results; a model or topK is ignored with a warning', async () => {
    const { agent, model, warnings } = await agentWith(
      { BeforeModel: hook('rewrite') },
      {
        rewrite: node(`  if (input.llm_request.messages.length < 2) return;
  console.log(JSON.stringify({ hookSpecificOutput: { llm_request: { model: 'gemini-2.5-pro', messages: [{ role: 'user', content: 'U' }, { role: 'model', content: 'M' }], config: { topK: 5, temperature: 1 } } } }));`),
      },
      [{ text: 'Calling.', toolCalls: [{ name: 'read_file', args: {} }] }, 'Done.'],
    );
    await agent.run('Read');
    const second = model.requests[1]!;
    expect(second.messages.map((m) => [m.role, m.content, m.toolCalls?.map((c) => c.name)])).toEqual([
      ['user', 'U', undefined],
      ['assistant', 'M', ['read_file']],
      ['tool', 'read_file ran', undefined],
    ]);
    expect(second.settings).toEqual({ temperature: 1, maxTokens: undefined, topP: undefined });
    expect(warnings.map((w) => w.message)).toEqual([
      expect.stringContaining('hookSpecificOutput.llm_request.config.topK'),
      expect.stringContaining('hookSpecificOutput.llm_request.model ("gemini-2.5-pro") because a hook cannot switch the model'),
    ]);
  });

  it('decision deny with llm_response answers instead of the model: the reason is a warning, not the answer, and AfterModel hooks do not run on it', async () => {
    const { project, agent, model } = await agentWith(
      { BeforeModel: hook('cache'), AfterModel: hook('after') },
      {
        cache: answers({ decision: 'deny', reason: 'served from the cache', hookSpecificOutput: { llm_response: { candidates: [{ content: { role: 'model', parts: ['Four', '.'] }, finishReason: 'STOP' }] } } }),
        after: recording('after'),
      },
      [],
    );
    const result = await agent.run('What is 2+2?');
    expect(model.callCount).toBe(0);
    expect(result.text).toBe('Four.');
    expect(result.systemMessages).toEqual(['Agent execution blocked: served from the cache']);
    await expect(readFile(join(project, 'after.jsonl'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('decision deny without llm_response: the model is not called and the turn ends with no answer; exit 2 is the same deny', async () => {
    for (const command of [answers({ decision: 'deny', reason: 'quota reached' }), node(`  console.error('quota reached'); process.exit(2);`)]) {
      const { agent, model } = await agentWith({ BeforeModel: hook('deny') }, { deny: command }, ['never']);
      const result = await agent.run('Hello');
      expect(model.callCount).toBe(0);
      expect(result.status).toBe('completed');
      expect(result.text).toBe('');
      expect(result.systemMessages).toEqual(['Agent execution blocked: quota reached']);
    }
  });

  it('llm_response without a deny is ignored, with a warning: Gemini CLI 0.61 calls the model all the same', async () => {
    const { agent, model, warnings } = await agentWith(
      { BeforeModel: hook('answer') },
      { answer: answers({ hookSpecificOutput: { llm_response: { candidates: [{ content: { role: 'model', parts: ['from the hook'] } }] } } }) },
      ['from the model'],
    );
    const result = await agent.run('Hello');
    expect(model.callCount).toBe(1);
    expect(result.text).toBe('from the model');
    expect(warnings).toEqual([expect.objectContaining({ code: 'invalid-output', message: expect.stringContaining('only when the hook also denies the call') })]);
  });

  it('an llm_response Gemini CLI cannot read drops the whole answer, deny included: the model is called, and a warning says why', async () => {
    const { agent, model, warnings } = await agentWith({ BeforeModel: hook('bad') }, { bad: answers({ decision: 'deny', reason: 'r', hookSpecificOutput: { llm_response: { text: 'no candidates' } } }) }, ['from the model']);
    const result = await agent.run('Hello');
    expect(model.callCount).toBe(1);
    expect(result.text).toBe('from the model');
    expect(warnings.map((w) => w.message)).toEqual([expect.stringContaining('drops the whole answer, deny included')]);
  });

  it('continue: false stops the run before the model is called', async () => {
    const { agent, model } = await agentWith({ BeforeModel: hook('stop') }, { stop: answers({ continue: false, stopReason: 'budget spent' }) }, ['never']);
    const result = await agent.run('Hello');
    expect(model.callCount).toBe(0);
    expect(result.status).toBe('stopped');
    expect(result.reason).toContain('budget spent');
  });

  it('a matcher means nothing on a model event: the hook runs, and a warning says the matcher is ignored', async () => {
    const { project, agent, warnings } = await agentWith({ BeforeModel: [{ command: hook('rec'), matcher: 'run_shell_command' }] }, { rec: recording('before') }, ['Hi.']);
    await agent.run('Hello');
    expect(await recorded(project, 'before')).toHaveLength(1);
    expect(warnings).toEqual([expect.objectContaining({ code: 'hook-problem:ignored-matcher', message: expect.stringContaining('BeforeModel has nothing for a matcher to match') })]);
  });
});

describe('BeforeToolSelection hooks of a Gemini settings file', () => {
  it('hookSpecificOutput.toolConfig narrows the tools the model is offered, and is passed on for the mode', async () => {
    const { agent, model } = await agentWith(
      { BeforeToolSelection: hook('only') },
      { only: answers({ hookSpecificOutput: { hookEventName: 'BeforeToolSelection', toolConfig: { mode: 'ANY', allowedFunctionNames: ['read_file'] } } }) },
      ['Hi.'],
    );
    await agent.run('Hello');
    expect(toolNames(model.requests[0])).toEqual(['read_file']);
    expect(model.requests[0]!.toolConfig).toEqual({ mode: 'any', allowedFunctionNames: ['read_file'] });
  });

  it('several hooks’ selections merge as Gemini CLI merges them: the union of the tools, NONE over ANY over AUTO', async () => {
    const union = await agentWith(
      { BeforeToolSelection: [hook('a'), hook('b'), hook('quiet')] },
      {
        a: answers({ hookSpecificOutput: { toolConfig: { mode: 'AUTO', allowedFunctionNames: ['read_file'] } } }),
        b: answers({ hookSpecificOutput: { toolConfig: { mode: 'ANY', allowedFunctionNames: ['web_fetch'] } } }),
        quiet: answers({ systemMessage: 'no selection here' }),
      },
      ['Hi.'],
    );
    await union.agent.run('Hello');
    expect(toolNames(union.model.requests[0])).toEqual(['read_file', 'web_fetch']);
    expect(union.model.requests[0]!.toolConfig).toEqual({ mode: 'any', allowedFunctionNames: ['read_file', 'web_fetch'] });

    const none = await agentWith(
      { BeforeToolSelection: [hook('a'), hook('off')] },
      { a: answers({ hookSpecificOutput: { toolConfig: { mode: 'ANY', allowedFunctionNames: ['read_file'] } } }), off: answers({ hookSpecificOutput: { toolConfig: { mode: 'NONE' } } }) },
      ['Hi.'],
    );
    await none.agent.run('Hello');
    expect(toolNames(none.model.requests[0])).toEqual([]);
  });

  it('a selection naming no tool restricts none (an empty list is no list to Gemini); decision and continue are ignored', async () => {
    const { agent, model, warnings } = await agentWith(
      { BeforeToolSelection: hook('empty') },
      { empty: answers({ decision: 'deny', continue: false, hookSpecificOutput: { toolConfig: { mode: 'any', allowedFunctionNames: [] } } }) },
      ['Hi.'],
    );
    const result = await agent.run('Hello');
    expect(result.status).toBe('completed');
    expect(toolNames(model.requests[0])).toEqual(['run_shell_command', 'read_file', 'web_fetch']);
    // A lowercase mode is no mode Gemini CLI knows: AUTO, and the user is told.
    expect(model.requests[0]!.toolConfig).toEqual({ mode: 'auto' });
    expect(warnings.map((w) => w.message)).toEqual([expect.stringContaining('"any", which is none of AUTO, ANY, NONE')]);
  });

  it('a Gemini selection narrows what an in-process hook allowed before it, and never widens it', async () => {
    const { project, write, script } = await setup();
    await script('hooks/wide.js', answers({ hookSpecificOutput: { toolConfig: { mode: 'AUTO', allowedFunctionNames: ['read_file', 'web_fetch'] } } }));
    await write(project, '.gemini/settings.json', settings({ BeforeToolSelection: hook('wide') }));
    const model = new ScriptedModel(['Hi.']);
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(tool('run_shell_command'), tool('read_file'), tool('web_fetch'))
      .onBeforeToolSelection((ctx) => ctx.allowTools('run_shell_command', 'read_file'), { priority: 1000 })
      .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, gemini: true })
      .build();
    await agent.run('Hello');
    expect(toolNames(model.requests[0])).toEqual(['read_file']);
  });
});

describe('AfterModel hooks of a Gemini settings file', () => {
  it('hookSpecificOutput.llm_response replaces the answer’s text; its tool calls stand', async () => {
    const { agent, model } = await agentWith(
      { AfterModel: hook('upper') },
      { upper: node(`  const text = input.llm_response.text;\n  if (text) console.log(JSON.stringify({ hookSpecificOutput: { llm_response: { candidates: [{ content: { role: 'model', parts: [text.toUpperCase()] } }] } } }));`) },
      [{ text: 'calling it', toolCalls: [{ name: 'read_file', args: {} }] }, 'all done.'],
    );
    const result = await agent.run('Read');
    expect(result.text).toBe('ALL DONE.');
    expect(result.messages.map((m) => m.content)).toEqual(['Read', 'CALLING IT', 'read_file ran', 'ALL DONE.']);
    expect(model.callCount).toBe(2);
  });

  it('an llm_response with no part keeps the answer, as Gemini CLI keeps the chunk', async () => {
    const { agent } = await agentWith({ AfterModel: hook('empty') }, { empty: answers({ hookSpecificOutput: { llm_response: { candidates: [{ content: { role: 'model', parts: [] } }] } } }) }, ['kept']);
    expect((await agent.run('Hello')).text).toBe('kept');
  });

  it('decision deny leaves the answer as it is, with a warning: Gemini CLI does not ask the model again', async () => {
    const { agent, model } = await agentWith({ AfterModel: hook('deny') }, { deny: answers({ decision: 'deny', reason: 'not in English' }) }, ['Bonjour.', 'never']);
    const result = await agent.run('Hello');
    expect(model.callCount).toBe(1);
    expect(result.text).toBe('Bonjour.');
    expect(result.systemMessages).toEqual(['Agent execution blocked: not in English']);
  });

  it('continue: false stops the run', async () => {
    const { agent } = await agentWith({ AfterModel: hook('stop') }, { stop: answers({ continue: false, stopReason: 'enough' }) }, [{ text: 'x', toolCalls: [{ name: 'read_file', args: {} }] }, 'never']);
    const result = await agent.run('Hello');
    expect(result.status).toBe('stopped');
    expect(result.reason).toContain('enough');
  });
});
