/**
 * What each agent's own hooks are sent, by the real Copilot CLI, Gemini CLI and Codex CLI and by an agent-hooks agent
 * loading the same file: a hook on every event of the agent records its stdin; one headless run plays a shell command
 * and an answer. The events that fired and the payloads' keys are what docs/other-agents.md's event-by-event tables
 * say; the fields below are held to the binary's.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool } from '../../src/index.js';
import { codexDriver, writeConfig } from './drivers/codex.js';
import { copilotDriver } from './drivers/copilot.js';
import { geminiDriver, writeUserSettings } from './drivers/gemini.js';
import { makeProject, pinOf, type AgentDriver, type AgentName, type AgentProject, type AgentRun } from './support/harness.js';
import { startMockServer, type MockServer, type Turn } from './support/mock-server.js';

const TURNS: readonly Turn[] = [{ shell: 'echo hello' }, { text: 'done' }];
const PROMPT = 'Say hello.';

/** A hook command that appends its stdin, one line, to `payloads/EVENT.jsonl` in the project. */
const records = (event: string): string => `mkdir -p payloads; (cat; echo) >> payloads/${event}.jsonl`;

interface Case {
  readonly driver: AgentDriver;
  readonly file: string;
  readonly events: readonly string[];
  readonly config: (events: readonly string[]) => object;
  readonly tool: string;
  readonly sources: { readonly copilot?: true; readonly gemini?: true; readonly codex?: true };
  readonly prepare: (project: AgentProject, mock: MockServer) => void;
  /** Each event's fields that must be the binary's: by value, or by type with a `?` after the name. */
  readonly held: Readonly<Record<string, readonly string[]>>;
}

