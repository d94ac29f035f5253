/**
 * A PostToolUse `{"decision": "block", "reason": …}` from a Claude-dialect HOOK.md hook: Claude Code 2.1.332 gives the
 * model the reason as the hook's blocking error, in a system message after the kept tool result
 * (`PostToolUse:Bash hook blocking error from command: "<command>": <reason>`, test/agents/claude-rules.test.ts).
 * Our agent words it the same, the hook's name in the command's place; through the bridge, Claude Code is answered
 * with the block itself, so that it words it — not with "additional context" wrapped around our wording.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, HookStack, ScriptedModel, defineTool, discoverHooks, runBridge } from 'agent-hooks';
import { sandbox } from './support.js';

const setup = sandbox();

const SENT = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'bridge', 'fixtures', 'claude', 'PostToolUse.json'), 'utf8')) as Record<string, unknown>;

/** A Claude-dialect HOOK.md hook on PostToolUse whose script prints `answer`. */
async function postHook(project: string, name: string, answer: object): Promise<void> {
  const dir = join(project, '.agents', 'hooks', name);
  await mkdir(join(dir, 'scripts'), { recursive: true });
  await writeFile(join(dir, 'HOOK.md'), `---\nname: ${name}\ndescription: d\ntrigger: PostToolUse\nmetadata:\n  dialect: claude\n---\n`);
  await writeFile(join(dir, 'scripts', 'run'), `#!/bin/sh\ncat > /dev/null\necho '${JSON.stringify(answer)}'\n`, { mode: 0o755 });
}

const BLOCK = { decision: 'block', reason: 'RULE-POST-BLOCK-REASON' };

describe('a PostToolUse block from a Claude-dialect HOOK.md hook', () => {
  it('in our agent: the result is kept, and the reason follows it as the hook’s blocking error, in Claude Code’s words', async () => {
    const { project } = await setup();
    await postHook(project, 'lint-gate', BLOCK);
    const model = new ScriptedModel([{ toolCalls: [{ name: 'Bash', args: { command: 'echo kept' } }] }, 'done']);
    const bash = defineTool({ name: 'Bash', input: z.object({ command: z.string() }), execute: () => 'kept-output' });
    const agent = AgentBuilder.new().withModel(model).withTools(bash).withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false }).build();
    await agent.run('go');
    const after = model.requests[1]!.messages.slice(-2);
    expect(after[0]).toMatchObject({ role: 'tool', content: 'kept-output' });
    expect(after[1]).toEqual({ role: 'system', content: 'PostToolUse:Bash hook blocking error from command: "lint-gate": RULE-POST-BLOCK-REASON' });
  });

  it('through the bridge from Claude Code: the answer is the block itself, for Claude Code to word as its own hooks’', async () => {
    const { project } = await setup();
    await postHook(project, 'lint-gate', BLOCK);
    const stack = new HookStack().withAll((await discoverHooks({ projectDir: project, userDir: false, trust: 'all' })).hooks);
    const result = await runBridge({ agent: 'claude', input: JSON.stringify(SENT), stack });
    expect(JSON.parse(result.stdout)).toEqual({ decision: 'block', reason: 'RULE-POST-BLOCK-REASON' });
  });

  it('through the bridge, beside another hook’s context and a replaced output: each keeps its own field', async () => {
    const { project } = await setup();
    await postHook(project, 'a-gate', BLOCK);
    await postHook(project, 'b-note', { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'NOTE', updatedToolOutput: { stdout: 'NEW', stderr: '', interrupted: false, isImage: false } } });
    const stack = new HookStack().withAll((await discoverHooks({ projectDir: project, userDir: false, trust: 'all' })).hooks);
    const result = await runBridge({ agent: 'claude', input: JSON.stringify(SENT), stack });
    expect(JSON.parse(result.stdout)).toMatchObject({
      decision: 'block',
      reason: 'RULE-POST-BLOCK-REASON',
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'NOTE', updatedToolOutput: { stdout: 'NEW' } },
    });
  });

  it('exit 2 on PostToolUse keeps the result, and gives stderr beside it as Claude Code words it; through the bridge, a block', async () => {
    const { project, write } = await setup();
    const command = 'cat >/dev/null; echo "lint failed" >&2; exit 2';
    await write(project, '.claude/settings.json', { hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } });
    const model = new ScriptedModel([{ toolCalls: [{ name: 'Bash', args: { command: 'echo kept' } }] }, 'done']);
    const bash = defineTool({ name: 'Bash', input: z.object({ command: z.string() }), execute: () => 'kept-output' });
    const agent = AgentBuilder.new().withModel(model).withTools(bash).withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, claude: true, hookmd: false }).build();
    await agent.run('go');
    const after = model.requests[1]!.messages.slice(-2);
    expect(after[0]).toMatchObject({ role: 'tool', content: 'kept-output' });
    expect(after[1]).toEqual({ role: 'system', content: `PostToolUse:Bash hook blocking error from command: "${command}": [${command}]: lint failed\n` });

    const dir = join(project, '.agents', 'hooks', 'lint');
    await mkdir(join(dir, 'scripts'), { recursive: true });
    await writeFile(join(dir, 'HOOK.md'), '---\nname: lint\ndescription: d\ntrigger: PostToolUse\nmetadata:\n  dialect: claude\n---\n');
    await writeFile(join(dir, 'scripts', 'run'), '#!/bin/sh\ncat > /dev/null\necho "lint failed" >&2\nexit 2\n', { mode: 0o755 });
    const stack = new HookStack().withAll((await discoverHooks({ projectDir: project, userDir: false, trust: 'all' })).hooks);
    const result = await runBridge({ agent: 'claude', input: JSON.stringify(SENT), stack });
    expect(JSON.parse(result.stdout)).toEqual({ decision: 'block', reason: '[lint]: lint failed\n' });
  });
});
