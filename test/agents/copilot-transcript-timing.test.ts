/**
 * When Copilot CLI writes the session record its agentStop hooks are pointed at (`transcriptPath`,
 * `~/.copilot/session-state/<session>/events.jsonl`), over a session of two prompts (`copilot -p`, then `copilot -p
 * --resume=<session>`). A hook that reads the file as it starts, and again until this turn's answer is there, records
 * what it found: what a hook can rely on, as docs/other-agents.md says.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCopilot } from './drivers/copilot.js';
import { makeProject, pinOf, type AgentProject } from './support/harness.js';
import { startMockServer, type MockServer } from './support/mock-server.js';

/**
 * What the agentStop hook records, one JSON line per call: the path it was given, whether the file was there when it
 * started and which of the two answers it held then, and after how many milliseconds (polling every 100 ms, up to
 * 15 s) this turn's answer was in it.
 */
const PROBE = `node -e '
const fs = require("node:fs");
const path = JSON.parse(fs.readFileSync(0, "utf8")).transcriptPath;
const read = () => { try { return fs.readFileSync(path, "utf8"); } catch { return undefined; } };
const current = process.env.TURN_ANSWER_FILE && fs.readFileSync(process.env.TURN_ANSWER_FILE, "utf8").trim();
const first = read();
const start = Date.now();
let found;
while (Date.now() - start < 15000) { if ((read() ?? "").includes(current)) { found = Date.now() - start; break; } Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100); }
fs.appendFileSync("probe.jsonl", JSON.stringify({ path, current, existedAtStart: first !== undefined, atStart: { firstAnswer: (first ?? "").includes("FIRST-ANSWER"), secondAnswer: (first ?? "").includes("SECOND-ANSWER") }, foundAfterMs: found }) + "\\n");
'`;

interface Probe {
  readonly path: string;
  readonly existedAtStart: boolean;
  readonly atStart: { readonly firstAnswer: boolean; readonly secondAnswer: boolean };
  readonly foundAfterMs: number | undefined;
}

describe(`copilot ${pinOf('copilot').version}: the agentStop transcript over a session of two prompts`, () => {
  let project: AgentProject;
  let mock: MockServer;
  let session: string | undefined;
  let probes: Probe[] = [];
  beforeAll(async () => {
    project = makeProject([]);
    execFileSync('git', ['init', '-q'], { cwd: project.dir, env: project.env });
    mkdirSync(join(project.dir, '.github', 'hooks'), { recursive: true });
    const hooks = { agentStop: [{ bash: PROBE, timeoutSec: 30, env: { TURN_ANSWER_FILE: join(project.dir, 'answer.txt') } }] };
    writeFileSync(join(project.dir, '.github', 'hooks', 'probe.json'), `${JSON.stringify({ version: 1, hooks }, null, 2)}\n`);
    mock = await startMockServer((await import('./drivers/copilot.js')).copilotDriver.api(), [{ text: 'FIRST-ANSWER' }, { text: 'SECOND-ANSWER' }]);
    writeFileSync(join(project.dir, 'answer.txt'), 'FIRST-ANSWER');
    const first = await runCopilot(project, mock, 'First prompt.', 120_000);
    session = /"sessionId":"([\w-]+)"/.exec(first.stdout)?.[1];
    writeFileSync(join(project.dir, 'answer.txt'), 'SECOND-ANSWER');
    await runCopilot(project, mock, 'Second prompt.', 120_000, [`--resume=${session}`]);
    probes = readFileSync(join(project.dir, 'probe.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Probe);
  }, 300_000);
  afterAll(async () => {
    await mock?.close();
    project?.remove();
  });

  const explain = (): string => JSON.stringify({ session, probes }, null, 2);

  it('names ~/.copilot/session-state/<session>/events.jsonl on both prompts', () => {
    expect(session, explain()).toBeDefined();
    expect(probes, explain()).toHaveLength(2);
    for (const probe of probes) expect(probe.path, explain()).toBe(join(project.home, '.copilot', 'session-state', session!, 'events.jsonl'));
  });

  it('this turn’s answer is not in it when the hook starts', () => {
    expect(probes[0]!.atStart.firstAnswer, explain()).toBe(false);
    expect(probes[1]!.atStart.secondAnswer, explain()).toBe(false);
  });

  it('on the second prompt the file is there when the hook starts, with the first prompt’s record', () => {
    expect(probes[1]!.existedAtStart, explain()).toBe(true);
    expect(probes[1]!.atStart.firstAnswer, explain()).toBe(true);
  });

  it('this turn’s answer is written while the hook runs: a hook that waits for it finds it', () => {
    for (const probe of probes) expect(probe.foundAfterMs, explain()).toBeLessThan(15_000);
  });
});