const CASES: readonly Case[] = [
  {
    driver: copilotDriver,
    file: '.github/hooks/payloads.json',
    events: ['sessionStart', 'sessionEnd', 'userPromptSubmitted', 'preToolUse', 'postToolUse', 'agentStop', 'errorOccurred', 'permissionRequest', 'subagentStart', 'subagentStop', 'preCompact', 'notification'],
    config: (events) => ({ version: 1, hooks: Object.fromEntries(events.map((e) => [e, [{ type: 'command', bash: records(e) }]])) }),
    tool: 'bash',
    sources: { copilot: true },
    held: { sessionEnd: ['reason'], sessionStart: ['source'], agentStop: ['stopReason', 'stop_hook_active'] },
    prepare: (project) => execFileSync('git', ['init', '-q'], { cwd: project.dir, env: project.env }),
  },
  {
    driver: geminiDriver,
    file: '.gemini/settings.json',
    events: ['SessionStart', 'SessionEnd', 'BeforeAgent', 'AfterAgent', 'BeforeModel', 'BeforeToolSelection', 'AfterModel', 'BeforeTool', 'AfterTool', 'PreCompress', 'Notification'],
    config: (events) => ({ hooks: Object.fromEntries(events.map((e) => [e, [{ hooks: [{ type: 'command', command: records(e) }] }]])) }),
    tool: 'run_shell_command',
    sources: { gemini: true },
    held: { SessionEnd: ['reason'], SessionStart: ['source'] },
    prepare: (project) => writeUserSettings(project),
  },
  {
    driver: codexDriver,
    file: '.codex/hooks.json',
    events: ['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PreModelRequest', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact'],
    config: (events) => ({ hooks: Object.fromEntries(events.map((e) => [e, [{ hooks: [{ type: 'command', command: records(e), timeout: 30 }] }]])) }),
    tool: 'Bash',
    sources: { codex: true },
    held: { SessionEnd: ['reason'], PreModelRequest: ['kind', 'attempt_number', 'request_id?', 'thread_id?'] },
    prepare: (project, mock) => writeConfig(project, mock),
  },
];

type Payloads = Record<string, Record<string, unknown>[]>;

function payloadsIn(dir: string, events: readonly string[]): Payloads {
  const out: Payloads = {};
  for (const event of events) {
    const file = join(dir, 'payloads', `${event}.jsonl`);
    if (!existsSync(file)) continue;
    out[event] = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }
  return out;
}

function projectFor(c: Case): AgentProject {
  const project = makeProject([]);
  mkdirSync(join(project.dir, c.file, '..'), { recursive: true });
  writeFileSync(join(project.dir, c.file), `${JSON.stringify(c.config(c.events), null, 2)}\n`);
  return project;
}

async function runOurs(c: Case, project: AgentProject): Promise<Payloads> {
  const model = new ScriptedModel(TURNS.map((t) => ('shell' in t ? { toolCalls: [{ name: c.tool, args: { command: t.shell } }] } : t.text)));
  const shell = defineTool({
    name: c.tool,
    description: 'Runs a shell command.',
    input: z.object({ command: z.string() }),
    execute: (input) => execFileSync('/bin/sh', ['-c', input.command], { cwd: project.dir, env: project.env, encoding: 'utf8' }),
  });
  const agent = AgentBuilder.new()
    .withModel(model)
    .withTools(shell)
    .withHooksFrom({ projectDir: project.dir, trust: 'all', homeDir: false, userDir: false, hookmd: false, ...c.sources })
    .build();
  const previous = process.cwd();
  process.chdir(project.dir);
  try {
    const session = agent.session();
    await session.run(PROMPT);
    await session.close();
  } finally {
    process.chdir(previous);
  }
  return payloadsIn(project.dir, c.events);
}

const keysOf = (payloads: Payloads): Record<string, string[]> => Object.fromEntries(Object.entries(payloads).map(([e, list]) => [e, Object.keys(list[0] ?? {}).sort()]));

const runs = new Map<AgentName, { theirs: Payloads; ours: Payloads; run: AgentRun }>();

for (const c of CASES) {
  const name: AgentName = c.driver.name;
  describe(`${name} ${pinOf(name).version}: the payloads of its own hooks, there and here`, () => {
    let project: AgentProject;
    let mine: AgentProject;
    let mock: MockServer;
    beforeAll(async () => {
      project = projectFor(c);
      mock = await startMockServer(c.driver.api(), TURNS);
      c.prepare(project, mock);
      const run = await c.driver.run(project, mock, PROMPT, 90_000);
      mine = projectFor(c);
      runs.set(name, { theirs: payloadsIn(project.dir, c.events), ours: await runOurs(c, mine), run });
      if (process.env.AGENT_HOOKS_E2E_PAYLOADS !== undefined) {
        writeFileSync(join(process.env.AGENT_HOOKS_E2E_PAYLOADS, `${name}.json`), JSON.stringify({ theirs: runs.get(name)!.theirs, ours: runs.get(name)!.ours, theirKeys: keysOf(runs.get(name)!.theirs), ourKeys: keysOf(runs.get(name)!.ours) }, null, 2));
      }
    }, 200_000);
    afterAll(async () => {
      await mock?.close();
      project?.remove();
      mine?.remove();
    });

    const seen = () => runs.get(name)!;
    const explain = () => JSON.stringify({ theirs: keysOf(seen().theirs), ours: keysOf(seen().ours), stderr: seen().run.stderr.slice(-2000) }, null, 1);

    it(`${name} ran the whole script`, () => {
      expect(seen().run.timedOut, explain()).toBe(false);
      expect(mock.remaining(), explain()).toBe(0);
    });

    for (const [event, fields] of Object.entries(c.held)) {
      it(`${event}: ${fields.join(', ')} as ${name} sends ${fields.length === 1 ? 'it' : 'them'}`, () => {
        const theirs = seen().theirs[event]?.[0];
        const ours = seen().ours[event]?.[0];
        expect(theirs, explain()).toBeDefined();
        expect(ours, explain()).toBeDefined();
        for (const field of fields) {
          const value = (p: Record<string, unknown>) => (field.endsWith('?') ? typeof p[field.slice(0, -1)] : p[field]);
          expect(value(ours!), `${field}\n${explain()}`).toEqual(value(theirs!));
        }
      });
    }
  });
}
