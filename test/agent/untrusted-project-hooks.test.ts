/**
 * The README's guard (a HOOK.md that refuses `rm -rf`, and its script) in a fresh project, loaded into our own agent
 * with `withHooksFrom`: until the user trusts it, it does not run — and the agent says so on stderr once (by default),
 * or refuses to run at all (`strict: true`). Real files, a real trust store in a temporary home, the real run loop.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { z } from 'zod';
import {
  AgentBuilder,
  HookLoadError,
  ScriptedModel,
  TrustStore,
  UntrustedHooksError,
  defineSubagent,
  defineTool,
  loadAllHookConfigs,
  type AgentStreamEvent,
  type AgentWarning,
  type WithHooksFromOptions,
} from 'agent-hooks';
import { tempDir, writeExecutable } from '../support/script-fixture.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');

/** The README's HOOK.md, as a newcomer copies it. */
const HOOK_MD = `---
name: no-recursive-delete
description: Refuses rm -rf.
trigger: pre-tool-call
matcher:
  tool: Shell          # the shell of every agent: Bash, bash, run_shell_command, …
  pattern: rm\\s+-rf
---
`;
const SCRIPT = '#!/bin/sh\necho "rm -rf is refused" >&2\nexit 2\n';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A fresh project with the README's guard, and a home of its own (its trust store starts empty). */
async function freshProject() {
  const { dir, cleanup } = await tempDir('agent-hooks-untrusted-');
  cleanups.push(cleanup);
  const project = join(dir, 'project');
  const home = join(dir, 'home');
  const hookDir = join(project, '.agents', 'hooks', 'no-recursive-delete');
  await mkdir(join(hookDir, 'scripts'), { recursive: true });
  await mkdir(home, { recursive: true });
  await writeFile(join(hookDir, 'HOOK.md'), HOOK_MD);
  await writeExecutable(join(hookDir, 'scripts', 'run'), SCRIPT);
  const hostEnv = { HOME: home };
  const sources: WithHooksFromOptions = { projectDir: project, homeDir: home, hostEnv, userDir: false };
  const trust = async () => {
    const { trustChecks } = await loadAllHookConfigs(project, { homeDir: home, hostEnv, userDir: false });
    await TrustStore.forUser({ hostEnv }).trust(trustChecks.map((c) => c.fingerprint));
  };
  return { project, home, hostEnv, sources, trust, hookMd: join(hookDir, 'HOOK.md'), script: join(hookDir, 'scripts', 'run') };
}

/** An agent whose model asks for `rm -rf /`, with a shell that records what it ran. */
function agentWith(sources: WithHooksFromOptions) {
  const ran: string[] = [];
  // Asks for `rm -rf /` at the start of every run, then is done: as many runs as a test makes.
  const model = new ScriptedModel((request) =>
    request.messages.some((m) => m.role === 'tool') ? 'Done.' : { toolCalls: [{ name: 'bash', args: { command: 'rm -rf /' }, id: 'c1' }] },
  );
  const bash = defineTool({ name: 'bash', description: 'Runs a shell command', input: z.object({ command: z.string() }), execute: ({ command }) => (ran.push(command), 'ok') });
  const builder = AgentBuilder.new().withModel(model).withTools(bash).withHooksFrom(sources);
  return { builder, agent: builder.build(), ran, model };
}

