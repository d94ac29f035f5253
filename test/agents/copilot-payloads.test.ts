/**
 * What GitHub Copilot CLI sends the hooks of its own `.github/hooks/*.json`, under camelCase and under PascalCase
 * event names, and what an agent-hooks agent loading the same file (`withHooksFrom({ copilot: true })`) sends them:
 * the same keys, in the same order, on every event both fire. And the bridge, run by Copilot on its
 * Claude-compatible SessionStart (`source: "new"`), runs the project's hooks.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool } from '../../src/index.js';
import { copilotDriver } from './drivers/copilot.js';
import { makeProject, pinOf, type AgentProject, type AgentRun } from './support/harness.js';
import { startMockServer, type MockApi, type MockServer, type Turn } from './support/mock-server.js';

const CAMEL = ['sessionStart', 'userPromptSubmitted', 'preToolUse', 'permissionRequest', 'postToolUse', 'agentStop', 'sessionEnd'];
const PASCAL = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop', 'SessionEnd'];
/** What we send and Copilot does not: the camelCase stop flag beside the snake_case one, for hooks written against its earlier payloads. */
const ONE_SIDE_ONLY = new Set(['stopHookActive']);

/** A hook command that keeps its payload as `<tag>-<event>-<ns>.json` in the evidence folder. */
const keep = (tag: string, event: string): string => `cat > "$AGENT_HOOKS_EVIDENCE/${tag}-${event}-$(date +%s%N).json"`;

function withFile(): AgentProject {
  const project = makeProject(['context-session']);
  execFileSync('git', ['init', '-q'], { cwd: project.dir, env: project.env });
  mkdirSync(join(project.dir, '.github', 'hooks'), { recursive: true });
  const hooks: Record<string, unknown[]> = {};
  for (const e of CAMEL) hooks[e] = [{ bash: keep('c', e) }];
  for (const e of PASCAL) hooks[e] = [{ bash: keep('p', e) }];
  // The bridge on Copilot's Claude-compatible SessionStart: the project's pre-session hook must run.
  hooks.SessionStart!.push({ bash: `"${join(project.dir, 'node_modules', '.bin', 'agent-hooks')}" bridge --from copilot --event SessionStart` });
  writeFileSync(join(project.dir, '.github', 'hooks', 'payloads.json'), `${JSON.stringify({ version: 1, hooks }, null, 2)}\n`);
  return project;
}

/** The first payload each hook kept, by `<tag>-<event>`, and how many times each fired. */
function kept(project: AgentProject): { first: Map<string, Record<string, unknown>>; count: Map<string, number> } {
  const first = new Map<string, Record<string, unknown>>();
  const count = new Map<string, number>();
  const files = readdirSync(project.evidence).filter((f) => /^[cp]-\w+-\d+\.json$/.test(f));
  for (const file of files.sort((a, b) => Number(BigInt(a.split('-')[2]!.slice(0, -5)) - BigInt(b.split('-')[2]!.slice(0, -5))))) {
    const key = file.split('-').slice(0, 2).join('-');
    count.set(key, (count.get(key) ?? 0) + 1);
    if (!first.has(key)) first.set(key, JSON.parse(readFileSync(join(project.evidence, file), 'utf8')) as Record<string, unknown>);
  }
  return { first, count };
}

const TURNS: readonly Turn[] = [{ shell: 'touch one.txt' }, { shell: 'touch two.txt' }, { text: 'Done.' }];

