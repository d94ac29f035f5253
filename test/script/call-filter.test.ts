import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KNOWN_TOOL_NAMES, ToolNameMatcher } from '../../src/core/index.js';
import { mayRunOn } from '../../src/script/internal/call-filter.js';

describe('leaving out, before loading, the HOOK.md hooks that cannot run on a call', () => {
  it('never leaves out a hook whose matcher would match the call', () => {
    const name = fc.constantFrom(...KNOWN_TOOL_NAMES, 'mcp__x__y', 'my_tool', 'Edit', 'Shell', 'ell', 'Writ');
    const tool = fc.oneof(
      name.map((n) => `^${n}$`),
      name,
      fc.array(name, { minLength: 1, maxLength: 3 }).map((ns) => `^(${ns.join('|')})$`),
      fc.array(name, { minLength: 1, maxLength: 3 }).map((ns) => ns.join('|')),
      fc.constantFrom('^mcp__.*$', 'Edit.*', '[Bb]ash', '^Bash', 'ash$', '(', ''),
    );
    const trigger = fc.constantFrom('pre-tool-call', 'PreToolUse', 'before_tool', 'post-tool-call', 'Stop', 'no-such-event', 42);
    fc.assert(
      fc.property(trigger, tool, fc.constantFrom(...KNOWN_TOOL_NAMES, 'mcp__x__y', 'BashOutput'), (t, m, called) => {
        const data = { name: 'h', trigger: t, matcher: { tool: m } };
        let runs: boolean;
        try {
          runs = t === 'pre-tool-call' || t === 'PreToolUse' || t === 'before_tool' ? m === '' || new ToolNameMatcher(new RegExp(m)).matchesName(called) : false;
        } catch {
          runs = true; // an invalid regex is the hook's own problem to report
        }
        if (typeof t !== 'string' || t === 'no-such-event') runs = true;
        if (runs) expect(mayRunOn(data, { event: 'PreToolUse', tool: called }), JSON.stringify({ data, called })).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves out hooks of other events and of other tools, by any of their names', () => {
    expect(mayRunOn({ trigger: 'post-tool-call' }, { event: 'PreToolUse', tool: 'Bash' })).toBe(false);
    expect(mayRunOn({ trigger: 'pre-tool-call', matcher: { tool: '^Write$' } }, { event: 'PreToolUse', tool: 'Bash' })).toBe(false);
    expect(mayRunOn({ trigger: 'pre-tool-call', matcher: { tool: '^Shell$' } }, { event: 'PreToolUse', tool: 'Bash' })).toBe(true);
    expect(mayRunOn({ trigger: 'pre-tool-call', matcher: { tool: 'Shell' } }, { event: 'PreToolUse', tool: 'run_shell_command' })).toBe(true);
    // A real regex is never run here: the hook is loaded and decides.
    expect(mayRunOn({ trigger: 'pre-tool-call', matcher: { tool: '(a+)+$' } }, { event: 'PreToolUse', tool: 'Bash' })).toBe(true);
    expect(mayRunOn({ trigger: 'Stop', matcher: { tool: '^Write$' } }, { event: 'Stop' })).toBe(true);
  });
});
