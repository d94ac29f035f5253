/**
 * Claude Code settings hooks of one event, run as a stack runs them (one after another, so rewrites compose) and as
 * Claude Code runs them (`parallel: true`, side by side): five PostToolUse command hooks that each take 100 ms,
 * loaded from a real `.claude/settings.json`, against one such hook. Medians of whole dispatches, alternated.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HookStack, ToolCall, ToolExecution, ToolHookContext } from '../src/index.js';
import { loadClaudeHooks } from '../src/agents/claude/config.js';
import { prioritized } from '../src/agents/load-all.js';
import { median, ratioTarget, timingRow, type Row } from './harness.js';

const HOOKS = 5;

export async function parallelSuite(): Promise<Row[]> {
  const root = await mkdtemp(join(tmpdir(), 'agent-hooks-bench-parallel-'));
  try {
    const settings = (n: number) => ({
      hooks: { PostToolUse: [{ matcher: 'Bash', hooks: Array.from({ length: n }, (_, i) => ({ type: 'command', command: `sleep 0.1; exit 0 # ${i}` })) }] },
    });
    const stackOf = async (n: number, parallel: boolean): Promise<HookStack> => {
      const dir = join(root, `${n}-${parallel}`);
      await mkdir(join(dir, '.claude'), { recursive: true });
      await writeFile(join(dir, '.claude', 'settings.json'), JSON.stringify(settings(n)));
      const { hooks, problems } = await loadClaudeHooks({ projectDir: dir, homeDir: false, trust: 'all' });
      if (problems.length > 0 || hooks.length !== n) throw new Error(`bench settings did not load: ${JSON.stringify(problems)}`);
      return new HookStack().withAll(prioritized(hooks, { parallel }));
    };
    const one = await stackOf(1, false);
    const sequential = await stackOf(HOOKS, false);
    const parallel = await stackOf(HOOKS, true);
    const ctx = ToolHookContext.afterToolUse(ToolExecution.success(ToolCall.create('Bash', { command: 'ls' }, 'c1'), 'ok', 1));
    const wall = async (stack: HookStack): Promise<number> => {
      const t0 = performance.now();
      await stack.process(ctx);
      return performance.now() - t0;
    };
    const runs = { one: [] as number[], sequential: [] as number[], parallel: [] as number[] };
    for (let i = 0; i < 7; i++) {
      runs.one.push(await wall(one));
      runs.sequential.push(await wall(sequential));
      runs.parallel.push(await wall(parallel));
    }
    const ms = (xs: number[]) => ({ mean: (xs.reduce((a, b) => a + b, 0) / xs.length) * 1e6, median: median(xs) * 1e6, rme: 0, samples: xs.length });
    const suite = `Claude Code settings hooks, ${HOOKS} PostToolUse hooks of 100 ms`;
    const baseline = { name: '1 hook', timing: ms(runs.one) };
    return [
      timingRow(suite, '1 hook', baseline.timing),
      timingRow(suite, `${HOOKS} hooks, in order (the default)`, ms(runs.sequential), baseline),
      timingRow(suite, `${HOOKS} hooks, parallel: true`, ms(runs.parallel), baseline, ratioTarget(1.5, '1 hook')),
    ];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
