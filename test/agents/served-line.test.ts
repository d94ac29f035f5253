/**
 * The line `bridge --install AGENT --http` writes, inside the real agents whose hooks can only be commands: with
 * `agent-hooks serve` running, its guard denies through the server; with none, through the command bridge it falls
 * back to.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codexDriver } from './drivers/codex.js';
import { geminiDriver } from './drivers/gemini.js';
import { bodyText, makeProject, pinOf, type AgentDriver, type AgentProject, type AgentRun } from './support/harness.js';
import { startMockServer, type MockServer } from './support/mock-server.js';
import { startServe, type ServeProcess } from './support/serve.js';

/** One headless run whose PreToolUse hook is the served line. */
interface ServedSession {
  project: AgentProject;
  mock: MockServer;
  server: ServeProcess;
  run: AgentRun;
}

/** With `stopped`, the server is gone before the agent starts: the line falls back to the command bridge. */
async function servedSession(driver: AgentDriver, stopped: boolean): Promise<ServedSession> {
  const project = makeProject(['guard-shell']);
  const server = await startServe(project);
  const mock = await startMockServer(driver.api(), [{ shell: 'rm -rf build' }, { shell: 'echo served > served.txt' }, { text: 'Done.' }]);
  // The driver writes the agent's own settings (the mock as its model) and the command bridge; --http replaces it.
  await driver.configure(project, mock, { events: ['PreToolUse'], timeoutSec: 30 });
  project.cli('bridge', '--install', driver.name, '--http', '--port', String(server.port), '--events', 'PreToolUse', '--timeout', '30');
  if (stopped) await server.stop();
  const run = await driver.run({ ...project, env: { ...project.env, AGENT_HOOKS_TOKEN: server.token } }, mock, 'Clean the build folder, then write served.txt.', 90_000);
  return { project, mock, server, run };
}

const explain = (s: ServedSession): string =>
  `exit ${s.run.exitCode} after ${Math.round(s.run.durationMs)} ms\n--- stderr\n${s.run.stderr.slice(-3000)}\n--- server\n${s.server.lines.map((l) => JSON.stringify(l)).join('\n')}`;

for (const driver of [codexDriver, geminiDriver]) {
  for (const stopped of [false, true]) {
    describe(`${driver.name} ${pinOf(driver.name).version}, its hook line posting to agent-hooks serve${stopped ? ', with no server running: the command bridge answers' : ''}`, () => {
      let s: ServedSession;
      beforeAll(async () => {
        s = await servedSession(driver, stopped);
      }, 150_000);
      afterAll(async () => {
        await s?.server.stop();
        await s?.mock.close();
        s?.project.remove();
      });

      it('denies: the refused command did not run, and the model got the hook’s reason', () => {
        expect(s.run.timedOut, explain(s)).toBe(false);
        expect(existsSync(join(s.project.dir, 'build', 'keep.txt')), explain(s)).toBe(true);
        expect(s.mock.mainRequests().slice(1).map((r) => bodyText(r.body)).join('\n'), explain(s)).toContain('E2E-DENY');
        const answered = s.server.lines.filter((l) => l.msg === 'hook request' && l.agent === driver.name);
        if (stopped) expect(answered, explain(s)).toEqual([]);
        else expect(answered, explain(s)).toContainEqual(expect.objectContaining({ status: 200, decision: 'block' }));
      });

      it('allows: the next command ran', () => {
        expect(existsSync(join(s.project.dir, 'served.txt')), explain(s)).toBe(true);
        if (!stopped) expect(s.server.lines.filter((l) => l.msg === 'hook request' && l.agent === driver.name && l.status === 200), explain(s)).toHaveLength(2);
        expect(s.mock.remaining(), explain(s)).toBe(0);
      });
    });
  }
}
