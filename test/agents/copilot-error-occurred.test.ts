/**
 * When GitHub Copilot CLI fires its errorOccurred hooks, headless: on a failed model call only — once per failed
 * attempt when it retries (a server error), each `errorContext: "model_call"`, `recoverable: true`, the last too — and
 * not on a failing tool, a failing hook on any event, or an MCP server that cannot start. An agent-hooks agent loading
 * the same file (`withHooksFrom({ copilot: true })`) fires it in the same situations it shares: not on a failing tool
 * or hook, and on a model call that ended the run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool } from '../../src/index.js';
import { copilotDriver } from './drivers/copilot.js';
import { makeProject, pinOf, type AgentProject, type AgentRun } from './support/harness.js';
import { startMockServer, type MockApi, type MockServer, type Turn } from './support/mock-server.js';

/** A hook that appends its payload, one line, to `<name>.jsonl` in the project. */
const keep = (name: string): { bash: string } => ({ bash: `cat >> ${name}.jsonl; echo >> ${name}.jsonl` });

/** Hooks that fail on every event they are on (preToolUse only on its marker, so the other calls run). */
const FAILING = {
  version: 1,
  hooks: {
    errorOccurred: [keep('error')],
    sessionEnd: [keep('end')],
    sessionStart: [{ bash: 'cat > /dev/null; exit 1' }],
    userPromptSubmitted: [{ bash: 'cat > /dev/null; exit 1' }],
    preToolUse: [{ bash: 'if grep -q pre-crash; then exit 1; fi' }],
    postToolUse: [{ bash: 'cat > /dev/null; exit 1' }],
    agentStop: [{ bash: 'cat > /dev/null; exit 1' }],
  },
};
/** MCP servers that cannot start, where Copilot CLI reads them: the project's `.mcp.json` and the user's config. */
const BROKEN_MCP = { mcpServers: { broken: { type: 'local', command: 'no-such-mcp-server', args: [], tools: ['*'] } } };

const lines = (file: string): Record<string, unknown>[] =>
  existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>) : [];

function withFile(config: object): AgentProject {
  const project = makeProject([]);
  execFileSync('git', ['init', '-q'], { cwd: project.dir, env: project.env });
  mkdirSync(join(project.dir, '.github', 'hooks'), { recursive: true });
  writeFileSync(join(project.dir, '.github', 'hooks', 'errors.json'), `${JSON.stringify(config, null, 2)}\n`);
  writeFileSync(join(project.dir, '.mcp.json'), JSON.stringify(BROKEN_MCP));
  mkdirSync(join(project.home, '.copilot'), { recursive: true });
  writeFileSync(join(project.home, '.copilot', 'mcp-config.json'), JSON.stringify(BROKEN_MCP));
  return project;
}

async function runOurs(project: AgentProject, model: ScriptedModel): Promise<void> {
  const bash = defineTool({
    name: 'bash',
    description: 'Runs a shell command.',
    input: z.object({ command: z.string() }),
    execute: (input) => execFileSync('/bin/sh', ['-c', input.command], { cwd: project.dir, env: project.env, encoding: 'utf8' }),
  });
  const agent = AgentBuilder.new().withModel(model).withTools(bash).withHooksFrom({ projectDir: project.dir, trust: 'all', homeDir: false, userDir: false, copilot: true, hookmd: false }).build();
  const previous = process.cwd();
  process.chdir(project.dir);
  try {
    const session = agent.session();
    await session.run('Run the commands.').catch(() => undefined);
    await session.close();
  } finally {
    process.chdir(previous);
  }
}

