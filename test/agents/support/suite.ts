/**
 * The cases every agent runs, the same for each: one set of HOOK.md hooks (`test/agents/hooks/`), unchanged, bridged
 * into the real agent by `agent-hooks bridge --install`, and a scripted model. Three headless runs per agent:
 *
 * - decisions: a deny, an allow, an input rewrite, context injection (SessionStart, UserPromptSubmit, PostToolUse)
 *   and a stop gate that blocks once;
 * - failures: a crashing hook and a timing-out hook, each failing open and failing closed;
 * - killed: the agent kills the bridge at its own timeout while a hook ignores SIGTERM; no hook process is left.
 *
 * A case an agent cannot run is registered as skipped, with the reason in its title and on stderr: it never passes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyText, gone, makeProject, pinOf, type AgentDriver, type AgentProject, type AgentRun } from './harness.js';
import { startMockServer, type MockServer, type Turn } from './mock-server.js';

/** How long one headless run may take before it is killed. */
export const RUN_MS = 90_000;

/** One headless run: a project with some hooks, a script for the model, and what came of it. */
export interface Session {
  driver: AgentDriver;
  project: AgentProject;
  mock: MockServer;
  run: AgentRun;
}

export async function session(driver: AgentDriver, hooks: readonly string[], events: readonly string[], timeoutSec: number, turns: readonly Turn[], prompt: string, again = true): Promise<Session> {
  const project = makeProject(hooks);
  const mock = await startMockServer(driver.api(), turns);
  let run: AgentRun;
  try {
    await driver.configure(project, mock, { events, timeoutSec });
    run = await driver.run(project, mock, prompt, RUN_MS);
  } catch (error) {
    await mock.close();
    project.remove();
    throw error;
  }
  // An agent whose own log shows it never loaded the project's hook file did not run the bridge at all: nothing of
  // ours was tested. Said on stderr and run once more; a second such run is kept, and its cases fail.
  const unloaded = again ? driver.unloadedHooks?.(project) : undefined;
  if (unloaded === undefined) return { driver, project, mock, run };
  process.stderr.write(`[${driver.name}] the agent loaded none of the project's hooks in this run (${unloaded}); running the session once more.\n`);
  await mock.close();
  project.remove();
  return session(driver, hooks, events, timeoutSec, turns, prompt, false);
}

/** What the model was sent in its main-loop requests from the `n`-th on, as text. */
export const seenFrom = (s: Session, n: number): string => s.mock.mainRequests().slice(n).map((r) => bodyText(r.body)).join('\n');

/** The output of a failed run, for the assertion message. */
export const explain = (s: Session): string =>
  `exit ${s.run.exitCode}${s.run.timedOut ? ' (killed at the suite timeout)' : ''} after ${Math.round(s.run.durationMs)} ms\n--- stdout\n${lasting(s.run.stdout).slice(-4000)}\n--- stderr\n${s.run.stderr.slice(-4000)}\n--- requests\n${s.mock.requests.map((r) => `${r.method} ${r.path}${r.main ? ` main ${JSON.stringify(r.turn)}` : ''}`).join('\n')}${agentLog(s)}`;

/** Output without the events an agent marks ephemeral (progress notices that would crowd out the rest). */
const lasting = (stdout: string): string =>
  stdout
    .split('\n')
    .filter((line) => !line.includes('"ephemeral":true'))
    .join('\n');

/** The tail of the agent's own log, when its driver keeps one. */
const agentLog = (s: Session): string => {
  const log = s.driver.log?.(s.project) ?? '';
  return log === '' ? '' : `\n--- ${s.driver.name}'s log\n${log.slice(-8000)}`;
};

