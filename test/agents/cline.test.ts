/**
 * Cline's CLI through the scripts `agent-hooks bridge --install cline` writes (`.clinerules/hooks/`), each running
 * `agent-hooks bridge --from cline`.
 *
 * What Cline 3.0.65 does otherwise, and this file asserts in place of the shared cases:
 * - its only refusal is `cancel`, which ends the whole task: the suite's decisions and failures sessions stop at
 *   their first refused call, so what comes after it in them is proven in sessions of this file's own;
 * - it runs TaskStart (agent_start) and TaskComplete (agent_end) detached under `cline --json` and reads nothing from
 *   them: no SessionStart context, no stop gate (a detached TaskComplete may not even have run when `cline` exits);
 * - it fires no UserPromptSubmit headless;
 * - it gives a hook 120 s, beyond the suite's 90 s bound for a run, so "the agent kills the bridge" cannot run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clineDriver } from './drivers/cline.js';
import type { SessionView } from './support/harness.js';
import { defineAgentSuite, explain, RUN_MS, seenFrom, session, type Session } from './support/suite.js';

/** What `cline --json` printed last: how the run ended. */
const runResult = (s: SessionView): { finishReason?: string } =>
  JSON.parse(s.run.stdout.trim().split('\n').filter((l) => l.includes('"type":"run_result"')).at(-1) ?? '{}') as { finishReason?: string };

const endedAtTheDeny = (s: SessionView) => {
  expect(s.run.timedOut).toBe(false);
  expect(runResult(s).finishReason).toBe('aborted');
};

defineAgentSuite({
  ...clineDriver,
  unsupported: {
    'at its own hook timeout: no hook process is left': 'Cline gives a hook 120 s, beyond the suite’s 90 s bound for one run, and has no timeout of a hook’s own to set shorter',
  },
  differs: {
    'the agent ran to its end': {
      title: 'ends the task at the refused rm -rf (cancel, Cline’s only refusal, ends the task): the three turns after it are never asked for',
      check(s) {
        endedAtTheDeny(s);
        expect(s.mock.remaining()).toBe(4);
      },
    },
    'deny: the refused command did not run, and the model got the hook’s reason': {
      title: 'deny: the refused command did not run, and the task ended there — the model gets no next turn to read the reason (Cline’s cancel)',
      check(s) {
        expect(existsSync(join(s.project.dir, 'build', 'keep.txt'))).toBe(true);
        const guard = s.project.evidenceOf('guard-shell') as { tool_name?: string; tool_input?: { command?: string } }[];
        expect(guard.map((p) => p.tool_input?.command)).toEqual(['rm -rf build']);
        expect(guard[0]?.tool_name).toBe('run_commands');
        expect(s.mock.mainRequests()).toHaveLength(1);
      },
    },
    'allow: the allowed command ran': {
      title: 'allow: not reached in this session (the task ended at the deny); proven in “after no refusal” below',
      check: endedAtTheDeny,
    },
    'rewrite: what ran is the rewritten command': {
      title: 'rewrite: not reached in this session (the task ended at the deny); proven in “after no refusal” below',
      check: endedAtTheDeny,
    },
    'stop gate: blocks once, the agent goes on with the reason, and the second payload says the gate is active': {
      title: 'stop gate: not reached in this session; Cline reads nothing from TaskComplete (see “after no refusal” below)',
      check: endedAtTheDeny,
    },
    'context: SessionStart context reaches the model': {
      title: 'runs TaskStart detached under cline --json, so no SessionStart context reaches the model',
      check(s) {
        expect(s.project.evidenceOf('context-session').length).toBe(1);
        expect(seenFrom(s as Session, 0)).not.toContain('E2E-SESSION-CONTEXT');
      },
    },
    'context: UserPromptSubmit context reaches the model': {
      title: 'runs no UserPromptSubmit hook headless, so no prompt context reaches the model (cline --json never fires it)',
      check({ project }) {
        expect(project.evidenceOf('context-prompt')).toEqual([]);
      },
    },
    'context: PostToolUse context reaches the model’s next request': {
      title: 'PostToolUse context: not reached in this session (the task ended at the deny); proven in “after no refusal” below',
      check: endedAtTheDeny,
    },
    'a timing-out hook: the agent goes on, and the hook process is gone': {
      title: 'a timing-out hook: not reached in this session (the task ended at the crash-closed refusal); proven in “timeouts” below',
      check: endedAtTheDeny,
    },
    'a timing-out hook with failClosed: the call is refused': {
      title: 'a timing-out hook with failClosed: not reached in this session; proven in “timeouts” below',
      check: endedAtTheDeny,
    },
  },
});

describe('cline 3.0.65 (cline), through agent-hooks bridge: after no refusal', () => {
  let s: Session;
  beforeAll(async () => {
    s = await session(
      clineDriver,
      ['guard-shell', 'stop-gate', 'context-post'],
      ['PreToolUse', 'PostToolUse', 'Stop'],
      30,
      [{ shell: 'touch allowed.txt' }, { shell: 'echo original > out.txt' }, { text: 'Both files are there.' }, { text: 'finished' }],
      'Create allowed.txt and out.txt.',
    );
  }, RUN_MS + 30_000);
  afterAll(async () => {
    await s?.mock.close();
    s?.project.remove();
  });

  it('allow: the allowed command ran', () => {
    expect(existsSync(join(s.project.dir, 'allowed.txt')), explain(s)).toBe(true);
  });

  it('rewrite: what ran is the rewritten command (Cline applies overrideInput)', () => {
    const out = join(s.project.dir, 'out.txt');
    expect(existsSync(out), explain(s)).toBe(true);
    expect(readFileSync(out, 'utf8').trim()).toBe('rewritten');
  });

  it('context: PostToolUse context reaches the model’s next request', () => {
    expect(seenFrom(s, 1), explain(s)).toContain('E2E-POST-CONTEXT');
  });

  it('stop gate: Cline runs TaskComplete detached and reads nothing from it, so the task ends at the first stop', () => {
    // Detached, the hook may even be cut short when `cline` exits: whether it ran is not Cline's promise.
    expect(s.project.evidenceOf('stop-gate').length, explain(s)).toBeLessThanOrEqual(1);
    // The three turns before the stop, and none after: the gate's block would have asked for one more.
    expect(s.mock.mainRequests(), explain(s)).toHaveLength(3);
    expect(seenFrom(s, 0)).not.toContain('E2E-STOP');
  });
});

describe('cline 3.0.65 (cline), through agent-hooks bridge: timeouts', () => {
  let s: Session;
  beforeAll(async () => {
    s = await session(
      clineDriver,
      ['slow-open', 'slow-closed'],
      ['PreToolUse'],
      30,
      [{ shell: 'touch slow-open-probe.txt' }, { shell: 'touch slow-closed-probe.txt' }, { text: 'Done.' }],
      'Create the two probe files.',
    );
  }, RUN_MS + 30_000);
  afterAll(async () => {
    await s?.mock.close();
    s?.project.remove();
  });

  it('a timing-out hook: the agent goes on', () => {
    expect(s.project.evidenceOf('slow-open').length, explain(s)).toBe(1);
    expect(existsSync(join(s.project.dir, 'slow-open-probe.txt')), explain(s)).toBe(true);
  });

  it('a timing-out hook with failClosed: the call is refused (cancel on stdout, the task ends)', () => {
    expect(s.project.evidenceOf('slow-closed').length, explain(s)).toBe(1);
    expect(existsSync(join(s.project.dir, 'slow-closed-probe.txt')), explain(s)).toBe(false);
    expect(runResult(s).finishReason).toBe('aborted');
  });
});