describe(`copilot ${pinOf('copilot').version}: errorOccurred is not fired outside a model call, nor ours`, () => {
  const TURNS: readonly Turn[] = [{ shell: 'echo failing-tool >&2; exit 3' }, { shell: 'touch pre-crash.txt' }, { shell: 'echo after' }, { text: 'done' }];
  let copilot: { project: AgentProject; mock: MockServer; run: AgentRun };
  let ours: AgentProject;
  beforeAll(async () => {
    const project = withFile(FAILING);
    const mock = await startMockServer(copilotDriver.api(), TURNS);
    copilot = { project, mock, run: await copilotDriver.run(project, mock, 'Run the commands.', 120_000) };
    ours = withFile(FAILING);
    await runOurs(ours, new ScriptedModel(TURNS.map((t) => ('shell' in t ? { toolCalls: [{ name: 'bash', args: { command: t.shell } }] } : t.text))));
  }, 300_000);
  afterAll(async () => {
    await copilot?.mock.close();
    copilot?.project.remove();
    ours?.remove();
  });

  const explain = (): string => `copilot: exit ${copilot.run.exitCode}, remaining ${copilot.mock.remaining()}\n--- log\n${copilotDriver.log?.(copilot.project).slice(-4000)}`;

  it('Copilot ran the whole script, with the failing hooks, tool and MCP servers', () => {
    expect(copilot.run.timedOut, explain()).toBe(false);
    expect(copilot.mock.remaining(), explain()).toBe(0);
    expect(copilotDriver.log?.(copilot.project), explain()).toMatch(/MCP server connection failed/);
    expect(copilotDriver.log?.(copilot.project), explain()).toMatch(/Hook command failed with code 1/);
  });

  it('errorOccurred did not fire, in Copilot or here; the session ended "complete"', () => {
    expect(lines(join(copilot.project.dir, 'error.jsonl')), explain()).toEqual([]);
    expect(lines(join(ours.dir, 'error.jsonl')), explain()).toEqual([]);
    expect(lines(join(copilot.project.dir, 'end.jsonl')).map((p) => p.reason), explain()).toEqual(['complete']);
    expect(lines(join(ours.dir, 'end.jsonl')).map((p) => p.reason), explain()).toEqual(['complete']);
  });
});

describe(`copilot ${pinOf('copilot').version}: errorOccurred on a model call that fails with a server error, retried`, () => {
  let copilot: { project: AgentProject; mock: MockServer; run: AgentRun };
  let ours: AgentProject;
  beforeAll(async () => {
    const project = withFile({ version: 1, hooks: { errorOccurred: [keep('error')], sessionEnd: [keep('end')] } });
    const base = copilotDriver.api();
    // Every model call of the main loop fails with a 500, which Copilot retries before it gives up.
    const failing: MockApi = {
      ...base,
      handle: (request, res, next) => {
        if (request.method !== 'POST' || !/\/messages$/.test(request.path.split('?')[0] ?? '')) return base.handle(request, res, next);
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'RULE-SERVER-ERROR' } }));
        return { main: true };
      },
    };
    const mock = await startMockServer(failing, [{ text: 'never' }]);
    copilot = { project, mock, run: await copilotDriver.run(project, mock, 'Say hi.', 180_000) };
    ours = withFile({ version: 1, hooks: { errorOccurred: [keep('error')], sessionEnd: [keep('end')] } });
    await runOurs(
      ours,
      new ScriptedModel(() => {
        throw Object.assign(new Error('RULE-SERVER-ERROR'), { status: 500 });
      }),
    );
  }, 300_000);
  afterAll(async () => {
    await copilot?.mock.close();
    copilot?.project.remove();
    ours?.remove();
  });

  it('Copilot fires it on every failed attempt, each "model_call" and recoverable, the last too; the session ends "error"', () => {
    const theirs = lines(join(copilot.project.dir, 'error.jsonl'));
    const explain = `${JSON.stringify(theirs.map((p) => [p.errorContext, p.recoverable]))}, exit ${copilot.run.exitCode}`;
    expect(copilot.run.exitCode, explain).toBe(1);
    expect(theirs.length, explain).toBeGreaterThan(1);
    for (const payload of theirs) expect([payload.errorContext, payload.recoverable], explain).toEqual(['model_call', true]);
    expect(lines(join(copilot.project.dir, 'end.jsonl')).map((p) => p.reason), explain).toEqual(['error']);
  });

  it('ours fires it once, on the call that ended the run, as Copilot names it; the session ends "error", as Copilot’s does', () => {
    const mine = lines(join(ours.dir, 'error.jsonl'));
    expect(mine.map((p) => [p.errorContext, p.recoverable])).toEqual([['model_call', true]]);
    expect(lines(join(ours.dir, 'end.jsonl')).map((p) => p.reason)).toEqual(['error']);
  });
});
