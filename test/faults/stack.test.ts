/**
 * Every fault of the matrix, through a real hook (a HOOK.md script, and a Claude Code command where it adds
 * something) in a real process, dispatched through a real HookStack, failing open and failing closed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentState, HookOutcome, HookStack, ProcessPool, ToolCall, ToolHookContext, type AnyHookContext, type HookNote, type ScriptExit } from 'agent-hooks';
import { readPid, tempDir } from '../support/script-fixture.js';
import {
  carrierFault,
  expectNothingLeft,
  grandchildPid,
  loadFaultHook,
  printMeasures,
  withoutUnhandledRejections,
  writeFaultProject,
  type Measure,
} from './harness.js';
import { carriersOf, FAULT_TIMEOUT_MS, FAULTS, FLOOD_CHUNKS, HOOK_PID_FILE, KILL_GRACE_MS, LARGE_PAYLOAD_BYTES, OUTPUT_CAP_BYTES, type FaultRow } from './matrix.js';

// The kill takes the grace period at most, then the runner waits up to half a second for the group to die and a moment
// for the pipes to drain; the rest is slack for a loaded machine. A bound on correctness, not on speed.
const KILL_BOUND_MS = FAULT_TIMEOUT_MS + KILL_GRACE_MS + 2500;
// Nothing a note or a reason says needs more than this; a flood must not leak into either.
const MAX_MESSAGE_CHARS = 4000;

let root: string;
let cleanup: () => Promise<void>;
let seq = 0;
const measures: Measure[] = [];
beforeAll(async () => ({ dir: root, cleanup } = await tempDir('agent-hooks-faults-')));
afterAll(async () => {
  printMeasures(measures);
  await cleanup();
});

const toolCall = (row: FaultRow, n: number) =>
  ToolHookContext.beforeToolUse(
    ToolCall.create('Shell', row.largePayload ? { command: 'cat > big.txt', content: 'x'.repeat(LARGE_PAYLOAD_BYTES) } : { command: 'ls' }, `call_${n}`),
    { state: AgentState.create({ sessionId: 'faults' }) },
  );

/** One dispatch: its outcome, the notes, whether the terminal (the action) was reached, and how long it took. */
async function dispatch(stack: HookStack, ctx: AnyHookContext, signal?: AbortSignal) {
  const notes: HookNote[] = [];
  let reached = false;
  const started = performance.now();
  const outcome = await stack.process(
    ctx,
    (c) => {
      reached = true;
      return HookOutcome.proceed(c);
    },
    { onNote: (note) => notes.push(note), signal },
  );
  return { outcome, notes, reached, ms: performance.now() - started };
}

// The bridge-killed row needs a bridge process to kill: bridge-killed.test.ts drives it.
const cases = FAULTS.filter((row) => !row.bridgeKilled).flatMap((row) =>
  carriersOf(row).flatMap((carrier) => (['open', 'closed'] as const).map((mode) => ({ row, carrier, mode }))),
);

