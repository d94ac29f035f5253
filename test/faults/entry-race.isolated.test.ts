/**
 * A script removed in the instant between the lookup of a hook's entry and the start of its process. The lookup is
 * wrapped so that the removal happens exactly there; the rest is real: discovery, the process, the stack.
 */
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AgentState, discoverHooks, HookOutcome, HookStack, ToolCall, ToolHookContext, type HookNote, type ScriptExit } from 'agent-hooks';
import { tempDir, writeExecutable } from '../support/script-fixture.js';
import { expectNothingLeft, withoutUnhandledRejections } from './harness.js';

const race = vi.hoisted(() => ({ armed: false }));

vi.mock('../../src/script/entry.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/script/entry.js')>();
  return {
    ...actual,
    async resolveScriptEntry(dir: string) {
      const entry = await actual.resolveScriptEntry(dir);
      if (race.armed && entry.ok) await rm(entry.path);
      return entry;
    },
  };
});

let root: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir: root, cleanup } = await tempDir('agent-hooks-race-')));
afterAll(() => cleanup());

const ctx = () => ToolHookContext.beforeToolUse(ToolCall.create('Shell', { command: 'ls' }, 'call_1'), { state: AgentState.create() });

describe('a script removed between its lookup and its start', () => {
  it.each([
    { name: 'scripts/run.sh, started by sh', entry: 'run.sh', executable: false, mode: 'open' },
    { name: 'scripts/run.sh, started by sh', entry: 'run.sh', executable: false, mode: 'closed' },
    { name: 'scripts/run.py, started by python3', entry: 'run.py', executable: false, mode: 'open' },
    { name: 'scripts/run, executable, started directly', entry: 'run', executable: true, mode: 'open' },
  ] as const)('$name, failing $mode: a failure to run, never a deny', async ({ entry, executable, mode }) => {
    await withoutUnhandledRejections(async () => {
      const project = join(root, `${entry}-${mode}`);
      const folder = join(project, '.agents', 'hooks', 'raced');
      await mkdir(join(folder, 'scripts'), { recursive: true });
      await writeFile(
        join(folder, 'HOOK.md'),
        `---\nname: raced\ndescription: Loses its script.\ntrigger: pre-tool-call\n${mode === 'closed' ? 'metadata:\n  failClosed: true\n' : ''}---\n`,
      );
      const script = join(folder, 'scripts', entry);
      await writeExecutable(script, entry === 'run.py' ? '#!/usr/bin/env python3\nimport sys\nsys.exit(0)\n' : '#!/bin/sh\nexit 0\n');
      if (!executable) await chmod(script, 0o644);

      const { hooks, problems } = await discoverHooks({ projectDir: project, userDir: false, trust: 'all', killGraceMs: 200 });
      expect(problems).toEqual([]);
      const hook = hooks[0]!;
      const exits: ScriptExit[] = [];
      hook.emitter.on('exit', (exit) => exits.push(exit));
      const notes: HookNote[] = [];
      let reached = false;
      race.armed = true;
      let outcome: HookOutcome;
      try {
        outcome = await new HookStack().with(hook, hook.priority).process(
          ctx(),
          (c) => {
            reached = true;
            return HookOutcome.proceed(c);
          },
          { onNote: (note) => notes.push(note) },
        );
      } finally {
        race.armed = false;
      }

      expect(notes).toHaveLength(1);
      expect(notes[0]!.code).toBe(executable ? 'spawn-error' : 'no-entry');
      expect(notes[0]!.message).toContain("Hook 'raced'");
      expect(notes[0]!.message).toMatch(executable ? /scripts\/run was not found/ : new RegExp(`scripts/${entry.replace('.', '\\.')} was removed before (sh|python3) could read it`));
      if (mode === 'open') {
        expect(outcome.type).toBe('proceed');
        expect(reached).toBe(true);
      } else {
        expect(outcome.type).toBe('block');
        expect(outcome.reason).toContain("Hook 'raced'");
        expect(outcome.reason).toContain('(it fails closed)');
      }
      await expectNothingLeft(exits);
    });
  });

  it('a script that removes itself and then denies still denies: only an interpreter that could not open it is a failure', async () => {
    const project = join(root, 'self-removing');
    const folder = join(project, '.agents', 'hooks', 'raced');
    await mkdir(join(folder, 'scripts'), { recursive: true });
    await writeFile(join(folder, 'HOOK.md'), '---\nname: raced\ndescription: Removes itself.\ntrigger: pre-tool-call\n---\n');
    const script = join(folder, 'scripts', 'run.sh');
    await writeFile(script, 'cat > /dev/null\nrm -- "$0"\necho "one-shot hook says no" >&2\nexit 2\n');
    const { hooks } = await discoverHooks({ projectDir: project, userDir: false, trust: 'all' });
    const notes: HookNote[] = [];
    const outcome = await new HookStack().with(hooks[0]!, 100).process(ctx(), undefined, { onNote: (note) => notes.push(note) });
    expect(outcome.type).toBe('block');
    expect(outcome.reason).toBe('one-shot hook says no');
    expect(notes).toEqual([]);
  });
});
