import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, loadClaudeHooks, type AgentWarning, type Approver } from 'agent-hooks';
import { toolMessages } from '../agent/support.js';
import { sandbox } from './support.js';

// Claude Code 2.1's PostToolBatch, PermissionDenied and StopFailure hooks in a settings file: they load, and run in our
// agent as real processes that read Claude Code's payload and answer in its fields.

const setup = sandbox();

/** A node script that saves its stdin to `file` (in the project) and prints `answer`. */
const saving = (file: string, answer?: unknown) =>
  `#!/usr/bin/env node
let data = '';
process.stdin.on('data', (c) => (data += c));
process.stdin.on('end', () => {
  require('node:fs').writeFileSync(${JSON.stringify(file)}, data);
  ${answer === undefined ? '' : `process.stdout.write(${JSON.stringify(JSON.stringify(answer))});`}
});
`;

const bash = defineTool({ name: 'Bash', description: 'Runs a command.', input: z.object({ command: z.string() }), execute: (input) => `ran ${input.command}` });

async function agentWith(project: string, model: ScriptedModel, approver?: Approver) {
  const builder = AgentBuilder.new()
    .withModel(model)
    .withTools(bash)
    .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, claude: true, hookmd: false });
  if (approver !== undefined) builder.withApprover(approver);
  const agent = builder.build();
  const warnings: AgentWarning[] = [];
  agent.events.on('warning', (w) => warnings.push(w));
  return { agent, warnings, problems: (await agent.ready()).problems };
}

const json = async (path: string): Promise<Record<string, unknown>> => JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;

