import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentBuilder, ScriptedModel } from 'agent-hooks';
import { sandbox } from './support.js';

// SessionStart and SessionEnd payloads as Claude Code 2.1.332 sends them headless (test/agents/claude-rules.test.ts
// records them from the binary): SessionStart `source` and no `model` or `permission_mode`; SessionEnd `reason`
// "other" and no `permission_mode`. Real settings, real processes.

const setup = sandbox();

describe('Claude Code session payloads', () => {
  it('a closed session ends with reason "other", so a matcher "other" hook runs; neither payload has keys Claude Code does not send', async () => {
    const { project, write } = await setup();
    const record = (name: string) => ({ type: 'command', command: `cat > ${JSON.stringify(join(project, name))}`, timeout: 20 });
    await write(project, '.claude/settings.json', {
      hooks: {
        SessionStart: [{ hooks: [record('start.json')] }],
        SessionEnd: [{ hooks: [record('end.json')] }, { matcher: 'other', hooks: [{ type: 'command', command: `touch ${JSON.stringify(join(project, 'end-other'))}`, timeout: 20 }] }],
      },
    });
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel(['done']))
      .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, claude: true, hookmd: false })
      .build();
    const session = agent.session();
    await session.run('go');
    await session.close();
    const start = JSON.parse(await readFile(join(project, 'start.json'), 'utf8')) as Record<string, unknown>;
    const end = JSON.parse(await readFile(join(project, 'end.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(start).sort()).toEqual(['cwd', 'hook_event_name', 'session_id', 'source', 'transcript_path']);
    expect(start.source).toBe('startup');
    expect(Object.keys(end).sort()).toEqual(['cwd', 'hook_event_name', 'reason', 'session_id', 'transcript_path']);
    expect(end.reason).toBe('other');
    expect(existsSync(join(project, 'end-other'))).toBe(true);
  });
});
