/**
 * HOOK.md hooks on BeforeModel, BeforeToolSelection and AfterModel in the real agent loop: real script processes,
 * which read the model call from stdin and answer with `modified_request`, `response` or a decision.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, type AgentWarning, type Message } from 'agent-hooks';
import { tempDir, writeExecutable } from '../support/script-fixture.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A Node script hook: reads the event into `input` (and its raw text `data`), then runs `body`. */
const node = (body: string) => `#!/usr/bin/env node\nlet data = '';\nprocess.stdin.on('data', (c) => (data += c));\nprocess.stdin.on('end', () => {\n  const input = JSON.parse(data);\n${body}\n});\n`;
/** Prints `value` as the answer. */
const print = (value: string) => `  process.stdout.write(JSON.stringify(${value}));`;

interface HookSpec {
  readonly trigger: string;
  readonly script: string;
  readonly priority?: number;
}

/** A project with `.agents/hooks/<name>/HOOK.md` and `scripts/run` for each hook. */
async function project(hooks: Record<string, HookSpec>): Promise<string> {
  const { dir, cleanup } = await tempDir('agent-hooks-model-');
  cleanups.push(cleanup);
  for (const [name, { trigger, script, priority }] of Object.entries(hooks)) {
    const folder = join(dir, '.agents', 'hooks', name);
    await mkdir(join(folder, 'scripts'), { recursive: true });
    await writeFile(join(folder, 'HOOK.md'), `---\nname: ${name}\ndescription: a model-event hook\ntrigger: ${trigger}\n${priority === undefined ? '' : `priority: ${priority}\n`}---\n`);
    await writeExecutable(join(folder, 'scripts', 'run'), script);
  }
  return dir;
}

const readTool = (calls: unknown[] = []) => defineTool({ name: 'read', description: 'Reads a file', input: z.object({ path: z.string() }), execute: (input) => (calls.push(input), `contents of ${input.path}`) });
const writeTool = () => defineTool({ name: 'write', description: 'Writes a file', input: z.object({ path: z.string() }), execute: () => 'written' });

function agentOf(dir: string, model: ScriptedModel, more: (b: AgentBuilder) => AgentBuilder = (b) => b) {
  const agent = more(AgentBuilder.new().withModel(model).withSystemPrompt('You are terse.').withTools(readTool(), writeTool()))
    .withHooksFrom({ projectDir: dir, trust: 'all', userDir: false })
    .build();
  const warnings: AgentWarning[] = [];
  agent.events.on('warning', (w) => warnings.push(w));
  return { agent, warnings };
}