describe(`copilot ${pinOf('copilot').version}: the payloads it sends its hooks, and ours`, () => {
  let copilot: { project: AgentProject; mock: MockServer; run: AgentRun };
  let ours: AgentProject;
  beforeAll(async () => {
    const project = withFile();
    const mock = await startMockServer(copilotDriver.api(), TURNS);
    copilot = { project, mock, run: await copilotDriver.run(project, mock, 'Touch the files.', 120_000) };
    ours = withFile();
    const model = new ScriptedModel(TURNS.map((t) => ('shell' in t ? { toolCalls: [{ name: 'bash', args: { command: t.shell } }] } : t.text)));
    const bash = defineTool({
      name: 'bash',
      description: 'Runs a shell command.',
      input: z.object({ command: z.string() }),
      execute: (input) => execFileSync('/bin/sh', ['-c', input.command], { cwd: ours.dir, env: ours.env, encoding: 'utf8' }),
    });
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(bash)
      .withHooksFrom({ projectDir: ours.dir, trust: 'all', homeDir: false, userDir: false, copilot: true, hookmd: false })
      .build();
    const previous = process.cwd();
    const evidence = process.env.AGENT_HOOKS_EVIDENCE;
    process.env.AGENT_HOOKS_EVIDENCE = ours.evidence;
    process.chdir(ours.dir);
    try {
      const session = agent.session();
      await session.run('Touch the files.');
      await session.close();
    } finally {
      process.chdir(previous);
      if (evidence === undefined) delete process.env.AGENT_HOOKS_EVIDENCE;
      else process.env.AGENT_HOOKS_EVIDENCE = evidence;
    }
  }, 300_000);
  afterAll(async () => {
    await copilot?.mock.close();
    copilot?.project.remove();
    ours?.remove();
  });

  const explain = (): string => `copilot: exit ${copilot.run.exitCode}\n--- log\n${copilotDriver.log?.(copilot.project).slice(-4000)}`;

  it('Copilot ran the whole script', () => {
    expect(copilot.run.timedOut, explain()).toBe(false);
    expect(copilot.mock.remaining(), explain()).toBe(0);
  });

  it('runs the bridge on its Claude-compatible SessionStart (source "new"): the project’s pre-session hook runs', () => {
    expect(copilot.project.evidenceOf('context-session'), explain()).toHaveLength(1);
    expect(copilot.project.evidenceOf('context-session')[0], explain()).toMatchObject({ source: 'startup' });
  });

  it.each([...CAMEL.map((e) => `c-${e}`), ...PASCAL.map((e) => `p-${e}`)])('%s: the same keys, in the same order, with values of the same types', (key) => {
    const theirs = kept(copilot.project).first.get(key);
    const mine = kept(ours).first.get(key);
    expect(theirs, `Copilot sent no ${key}\n${explain()}`).toBeDefined();
    expect(mine, `our agent sent no ${key}`).toBeDefined();
    const shape = (p: Record<string, unknown>) => Object.entries(p).filter(([k]) => !ONE_SIDE_ONLY.has(k)).map(([k, v]) => `${k}:${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v}`);
    expect(shape(mine!), JSON.stringify({ theirs, mine })).toEqual(shape(theirs!));
    for (const field of ['tool_name', 'toolName', 'source', 'hookName', 'initialPrompt', 'initial_prompt', 'stop_reason', 'stopReason']) {
      if (field in theirs!) expect(mine![field], field).toEqual(theirs![field]);
    }
    if (typeof theirs!.timestamp === 'string') expect(mine!.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('fires permissionRequest on every tool call a preToolUse hook let through, though every tool is allowed', () => {
    expect(kept(copilot.project).count.get('c-permissionRequest'), explain()).toBe(2);
    expect(kept(ours).count.get('c-permissionRequest')).toBe(2);
  });

});

describe(`copilot ${pinOf('copilot').version}: errorOccurred on a failed model call, and ours`, () => {
  let copilot: { project: AgentProject; mock: MockServer; run: AgentRun };
  let ours: AgentProject;
  const withErrorHook = (): AgentProject => {
    const project = makeProject([]);
    execFileSync('git', ['init', '-q'], { cwd: project.dir, env: project.env });
    mkdirSync(join(project.dir, '.github', 'hooks'), { recursive: true });
    writeFileSync(join(project.dir, '.github', 'hooks', 'error.json'), `${JSON.stringify({ version: 1, hooks: { errorOccurred: [{ bash: keep('c', 'errorOccurred') }] } }, null, 2)}\n`);
    return project;
  };
  beforeAll(async () => {
    const project = withErrorHook();
    const base = copilotDriver.api();
    // Every model call is refused as a bad request, which Copilot does not retry.
    const refusing: MockApi = {
      ...base,
      handle: (request, res, next) => {
        if (request.method !== 'POST' || !/messages/.test(request.path)) return base.handle(request, res, next);
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'RULE-BAD-REQUEST' } }));
        return { main: true };
      },
    };
    const mock = await startMockServer(refusing, [{ text: 'never' }]);
    copilot = { project, mock, run: await copilotDriver.run(project, mock, 'Say hi.', 120_000) };
    ours = withErrorHook();
    const failing = new ScriptedModel(() => {
      throw Object.assign(new Error('RULE-BAD-REQUEST'), { status: 400 });
    });
    const agent = AgentBuilder.new().withModel(failing).withHooksFrom({ projectDir: ours.dir, trust: 'all', homeDir: false, userDir: false, copilot: true, hookmd: false }).build();
    const previous = process.cwd();
    const evidence = process.env.AGENT_HOOKS_EVIDENCE;
    process.env.AGENT_HOOKS_EVIDENCE = ours.evidence;
    process.chdir(ours.dir);
    try {
      await agent.run('Say hi.').catch(() => undefined);
    } finally {
      process.chdir(previous);
      if (evidence === undefined) delete process.env.AGENT_HOOKS_EVIDENCE;
      else process.env.AGENT_HOOKS_EVIDENCE = evidence;
    }
  }, 300_000);
  afterAll(async () => {
    await copilot?.mock.close();
    copilot?.project.remove();
    ours?.remove();
  });

  it('the same keys in the same order — errorContext "model_call", recoverable, the error’s message, name and stack', () => {
    const theirs = kept(copilot.project).first.get('c-errorOccurred');
    const mine = kept(ours).first.get('c-errorOccurred');
    const explain = JSON.stringify({ theirs, mine, exit: copilot.run.exitCode });
    expect(theirs, explain).toBeDefined();
    expect(mine, explain).toBeDefined();
    expect(Object.keys(mine!), explain).toEqual(Object.keys(theirs!));
    expect(mine!.errorContext, explain).toBe(theirs!.errorContext);
    expect(mine!.recoverable, explain).toBe(theirs!.recoverable);
    expect(Object.keys(mine!.error as object), explain).toEqual(Object.keys(theirs!.error as object));
  });
});

