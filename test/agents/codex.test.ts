import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codexDriver } from './drivers/codex.js';
import { bodyText, makeProject, pinOf, type AgentProject, type AgentRun } from './support/harness.js';
import { startMockServer, type MockServer } from './support/mock-server.js';
import { startServe, type ServeProcess } from './support/serve.js';
import { defineAgentSuite } from './support/suite.js';

defineAgentSuite(codexDriver);

/** One headless Codex run whose PreToolUse hook is the line `bridge --install codex --http` writes. */
interface ServedSession {
  project: AgentProject;
  mock: MockServer;
  server: ServeProcess;
  run: AgentRun;
}

/** With `stopped`, the server is gone before Codex starts: the line falls back to the command bridge. */
async function servedSession(stopped: boolean): Promise<ServedSession> {
  const project = makeProject(['guard-shell']);
  const server = await startServe(project);
  const mock = await startMockServer(codexDriver.api(), [{ shell: 'rm -rf build' }, { shell: 'echo served > served.txt' }, { text: 'Done.' }]);
  codexDriver.configure(project, mock, { events: ['PreToolUse'], timeoutSec: 30 });
  project.cli('bridge', '--install', 'codex', '--http', '--port', String(server.port), '--events', 'PreToolUse', '--timeout', '30');
  if (stopped) await server.stop();
  const run = await codexDriver.run({ ...project, env: { ...project.env, AGENT_HOOKS_TOKEN: server.token } }, mock, 'Clean the build folder, then write served.txt.', 90_000);
  return { project, mock, server, run };
}

const explain = (s: ServedSession): string =>
  `exit ${s.run.exitCode} after ${Math.round(s.run.durationMs)} ms\n--- stderr\n${s.run.stderr.slice(-3000)}\n--- server\n${s.server.lines.map((l) => JSON.stringify(l)).join('\n')}`;

for (const stopped of [false, true]) {
  describe(`codex ${pinOf('codex').version}, its hook line posting to agent-hooks serve${stopped ? ', with no server running: the command bridge answers' : ''}`, () => {
    let s: ServedSession;
    beforeAll(async () => {
      s = await servedSession(stopped);
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
      const answered = s.server.lines.filter((l) => l.msg === 'hook request' && l.agent === 'codex');
      if (stopped) expect(answered, explain(s)).toEqual([]);
      else expect(answered, explain(s)).toContainEqual(expect.objectContaining({ event: 'PreToolUse', tool: 'Bash', status: 200, decision: 'block' }));
    });

    it('allows: the next command ran', () => {
      expect(existsSync(join(s.project.dir, 'served.txt')), explain(s)).toBe(true);
      if (!stopped) expect(s.server.lines.filter((l) => l.msg === 'hook request' && l.agent === 'codex' && l.status === 200), explain(s)).toHaveLength(2);
      expect(s.mock.remaining(), explain(s)).toBe(0);
    });
  });
}