describe('a HOOK.md BeforeModel hook', () => {
  it('sees the request and adds a line to the system prompt: the model gets it, on every call, and the conversation is unchanged', async () => {
    const dir = await project({
      policy: {
        trigger: 'BeforeModel',
        script: node(`  require('fs').appendFileSync(process.env.AGENT_HOOKS_PROJECT_DIR + '/seen.jsonl', data + '\\n');\n${print(`{ modified_request: { system: input.request.system + '\\nNever print secrets.', settings: { temperature: 0 } } }`)}`),
      },
    });
    const model = new ScriptedModel([{ toolCalls: [{ name: 'read', args: { path: 'a.txt' } }] }, 'Done.']);
    const { agent, warnings } = agentOf(dir, model);
    const result = await agent.run('Read a.txt');

    expect(warnings).toEqual([]);
    expect(model.requests.map((r) => r.system)).toEqual(['You are terse.\nNever print secrets.', 'You are terse.\nNever print secrets.']);
    expect(model.requests.map((r) => r.settings?.temperature)).toEqual([0, 0]);
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const seen = (await readFile(join(dir, 'seen.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(seen.map((p) => [p.event_type, p.step_index, p.model_name, p.retry_count])).toEqual([
      ['BeforeModel', 0, 'scripted', 0],
      ['BeforeModel', 1, 'scripted', 0],
    ]);
    expect(seen[1]!.request).toMatchObject({
      system: 'You are terse.',
      messages: [
        { role: 'user', content: 'Read a.txt' },
        { role: 'assistant', content: '', toolCalls: [{ name: 'read', args: { path: 'a.txt' } }] },
        { role: 'tool', content: 'contents of a.txt', name: 'read' },
      ],
      tools: [{ name: 'read', description: 'Reads a file' }, { name: 'write' }],
    });
  });

  it('answers instead of the model: the model is not called, and the answer’s tool call runs as the model’s would', async () => {
    const dir = await project({
      cache: {
        trigger: 'BeforeModel',
        script: node(print(`input.step_index === 0 ? { response: { text: 'Reading it.', toolCalls: [{ name: 'read', args: { path: 'cached.txt' } }] } } : { response: 'From the cache.' }`)),
      },
    });
    const calls: unknown[] = [];
    const model = new ScriptedModel([]);
    const agent = AgentBuilder.new().withModel(model).withTools(readTool(calls)).withHooksFrom({ projectDir: dir, trust: 'all', userDir: false }).build();
    const result = await agent.run('Read it');

    expect(model.callCount).toBe(0);
    expect(calls).toEqual([{ path: 'cached.txt' }]);
    expect(result.status).toBe('completed');
    expect(result.text).toBe('From the cache.');
  });

  it('refuses the call with decision deny: the model is not called, and the reason is the answer', async () => {
    const dir = await project({ refuse: { trigger: 'BeforeModel', script: node(print(`{ decision: 'deny', reason: 'No model calls in this project.' }`)) } });
    const model = new ScriptedModel([]);
    const result = await agentOf(dir, model).agent.run('Summarize the README');

    expect(model.callCount).toBe(0);
    expect(result.status).toBe('completed');
    expect(result.text).toBe('No model calls in this project.');
  });

  it('an answer with wrong fields: each is named in a warning, and the rest still counts', async () => {
    const dir = await project({
      sloppy: { trigger: 'BeforeModel', script: node(print(`{ modified_request: { system: 42, messages: [{ role: 'bot', content: 'x' }], settings: { maxTokens: 64 } }, response: { content: 'x' } }`)) },
    });
    const model = new ScriptedModel(['Answered.']);
    const { agent, warnings } = agentOf(dir, model);
    const result = await agent.run('Go');

    expect(result.text).toBe('Answered.');
    expect(model.requests[0]!.system).toBe('You are terse.');
    expect(model.requests[0]!.settings).toEqual({ maxTokens: 64 });
    expect(warnings.map((w) => w.message)).toEqual([
      "Hook 'sloppy' printed modified_request.system where modified_request.system must be a string, got number; it is ignored.",
      'Hook \'sloppy\' printed modified_request.messages where modified_request.messages[0].role must be one of user, assistant, system, tool, got "bot"; it is ignored.',
      "Hook 'sloppy' printed response.content that is not a field of an answer (text, toolCalls, usage); it is ignored.",
      "Hook 'sloppy' printed response with neither text nor toolCalls; it is ignored.",
    ]);
  });
});

describe('a HOOK.md BeforeToolSelection hook', () => {
  it('narrows the tools: the model is offered the allowed one alone, and a later hook cannot widen the selection', async () => {
    const dir = await project({
      'read-only': { trigger: 'BeforeToolSelection', priority: 200, script: node(print(`{ modified_request: { toolConfig: { mode: 'auto', allowedFunctionNames: ['read'] } } }`)) },
      widen: {
        trigger: 'BeforeToolSelection',
        priority: 100,
        script: node(`  require('fs').writeFileSync(process.env.AGENT_HOOKS_PROJECT_DIR + '/selection.json', JSON.stringify(input.request.toolConfig));\n${print(`{ modified_request: { toolConfig: { mode: 'any', allowedFunctionNames: ['read', 'write'] } } }`)}`),
      },
    });
    const model = new ScriptedModel(['Done.']);
    const { agent, warnings } = agentOf(dir, model);
    await agent.run('Go');

    expect(warnings).toEqual([]);
    expect(model.requests[0]!.tools.map((t) => t.name)).toEqual(['read']);
    expect(model.requests[0]!.toolConfig).toEqual({ mode: 'any', allowedFunctionNames: ['read'] });
    expect(JSON.parse(await readFile(join(dir, 'selection.json'), 'utf8'))).toEqual({ mode: 'auto', allowedFunctionNames: ['read'] });
  });
});

describe('a HOOK.md AfterModel hook', () => {
  const REDACT = node(`  const text = input.response.text.replace(/sk-[A-Za-z0-9-]+/g, '[redacted]');\n  if (text !== input.response.text) ${print(`{ response: { ...input.response, text } }`)}`);

  it('redacts the answer: the run records, and the model is next sent, the redacted text; the tool calls stand', async () => {
    const dir = await project({ redact: { trigger: 'AfterModel', script: REDACT } });
    const calls: unknown[] = [];
    const model = new ScriptedModel([{ text: 'Your key is sk-live-42; reading.', toolCalls: [{ name: 'read', args: { path: 'a.txt' } }] }, 'Done, sk-live-42 is set.']);
    const agent = AgentBuilder.new().withModel(model).withTools(readTool(calls)).withHooksFrom({ projectDir: dir, trust: 'all', userDir: false }).build();
    const result = await agent.run('Go');

    expect(calls).toEqual([{ path: 'a.txt' }]);
    expect(result.text).toBe('Done, [redacted] is set.');
    expect(model.requests[1]!.messages.find((m: Message) => m.role === 'assistant')!.content).toBe('Your key is [redacted]; reading.');
    expect(JSON.stringify(result.messages)).not.toContain('sk-live');
  });

  it('rejects an answer once: the call is made again with the reason as feedback, and retry_count says which try it is', async () => {
    const dir = await project({
      'cite-sources': {
        trigger: 'AfterModel',
        script: node(`  require('fs').appendFileSync(process.env.AGENT_HOOKS_PROJECT_DIR + '/tries.log', input.retry_count + ' ' + input.synthetic + '\\n');\n  if (input.retry_count === 0) ${print(`{ decision: 'block', reason: 'Cite a source.' }`)}`),
      },
    });
    const model = new ScriptedModel(['Paris.', 'Paris (see the atlas).']);
    const { agent, warnings } = agentOf(dir, model);
    const result = await agent.run('Capital of France?');

    expect(warnings).toEqual([]);
    expect(model.callCount).toBe(2);
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: 'user', content: 'Cite a source.' });
    expect(result.text).toBe('Paris (see the atlas).');
    expect(result.messages.map((m) => m.content)).not.toContain('Paris.');
    expect(await readFile(join(dir, 'tries.log'), 'utf8')).toBe('0 false\n1 false\n');
  });

  it('a request printed on AfterModel is named in a warning: the call has been made', async () => {
    const dir = await project({ late: { trigger: 'AfterModel', script: node(print(`{ modified_request: { system: 'Too late.' } }`)) } });
    const { agent, warnings } = agentOf(dir, new ScriptedModel(['Hi.']));
    expect((await agent.run('Go')).text).toBe('Hi.');
    expect(warnings.map((w) => w.message)).toEqual(["Hook 'late' printed modified_request.system on AfterModel, where the request has already been sent; it is ignored."]);
  });
});

