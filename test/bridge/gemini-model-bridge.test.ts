/**
 * The bridge on Gemini CLI's model events with the project's hooks behind it — HOOK.md hooks, in the HOOK.md protocol
 * or in Gemini's, and in-process hooks: Gemini CLI 0.61's real payloads (fixtures/gemini/) in, the answer it reads
 * out, and what a hook behind the bridge is sent: Gemini's payload for a Gemini-dialect hook, the request and answer
 * translated into the HOOK.md form for a HOOK.md one.
 */
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HookStack, discoverHooks, runBridge, type Hook, type ModelHookContext } from 'agent-hooks';
import { sandbox } from '../config/support.js';

const setup = sandbox();

const FIXTURES = fileURLToPath(new URL('./fixtures/gemini/', import.meta.url));
const fixture = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

/** A Node script that reads the event from stdin (`input`, and the raw `data`) and runs `body`. */
const node = (body: string) => `#!/usr/bin/env node\nlet data = '';\nprocess.stdin.on('data', (c) => (data += c));\nprocess.stdin.on('end', () => {\n  const input = JSON.parse(data);\n${body}\n});\n`;

describe('model-event hooks behind the bridge from Gemini CLI', () => {
  /** A HOOK.md hook folder in the project: `trigger`, the script `run`, and a dialect when given. */
  async function hookMd(project: string, name: string, trigger: string, run: string, dialect?: string): Promise<void> {
    const dir = join(project, '.agents', 'hooks', name);
    await mkdir(join(dir, 'scripts'), { recursive: true });
    await writeFile(join(dir, 'HOOK.md'), `---\nname: ${name}\ndescription: d\ntrigger: ${trigger}\n${dialect === undefined ? '' : `metadata:\n  dialect: ${dialect}\n`}---\n`);
    await writeFile(join(dir, 'scripts', 'run'), run, { mode: 0o755 });
  }
  const stackOf = async (project: string, ...more: { hook: Hook; priority: number }[]) =>
    new HookStack().withAll((await discoverHooks({ projectDir: project, userDir: false, trust: 'all' })).hooks).withAll(more);

  it('a HOOK.md hook blocking BeforeModel (exit 2) refuses the call: Gemini CLI is told deny, with the reason as the answer', async () => {
    const { project } = await setup();
    await hookMd(project, 'no-model', 'BeforeModel', '#!/bin/sh\ncat > /dev/null\necho "The model is off today." >&2\nexit 2\n');
    const result = await runBridge({ agent: 'gemini', input: JSON.stringify(fixture('BeforeModel.json')), stack: await stackOf(project) });
    expect(JSON.parse(result.stdout)).toMatchObject({ decision: 'deny', reason: 'The model is off today.', hookSpecificOutput: { llm_response: { candidates: [{ content: { parts: ['The model is off today.'] } }] } } });
  });

  it('a Gemini-dialect hook gets Gemini CLI’s payload with what the hooks before it rewrote, and both rewrites go back', async () => {
    const { project } = await setup();
    await hookMd(
      project,
      'cool',
      'BeforeModel',
      node(`  require('fs').writeFileSync(process.env.AGENT_HOOKS_PROJECT_DIR + '/seen.json', data);\n  console.log(JSON.stringify({ hookSpecificOutput: { llm_request: { config: { ...input.llm_request.config, temperature: 0 } } } }));`),
      'gemini',
    );
    const sign: Hook = { name: 'sign', events: ['BeforeModel'], handle: (ctx, next) => next((ctx as ModelHookContext).withMessages([...(ctx as ModelHookContext).request.messages, { role: 'system', content: 'Sign your answers.' }])) };
    const sent = fixture('BeforeModel.json');
    const result = await runBridge({ agent: 'gemini', input: JSON.stringify(sent), stack: await stackOf(project, { hook: sign, priority: 500 }) });
    const seen = JSON.parse(await readFile(join(project, 'seen.json'), 'utf8')) as Record<string, unknown>;
    const request = sent.llm_request as { messages: unknown[]; config: object };
    expect(seen).toEqual({ ...sent, llm_request: { ...request, messages: [...request.messages, { role: 'system', content: 'Sign your answers.' }] } });
    expect(JSON.parse(result.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'BeforeModel',
        llm_request: { messages: [...request.messages, { role: 'system', content: 'Sign your answers.' }], config: { ...request.config, temperature: 0 } },
      },
    });
  });

  it('a Gemini-dialect hook gets the model events’ payloads as Gemini CLI sent them when nothing changed them', async () => {
    const { project } = await setup();
    for (const event of ['BeforeToolSelection', 'AfterModel']) {
      await hookMd(project, event.toLowerCase(), event, node(`  require('fs').writeFileSync(process.env.AGENT_HOOKS_PROJECT_DIR + '/${event}.json', data);`), 'gemini');
    }
    for (const [event, file] of [['BeforeToolSelection', 'BeforeToolSelection.json'], ['AfterModel', 'AfterModel-functionCall.json']] as const) {
      const result = await runBridge({ agent: 'gemini', input: JSON.stringify(fixture(file)), stack: await stackOf(project) });
      expect(result.exitCode, file).toBe(0);
      expect(JSON.parse(await readFile(join(project, `${event}.json`), 'utf8')), file).toEqual(fixture(file));
    }
  });

  describe('a HOOK.md hook in the HOOK.md protocol', () => {
    /** A HOOK.md hook on `trigger` that records its payload in `<project>/<name>.json` and prints `answer` (a JS expression over `input`). */
    const recording = (project: string, name: string, trigger: string, answer: string) =>
      hookMd(project, name, trigger, node(`  require('fs').writeFileSync(process.env.AGENT_HOOKS_PROJECT_DIR + '/${name}.json', data);\n  const answer = ${answer};\n  if (answer !== undefined) console.log(JSON.stringify(answer));`));
    const seen = async (project: string, name: string) => JSON.parse(await readFile(join(project, `${name}.json`), 'utf8')) as Record<string, unknown>;

    it('BeforeModel: is sent Gemini’s request in the HOOK.md form, and its rewrite goes back as llm_request', async () => {
      const { project } = await setup();
      await recording(project, 'brief', 'BeforeModel', `{ modified_request: { messages: [...input.request.messages, { role: 'user', content: 'Answer briefly.' }], settings: { temperature: 0 }, system: 'Be brief.' } }`);
      const sent = fixture('BeforeModel.json');
      const result = await runBridge({ agent: 'gemini', input: JSON.stringify(sent), stack: await stackOf(project) });
      const request = sent.llm_request as { messages: { role: string; content: string }[]; config: object };

      expect(await seen(project, 'brief')).toEqual({
        event_type: 'BeforeModel',
        timestamp: expect.any(String),
        session_id: sent.session_id,
        work_dir: project,
        context: {},
        // Gemini CLI sends no step, no system prompt, no tools and no tool selection: none is made up.
        step_index: null,
        step_count: null,
        model_name: 'gemini-2.5-flash',
        retry_count: 0,
        request: { system: null, messages: [{ role: 'user', content: request.messages[0]!.content }], tools: [], settings: { temperature: 1, topP: 0.95 }, toolConfig: null },
      });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({
        systemMessage: 'agent-hooks could not give Gemini CLI the system prompt (Gemini CLI gives its hooks none to change).',
        hookSpecificOutput: {
          hookEventName: 'BeforeModel',
          llm_request: { messages: [...request.messages, { role: 'user', content: 'Answer briefly.' }], config: { temperature: 0, topP: 0.95, topK: 64 } },
        },
      });
    });

    it('BeforeModel: its answer instead of the model goes back as the deny with llm_response, the one form Gemini CLI answers from', async () => {
      const { project } = await setup();
      await recording(project, 'cache', 'BeforeModel', `{ response: { text: 'From the cache.' } }`);
      const result = await runBridge({ agent: 'gemini', input: JSON.stringify(fixture('BeforeModel-after-tool.json')), stack: await stackOf(project) });
      expect(JSON.parse(result.stdout)).toEqual({
        decision: 'deny',
        reason: 'A hook answered instead of the model.',
        hookSpecificOutput: {
          hookEventName: 'BeforeModel',
          llm_response: { text: 'From the cache.', candidates: [{ content: { role: 'model', parts: ['From the cache.'] }, finishReason: 'STOP', index: 0 }] },
        },
      });
    });

    it('BeforeToolSelection: its tool selection goes back as toolConfig', async () => {
      const { project } = await setup();
      await recording(project, 'shell-only', 'BeforeToolSelection', `{ modified_request: { toolConfig: { mode: 'any', allowedFunctionNames: ['run_shell_command'] } } }`);
      const result = await runBridge({ agent: 'gemini', input: JSON.stringify(fixture('BeforeToolSelection.json')), stack: await stackOf(project) });
      expect((await seen(project, 'shell-only')).request).toMatchObject({ tools: [], toolConfig: null });
      expect(JSON.parse(result.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeToolSelection', toolConfig: { mode: 'ANY', allowedFunctionNames: ['run_shell_command'] } } });
    });

    it('AfterModel: is sent the streamed chunk as the answer, and its new text goes back over Gemini’s llm_response', async () => {
      const { project } = await setup();
      await recording(project, 'shout', 'AfterModel', `input.response.text === '' ? undefined : { response: { ...input.response, text: input.response.text.toUpperCase() } }`);
      const sent = fixture('AfterModel.json');
      const result = await runBridge({ agent: 'gemini', input: JSON.stringify(sent), stack: await stackOf(project) });
      expect(await seen(project, 'shout')).toMatchObject({ response: { text: 'ne now.', toolCalls: [], usage: null }, synthetic: false, retry_count: 0 });
      const llm = sent.llm_response as { candidates: Record<string, unknown>[] };
      expect(JSON.parse(result.stdout)).toEqual({
        hookSpecificOutput: { hookEventName: 'AfterModel', llm_response: { ...llm, text: 'NE NOW.', candidates: [{ ...llm.candidates[0], content: { role: 'model', parts: ['NE NOW.'] } }] } },
      });
      // The function call's chunk has no text: the hook leaves it alone, and so does the bridge.
      const call = await runBridge({ agent: 'gemini', input: JSON.stringify(fixture('AfterModel-functionCall.json')), stack: await stackOf(project) });
      expect([call.exitCode, call.stdout]).toEqual([0, '']);
    });

    it('AfterModel: a block replaces the chunk with the reason, for Gemini CLI cannot ask the model again', async () => {
      const { project } = await setup();
      await recording(project, 'reject', 'AfterModel', `{ decision: 'block', reason: 'Cite a source.' }`);
      const result = await runBridge({ agent: 'gemini', input: JSON.stringify(fixture('AfterModel.json')), stack: await stackOf(project) });
      expect(JSON.parse(result.stdout)).toMatchObject({ hookSpecificOutput: { llm_response: { text: 'Cite a source.', candidates: [{ content: { parts: ['Cite a source.'] } }] } } });
    });
  });
});
