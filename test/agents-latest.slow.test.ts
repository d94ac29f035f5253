import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import agentsJson from './agents/agents.json' with { type: 'json' };

// `npm run test:agents -- --latest` before it runs anything: the newest versions come from the registry the user's npm
// is set to (here a local one), an unreachable registry stops it non-zero, and the pinned install is never the one
// it installs into. Its runs against the real agents are `npm run test:agents -- --latest` itself. In
// `npm run test:slow`: it starts npm a dozen times.

const REPO = join(import.meta.dirname, '..');
const PINS = Object.fromEntries(Object.entries(agentsJson).filter(([name]) => !name.startsWith('/'))) as Record<string, { package: string; version: string }>;
const work = mkdtempSync(join(tmpdir(), 'agent-hooks-latest-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * `npm run test:agents -- ARGS` with npm pointed at `registry`, its report written into the temporary folder. Not
 * spawnSync: the registry answers from this process's event loop.
 */
function testAgents(registry: string, args: string[], report: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env, npm_config_registry: registry, npm_config_cache: join(work, 'npm-cache'), npm_config_fetch_retries: '0', AGENT_HOOKS_LATEST_REPORT: report };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO, 'test', 'agents', 'run.mjs'), ...args], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A registry answering each agent's package with `answer(name)` as its newest version. */
function registry(answer: (pkg: string) => string): Promise<Server> {
  const server = createServer((req, res) => {
    const pkg = decodeURIComponent((req.url ?? '/').slice(1));
    const version = answer(pkg);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ name: pkg, 'dist-tags': { latest: version }, versions: { [version]: { name: pkg, version } }, time: { [version]: '2026-11-01T00:00:00.000Z' } }));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as { port: number }).port}/`;

describe('npm run test:agents -- --latest', () => {
  it('stops, non-zero, naming the registry it could not reach, and writes no report', async () => {
    const report = join(work, 'unreachable.json');
    const run = await testAgents('http://127.0.0.1:9/', ['--latest'], report);
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toContain('Cannot ask the npm registry for the newest');
    expect(run.stderr).toContain('Nothing was run');
    expect(existsSync(report)).toBe(false);
  }, 150_000);

  it('stops, non-zero, when the registry answers something that is no version', async () => {
    // npm itself refuses such a document, or prints nothing: either way the run stops before anything is installed.
    const server = await registry(() => 'not-a-version');
    try {
      const report = join(work, 'garbage.json');
      const run = await testAgents(urlOf(server), ['--latest'], report);
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/Cannot ask the npm registry for the newest|which is no version/);
      expect(run.stderr).toContain('Nothing was run');
      expect(existsSync(report)).toBe(false);
    } finally {
      server.close();
    }
  }, 150_000);

  describe('when every newest release is the pin', () => {
    let server: Server;
    beforeAll(async () => {
      server = await registry((pkg) => Object.values(PINS).find((p) => p.package === pkg)?.version ?? '0.0.0');
    });
    afterAll(() => server.close());

    it('runs nothing, and reports each agent with the date, as a table and as JSON', async () => {
      const report = join(work, 'same.json');
      const run = await testAgents(urlOf(server), ['--latest'], report);
      expect(run.status, run.stderr).toBe(0);
      const json = JSON.parse(readFileSync(report, 'utf8')) as { date: string; agents: { agent: string; pinned: string; newest: string; notes: string[] }[] };
      expect(Date.now() - Date.parse(json.date)).toBeLessThan(300_000);
      expect(json.agents.map((a) => a.agent)).toEqual(Object.keys(PINS));
      for (const a of json.agents) {
        expect(a.newest).toBe(PINS[a.agent]!.version);
        expect(a.notes).toEqual(['newest is the pin: nothing to run']);
      }
      expect(run.stdout).toMatch(/agent\s+pinned\s+newest/);
      expect(run.stdout).not.toContain('=== The suite');
    }, 150_000);
  });
});

describe('install-agents.mjs', () => {
  /** The folder install-agents.mjs would install into, under `env`. */
  const folder = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--input-type=module', '-e', `import('./test/agents/install-agents.mjs').then((m) => process.stdout.write(m.agentsDir()))`], {
      cwd: REPO,
      env: { ...process.env, AGENT_HOOKS_AGENTS_DIR: work, ...env },
      encoding: 'utf8',
    });

  it('installs the newest releases into a folder of their own, never the pinned one', () => {
    const pinned = folder({});
    const latest = folder({ AGENT_HOOKS_AGENTS: 'latest', AGENT_HOOKS_AGENTS_VERSIONS: JSON.stringify({ codex: '999.0.0' }) });
    expect(pinned.status, pinned.stderr).toBe(0);
    expect(latest.status, latest.stderr).toBe(0);
    expect(latest.stdout.startsWith(work)).toBe(true);
    expect(latest.stdout).not.toBe(pinned.stdout);
    // The same versions hash to the same folder, whatever order they come in: a second run installs nothing.
    expect(folder({ AGENT_HOOKS_AGENTS: 'latest', AGENT_HOOKS_AGENTS_VERSIONS: JSON.stringify({ codex: '999.0.0' }) }).stdout).toBe(latest.stdout);
  });

  it('refuses AGENT_HOOKS_AGENTS=latest without the versions, saying how to run it', () => {
    const run = folder({ AGENT_HOOKS_AGENTS: 'latest' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('npm run test:agents -- --latest');
  });
});