describe('a long conversation', () => {
  /** A BeforeModel callback that sends the model `count` messages of `size` characters before the script hooks run. */
  const longHistory = (count: number, size: number) => (b: AgentBuilder) =>
    b.onBeforeModel(
      (ctx) =>
        ctx.withMessages([...Array.from({ length: count }, (_, i): Message => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `${i}:${'x'.repeat(size)}` })), ...ctx.request.messages]),
      { priority: 900 },
    );

  it('reaches a script whole (megabytes of stdin), and one that never reads its stdin still decides', async () => {
    const dir = await project({
      count: {
        trigger: 'BeforeModel',
        priority: 200,
        script: node(`  require('fs').writeFileSync(process.env.AGENT_HOOKS_PROJECT_DIR + '/count.json', JSON.stringify({ bytes: Buffer.byteLength(data), messages: input.request.messages.length, last: input.request.messages.at(-1) }));\n${print(`{ modified_request: { system: 'Counted ' + input.request.messages.length + ' messages.' } }`)}`),
      },
      deaf: { trigger: 'BeforeModel', priority: 100, script: '#!/bin/sh\necho \'{"modified_request": {"settings": {"maxTokens": 7}}}\'\n' },
    });
    const model = new ScriptedModel(['Done.']);
    const { agent, warnings } = agentOf(dir, model, longHistory(2000, 2000));
    await agent.run('The question at the end.');

    expect(warnings).toEqual([]);
    const count = JSON.parse(await readFile(join(dir, 'count.json'), 'utf8')) as { bytes: number; messages: number; last: Message };
    expect(count.messages).toBe(2001);
    expect(count.bytes).toBeGreaterThan(4_000_000);
    expect(count.last).toEqual({ role: 'user', content: 'The question at the end.' });
    expect(model.requests[0]!.system).toBe('Counted 2001 messages.');
    expect(model.requests[0]!.settings).toEqual({ maxTokens: 7 });
  });

  it('an answer past the output cap is a failure named in a warning, and the call goes on unchanged', async () => {
    const dir = await project({
      echo: { trigger: 'BeforeModel', script: node(print(`{ modified_request: { messages: input.request.messages.map((m) => ({ ...m, content: m.content.toUpperCase() })) } }`)) },
    });
    const model = new ScriptedModel(['Done.']);
    const { agent, warnings } = agentOf(dir, model, longHistory(1000, 2000));
    await agent.run('Go');

    expect(model.requests[0]!.messages).toHaveLength(1001);
    expect(model.requests[0]!.messages[0]!.content).toMatch(/^0:x/);
    expect(warnings.map((w) => w.message).join('\n')).toContain("Hook 'echo' wrote more than 1048576 bytes to stdout and was killed; failing open");
  });
});

const python = (() => {
  try {
    execFileSync('python3', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

describe('the Python example of docs/hook-md.md', () => {
  it.runIf(python)('runs as documented: the system line is added and the secret redacted', async () => {
    const docs = await readFile(new URL('../../docs/hook-md.md', import.meta.url), 'utf8');
    const example = /```python\n(#!\/usr\/bin\/env python3\n[\s\S]*?)```/.exec(docs)?.[1];
    expect(example, 'docs/hook-md.md has a Python example').toBeDefined();
    const dir = await project({
      'model-guard': { trigger: 'BeforeModel', script: example! },
      'model-redact': { trigger: 'AfterModel', script: example! },
    });
    const model = new ScriptedModel(['The token is sk-abc123.']);
    const { agent, warnings } = agentOf(dir, model);
    const result = await agent.run('Show me the token.');

    expect(warnings).toEqual([]);
    expect(model.requests[0]!.system).toContain('Never print secrets');
    expect(result.text).toBe('The token is [redacted].');
  });
});
