/**
 * A representative subset of the fault matrix through the real agent loop: hooks loaded by `withHooksFrom`, a
 * ScriptedModel that calls a tool, the hook on PreToolUse. Failing closed here is the loader's global `failClosed`.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ProcessHook, ProcessPool, ScriptedModel, defineTool, type AgentWarning, type ScriptExit } from 'agent-hooks';
import { join } from 'node:path';
import { readPid, tempDir } from '../support/script-fixture.js';
import { afterLoad, carrierFault, expectNothingLeft, printMeasures, withoutUnhandledRejections, writeFaultProject, type Measure } from './harness.js';
import { AGENT_ROWS, carriersOf, FAULT_TIMEOUT_MS, faultRow, HOOK_PID_FILE, KILL_GRACE_MS, LARGE_PAYLOAD_BYTES, type Carrier, type FaultRow } from './matrix.js';

const KILL_BOUND_MS = FAULT_TIMEOUT_MS + KILL_GRACE_MS + 2500;

let root: string;
let cleanup: () => Promise<void>;
let seq = 0;
const measures: Measure[] = [];
beforeAll(async () => ({ dir: root, cleanup } = await tempDir('agent-hooks-faults-agent-')));
afterAll(async () => {
  printMeasures(measures);
  await cleanup();
});

/** An agent that calls `Shell` once per run, then answers 'done'; its hooks come from the fault's project. */
async function faultAgent(row: FaultRow, carrier: Carrier, mode: 'open' | 'closed') {
  // The HOOK.md does not say failClosed: here it is the loader's option, for every hook.
  const project = await writeFaultProject(`${root}/${++seq}-${row.id}-${carrier}-${mode}`, row, carrier, 'open');
  const args = row.largePayload ? { command: 'cat > big.txt', content: 'x'.repeat(LARGE_PAYLOAD_BYTES) } : { command: 'ls' };
  const model = new ScriptedModel((request) => (request.messages.at(-1)?.role === 'tool' ? 'done' : { toolCalls: [{ name: 'Shell', args }] }));
  const execute = vi.fn((input: { command: string }) => `ran ${input.command}`);
  const shell = defineTool({ name: 'Shell', input: z.object({ command: z.string(), content: z.string().optional() }), execute });
  const agent = AgentBuilder.new()
    .withModel(model)
    .withTools(shell)
    .withHooksFrom({
      projectDir: project.dir,
      userDir: false,
      homeDir: false,
      // The fault projects are the test's own.
      trust: 'all',
      hookmd: carrier === 'hookmd',
      claude: carrier === 'claude',
      killGraceMs: KILL_GRACE_MS,
      failClosed: mode === 'closed',
      // A cancelled row's hooks get a pool of one slot, so that a run can be made to wait for it.
      ...(row.cancelled ? { processPool: new ProcessPool({ maxConcurrent: 1 }) } : {}),
      checkEntries: project.fault.uncheckedEntry !== true,
    })
    .build();
  const { problems } = await agent.ready();
  expect(problems).toEqual([]);
  const hooks = agent.hooks.all().map((entry) => entry.hook);
  expect(hooks).toHaveLength(1);
  const hook = hooks[0] as ProcessHook;
  expect(hook).toBeInstanceOf(ProcessHook);
  await afterLoad(project);
  const exits: ScriptExit[] = [];
  hook.emitter.on('exit', (exit) => exits.push(exit));
  const warnings: AgentWarning[] = [];
  agent.events.on('warning', (warning) => warnings.push(warning));
  return { project, agent, model, execute, hook, exits, warnings };
}

/** What the model was told about its tool call in the latest run. */
const toolResult = (model: ScriptedModel): string => {
  const content = model.requests.at(-1)!.messages.filter((m) => m.role === 'tool').at(-1)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
};

const cases = AGENT_ROWS.map(faultRow).flatMap((row) =>
  carriersOf(row).flatMap((carrier) => (['open', 'closed'] as const).map((mode) => ({ row, carrier, mode }))),
);

