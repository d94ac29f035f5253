/**
 * Guards in a Copilot hook file that Copilot CLI 1.0.102 enforces and that must therefore guard here too: a Claude
 * Code-style matcher group, a command that is not found, a powershell-only entry on Linux (test/agents/copilot-rules
 * shows the binary doing each). Each runs a real agent with a real `bash` tool and real hook processes.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, CommandHook, ScriptedModel, defineTool, loadCopilotHooks, type AgentWarning } from 'agent-hooks';
import { sandbox } from './support.js';

const setup = sandbox();

/** Runs `commands` through a `bash` tool in an agent that loads the project's Copilot files; what the shell left. */
async function runIn(project: string, commands: readonly string[]): Promise<{ warnings: AgentWarning[]; exists: (file: string) => boolean }> {
  const model = new ScriptedModel([...commands.map((command) => ({ toolCalls: [{ name: 'bash', args: { command } }] })), 'done']);
  const bash = defineTool({
    name: 'bash',
    description: 'Runs a shell command.',
    input: z.object({ command: z.string() }),
    execute: (input) => execFileSync('/bin/sh', ['-c', input.command], { cwd: project, encoding: 'utf8' }),
  });
  const agent = AgentBuilder.new()
    .withModel(model)
    .withTools(bash)
    .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, copilot: true, hookmd: false, platform: 'linux' })
    .build();
  const warnings: AgentWarning[] = [];
  agent.events.on('warning', (w) => warnings.push(w));
  await agent.run('go');
  return { warnings, exists: (file) => existsSync(join(project, file)) };
}

describe('Copilot files: the guards Copilot CLI enforces', () => {
  it('loads a Claude-style { matcher, hooks } group as Copilot runs it: each hook under the group’s matcher', async () => {
    const { project, write } = await setup();
    await write(project, '.github/hooks/guard.json', {
      version: 1,
      hooks: { preToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: './a.sh', timeoutSec: 5 }, { type: 'command', bash: './b.sh', matcher: 'view' }] }] },
    });
    const { hooks, problems } = await loadCopilotHooks({ projectDir: project, trust: 'all', homeDir: false, platform: 'linux' });
    expect(problems).toEqual([]);
    const [a, b] = hooks as CommandHook[];
    expect(a!.command).toBe('./a.sh');
    expect(a!.origin.field).toBe('hooks.preToolUse[0].hooks[0].command');
    expect(a!.origin.matcher).toBe('bash');
    expect(a!.timeoutMs).toBe(5000);
    expect(b!.command).toBe('./b.sh');
    expect(b!.origin.matcher).toBe('view');
  });

  it('a group’s exit-2 guard denies the call', async () => {
    const { project, write } = await setup();
    await write(project, '.github/hooks/guard.json', {
      version: 1,
      hooks: { preToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: 'if grep -q denied; then echo no >&2; exit 2; fi' }] }] },
    });
    const { exists } = await runIn(project, ['touch denied.txt', 'touch allowed.txt']);
    expect(exists('denied.txt')).toBe(false);
    expect(exists('allowed.txt')).toBe(true);
  });

  it('a preToolUse guard whose command is not found (exit 127) denies the call', async () => {
    const { project, write } = await setup();
    await write(project, '.github/hooks/guard.json', { version: 1, hooks: { preToolUse: [{ bash: 'if grep -q denied; then no-such-guard-command; fi' }] } });
    const { exists, warnings } = await runIn(project, ['touch denied.txt', 'touch allowed.txt']);
    expect(exists('denied.txt')).toBe(false);
    expect(exists('allowed.txt')).toBe(true);
    expect(warnings.map((w) => w.message).join('\n')).toMatch(/exited with 127.*blocked/);
  });

  it('a powershell-only entry runs with pwsh on Linux, is reported, and without pwsh denies: the hooks after it do not run', async () => {
    const { project, write } = await setup();
    const file = await write(project, '.github/hooks/guard.json', { version: 1, hooks: { preToolUse: [{ powershell: 'Write-Output ok' }, { bash: 'cat > /dev/null; touch audited.txt' }] } });
    const { hooks, problems } = await loadCopilotHooks({ projectDir: project, trust: 'all', homeDir: false, platform: 'linux' });
    expect(hooks).toHaveLength(2);
    expect(problems).toEqual([expect.objectContaining({ file, field: 'hooks.preToolUse[0].powershell', code: 'other-platform-command', severity: 'warning' })]);
    let pwsh = true;
    try {
      execFileSync('pwsh', ['-Version'], { stdio: 'ignore' });
    } catch {
      pwsh = false;
    }
    if (pwsh) return; // With pwsh the entry simply runs; what is tested below is the machine without it.
    const { exists } = await runIn(project, ['touch denied.txt']);
    expect(exists('denied.txt')).toBe(false);
    expect(exists('audited.txt')).toBe(false);
  });
});

describe('Copilot files: the fields Copilot CLI reads its own way', () => {
  it('reads timeout as timeoutSec, applies no matcher outside tool events, and reads no file of another version', async () => {
    const { project, write } = await setup();
    const file = await write(project, '.github/hooks/a.json', {
      version: 1,
      hooks: { preToolUse: [{ bash: './guard.sh', timeout: 7 }], sessionStart: [{ bash: './start.sh', matcher: 'resume' }] },
    });
    const later = await write(project, '.github/hooks/b.json', { version: 2, hooks: { preToolUse: [{ bash: './v2.sh' }] } });
    const { hooks, problems } = await loadCopilotHooks({ projectDir: project, trust: 'all', homeDir: false, platform: 'linux' });
    expect(hooks.map((h) => (h as CommandHook).command)).toEqual(['./guard.sh', './start.sh']);
    expect(hooks[0]!.timeoutMs).toBe(7000);
    expect(hooks[1]!.matcher).toBeUndefined();
    expect(problems).toEqual([
      expect.objectContaining({ file, field: 'hooks.sessionStart[0].matcher', code: 'ignored-matcher', severity: 'warning' }),
      expect.objectContaining({ file: later, field: 'version', code: 'unknown-version', severity: 'warning' }),
    ]);
  });
});
