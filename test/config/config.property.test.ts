import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  claudeDialect,
  configMatcher,
  copilotDialect,
  cursorDialect,
  geminiDialect,
  parseConfigJson,
  ToolCall,
  ToolHookContext,
  vscodeDialect,
} from 'agent-hooks';
import { jsonErrorOffset } from '../../src/config/config-file.js';
import { exited } from '../support/script-fixture.js';

const name = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
const tool = (toolName: string) => ToolHookContext.beforeToolUse(ToolCall.create(toolName, { command: 'ls' }));

describe('matcher rules', () => {
  it('a Claude Code list of plain names matches exactly those names', () => {
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 5 }), name, (names, other) => {
        const matcher = configMatcher(names.join('|'), 'PreToolUse', 'claude')!;
        for (const n of names) expect(matcher.matches(tool(n))).toBe(true);
        expect(matcher.matches(tool(other))).toBe(names.includes(other));
      }),
    );
  });

  it('a Copilot matcher must match the whole name; a Gemini one anywhere in it', () => {
    fc.assert(
      fc.property(name, name, name, (prefix, core, suffix) => {
        const anchored = configMatcher(core, 'PreToolUse', 'anchored')!;
        const loose = configMatcher(core, 'PreToolUse', 'regex')!;
        const longer = `${prefix}${core}${suffix}`;
        expect(anchored.matches(tool(core))).toBe(true);
        expect(anchored.matches(tool(longer))).toBe(new RegExp(`^(?:${core})$`).test(longer));
        expect(loose.matches(tool(longer))).toBe(true);
      }),
    );
  });

  it('everything-matchers match every tool under every rule', () => {
    fc.assert(
      fc.property(fc.constantFrom('*', '', ' * '), fc.constantFrom('claude', 'anchored', 'regex' as const), name, (pattern, rule, toolName) => {
        expect(configMatcher(pattern, 'PreToolUse', rule)).toBeUndefined();
        void toolName;
      }),
    );
  });
});

describe('JSON config errors', () => {
  it('valid JSON has no error position', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(jsonErrorOffset(text)).toBe(text.length);
      }),
    );
  });

  it('invalid text always gets a problem with a line and column inside the file', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        let valid = true;
        try {
          JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
        } catch {
          valid = false;
        }
        const read = parseConfigJson(text, 'f.json');
        if (valid || text.trim() === '') {
          expect(read.status).toBe('ok');
          return;
        }
        expect(read.status).toBe('invalid');
        if (read.status !== 'invalid') return;
        const lines = text.split('\n');
        expect(read.problem.line).toBeGreaterThanOrEqual(1);
        expect(read.problem.line).toBeLessThanOrEqual(lines.length);
        expect(read.problem.column).toBeLessThanOrEqual((lines[read.problem.line! - 1]?.length ?? 0) + 1);
      }),
    );
  });
});

describe('dialects never throw', () => {
  const hook = { name: 'h', failClosed: false };

  it('whatever a hook prints, each dialect comes to a decision, with a reason when it blocks', () => {
    const output = fc.oneof(
      fc.string(),
      fc.json(),
      fc.dictionary(fc.constantFrom('decision', 'continue', 'reason', 'hookSpecificOutput', 'permission', 'permissionDecision', 'modifiedArgs', 'updated_input', 'followup_message', 'systemMessage'), fc.jsonValue()).map((o) => JSON.stringify(o)),
    );
    fc.assert(
      fc.property(fc.constantFrom(claudeDialect, vscodeDialect, copilotDialect, geminiDialect, cursorDialect), fc.constantFrom(0, 1, 2), output, (dialect, code, stdout) => {
        const decision = dialect.interpret(exited(code, stdout), tool('bash'), hook);
        expect(['proceed', 'block', 'stop', 'ask']).toContain(decision.kind);
        if (decision.kind !== 'proceed') expect(decision.reason?.trim()).toBeTruthy();
      }),
      { numRuns: 300 },
    );
  });
});
