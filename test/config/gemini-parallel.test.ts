import { describe, expect, it } from 'vitest';
import { runShellAgent } from '../support/shell-agent.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sandbox } from './support.js';

// Gemini CLI runs an event's hooks side by side unless a definition of the event says `sequential: true`; with
// `parallel: true` they run so here too.

const setup = sandbox();

describe('Gemini settings with parallel: true', () => {
  const run = async (sequential: boolean): Promise<{ seen: string; second: string }> => {
    const { project, write } = await setup();
    // Each hook keeps the command it was sent, then rewrites it.
    const rewrite = (to: string) => `cat > sent-to-${to}.json; echo '{"decision":"allow","hookSpecificOutput":{"tool_input":{"command":"echo ${to} >> seen.txt"}}}'`;
    await write(project, '.gemini/settings.json', {
      hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: rewrite('first') }] }, { ...(sequential ? { sequential: true } : {}), hooks: [{ type: 'command', command: rewrite('second') }] }] },
    });
    await runShellAgent({ dir: project, tool: 'run_shell_command', commands: ['echo original >> seen.txt'], from: { gemini: true, hookmd: false, parallel: true } });
    const sent = JSON.parse(await readFile(join(project, 'sent-to-second.json'), 'utf8')) as { tool_input: { command: string } };
    return { seen: await readFile(join(project, 'seen.txt'), 'utf8'), second: sent.tool_input.command };
  };

  it('runs the hooks of an event side by side: the second is sent the call as the model wrote it, not the first one’s rewrite', async () => {
    const { seen, second } = await run(false);
    expect(second).toBe('echo original >> seen.txt');
    expect(seen).toBe('second\n');
  });

  it('runs them one after another when a definition of the event says sequential: true: the second is sent the first one’s rewrite', async () => {
    const { seen, second } = await run(true);
    expect(second).toBe('echo first >> seen.txt');
    expect(seen).toBe('second\n');
  });
});