/** Registers the suite for `driver`. */
export function defineAgentSuite(driver: AgentDriver): void {
  const pin = pinOf(driver.name);
  const unsupported = driver.unsupported ?? {};
  const differs = driver.differs ?? {};
  /**
   * `it`; or, where the agent does otherwise, the driver's case asserting what it does; or a skip that says why when
   * the agent cannot run the case.
   */
  const check = (name: string, fn: () => void | Promise<void>, current: () => Session) => {
    const why = unsupported[name];
    const difference = differs[name];
    if (difference !== undefined) {
      it(difference.title, () => difference.check(current()));
    } else if (why !== undefined) {
      process.stderr.write(`[${driver.name}] cannot run "${name}": ${why}\n`);
      it.skip(`${name} — not on ${driver.name}: ${why}`, () => {});
    } else {
      it(name, fn);
    }
  };

  describe(`${driver.name} ${pin.version} (${pin.package}), through agent-hooks bridge`, () => {
    describe('decisions', () => {
      let s: Session;
      beforeAll(async () => {
        s = await session(
          driver,
          ['guard-shell', 'stop-gate', 'context-session', 'context-prompt', 'context-post'],
          ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'],
          30,
          [{ shell: 'rm -rf build' }, { shell: 'touch allowed.txt' }, { shell: 'echo original > out.txt' }, { text: 'All three commands are done.' }, { text: 'finished' }],
          'Clean the build folder, then create allowed.txt and out.txt.',
        );
      }, RUN_MS + 30_000);
      afterAll(async () => {
        await s?.mock.close();
        s?.project.remove();
      });

      check('the agent ran to its end', () => {
        expect(s.run.timedOut, explain(s)).toBe(false);
        expect(s.mock.remaining(), explain(s)).toBe(0);
      }, () => s);

      check('deny: the refused command did not run, and the model got the hook’s reason', () => {
        expect(existsSync(join(s.project.dir, 'build', 'keep.txt')), explain(s)).toBe(true);
        const guard = s.project.evidenceOf('guard-shell') as { tool_name?: string; tool_input?: { command?: string } }[];
        expect(guard.map((p) => p.tool_input?.command)).toContain('rm -rf build');
        expect(guard[0]?.tool_name, 'the payload names the agent’s own shell tool').toBe(driver.shellTool);
        expect(seenFrom(s, 1), explain(s)).toContain('E2E-DENY');
      }, () => s);

      check('allow: the allowed command ran', () => {
        expect(existsSync(join(s.project.dir, 'allowed.txt')), explain(s)).toBe(true);
      }, () => s);

      check('rewrite: what ran is the rewritten command', () => {
        const out = join(s.project.dir, 'out.txt');
        expect(existsSync(out), explain(s)).toBe(true);
        expect(readFileSync(out, 'utf8').trim()).toBe('rewritten');
      }, () => s);

      check('stop gate: blocks once, the agent goes on with the reason, and the second payload says the gate is active', () => {
        const stops = s.project.evidenceOf('stop-gate') as { stop_hook_active?: unknown }[];
        expect(stops.length, explain(s)).toBe(2);
        expect(stops[0]!.stop_hook_active ?? false).toBe(false);
        expect(stops[1]!.stop_hook_active).toBe(true);
        const first = s.mock.mainRequests().findIndex((r) => JSON.stringify(r.turn) === JSON.stringify({ text: 'All three commands are done.' }));
        expect(first, explain(s)).toBeGreaterThanOrEqual(0);
        expect(seenFrom(s, first + 1)).toContain('E2E-STOP');
      }, () => s);

      check('context: SessionStart context reaches the model', () => {
        expect(seenFrom(s, 0), explain(s)).toContain('E2E-SESSION-CONTEXT');
      }, () => s);

      check('context: UserPromptSubmit context reaches the model', () => {
        expect(seenFrom(s, 0), explain(s)).toContain('E2E-PROMPT-CONTEXT');
      }, () => s);

      check('context: PostToolUse context reaches the model’s next request', () => {
        expect(seenFrom(s, 1), explain(s)).toContain('E2E-POST-CONTEXT');
      }, () => s);
    });

    describe('failures', () => {
      let s: Session;
      beforeAll(async () => {
        s = await session(
          driver,
          ['crash-open', 'crash-closed', 'slow-open', 'slow-closed'],
          ['PreToolUse'],
          30,
          [
            { shell: 'touch crash-open-probe.txt' },
            { shell: 'touch crash-closed-probe.txt' },
            { shell: 'touch slow-open-probe.txt' },
            { shell: 'touch slow-closed-probe.txt' },
            { text: 'Done.' },
          ],
          'Create the four probe files.',
        );
      }, RUN_MS + 30_000);
      afterAll(async () => {
        await s?.mock.close();
        s?.project.remove();
      });

      const ran = (file: string) => existsSync(join(s.project.dir, file));

      check('a crashing hook: the agent goes on', () => {
        expect(s.project.evidenceOf('crash-open').length, explain(s)).toBe(1);
        expect(ran('crash-open-probe.txt'), explain(s)).toBe(true);
      }, () => s);

      check('a crashing hook with failClosed: the call is refused', () => {
        expect(s.project.evidenceOf('crash-closed').length, explain(s)).toBe(1);
        expect(ran('crash-closed-probe.txt'), explain(s)).toBe(false);
      }, () => s);

      check('a timing-out hook: the agent goes on, and the hook process is gone', async () => {
        const [hook] = s.project.evidenceOf('slow-open') as { pid: number }[];
        expect(hook, explain(s)).toBeDefined();
        expect(ran('slow-open-probe.txt'), explain(s)).toBe(true);
        expect(await gone(hook!.pid, 5000)).toBe(true);
      }, () => s);

      check('a timing-out hook with failClosed: the call is refused', () => {
        expect(s.project.evidenceOf('slow-closed').length, explain(s)).toBe(1);
        expect(ran('slow-closed-probe.txt'), explain(s)).toBe(false);
      }, () => s);
    });

    describe('the agent kills the bridge', () => {
      let s: Session;
      beforeAll(async () => {
        s = await session(driver, ['hang'], ['PreToolUse'], 3, [{ shell: 'touch hang-probe.txt' }, { text: 'Done.' }], 'Create the probe file.');
      }, RUN_MS + 30_000);
      afterAll(async () => {
        await s?.mock.close();
        s?.project.remove();
      });

      check('at its own hook timeout: no hook process is left', async () => {
        const [hook] = s.project.evidenceOf('hang') as { pid: number }[];
        expect(hook, explain(s)).toBeDefined();
        expect(s.run.timedOut, explain(s)).toBe(false);
        expect(await gone(hook!.pid, 10_000), `hook process ${hook!.pid} outlived the bridge\n${explain(s)}`).toBe(true);
      }, () => s);
    });
  });
}
