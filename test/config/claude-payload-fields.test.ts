/**
 * The payload fields Claude Code 2.1.332 sends that our table had left out, recorded from the binary
 * (test/agents/fixtures/claude/2.1.332/): what the bridge makes of them, and what an agent built here sends where it
 * has their meaning.
 */
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, HookStack, ScriptedModel, defineTool, discoverHooks, runBridge, type AgentWarning, type HookNote } from 'agent-hooks';
import { sandbox } from './support.js';

const setup = sandbox();
const FIXTURES = join(import.meta.dirname, '..', 'agents', 'fixtures', 'claude', '2.1.332');
const fixture = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown>;

/** A fixture with its placeholders filled in as a real payload has them. */
const real = (name: string, project: string): Record<string, unknown> =>
  JSON.parse(
    JSON.stringify(fixture(name))
      .replaceAll('"<NUMBER>"', '3')
      .replaceAll('<UUID>', '8f0c1f7e-2b1a-4c9e-9d7a-1c2b3d4e5f60')
      .replaceAll('<ROOT>/project', project)
      .replaceAll('<ROOT>', join(project, '..')),
  ) as Record<string, unknown>;

describe('Claude Code 2.1.332’s fields', () => {
  it('SessionStart "fork" (a --fork-session run): the bridge answers, and a Claude-dialect hook behind it gets the payload as sent', async () => {
    const { project } = await setup();
    const dir = join(project, '.agents', 'hooks', 'start');
    await mkdir(join(dir, 'scripts'), { recursive: true });
    await writeFile(join(dir, 'HOOK.md'), '---\nname: start\ndescription: d\ntrigger: SessionStart\nmetadata:\n  dialect: claude\n---\n');
    await writeFile(join(dir, 'scripts', 'run'), `#!/bin/sh\ncat > "${join(project, 'seen.json')}"\necho "forked context"\n`, { mode: 0o755 });
    const stack = new HookStack().withAll((await discoverHooks({ projectDir: project, userDir: false, trust: 'all' })).hooks);
    const sent = real('SessionStart-fork', project);
    const result = await runBridge({ agent: 'claude', input: JSON.stringify(sent), stack });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'forked context' } });
    expect(JSON.parse(await readFile(join(project, 'seen.json'), 'utf8'))).toEqual(sent);
  });

  it('PostToolUseFailure: an agent here sends is_interrupt and duration_ms, as Claude Code does, and no key it does not', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', { hooks: { PostToolUseFailure: [{ hooks: [{ type: 'command', command: 'cat > "$CLAUDE_PROJECT_DIR"/failure.json' }] }] } });
    const fail = defineTool({ name: 'Bash', input: z.object({ command: z.string() }), execute: () => { throw new Error('Exit code 3'); } });
    const model = new ScriptedModel([{ toolCalls: [{ name: 'Bash', args: { command: 'exit 3' } }] }, 'done']);
    const agent = AgentBuilder.new().withModel(model).withTools(fail).withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, claude: true, hookmd: false }).build();
    await agent.run('go');
    const payload = JSON.parse(await readFile(join(project, 'failure.json'), 'utf8')) as Record<string, unknown>;
    const claude = fixture('PostToolUseFailure');
    expect(Object.keys(payload).filter((k) => !(k in claude))).toEqual([]);
    expect(payload).toMatchObject({ error: 'Exit code 3', is_interrupt: false });
    expect(typeof payload.duration_ms).toBe('number');
  });

  it('PreToolUse permissionDisplay is read, with no effect here: an information note, not a dropped field', async () => {
    const { project, write } = await setup();
    const answer = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDisplay: { title: 'Run it?', description: 'A command.', displayName: 'Bash' } } };
    await write(project, '.claude/settings.json', { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `cat >/dev/null; echo '${JSON.stringify(answer)}'` }] }] } });
    const ran = defineTool({ name: 'Bash', input: z.object({ command: z.string() }), execute: () => 'ran' });
    const model = new ScriptedModel([{ toolCalls: [{ name: 'Bash', args: { command: 'ls' } }] }, 'done']);
    const agent = AgentBuilder.new().withModel(model).withTools(ran).withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, claude: true, hookmd: false }).build();
    const warnings: AgentWarning[] = [];
    const notes: HookNote[] = [];
    agent.events.on('warning', (w) => warnings.push(w));
    agent.events.on('hook:note', (n) => notes.push(n));
    await agent.run('go');
    expect(warnings).toEqual([]);
    expect(notes.map((n) => n.code)).toEqual(['field-without-effect']);
    expect(JSON.stringify(model.requests[1]!.messages)).toContain('ran');
  });
});
