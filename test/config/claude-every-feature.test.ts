import { describe, expect, it } from 'vitest';
import { loadClaudeHooks, type CommandHook } from 'agent-hooks';
import { sandbox } from './support.js';

// A Claude Code settings file that uses every event Claude Code 2.1.332 fires and every handler type and field its
// schema has: each handler either loads or is named by a problem. Nothing is dropped without a word.

const setup = sandbox();

/** Every event in Claude Code 2.1.332's settings schema (the binary's list). */
const CLAUDE_EVENTS = [
  'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Notification', 'UserPromptSubmit', 'UserPromptExpansion',
  'SessionStart', 'SessionEnd', 'Stop', 'StopFailure', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact',
  'PreModelSwitch', 'PostModelSwitch', 'PermissionRequest', 'PermissionDenied', 'Setup', 'TeammateIdle', 'TaskCreated',
  'TaskCompleted', 'Elicitation', 'ElicitationResult', 'ConfigChange', 'WorktreeCreate', 'WorktreeRemove',
  'InstructionsLoaded', 'CwdChanged', 'FileChanged', 'DirectoryAdded', 'MessageDisplay', 'PreSkillShellCommand',
];

/** A handler of each type, with every field its schema takes. */
const HANDLERS: readonly Record<string, unknown>[] = [
  { type: 'command', command: 'true', args: undefined, if: 'Bash(git *)', shell: 'bash', timeout: 5, onFailure: 'block', statusMessage: 's', once: true, async: false },
  { type: 'command', command: 'echo', args: ['${CLAUDE_PROJECT_DIR}'], timeout: 5, onFailure: 'continue', asyncRewake: true },
  { type: 'command', command: 'true', shell: 'powershell' },
  { type: 'prompt', prompt: 'Is $ARGUMENTS safe?', if: 'Bash', timeout: 5, model: 'claude-haiku', continueOnBlock: true, statusMessage: 's', once: true },
  { type: 'http', url: 'http://127.0.0.1:9/hook', if: 'Bash(rm *)', timeout: 5, onFailure: 'block', headers: { Authorization: 'Bearer $TOKEN' }, allowedEnvVars: ['TOKEN'], statusMessage: 's', once: true },
  { type: 'agent', prompt: 'Verify the tests ran.', if: 'Bash', timeout: 30, model: 'claude-haiku', statusMessage: 's', once: true },
  { type: 'mcp_tool', server: 'github', tool: 'check', input: { path: '${tool_input.file_path}' }, if: 'Edit', timeout: 5, onFailure: 'block', statusMessage: 's', once: true },
];

describe('a Claude Code settings file that uses every feature', () => {
  it('loads each handler or names it in a problem; none is dropped without a word', async () => {
    const { project, write } = await setup();
    const hooks = Object.fromEntries(CLAUDE_EVENTS.map((event) => [event, [{ matcher: 'Bash', hooks: HANDLERS.map((h) => JSON.parse(JSON.stringify(h)) as unknown) }]]));
    await write(project, '.claude/settings.json', { hooks });
    const loaded = await loadClaudeHooks({ projectDir: project, homeDir: false, trust: 'all', judge: async () => '{"ok": true}' });
    const loadedAt = new Set(loaded.hooks.map((h) => (h as CommandHook).origin.field));
    const named = (field: string): boolean => loaded.problems.some((p) => p.field !== undefined && (field === p.field || field.startsWith(`${p.field}.`) || field.startsWith(`${p.field}[`) || p.field.startsWith(`${field}.`)));
    const silent: string[] = [];
    for (const event of CLAUDE_EVENTS) {
      HANDLERS.forEach((_, h) => {
        const field = `hooks.${event}[0].hooks[${h}]`;
        if (!loadedAt.has(field) && !named(field)) silent.push(field);
      });
    }
    expect(silent).toEqual([]);
    // And every problem names its file and says what to do.
    for (const problem of loaded.problems) {
      expect(problem.file).toMatch(/settings\.json$/);
      expect(problem.message.length).toBeGreaterThan(20);
    }
    // An event Claude Code has and this does not is named as such, never taken for a misspelling.
    expect(loaded.problems.find((p) => p.field === 'hooks.PreSkillShellCommand')?.code).toBe('event-not-here');
    // The handlers that can run here do, on the events that exist here.
    expect(loaded.hooks.length).toBeGreaterThan(0);
  });
});
