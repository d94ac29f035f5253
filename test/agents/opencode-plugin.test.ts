/**
 * OpenCode with the prototype plugin of `src/agents/opencode/`: the project's HOOK.md hooks, unchanged, decide its
 * tool calls from inside its own process. OpenCode's runtime (Bun) loads the plugin's TypeScript source as it is;
 * until the plugin ships as `agent-hooks/opencode`, the project's plugin file imports it from the repository.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opencodeDriver } from './drivers/opencode.js';
import { bodyText, makeProject, pinOf, REPO, type SessionView } from './support/harness.js';
import { startMockServer } from './support/mock-server.js';

const PLUGIN = join(REPO, 'src', 'agents', 'opencode', 'plugin.ts');

describe(`opencode ${pinOf('opencode').version}, through the agent-hooks plugin (prototype)`, () => {
  let s: SessionView;
  beforeAll(async () => {
    const project = makeProject(['guard-shell', 'crash-closed']);
    const mock = await startMockServer(opencodeDriver.api(), [
      { shell: 'rm -rf build' },
      { shell: 'touch allowed.txt' },
      { shell: 'echo original > out.txt' },
      { shell: 'touch crash-closed-probe.txt' },
      { text: 'Done.' },
    ]);
    await opencodeDriver.configure(project, mock, { events: ['PreToolUse'], timeoutSec: 30 });
    writeFileSync(join(project.dir, '.opencode', 'plugin', 'agent-hooks.js'), `export { AgentHooks } from ${JSON.stringify(PLUGIN)};\n`);
    s = { project, mock, run: await opencodeDriver.run(project, mock, 'Clean the build folder, then create the files.', 120_000) };
  }, 150_000);
  afterAll(async () => {
    await s?.mock.close();
    s?.project.remove();
  });

  const explain = (): string =>
    `exit ${s.run.exitCode}${s.run.timedOut ? ' (killed)' : ''}\n--- stdout\n${s.run.stdout.slice(-3000)}\n--- stderr\n${s.run.stderr.slice(-3000)}\n--- requests\n${s.mock.requests.map((r) => `${r.method} ${r.path}${r.main ? ` main ${JSON.stringify(r.turn)}` : ''}`).join('\n')}`;
  const seenFrom = (n: number): string => s.mock.mainRequests().slice(n).map((r) => bodyText(r.body)).join('\n');

  it('deny: the refused command did not run, and the model got the hook’s reason', () => {
    expect(s.run.timedOut, explain()).toBe(false);
    expect(existsSync(join(s.project.dir, 'build', 'keep.txt')), explain()).toBe(true);
    const guard = s.project.evidenceOf('guard-shell') as { tool_name?: string; tool_input?: { command?: string } }[];
    expect(guard.map((p) => p.tool_input?.command), explain()).toContain('rm -rf build');
    expect(guard[0]?.tool_name).toBe('bash');
    expect(seenFrom(1), explain()).toContain('E2E-DENY');
  });

  it('allow: the allowed command ran', () => {
    expect(existsSync(join(s.project.dir, 'allowed.txt')), explain()).toBe(true);
  });

  it('rewrite: what ran is the rewritten command', () => {
    expect(readFileSync(join(s.project.dir, 'out.txt'), 'utf8').trim(), explain()).toBe('rewritten');
  });

  it('a crashing hook with failClosed: the call is refused', () => {
    expect(s.project.evidenceOf('crash-closed').length, explain()).toBe(1);
    expect(existsSync(join(s.project.dir, 'crash-closed-probe.txt')), explain()).toBe(false);
  });
});