describe(`copilot ${pinOf('copilot').version}: the bridge installed for VS Code, run by Copilot`, () => {
  let copilot: { project: AgentProject; mock: MockServer; run: AgentRun };
  beforeAll(async () => {
    // The pre-session hook records what it got; Copilot CLI runs VS Code's file, with its Claude-compatible payloads.
    const project = makeProject(['context-session']);
    execFileSync('git', ['init', '-q'], { cwd: project.dir, env: project.env });
    project.cli('bridge', '--install', 'vscode', '--events', 'SessionStart,Stop', '--timeout', '30');
    const mock = await startMockServer(copilotDriver.api(), TURNS);
    copilot = { project, mock, run: await copilotDriver.run(project, mock, 'Touch the files.', 120_000) };
  }, 300_000);
  afterAll(async () => {
    await copilot?.mock.close();
    copilot?.project.remove();
  });

  it('`--from vscode` reads its SessionStart (source "new") and Stop (stop_reason "end_turn"): the hooks run, no bridge fails', () => {
    const explain = `exit ${copilot.run.exitCode}\n${copilotDriver.log?.(copilot.project).slice(-4000)}`;
    expect(copilot.mock.remaining(), explain).toBe(0);
    expect(copilot.project.evidenceOf('context-session'), explain).toHaveLength(1);
    expect(copilot.project.evidenceOf('context-session')[0], explain).toMatchObject({ source: 'startup' });
    expect(copilotDriver.log?.(copilot.project) ?? '', explain).not.toMatch(/Hook command failed|must be one of/);
  });
});
