import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { installMatcher, type MatchedHook } from '../../src/bridge/install-matchers.js';
import type { InstallAgent } from '../../src/bridge/install-targets.js';
import { KNOWN_TOOL_NAMES, ToolNameMatcher } from '../../src/core/index.js';

/** Whether `agent` starts its hook for `tool` under `matcher`, as each agent reads its matchers. */
function agentRuns(agent: InstallAgent, matcher: string | undefined, tool: string): boolean {
  if (matcher === undefined) return true;
  if (agent === 'copilot') return new RegExp(`^(?:${matcher})$`).test(tool);
  if ((agent === 'claude' || agent === 'codex') && /^[A-Za-z0-9_|-]+$/.test(matcher)) return matcher.split('|').includes(tool);
  return new RegExp(matcher).test(tool);
}

/** Whether the HOOK.md hook runs for `tool`: its `matcher.tool` compiled and tested as the bridge does. */
const hookRuns = (hook: MatchedHook, tool: string): boolean => hook.tool === undefined || new ToolNameMatcher(new RegExp(hook.tool)).matchesName(tool);

const AGENTS: readonly InstallAgent[] = ['claude', 'codex', 'gemini', 'copilot'];
const CUSTOM = ['mcp__github__create_issue', 'my_tool', 'NotebookEdit', 'BashOutput', 'shell-x', 'a.b', 'PowerShell'];
const TOOLS = [...KNOWN_TOOL_NAMES, ...CUSTOM];

describe('the tool matchers bridge --install writes', () => {
  it('cover every tool any hook on the event matches, for every agent that applies matchers', () => {
    const name = fc.constantFrom(...KNOWN_TOOL_NAMES, ...CUSTOM, 'Edit', 'Shell', 'Bash', 'Writ', 'ell');
    const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const tool = fc.oneof(
      fc.constant(undefined),
      name.map((n) => `^${escape(n)}$`),
      name.filter((n) => /^[\w-]+$/.test(n)),
      fc.array(name, { minLength: 1, maxLength: 3 }).map((ns) => `^(${ns.map(escape).join('|')})$`),
      fc.array(name.filter((n) => /^[\w-]+$/.test(n)), { minLength: 1, maxLength: 3 }).map((ns) => ns.join('|')),
      fc.constantFrom('^mcp__.*$', 'Edit.*', '^(?:Write|Edit)', '[Bb]ash', 'read_file$', '^Bash'),
    );
    const hook = fc.record({ event: fc.constantFrom('PreToolUse' as const, 'PostToolUse' as const), tool });
    fc.assert(
      fc.property(fc.array(hook, { minLength: 1, maxLength: 4 }), fc.constantFrom(...AGENTS), (hooks, agent) => {
        for (const event of ['PreToolUse', 'PostToolUse'] as const) {
          const matcher = installMatcher(agent, event, hooks);
          for (const t of TOOLS) {
            if (hooks.some((h) => h.event === event && hookRuns(h, t))) expect(agentRuns(agent, matcher, t), `${agent} ${event} ${matcher} ${t} ${JSON.stringify(hooks)}`).toBe(true);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('writes the exact names for anchored names, the agent’s own syntax for each', () => {
    const hooks: MatchedHook[] = [{ event: 'PreToolUse', tool: '^Bash$' }];
    expect(installMatcher('claude', 'PreToolUse', hooks)?.split('|').sort()).toEqual(['Bash', 'Execute', 'Shell', 'bash', 'runTerminalCommand', 'run_commands', 'run_in_terminal', 'run_shell_command'].sort());
    expect(installMatcher('gemini', 'PreToolUse', hooks)).toMatch(/^\^\(\?:.*run_shell_command.*\)\$$/);
    expect(new RegExp(`^(?:${installMatcher('copilot', 'PreToolUse', hooks)})$`).test('bash')).toBe(true);
    // Shell, as the HOOK.md spec writes it, matches any name that contains it: a regex, never Claude Code's exact word.
    const shell = installMatcher('claude', 'PreToolUse', [{ event: 'PreToolUse', tool: 'Shell' }])!;
    expect(new RegExp(shell).test('Bash')).toBe(true);
    expect(new RegExp(shell).test('PowerShell')).toBe(true);
  });

  it('writes none where a hook matches every tool, a real regex, another event, or an agent that does not apply matchers', () => {
    expect(installMatcher('claude', 'PreToolUse', [{ event: 'PreToolUse', tool: '^Bash$' }, { event: 'PreToolUse', tool: undefined }])).toBeUndefined();
    expect(installMatcher('claude', 'PreToolUse', [{ event: 'PreToolUse', tool: '^mcp__.*$' }])).toBeUndefined();
    expect(installMatcher('claude', 'PreToolUse', [{ event: 'PostToolUse', tool: '^Bash$' }])).toBeUndefined();
    expect(installMatcher('claude', 'Stop', [{ event: 'Stop', tool: undefined }])).toBeUndefined();
    expect(installMatcher('vscode', 'PreToolUse', [{ event: 'PreToolUse', tool: '^Bash$' }])).toBeUndefined();
    expect(installMatcher('cursor', 'PreToolUse', [{ event: 'PreToolUse', tool: '^Bash$' }])).toBeUndefined();
  });
});
