import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, HookLoadError, HookOutcome, ScriptedModel, defineTool, type AgentWarning } from 'agent-hooks';
import { tempDir, writeExecutable } from '../support/script-fixture.js';

// The projects here are the tests' own: they opt in with trust: 'all' (trust itself is tested in test/script/trust.test.ts).

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A project with `.agents/hooks/<name>/HOOK.md` + `scripts/run` for each hook given. */
async function project(hooks: Record<string, { frontmatter: string; script: string }>): Promise<string> {
  const { dir, cleanup } = await tempDir('agent-hooks-agent-');
  cleanups.push(cleanup);
  for (const [name, { frontmatter, script }] of Object.entries(hooks)) {
    const folder = join(dir, '.agents', 'hooks', name);
    await mkdir(join(folder, 'scripts'), { recursive: true });
    await writeFile(join(folder, 'HOOK.md'), `---\nname: ${name}\ndescription: a test hook\n${frontmatter}\n---\n# ${name}\n`);
    await writeExecutable(join(folder, 'scripts', 'run'), `#!/bin/sh\n${script}\n`);
  }
  return dir;
}

const echo = (calls: unknown[] = []) =>
  defineTool({
    name: 'bash',
    input: z.object({ command: z.string() }),
    execute: (input) => (calls.push(input), `ran ${input.command}`),
  });

/** A model that calls `bash ls` once, then answers 'done'. */
const lsThenDone = () => new ScriptedModel([{ toolCalls: [{ name: 'bash', args: { command: 'ls' } }] }, 'done']);

describe('HOOK.md hooks in an agent', () => {
  it('runs scripts and callbacks in one priority order: script 999, callback 500, script 100', async () => {
    const dir = await project({
      first: { frontmatter: 'trigger: pre-tool-call\npriority: 999', script: 'cat > /dev/null; echo first >> "$AGENT_HOOKS_PROJECT_DIR/order.log"' },
      last: { frontmatter: 'trigger: pre-tool-call\npriority: 100', script: 'cat > /dev/null; echo last >> "$AGENT_HOOKS_PROJECT_DIR/order.log"' },
    });
    const agent = AgentBuilder.new()
      .withModel(lsThenDone())
      .withTools(echo())
      .onBeforeToolUse(async () => void (await appendFile(join(dir, 'order.log'), 'callback\n')), { priority: 500 })
      .withHooksFrom({ projectDir: dir, trust: 'all', userDir: false })
      .build();
    const result = await agent.run('go');
    expect(result.status).toBe('completed');
    expect((await readFile(join(dir, 'order.log'), 'utf8')).trim().split('\n')).toEqual(['first', 'callback', 'last']);
  });

  it('a script that exits 2 blocks the call, and the model is told its stderr', async () => {
    const dir = await project({
      guard: { frontmatter: 'trigger: before_tool\nmatcher:\n  tool: ^bash$\n  pattern: rm -rf', script: 'cat > /dev/null; echo "no deleting" >&2; exit 2' },
    });
    const calls: unknown[] = [];
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'bash', args: { command: 'rm -rf /' } }, { name: 'bash', args: { command: 'ls' } }] },
      'done',
    ]);
    const agent = AgentBuilder.new().withModel(model).withTools(echo(calls)).withHooksFrom({ projectDir: dir, trust: 'all', userDir: false }).build();
    await agent.run('go');
    expect(calls).toEqual([{ command: 'ls' }]);
    const tools = model.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools[0]).toContain('no deleting');
    expect(tools[1]).toBe('ran ls');
  });

  it('a script rewrites the input that the tool receives', async () => {
    const dir = await project({
      rewrite: { frontmatter: 'trigger: PreToolUse', script: `cat > /dev/null; echo '{"decision":"allow","modified_input":{"command":"ls -la"}}'` },
    });
    const calls: unknown[] = [];
    const agent = AgentBuilder.new()
      .withModel(lsThenDone())
      .withTools(echo(calls))
      .withHooksFrom({ projectDir: dir, trust: 'all', userDir: false })
      .build();
    await agent.run('go');
    expect(calls).toEqual([{ command: 'ls -la' }]);
  });

  it('a Stop script keeps the agent working once, then lets it stop', async () => {
    const dir = await project({
      gate: {
        frontmatter: 'trigger: pre-agent-turn-stop',
        script: `input=$(cat); case "$input" in *'"stop_hook_active": true'*) exit 0;; esac; echo "run the tests" >&2; exit 2`,
      },
    });
    const model = new ScriptedModel(['first try', 'second try']);
    const agent = AgentBuilder.new().withModel(model).withHooksFrom({ projectDir: dir, trust: 'all', userDir: false }).build();
    const result = await agent.run('go');
    expect(result.text).toBe('second try');
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: 'user', content: 'run the tests' });
  });

  it('waits for async hooks when the session closes', async () => {
    // The hook cannot finish before the test opens its gate, so a run that waited for it would time out.
    const dir = await project({
      audit: {
        frontmatter: 'trigger: post-tool-call\nasync: true\ntimeout: 10000',
        script: 'cat > /dev/null; cd "$AGENT_HOOKS_PROJECT_DIR"; while [ ! -f gate ]; do sleep 0.01; done; echo logged >> audit.log',
      },
    });
    const agent = AgentBuilder.new().withModel(lsThenDone()).withTools(echo()).withHooksFrom({ projectDir: dir, trust: 'all', userDir: false }).build();
    const session = agent.session();
    await session.run('go');
    // The run did not wait for the hook...
    await expect(readFile(join(dir, 'audit.log'), 'utf8')).rejects.toThrow();
    await writeFile(join(dir, 'gate'), '');
    // ...close() does.
    await session.close();
    expect(await readFile(join(dir, 'audit.log'), 'utf8')).toBe('logged\n');
  });

  it('reports bad HOOK.md files through ready() and as warnings, and still loads the good ones', async () => {
    const dir = await project({
      good: { frontmatter: 'trigger: pre-tool-call', script: 'cat > /dev/null; echo "blocked by good" >&2; exit 2' },
      bad: { frontmatter: 'trigger: pre-tool-cal\npriority: 5000', script: 'exit 0' },
    });
    const warnings: AgentWarning[] = [];
    const calls: unknown[] = [];
    const agent = AgentBuilder.new()
      .withModel(lsThenDone())
      .withTools(echo(calls))
      .withHooksFrom({ projectDir: dir, trust: 'all', userDir: false })
      .build();
    agent.events.on('warning', (w) => warnings.push(w));
    const { problems } = await agent.ready();
    expect(problems.map((p) => [p.field, p.code])).toEqual(
      expect.arrayContaining([
        ['trigger', 'unknown-trigger'],
        ['priority', 'out-of-range'],
      ]),
    );
    expect(problems.every((p) => p.file.endsWith(join('bad', 'HOOK.md')))).toBe(true);
    expect(agent.hooks.all().map((e) => e.name)).toEqual(['good']);
    await agent.run('go');
    expect(calls).toEqual([]);
    expect(warnings.filter((w) => w.code.startsWith('hook-problem:')).length).toBe(problems.length);
  });

  it('fails every run in strict mode, naming the problems', async () => {
    const dir = await project({ bad: { frontmatter: 'trigger: nope', script: 'exit 0' } });
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel(['done']))
      .withHooksFrom({ projectDir: dir, trust: 'all', userDir: false, strict: true })
      .build();
    await expect(agent.ready()).rejects.toBeInstanceOf(HookLoadError);
    await expect(agent.run('go')).rejects.toThrow(/unknown|trigger/i);
  });

  it('keeps user hooks before project hooks at equal priority, and lets a project hook override a user hook by name', async () => {
    const dir = await project({
      shared: { frontmatter: 'trigger: pre-tool-call', script: 'cat > /dev/null; echo project-shared >> "$AGENT_HOOKS_PROJECT_DIR/order.log"' },
      mine: { frontmatter: 'trigger: pre-tool-call', script: 'cat > /dev/null; echo project-mine >> "$AGENT_HOOKS_PROJECT_DIR/order.log"' },
    });
    const user = await tempDir('agent-hooks-user-');
    cleanups.push(user.cleanup);
    for (const name of ['shared', 'personal']) {
      const folder = join(user.dir, name);
      await mkdir(join(folder, 'scripts'), { recursive: true });
      await writeFile(join(folder, 'HOOK.md'), `---\nname: ${name}\ndescription: user hook\ntrigger: pre-tool-call\n---\n`);
      await writeExecutable(join(folder, 'scripts', 'run'), `#!/bin/sh\ncat > /dev/null; echo user-${name} >> "$AGENT_HOOKS_PROJECT_DIR/order.log"\n`);
    }
    const agent = AgentBuilder.new()
      .withModel(lsThenDone())
      .withTools(echo())
      .withHooksFrom({ projectDir: dir, trust: 'all', userDir: user.dir })
      .build();
    await agent.run('go');
    expect((await readFile(join(dir, 'order.log'), 'utf8')).trim().split('\n')).toEqual(['user-personal', 'project-mine', 'project-shared']);
  });
});

