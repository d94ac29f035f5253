/**
 * Exit 2 is the protocol's block, whoever chose it — but a shell that stops on a syntax error, or a `grep` that fails
 * on its pattern, exits 2 too. Real scripts, real processes, a real HookStack: the block stands, and a note says the
 * guard may have crashed rather than decided; a deliberate block says nothing more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentState, HookOutcome, HookStack, StopHookContext, ToolCall, ToolHookContext, type AnyHookContext, type HookNote } from 'agent-hooks';
import { tempDir } from '../support/script-fixture.js';
import { loadFaultHook, writeFaultProject } from './harness.js';
import type { Carrier, FaultRow } from './matrix.js';

let root: string;
let cleanup: () => Promise<void>;
let seq = 0;
beforeAll(async () => ({ dir: root, cleanup } = await tempDir('agent-hooks-exit2-')));
afterAll(() => cleanup());

const sh = (body: string): string => `#!/bin/sh\ncat > /dev/null\n${body}\n`;

/** A row of the matrix's shape, for one script. */
const rowOf = (id: string, script: string): FaultRow => ({
  id,
  fault: id,
  kind: 'deny',
  hookmd: { code: undefined, cause: /./, script },
  claude: { code: undefined, cause: /./, script, command: { text: '"$CLAUDE_PROJECT_DIR/.claude/hooks/check"', path: '.claude/hooks/check' } },
});

const SCRIPTS = {
  // dash: "Syntax error: end of file unexpected (expecting "fi")"; bash: "syntax error: unexpected end of file".
  'shell syntax error': sh('if [ -n "$HOME" ]; then\n  echo fine'),
  'grep with a bad pattern': sh('grep -q "[" /dev/null'),
  'a deliberate block': sh('echo "rm -rf is not allowed here" >&2\nexit 2'),
};

async function dispatch(row: FaultRow, carrier: Carrier, ctx: AnyHookContext) {
  const project = await writeFaultProject(`${root}/${++seq}-${row.id.replace(/\W+/g, '-')}-${carrier}`, row, carrier, 'open');
  const hook = await loadFaultHook(project, carrier, 'open');
  const notes: HookNote[] = [];
  let reached = false;
  const outcome = await new HookStack().with(hook, hook.priority).process(
    ctx,
    (c) => {
      reached = true;
      return HookOutcome.proceed(c);
    },
    { onNote: (n) => notes.push(n) },
  );
  return { outcome, notes, reached };
}

const preToolUse = () => ToolHookContext.beforeToolUse(ToolCall.create('Shell', { command: 'ls' }, 'call_1'), { state: AgentState.create({ sessionId: 'exit2' }) });

describe('exit 2 from a crashed shell or grep', () => {
  for (const carrier of ['hookmd', 'claude'] as const) {
    it(`${carrier}: blocks, with an exit-2-looks-like-error note naming the error line`, async () => {
      for (const id of ['shell syntax error', 'grep with a bad pattern'] as const) {
        const { outcome, notes, reached } = await dispatch(rowOf(id, SCRIPTS[id]), carrier, preToolUse());
        expect(outcome.type, id).toBe('block');
        expect(reached, id).toBe(false);
        expect(notes.map((n) => n.code), id).toEqual(['exit-2-looks-like-error']);
        expect(notes[0]!.message, id).toMatch(/exited with code 2, which blocks, but its stderr looks like a shell or grep error/);
        expect(notes[0]!.message, id).toMatch(id === 'grep with a bad pattern' ? /grep: / : /[Ss]yntax error/);
      }
    });

    it(`${carrier}: a deliberate block with its reason has no note`, async () => {
      const { outcome, notes } = await dispatch(rowOf('deliberate', SCRIPTS['a deliberate block']), carrier, preToolUse());
      expect(outcome.type).toBe('block');
      expect(outcome.reason).toBe('rm -rf is not allowed here');
      expect(notes).toEqual([]);
    });
  }

  it('on a Stop gate the block still keeps the agent working, and the note says why it may be a crash', async () => {
    const stop = StopHookContext.stop({ stopReason: 'no_tool_calls', finalMessage: 'done', state: AgentState.create({ sessionId: 'exit2' }) });
    const row = rowOf('stop syntax error', SCRIPTS['shell syntax error']);
    const project = await writeFaultProject(`${root}/${++seq}-stop`, row, 'hookmd', 'open');
    // The fault projects trigger on PreToolUse; this one guards Stop.
    const { readFile, writeFile } = await import('node:fs/promises');
    const file = `${project.dir}/.agents/hooks/fault-hook/HOOK.md`;
    await writeFile(file, (await readFile(file, 'utf8')).replace('trigger: pre-tool-call\nmatcher:\n  tool: ^Shell$\n', 'trigger: before_stop\n'));
    const hook = await loadFaultHook(project, 'hookmd', 'open');
    const notes: HookNote[] = [];
    const outcome = await new HookStack().with(hook, hook.priority).process(stop, (c) => HookOutcome.proceed(c), { onNote: (n) => notes.push(n) });
    expect(outcome.type).toBe('block');
    expect(notes.map((n) => n.code)).toEqual(['exit-2-looks-like-error']);
  });
});
