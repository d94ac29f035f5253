import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentBuilder, ScriptedModel } from 'agent-hooks';
import { sandbox } from './support.js';

// A StopFailure payload as Claude Code 2.1.332 sends it on an API error (test/agents/claude-rules.test.ts runs the binary
// against an API answering HTTP 400): `error` "unknown", the API error as `last_assistant_message`, no `error_details`
// and no `permission_mode`. Real settings, a real process.

const setup = sandbox();

describe('Claude Code StopFailure payload', () => {
  it('an HTTP 400: error "unknown", last_assistant_message "API Error: 400 <message>", no error_details or permission_mode', async () => {
    const { project, write } = await setup();
    const file = join(project, 'stop-failure.json');
    await write(project, '.claude/settings.json', { hooks: { StopFailure: [{ hooks: [{ type: 'command', command: `cat > ${JSON.stringify(file)}`, timeout: 20 }] }] } });
    const error = Object.assign(new Error('RULE-API-ERROR: this request is refused'), { status: 400 });
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel(() => Promise.reject(error)))
      .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, claude: true, hookmd: false })
      .build();
    await agent.run('go', { rejectOnFailure: false });
    const payload = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(payload).toMatchObject({ hook_event_name: 'StopFailure', error: 'unknown', last_assistant_message: 'API Error: 400 RULE-API-ERROR: this request is refused' });
    expect('error_details' in payload).toBe(false);
    expect('permission_mode' in payload).toBe(false);
  });
});
