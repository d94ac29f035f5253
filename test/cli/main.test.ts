import { describe, expect, it } from 'vitest';
import { HookEvent } from 'agent-hooks';
import { main } from '../../src/cli/main.js';

const capture = (argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = main(argv, (t) => out.push(t), (t) => err.push(t));
  return { code, out: out.join('\n'), err: err.join('\n') };
};

describe('agent-hooks command line', () => {
  it('lists every event with each dialect’s name', () => {
    const { code, out } = capture(['events']);
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines).toHaveLength(1 + HookEvent.all.length);
    expect(lines.find((l) => l.startsWith('PreToolUse '))).toMatch(/PreToolUse +yes +yes +yes +PreToolUse +pre-tool-call +before_tool +PreToolUse +preToolUse +BeforeTool/);
    expect(lines.find((l) => l.startsWith('Stop '))).toMatch(/agentStop +AfterAgent +stop$/);
  });

  it('prints the event table as JSON with --json', () => {
    const { code, out } = capture(['events', '--json']);
    expect(code).toBe(0);
    const rows = JSON.parse(out) as { event: string; canBlock: boolean; names: Record<string, string | null> }[];
    expect(rows.map((r) => r.event)).toEqual([...HookEvent.all]);
    const stop = rows.find((r) => r.event === 'Stop')!;
    expect(stop.canBlock).toBe(true);
    expect(stop.names).toMatchObject({ gemini: 'AfterAgent', 'hookmd-legacy': 'before_stop', copilot: 'agentStop' });
    expect(rows.find((r) => r.event === 'AfterStop')!.names.claude).toBeNull();
  });

  it('prints its version and help', () => {
    expect(capture(['--version']).out).toMatch(/^\d+\.\d+\.\d+/);
    expect(capture(['--help'])).toMatchObject({ code: 0, out: expect.stringContaining('Usage: agent-hooks') });
  });

  it('exits 2 with the usage on an unknown command or option, or none', () => {
    expect(capture(['frobnicate'])).toMatchObject({ code: 2, err: expect.stringContaining("unknown command 'frobnicate'") });
    expect(capture(['events', '--yaml'])).toMatchObject({ code: 2, err: expect.stringContaining('unknown option --yaml') });
    expect(capture([]).code).toBe(2);
  });
});
