import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import agentsJson from './agents/agents.json' with { type: 'json' };
import { compareVersions, fixtureChanges, unacknowledged } from './agents/support/fixture-diff.js';

// The payloads each agent sends, recorded per version (test/agents/fixtures/<agent>/<version>/): a newer version's
// changed field fails here until someone has read it and written its line into that version's CHANGES.md, so a new
// release's wire format shows up as a diff to read, never as a silent pass.

const FIXTURES = join(import.meta.dirname, 'agents', 'fixtures');
const PINS = Object.fromEntries(Object.entries(agentsJson).filter(([name]) => !name.startsWith('/'))) as Record<string, { version: string }>;

describe('the recorded payloads of a newer version than the pin', () => {
  for (const agent of readdirSync(FIXTURES).sort()) {
    const pin = PINS[agent]?.version;
    it(`${agent}: every field that changed from the pin is acknowledged in the newer version's CHANGES.md`, () => {
      expect(pin, `test/agents/fixtures/${agent}/ has no pin in test/agents/agents.json`).toBeDefined();
      const newer = readdirSync(join(FIXTURES, agent)).filter((v) => compareVersions(v, pin!) > 0);
      for (const version of newer) {
        const dir = join(FIXTURES, agent, version);
        const older = join(FIXTURES, agent, pin!);
        expect(existsSync(older), `test/agents/fixtures/${agent}/${version}/ has nothing to be compared with: record the pin ${pin} (npx tsx test/agents/record-payloads.ts ${agent})`).toBe(true);
        const missing = unacknowledged(fixtureChanges(older, dir), dir);
        expect(
          missing,
          `${agent} ${version} sends other payloads than the pin ${pin}. Read each change; then add its line, as printed, to test/agents/fixtures/${agent}/${version}/CHANGES.md with what it means for the bridge:\n${missing.map((c) => `- \`${c}\``).join('\n')}\n`,
        ).toEqual([]);
      }
    });
  }
});

describe('fixtureChanges', () => {
  const root = mkdtempSync(join(tmpdir(), 'agent-hooks-fixtures-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (version: string, files: Record<string, unknown>, changes?: string): string => {
    const dir = join(root, version);
    mkdirSync(dir, { recursive: true });
    for (const [event, payload] of Object.entries(files)) writeFileSync(join(dir, `${event}.json`), JSON.stringify(payload));
    if (changes !== undefined) writeFileSync(join(dir, 'CHANGES.md'), changes);
    return dir;
  };
  const pin = write('1.0.0', {
    PreToolUse: { session_id: '<UUID>', tool_input: { command: 'touch x', timeout: 30 }, cwd: '<ROOT>/project' },
    Stop: { stop_hook_active: false, messages: [{ role: 'user' }] },
    SessionEnd: { reason: 'exit' },
  });

  it('lists a key added, a key removed, a value of another type (in arrays too) and an event gained or lost', () => {
    const next = write('1.1.0', {
      PreToolUse: { session_id: '<UUID>', tool_input: { command: 'touch y', timeout: '30s', description: 'make x' } },
      Stop: { stop_hook_active: false, messages: [{ role: 'user', content: [] }] },
      PermissionRequest: { tool_name: 'Bash' },
    });
    expect(fixtureChanges(pin, next)).toEqual([
      'PermissionRequest: new event recorded',
      'PreToolUse: - cwd (string)',
      'PreToolUse: + tool_input.description (string)',
      'PreToolUse: ~ tool_input.timeout (number → string)',
      'SessionEnd: no longer recorded',
      'Stop: + messages[].content (array)',
    ]);
  });

  it('lists nothing when only the values changed', () => {
    const next = write('1.2.0', { PreToolUse: { session_id: '<UUID>', tool_input: { command: 'ls', timeout: 5 }, cwd: '/elsewhere' }, Stop: { stop_hook_active: true, messages: [{ role: 'assistant' }] }, SessionEnd: { reason: 'clear' } });
    expect(fixtureChanges(pin, next)).toEqual([]);
  });

  it('counts a change acknowledged only when CHANGES.md holds its line', () => {
    const next = write(
      '1.3.0',
      { PreToolUse: { session_id: '<UUID>', tool_input: { command: 'ls', timeout: 5 }, cwd: '/x', model: 'm' }, Stop: { stop_hook_active: false, messages: [] }, SessionEnd: { reason: 'exit', at: 1 } },
      '# 1.3.0\n\n- `PreToolUse: + model (string)`: the model\'s name, not read by the bridge.\n',
    );
    const changes = fixtureChanges(pin, next);
    expect(changes).toEqual(['PreToolUse: + model (string)', 'SessionEnd: + at (number)', 'Stop: - messages[] (object)', 'Stop: - messages[].role (string)']);
    expect(unacknowledged(changes, next)).toEqual(['SessionEnd: + at (number)', 'Stop: - messages[] (object)', 'Stop: - messages[].role (string)']);
  });
});

describe('compareVersions', () => {
  it('orders release numbers as numbers, and a pre-release before its release', () => {
    expect(['0.171.0', '0.169.0', '0.61.0', '1.0.0', '1.0.0-beta.2', '0.9.10'].sort(compareVersions)).toEqual(['0.9.10', '0.61.0', '0.169.0', '0.171.0', '1.0.0-beta.2', '1.0.0']);
  });
});