describe('session.compact', () => {
  it('compacts on request with trigger manual and the instructions', async () => {
    const triggers: string[] = [];
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel(['one', 'two']))
      .withCompaction({ maxMessages: 100, keepLast: 1 })
      .onPreCompact((ctx) => void triggers.push(`${ctx.trigger}:${ctx.customInstructions}`))
      .onPostCompact((ctx) => void triggers.push(`after:${ctx.messagesBefore.length}->${ctx.messagesAfter?.length}`))
      .build();
    const session = agent.session();
    await session.run('first');
    await session.run('second');
    await session.compact('keep it short');
    expect(triggers).toEqual(['manual:keep it short', 'after:4->2']);
    expect(session.messages[0]!.role).toBe('system');
    expect(session.messages.at(-1)).toEqual({ role: 'assistant', content: 'two' });
  });

  it('refuses without compaction configured', async () => {
    const session = AgentBuilder.new().withModel(new ScriptedModel(['one'])).build().session();
    await expect(session.compact()).rejects.toThrow(/withCompaction/);
  });

  it('a block at PreCompact is only a warning: blocking compaction is not a decision hooks make', async () => {
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel(['one']))
      .withCompaction({ maxMessages: 100, keepLast: 1 })
      .onPreCompact(() => HookOutcome.block('no'))
      .build();
    const warnings: AgentWarning[] = [];
    agent.events.on('warning', (w) => warnings.push(w));
    const session = agent.session();
    await session.run('first');
    await session.compact();
    expect(warnings.map((w) => w.code)).toContain('ignored-outcome');
  });
});
