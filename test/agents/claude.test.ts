import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeDriver } from './drivers/claude.js';
import { bodyText, makeProject, pinOf, type AgentProject, type AgentRun } from './support/harness.js';
import { startMockServer, type MockServer } from './support/mock-server.js';
import { startServe, type ServeProcess } from './support/serve.js';
import { defineAgentSuite } from './support/suite.js';

defineAgentSuite(claudeDriver);

/** One headless Claude Code run whose PreToolUse hooks are http hooks answered by `agent-hooks serve`. */
interface ServedSession {
  project: AgentProject;
  mock: MockServer;
  server: ServeProcess;
  run: AgentRun;
}

async function servedSession(token: (real: string) => string): Promise<ServedSession> {
  const project = makeProject(['guard-shell']);
  const server = await startServe(project);
  const mock = await startMockServer(claudeDriver.api(), [{ shell: 'rm -rf build' }, { shell: 'echo served > served.txt' }, { text: 'Done.' }]);
  project.cli('bridge', '--install', 'claude', '--http', '--port', String(server.port), '--events', 'PreToolUse', '--timeout', '30');
  const run = await claudeDriver.run({ ...project, env: { ...project.env, AGENT_HOOKS_TOKEN: token(server.token) } }, mock, 'Clean the build folder, then write served.txt.', 90_000);
  return { project, mock, server, run };
}

const explain = (s: ServedSession): string =>
  `exit ${s.run.exitCode} after ${Math.round(s.run.durationMs)} ms\n--- stderr\n${s.run.stderr.slice(-3000)}\n--- server\n${s.server.lines.map((l) => JSON.stringify(l)).join('\n')}`;

describe(`claude ${pinOf('claude').version}, through agent-hooks serve (http hooks)`, () => {
  describe('with the token', () => {
    let s: ServedSession;
    beforeAll(async () => {
      s = await servedSession((real) => real);
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
      expect(s.server.lines, explain(s)).toContainEqual(expect.objectContaining({ msg: 'hook request', event: 'PreToolUse', tool: 'Bash', status: 200, decision: 'block' }));
    });

    it('allows: the next command ran, answered by the same server', () => {
      expect(existsSync(join(s.project.dir, 'served.txt')), explain(s)).toBe(true);
      expect(s.server.lines.filter((l) => l.msg === 'hook request' && l.status === 200)).toHaveLength(2);
      expect(s.mock.remaining(), explain(s)).toBe(0);
    });

    it('shuts down on SIGTERM with exit 0', async () => {
      expect(await s.server.stop()).toBe(0);
    });
  });

  describe('with a wrong token', () => {
    let s: ServedSession;
    beforeAll(async () => {
      s = await servedSession(() => 'not-the-token-0123456789abcdef0123456789');
    }, 150_000);
    afterAll(async () => {
      await s?.server.stop();
      await s?.mock.close();
      s?.project.remove();
    });

    it('nothing runs on the server (401), and the fail-closed entry refuses the call rather than letting it through', () => {
      expect(s.server.lines.some((l) => l.msg === 'hook request'), explain(s)).toBe(false);
      expect(s.server.lines.filter((l) => l.status === 401).length, explain(s)).toBeGreaterThanOrEqual(1);
      expect(s.project.evidenceOf('guard-shell')).toEqual([]);
      expect(existsSync(join(s.project.dir, 'build', 'keep.txt')), explain(s)).toBe(true);
      expect(existsSync(join(s.project.dir, 'served.txt')), explain(s)).toBe(false);
    });
  });
});