let stderr: MockInstance<typeof process.stderr.write>;
beforeEach(() => {
  stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => stderr.mockRestore());
const notices = () => stderr.mock.calls.map((c) => String(c[0])).filter((line) => line.startsWith('agent-hooks:'));

describe('an untrusted project guard, by default', () => {
  it('is said once per agent on stderr — the hook, its file and the command to trust it — not once per run', async () => {
    const { sources, project, hookMd } = await freshProject();
    const { builder, agent, ran } = agentWith(sources);
    await agent.run('Clean up');
    await agent.run('Clean up again');
    expect(ran).toEqual(['rm -rf /', 'rm -rf /']);
    const said = notices();
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("'no-recursive-delete'");
    expect(said[0]).toContain(hookMd);
    expect(said[0]).toContain('not trusted yet');
    expect(said[0]).toContain(`run 'npx agent-hooks trust' in ${project}`);
    expect(said[0]!.trimEnd().split('\n')).toHaveLength(1);

    // Another agent is told again: each agent says it once.
    await builder.build().run('Clean up');
    expect(notices()).toHaveLength(2);
  });

  it('says when a trusted guard changed since it was trusted', async () => {
    const { sources, trust, script } = await freshProject();
    await trust();
    await writeExecutable(script, `${SCRIPT}# edited\n`);
    const { agent, ran } = agentWith(sources);
    await agent.run('Clean up');
    expect(ran).toEqual(['rm -rf /']);
    expect(notices()).toEqual([expect.stringContaining("'no-recursive-delete'")]);
    expect(notices()[0]).toContain('changed since it was trusted');
  });

  it('is left off stderr with stderrNotice: false, and still reaches the warning events and ready()', async () => {
    const { sources } = await freshProject();
    const { agent } = agentWith({ ...sources, stderrNotice: false });
    const warnings: AgentWarning[] = [];
    agent.events.on('warning', (w) => warnings.push(w));
    expect((await agent.ready()).problems.map((p) => p.code)).toEqual(['untrusted-hook']);
    await agent.run('Clean up');
    expect(notices()).toEqual([]);
    expect(warnings.map((w) => w.code)).toEqual(['hook-problem:untrusted-hook']);
  });

  it('is said once for the agent and its subagents’ sources together, each project once', async () => {
    const { sources } = await freshProject();
    const { builder } = agentWith(sources);
    const agent = builder.withSubagents(defineSubagent({ name: 'helper', agent: AgentBuilder.new().withHooksFrom(sources) })).build();
    await agent.run('Clean up');
    expect(notices()).toHaveLength(1);
  });
});

describe('an untrusted project guard, with strict: true', () => {
  it('refuses to run: run() rejects naming the hook and the fix, before any model call or tool', async () => {
    const { sources, project } = await freshProject();
    const { agent, ran, model } = agentWith({ ...sources, strict: true });
    const error = await agent.run('Clean up').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UntrustedHooksError);
    expect(error).toBeInstanceOf(HookLoadError);
    expect((error as Error).message).toContain("'no-recursive-delete'");
    expect((error as Error).message).toContain(`'npx agent-hooks trust' in ${project}`);
    expect((error as UntrustedHooksError).skipped.map((p) => p.code)).toEqual(['untrusted-hook']);
    expect(model.requests).toEqual([]);
    expect(ran).toEqual([]);
  });

  it('refuses stream(), a session’s turn and ready() alike', async () => {
    const { sources } = await freshProject();
    const { agent, ran, model } = agentWith({ ...sources, strict: true });
    await expect(agent.ready()).rejects.toBeInstanceOf(UntrustedHooksError);

    const stream = agent.stream('Clean up');
    const events: AgentStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    await expect(stream.result).rejects.toBeInstanceOf(UntrustedHooksError);
    expect(events).toEqual([]);

    const session = agent.session();
    await expect(session.run('Clean up')).rejects.toBeInstanceOf(UntrustedHooksError);
    expect(model.requests).toEqual([]);
    expect(ran).toEqual([]);
  });

  it('refuses a guard that changed since it was trusted', async () => {
    const { sources, trust, script } = await freshProject();
    await trust();
    await writeExecutable(script, `${SCRIPT}# edited\n`);
    const { agent, ran } = agentWith({ ...sources, strict: true });
    await expect(agent.run('Clean up')).rejects.toThrow(/'no-recursive-delete'.*changed since it was trusted/);
    expect(ran).toEqual([]);
  });
});

describe('a trusted project guard', () => {
  for (const strict of [false, true]) {
    it(`runs and blocks the call, and nothing is said on stderr${strict ? ' (strict: true)' : ''}`, async () => {
      const { sources, trust } = await freshProject();
      await trust();
      const { agent, ran } = agentWith({ ...sources, strict });
      const result = await agent.run('Clean up');
      expect(ran).toEqual([]);
      expect(result.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([expect.stringContaining('rm -rf is refused')]);
      expect(notices()).toEqual([]);
    });
  }
});

describe('the stderr notice, in a real process', () => {
  it('is written once to the process’s stderr for two runs of one agent', async () => {
    const { project, home } = await freshProject();
    const child = spawnSync(process.execPath, ['--import', 'tsx', join(here, 'untrusted-hooks-process.ts'), project, home], { cwd: repo, encoding: 'utf8', timeout: 60_000 });
    expect(child.status, child.stderr).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual({ ran: ['rm -rf /', 'rm -rf /'] });
    const lines = child.stderr.split('\n').filter((l) => l.startsWith('agent-hooks:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("'no-recursive-delete'");
    expect(lines[0]).toContain(`'npx agent-hooks trust' in ${project}`);
  });
});