describe.concurrent('fault matrix: one hook in the agent loop', () => {
  it.each(cases.map((c) => [`${c.row.id} (${c.carrier}, fail-${c.mode})`, c] as const))('%s', async (_name, { row, carrier, mode }) => {
    await withoutUnhandledRejections(async () => {
      const { project, agent, model, execute, hook, exits, warnings } = await faultAgent(row, carrier, mode);
      const fault = carrierFault(row, carrier);

      if (row.kind === 'cancelled') {
        // The hook runs, then waits for a slot; each time the run is cancelled under it and the tool never runs.
        const cancel = new AbortController();
        void readPid(join(project.dir, HOOK_PID_FILE), 10_000).then(() => cancel.abort(new Error('user cancelled')), () => {});
        const error = await agent.run('go', { signal: cancel.signal }).then(() => undefined, (e: unknown) => e);
        expect((error as Error | undefined)?.message).toBe('user cancelled');
        const held = await hook.processPool.acquire();
        const queued = new AbortController();
        const waiting = agent.run('go', { signal: queued.signal }).then(() => undefined, (e: unknown) => e);
        while (hook.processPool.queued === 0) await new Promise((r) => setTimeout(r, 5));
        queued.abort(new Error('user cancelled while queued'));
        expect(((await waiting) as Error | undefined)?.message).toBe('user cancelled while queued');
        held();
        expect(execute).not.toHaveBeenCalled();
        // The queued run spawned nothing.
        expect(exits).toHaveLength(2);
        expect(exits[1]).toMatchObject({ pid: undefined, aborted: true });
        const mine = warnings.filter((w) => w.hookName === hook.name);
        expect(mine.map((w) => w.code)).toEqual([fault.code, fault.code]);
        for (const w of mine) expect(w.message).toMatch(fault.cause);
        await expectNothingLeft(exits);
        await project.heal();
        const next = await agent.run('again');
        expect(next.status).toBe('completed');
        expect(execute).toHaveBeenCalledTimes(1);
        return;
      }
      const started = performance.now();
      const result = await agent.run('go');
      const ms = performance.now() - started;
      const mine = warnings.filter((w) => w.hookName === hook.name);
      measures.push({ driver: 'agent', row: row.id, carrier, mode, code: mine[0]?.code ?? 'none', outcome: execute.mock.calls.length > 0 ? 'ran' : 'refused', ms });

      // The run goes on in every case: a refused call is the model's to deal with, not the end of the run.
      expect(result.status).toBe('completed');
      expect(result.text).toBe('done');
      if (row.kind === 'answer') {
        expect(execute).toHaveBeenCalledTimes(1);
        expect(mine).toEqual([]);
      } else if (row.kind === 'deny') {
        expect(execute).not.toHaveBeenCalled();
        expect(toolResult(model)).toContain(`blocked by hook '${hook.name}' (exit 2)`);
        expect(mine).toEqual([]);
      } else {
        expect(mine).toHaveLength(1);
        expect(mine[0]).toMatchObject({ code: fault.code, event: 'PreToolUse' });
        expect(mine[0]!.message).toMatch(fault.cause);
        if (mode === 'open') {
          expect(execute).toHaveBeenCalledTimes(1);
          expect(toolResult(model)).toBe('ran ls');
        } else {
          expect(execute).not.toHaveBeenCalled();
          const told = toolResult(model);
          expect(told).toContain(`Hook '${hook.name}'`);
          expect(told).toMatch(fault.cause);
          expect(told).toContain('(it fails closed)');
          expect(told).not.toContain('(exit 2)');
        }
      }
      if (row.timesOut) expect(ms).toBeLessThan(KILL_BOUND_MS + 1000);
      await expectNothingLeft(exits);

      // The same agent's next run works once the script is fixed.
      await project.heal();
      const before = warnings.length;
      const ranBefore = execute.mock.calls.length;
      const next = await agent.run('again');
      expect(next.status).toBe('completed');
      expect(execute).toHaveBeenCalledTimes(ranBefore + 1);
      expect(toolResult(model)).toMatch(/^ran /);
      expect(warnings.slice(before)).toEqual([]);
      await expectNothingLeft(exits);
    });
  });
});
