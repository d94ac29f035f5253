import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geminiDriver } from './drivers/gemini.js';
import { SHELL_TOOL_NAME, toolNamesOf } from './mock/gemini.js';
import { bodyText, makeProject, type AgentProject, type AgentRun } from './support/harness.js';
import { startMockServer, type MockServer, type Turn } from './support/mock-server.js';
import { defineAgentSuite } from './support/suite.js';

defineAgentSuite(geminiDriver);

/** How long one headless run may take before it is killed. */
const RUN_MS = 90_000;

const FIXTURES = fileURLToPath(new URL('../bridge/fixtures/gemini/', import.meta.url));

interface Session {
  project: AgentProject;
  mock: MockServer;
  run: AgentRun;
}

/**
 * One headless run of Gemini CLI with the bridge on `events`: the project's HOOK.md hooks `hooks`, and an
 * `agent-hooks.config.mjs` of in-process hooks when `module` is given (trusted, as the user would trust it).
 */
async function session(hooks: readonly string[], module: string | undefined, events: readonly string[], turns: readonly Turn[], prompt: string): Promise<Session> {
  const project = makeProject(hooks);
  if (module !== undefined) {
    writeFileSync(join(project.dir, 'agent-hooks.config.mjs'), module);
    project.cli('trust', '--all');
  }
  const mock = await startMockServer(geminiDriver.api(), turns);
  try {
    await geminiDriver.configure(project, mock, { events, timeoutSec: 30 });
    return { project, mock, run: await geminiDriver.run(project, mock, prompt, RUN_MS) };
  } catch (error) {
    await mock.close();
    project.remove();
    throw error;
  }
}

const explain = (s: Session): string =>
  `exit ${s.run.exitCode}${s.run.timedOut ? ' (killed)' : ''}\n--- stdout\n${s.run.stdout.slice(-4000)}\n--- stderr\n${s.run.stderr.slice(-4000)}\n--- requests\n${s.mock.requests.map((r) => `${r.method} ${r.path}${r.main ? ` main ${JSON.stringify(r.turn)}` : ''}`).join('\n')}`;

/** The events of Gemini CLI's stream-json output. */
const events = (s: Session): Record<string, unknown>[] =>
  s.run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
/** What the assistant said, as the user saw it: its messages, joined. */
const said = (s: Session): string =>
  events(s)
    .filter((e) => e.type === 'message' && e.role === 'assistant')
    .map((e) => e.content)
    .join('');

