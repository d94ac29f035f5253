/**
 * The bridge on Gemini CLI's model events with the project's hooks behind it — HOOK.md hooks, in the HOOK.md protocol
 * or in Gemini's, and in-process hooks: Gemini CLI 0.61's real payloads (fixtures/gemini/) in, the answer it reads
 * out, and what a Gemini-dialect hook behind the bridge is sent.
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
});