describe('Claude Code’s PostToolBatch, PermissionDenied and StopFailure hooks, loaded from settings', () => {
  it('PostToolBatch: gets every call of the step in tool_calls and adds context for the next model call; its matcher is ignored, as in Claude Code', async () => {
    const { project, write, script } = await setup();
    const seen = join(project, 'batch.json');
    await script('.claude/hooks/batch.js', saving(seen, { hookSpecificOutput: { hookEventName: 'PostToolBatch', additionalContext: 'BATCH-CONTEXT' } }));
    await write(project, '.claude/settings.json', { hooks: { PostToolBatch: [{ matcher: 'NoSuchTool', hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/batch.js"' }] }] } });
    const model = new ScriptedModel([{ toolCalls: [{ name: 'Bash', args: { command: 'echo one' }, id: 't1' }, { name: 'Bash', args: { command: 'echo two' }, id: 't2' }] }, 'Done.']);
    const { agent, problems } = await agentWith(project, model);
    expect(problems.map((p) => p.code)).toEqual(['ignored-matcher']);
    await agent.run('go');

    const payload = await json(seen);
    expect(payload).toMatchObject({
      hook_event_name: 'PostToolBatch',
      tool_calls: [
        { tool_name: 'Bash', tool_input: { command: 'echo one' }, tool_use_id: 't1', tool_response: 'ran echo one' },
        { tool_name: 'Bash', tool_input: { command: 'echo two' }, tool_use_id: 't2', tool_response: 'ran echo two' },
      ],
    });
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: 'system', content: 'BATCH-CONTEXT' });
  });

  it('PostToolBatch: exit 2 ends the run there, as Claude Code ends the turn', async () => {
    const { project, write } = await setup();
    await write(project, '.claude/settings.json', { hooks: { PostToolBatch: [{ hooks: [{ type: 'command', command: 'cat >/dev/null; echo "no more today" >&2; exit 2' }] }] } });
    const model = new ScriptedModel([{ toolCalls: [{ name: 'Bash', args: { command: 'echo one' } }] }, 'never']);
    const { agent } = await agentWith(project, model);
    const result = await agent.run('go');
    expect(model.callCount).toBe(1);
    expect(result).toMatchObject({ status: 'stopped', reason: 'no more today' });
  });

  it('PermissionDenied: runs when the approver refuses a call, gets the reason, and its retry: true reaches the model', async () => {
    const { project, write, script } = await setup();
    const seen = join(project, 'denied.json');
    await script('.claude/hooks/denied.js', saving(seen, { hookSpecificOutput: { hookEventName: 'PermissionDenied', retry: true } }));
    await write(project, '.claude/settings.json', {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"check it"}}'` }] }],
        PermissionDenied: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/denied.js"' }] }],
      },
    });
    const model = new ScriptedModel([{ toolCalls: [{ name: 'Bash', args: { command: 'rm -rf build' }, id: 't1' }] }, 'Done.']);
    const { agent } = await agentWith(project, model, () => ({ approved: false, reason: 'not without a backup' }));
    await agent.run('go');

    expect(await json(seen)).toMatchObject({ hook_event_name: 'PermissionDenied', tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, tool_use_id: 't1', reason: 'not without a backup' });
    expect(toolMessages(model.requests[1]!)[0]!.content).toBe('Tool call refused: not without a backup\nThe refusal above is not final for this call: the PermissionDenied hook set up for this session allows one more try, which goes through the same permission check. If the user asked for what this call does, make it again now. If they did not, leave it, and in your next words to them say that you made this call without being asked and that it was refused before it ran; then go on with what they did ask for.');
  });

  it('StopFailure: runs when the model call fails, matched on the kind of error, and what it answers is ignored with a warning', async () => {
    const { project, write, script } = await setup();
    const seen = join(project, 'failure.json');
    await script('.claude/hooks/failure.js', saving(seen, { decision: 'block', reason: 'try again' }));
    await write(project, '.claude/settings.json', {
      hooks: {
        StopFailure: [
          { matcher: 'rate_limit', hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/failure.js"' }] },
          { matcher: 'server_error', hooks: [{ type: 'command', command: `touch "$CLAUDE_PROJECT_DIR/wrong-kind"` }] },
        ],
      },
    });
    let call = 0;
    const model = new ScriptedModel(() => {
      if (call++ === 0) return { text: 'Looking.', toolCalls: [{ name: 'Bash', args: { command: 'ls' } }] };
      throw Object.assign(new Error('Too many requests'), { status: 429 });
    });
    const { agent, warnings } = await agentWith(project, model);
    const result = await agent.run('go', { rejectOnFailure: false });

    expect(result.status).toBe('failed');
    const payload = await json(seen);
    // As Claude Code 2.1.332 sends it: the API error, which it records as the last assistant message, and no error_details.
    expect(payload).toMatchObject({ hook_event_name: 'StopFailure', error: 'rate_limit', last_assistant_message: 'API Error: 429 Too many requests' });
    expect('error_details' in payload).toBe(false);
    await expect(readFile(join(project, 'wrong-kind'))).rejects.toThrow();
    expect(warnings).toContainEqual(expect.objectContaining({ code: 'ignored-outcome', event: 'StopFailure' }));
  });

  it('PermissionRequest: updatedPermissions granted with an allow are ignored here with a warning naming them; the call runs', async () => {
    const { project, write } = await setup();
    const allow = { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Bash' }], behavior: 'allow', destination: 'session' }] } } };
    await write(project, '.claude/settings.json', {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}'` }] }],
        PermissionRequest: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo '${JSON.stringify(allow)}'` }] }],
      },
    });
    const model = new ScriptedModel([{ toolCalls: [{ name: 'Bash', args: { command: 'ls' } }] }, 'Done.']);
    const { agent, warnings } = await agentWith(project, model);
    await agent.run('go');
    expect(toolMessages(model.requests[1]!)[0]!.content).toBe('ran ls');
    expect(warnings).toContainEqual(expect.objectContaining({ code: 'ignored-outcome', event: 'PermissionRequest', message: expect.stringContaining('updatedPermissions: addRules') }));
  });

  it('PermissionRequest: a deny with interrupt: true refuses the call and ends the run, as Claude Code aborts the turn', async () => {
    const { project, write } = await setup();
    const deny = { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'stop right there', interrupt: true } } };
    await write(project, '.claude/settings.json', {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}'` }] }],
        PermissionRequest: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo '${JSON.stringify(deny)}'` }] }],
      },
    });
    const model = new ScriptedModel([{ toolCalls: [{ name: 'Bash', args: { command: 'ls' } }] }, 'never']);
    const { agent } = await agentWith(project, model);
    const result = await agent.run('go');
    expect(model.callCount).toBe(1);
    expect(result).toMatchObject({ status: 'stopped', reason: 'stop right there' });
  });

  it('a Stop hook does not run when the turn ends on a model error, and a StopFailure hook does not run on a normal stop', async () => {
    const { project, write } = await setup();
    const log = join(project, 'gates.log');
    await write(project, '.claude/settings.json', {
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: `echo stop >> "$CLAUDE_PROJECT_DIR/gates.log"` }] }],
        StopFailure: [{ hooks: [{ type: 'command', command: `echo stop-failure >> "$CLAUDE_PROJECT_DIR/gates.log"` }] }],
      },
    });
    const ok = await agentWith(project, new ScriptedModel(['Done.']));
    await ok.agent.run('go');
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual(['stop']);
    const failing = await agentWith(project, new ScriptedModel(() => Promise.reject(new Error('down'))));
    await failing.agent.run('go', { rejectOnFailure: false });
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual(['stop', 'stop-failure']);
  });
});