describe('gemini 0.61 model events, through agent-hooks bridge', () => {
  describe('a request rewritten, the tools narrowed and the answer rewritten', () => {
    let s: Session;
    beforeAll(async () => {
      s = await session(
        ['model-upper', 'model-note'],
        // In-process hooks: a BeforeModel one adds a message to every request, a BeforeToolSelection one allows the shell only.
        `export default [
  { priority: 100, hook: { name: 'e2e-model-rewrite', events: ['BeforeModel'], handle: (ctx, next) => next(ctx.withMessages([...ctx.request.messages, { role: 'user', content: 'E2E-MODEL-REWRITE: answer briefly.' }])) } },
  { priority: 100, hook: { name: 'e2e-shell-only', events: ['BeforeToolSelection'], handle: (ctx, next) => next(ctx.withToolConfig({ mode: 'auto', allowedFunctionNames: ['${SHELL_TOOL_NAME}'] })) } },
];
`,
        ['BeforeModel', 'BeforeToolSelection', 'AfterModel'],
        [{ shell: 'echo hello' }, { text: 'All done now.' }],
        'Run the command.',
      );
    }, RUN_MS + 30_000);
    afterAll(async () => {
      await s?.mock.close();
      s?.project.remove();
    });

    it('the agent ran to its end, running the command the model called for', () => {
      expect(s.run.timedOut, explain(s)).toBe(false);
      expect(s.mock.remaining(), explain(s)).toBe(0);
      expect(events(s).filter((e) => e.type === 'tool_result').map((e) => e.output), explain(s)).toEqual(['hello']);
    });

    it('BeforeModel: the model receives the rewritten request, on every call', () => {
      const main = s.mock.mainRequests();
      expect(main, explain(s)).toHaveLength(2);
      for (const request of main) expect(bodyText(request.body), explain(s)).toContain('E2E-MODEL-REWRITE');
    });

    it('BeforeModel, a HOOK.md hook in the HOOK.md protocol: it is sent Gemini’s request in the HOOK.md form, and its rewrite reaches the model', () => {
      const note = s.project.evidenceOf('model-note') as Record<string, unknown>[];
      expect(note.length, explain(s)).toBeGreaterThanOrEqual(2);
      for (const payload of note) {
        expect(payload, explain(s)).toMatchObject({ event_type: 'BeforeModel', model_name: 'gemini-2.5-flash', step_index: null, retry_count: 0 });
        // Gemini CLI sends the text of the conversation, and neither a system prompt nor tools.
        expect(payload.request, explain(s)).toMatchObject({ system: null, tools: [], toolConfig: null, messages: expect.arrayContaining([expect.objectContaining({ role: 'user', content: expect.stringContaining('Run the command.') })]) });
      }
      for (const request of s.mock.mainRequests()) expect(bodyText(request.body), explain(s)).toContain('E2E-HOOKMD-NOTE');
    });

    it('BeforeToolSelection: the request allows the shell only — as Gemini CLI narrows, through functionCallingConfig, every declaration kept', () => {
      for (const request of s.mock.mainRequests()) {
        const body = request.body as { toolConfig?: unknown };
        expect(body.toolConfig, explain(s)).toEqual({ functionCallingConfig: { mode: 'AUTO', allowedFunctionNames: [SHELL_TOOL_NAME] } });
        // Gemini CLI does not take declarations away: the API keeps the model to the allowed names.
        expect(toolNamesOf(body).length).toBeGreaterThan(1);
      }
    });

    it('AfterModel: the user sees the rewritten answer, chunk by chunk; the function call’s chunk is left alone', () => {
      expect(said(s), explain(s)).toBe('ALL DONE NOW.');
      const upper = s.project.evidenceOf('model-upper') as Record<string, unknown>[];
      // One payload per streamed chunk: the function call's, then the answer's two.
      expect(upper.map((p) => (p.llm_response as { text?: string }).text), explain(s)).toEqual(['', 'All do', 'ne now.']);
      // A Gemini-dialect hook behind the bridge is sent Gemini CLI's own payload, its keys as the fixture's.
      const real = JSON.parse(readFileSync(join(FIXTURES, 'AfterModel.json'), 'utf8')) as Record<string, unknown>;
      expect(Object.keys(upper[2]!)).toEqual(Object.keys(real));
      // What the hooks before it sent the model is in the request it is shown.
      expect(JSON.stringify(upper[2]!.llm_request)).toContain('E2E-MODEL-REWRITE');
    });
  });

  describe('an in-process hook answers instead of the model', () => {
    let s: Session;
    beforeAll(async () => {
      s = await session(
        [],
        `export default [{ priority: 100, hook: { name: 'e2e-cache', events: ['BeforeModel'], handle: (ctx, next) => next(ctx.withResponse('E2E-CACHED-ANSWER')) } }];\n`,
        ['BeforeModel'],
        [{ text: 'The model must not be asked.' }],
        'What is 2+2?',
      );
    }, RUN_MS + 30_000);
    afterAll(async () => {
      await s?.mock.close();
      s?.project.remove();
    });

    it('the hook’s answer is the answer, and the model is never called (Gemini CLI warns that the call was blocked)', () => {
      expect(s.run.timedOut, explain(s)).toBe(false);
      expect(said(s), explain(s)).toBe('E2E-CACHED-ANSWER');
      expect(s.mock.mainRequests(), explain(s)).toHaveLength(0);
      expect(events(s).filter((e) => e.type === 'error').map((e) => e.message)).toEqual(['Agent execution blocked: A hook answered instead of the model.']);
    });
  });

  describe('a HOOK.md hook refuses the model call', () => {
    let s: Session;
    beforeAll(async () => {
      s = await session(['model-refuse'], undefined, ['BeforeModel'], [{ text: 'The model must not be asked.' }], 'Summarize the README.');
    }, RUN_MS + 30_000);
    afterAll(async () => {
      await s?.mock.close();
      s?.project.remove();
    });

    it('the model is not called, and the refusal’s reason is the answer', () => {
      expect(s.run.timedOut, explain(s)).toBe(false);
      expect(s.project.evidenceOf('model-refuse'), explain(s)).toHaveLength(1);
      expect(s.mock.mainRequests(), explain(s)).toHaveLength(0);
      expect(said(s), explain(s)).toBe('E2E-MODEL-REFUSED: no model calls in this project');
    });
  });
});