// The cases mostly wait (for timeouts, and for init to reap the orphans of killed groups), so they run side by side.
describe.concurrent('fault matrix: one hook in a HookStack', () => {
  it.each(cases.map((c) => [`${c.row.id} (${c.carrier}, fail-${c.mode})`, c] as const))('%s', async (_name, { row, carrier, mode }) => {
    await withoutUnhandledRejections(async () => {
      const project = await writeFaultProject(`${root}/${++seq}-${row.id}-${carrier}-${mode}`, row, carrier, mode);
      const fault = carrierFault(row, carrier);
      // A cancelled row's hook has a pool of one slot, so that a run can be made to wait for it.
      const hook = await loadFaultHook(project, carrier, mode, row.cancelled ? new ProcessPool({ maxConcurrent: 1 }) : undefined);
      const exits: ScriptExit[] = [];
      hook.emitter.on('exit', (exit) => exits.push(exit));
      const stack = new HookStack().with(hook, hook.priority);

      // 1. The outcome under this fail mode; a cancelled row's run is aborted once its script runs.
      const cancel = new AbortController();
      if (row.cancelled) void readPid(join(project.dir, HOOK_PID_FILE), 10_000).then(() => cancel.abort(new Error('user cancelled')), () => {});
      const { outcome, notes, reached, ms } = await dispatch(stack, toolCall(row, 1), row.cancelled ? cancel.signal : undefined);
      measures.push({ driver: 'stack', row: row.id, carrier, mode, code: notes[0]?.code ?? 'none', outcome: outcome.type, ms });
      if (row.kind === 'answer') {
        expect(outcome.type).toBe('proceed');
        expect(reached).toBe(true);
        expect(notes).toEqual([]);
      } else if (row.kind === 'cancelled') {
        // Failing open or closed, a cancelled run never reaches the action.
        expect(outcome.type).toBe('block');
        expect(reached).toBe(false);
        expect(outcome.reason).toContain(`Hook '${hook.name}'`);
        expect(outcome.reason).toMatch(fault.cause);
        expect(notes).toHaveLength(1);
        expect(notes[0]).toMatchObject({ level: 'warning', code: fault.code, hookName: hook.name, event: 'PreToolUse' });
        expect(notes[0]!.message).toContain('so the action is blocked');
        expect(ms).toBeLessThan(KILL_BOUND_MS);

        // The same, while the run waits for a process slot: nothing is spawned, and the slot is never taken.
        const held = await hook.processPool.acquire();
        const queued = new AbortController();
        const waiting = dispatch(stack, toolCall(row, 3), queued.signal);
        while (hook.processPool.queued === 0) await new Promise((r) => setTimeout(r, 5));
        queued.abort(new Error('user cancelled'));
        const waited = await waiting;
        held();
        expect(waited.outcome.type).toBe('block');
        expect(waited.reached).toBe(false);
        expect(waited.notes.map((n) => n.code)).toEqual([fault.code]);
        expect(exits).toHaveLength(2);
        expect(exits[1]).toMatchObject({ pid: undefined, aborted: true });
        exits.pop();
        expect(hook.processPool.stats()).toMatchObject({ active: 0, queued: 0 });
      } else if (row.kind === 'deny') {
        expect(outcome.type).toBe('block');
        expect(outcome.reason).toMatch(fault.cause);
        expect(outcome.reason).toContain(`'${hook.name}'`);
        expect(reached).toBe(false);
        expect(notes).toEqual([]);
      } else {
        expect(notes).toHaveLength(1);
        const note = notes[0]!;
        expect(note).toMatchObject({ level: 'warning', code: fault.code, hookName: hook.name, event: 'PreToolUse' });
        expect(note.message).toContain(`Hook '${hook.name}'`);
        expect(note.message).toMatch(fault.cause);
        expect(note.message.length).toBeLessThan(MAX_MESSAGE_CHARS);
        expect(JSON.stringify(note.data ?? {}).length).toBeLessThan(2 * MAX_MESSAGE_CHARS);
        if (fault.goesOn === true) {
          expect(note.message).toContain('so the action goes on');
          expect(outcome.type).toBe('proceed');
          expect(reached).toBe(true);
        } else if (mode === 'open') {
          expect(note.message).toContain('failing open, so the action goes on');
          expect(outcome.type).toBe('proceed');
          expect(reached).toBe(true);
        } else {
          expect(note.message).toContain('failing closed, so the action is blocked');
          expect(outcome.type).toBe('block');
          expect(reached).toBe(false);
          expect(outcome.reason).toContain(`Hook '${hook.name}'`);
          expect(outcome.reason).toMatch(fault.cause);
          expect(outcome.reason).toContain('(it fails closed)');
          expect(outcome.reason!.length).toBeLessThan(MAX_MESSAGE_CHARS);
        }
      }

      // 2. The time it took: a process that must be killed is killed within its timeout and grace period.
      if (row.timesOut) {
        expect(ms).toBeGreaterThanOrEqual(FAULT_TIMEOUT_MS - 5);
        expect(ms).toBeLessThan(KILL_BOUND_MS);
      }

      // 3. No process is left behind, the grandchild included; a flood was cut at the cap.
      if (fault.spawnsNothing) expect(exits).toEqual([]);
      else expect(exits).toHaveLength(1);
      if (row.floods) {
        expect(exits[0]!.overflow).toBe('stdout');
        expect(exits[0]!.stdout.length).toBeLessThanOrEqual(OUTPUT_CAP_BYTES);
      }
      if (row.floods && row.id === 'floods-100mb') {
        // The writer was stopped long before its 100 MB: only what the pipe and the cap took got out.
        expect(Number(await readFile(project.floodProgressFile, 'utf8'))).toBeLessThan(FLOOD_CHUNKS);
      }
      await expectNothingLeft(exits, row.grandchild ? await grandchildPid(project) : undefined);

      // 5. The same stack works on the next dispatch once the script is fixed.
      await project.heal();
      const next = await dispatch(stack, toolCall(row, 2));
      expect(next.outcome.type).toBe('proceed');
      expect(next.reached).toBe(true);
      expect(next.notes).toEqual([]);
      const healthy = exits.at(-1)!;
      expect(healthy).toMatchObject({ exitCode: 0, signal: null, timedOut: false });
      await expectNothingLeft([healthy]);
    });
  });
});

describe('fault matrix: faults are never mistaken for decisions', () => {
  it('a hook that cannot run its command is reported apart from one that denies with exit 2', () => {
    const deny = FAULTS.find((r) => r.kind === 'deny')!;
    for (const id of ['interpreter-missing', 'command-not-found', 'script-missing', 'not-executable']) {
      const row = FAULTS.find((r) => r.id === id)!;
      expect(row.kind, id).toBe('failure');
      for (const carrier of carriersOf(row)) {
        const fault = carrierFault(row, carrier);
        expect(fault.code, `${id} ${carrier}`).toBeDefined();
        expect(fault.code, `${id} ${carrier}`).not.toBe(carrierFault(deny, carrier).code);
        expect(`blocked by hook 'x' (exit 2)`, `${id} ${carrier}`).not.toMatch(fault.cause);
      }
    }
  });
});
