/**
 * Interrupt in one Node process, resume in another: a Claude Code command hook (a real child process) asks about a
 * deploy, the first process ends with the snapshot as JSON on disk, a second process builds the same agent and
 * resumes it. Both processes' traces together are the trace of one uninterrupted run with the same approvals.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir, writeExecutable } from '../support/script-fixture.js';
import { buildAgent, decisionOf, outcomeOf, type Scenario } from './interrupt-support.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A project whose Claude Code settings ask about every deploy to production, from a shell script. */
async function project(): Promise<string> {
  const { dir, cleanup } = await tempDir('agent-hooks-interrupt-');
  cleanups.push(cleanup);
  await mkdir(join(dir, '.claude'), { recursive: true });
  await writeExecutable(
    join(dir, 'ask.sh'),
    `#!/bin/sh
input=$(cat)
case "$input" in
  *'"env":"production"'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Claude hook: production deploys need a human"}}' ;;
esac
exit 0
`,
  );
  await writeFile(
    join(dir, '.claude', 'settings.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'deploy', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/ask.sh' }] }] } }),
  );
  return dir;
}

interface ChildOutput {
  readonly trace: string[];
  readonly pid: number;
  readonly status: string;
  readonly outcome: unknown;
  readonly interruption: { readonly pending: { readonly id: string; readonly reason: string }[]; readonly snapshot: unknown } | null;
}

function child(args: string[]): void {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(here, 'interrupt-process.ts'), ...args], { cwd: repo, encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`child process failed (${run.status ?? run.signal}): ${run.stderr}`);
}

describe('an approval decided in another process', () => {
  it('resumes in a second Node process as one uninterrupted run would go, event for event', async () => {
    const dir = await project();
    const scenario: Scenario = {
      steps: [[{ tool: 'status', args: { env: 'prod' } }, { tool: 'deploy', args: { env: 'production' } }, { tool: 'deploy', args: { env: 'staging' } }], [{ tool: 'worker', args: { task: 't' } }]],
      workerSteps: [[{ tool: 'deploy', args: { env: 'production' } }]],
      decisions: [{ kind: 'edit', input: { env: 'staging' } }, { kind: 'deny', reason: 'not from a subagent' }],
    };
    const scenarioFile = join(dir, 'scenario.json');
    await writeFile(scenarioFile, JSON.stringify(scenario));

    const inlineTrace: string[] = [];
    const inline = await buildAgent(scenario, { kind: 'inline', decisions: scenario.decisions }, inlineTrace, dir).run('Ship it');

    const traces: string[] = [];
    const pids = new Set<number>();
    child(['run', dir, scenarioFile, join(dir, 'out0.json')]);
    let out = JSON.parse(await readFile(join(dir, 'out0.json'), 'utf8')) as ChildOutput;
    let round = 0;
    while (out.status === 'interrupted') {
      traces.push(...out.trace);
      pids.add(out.pid);
      const request = out.interruption!.pending[0]!;
      expect(request.reason).toBe('Claude hook: production deploys need a human');
      await writeFile(join(dir, `snapshot${round}.json`), JSON.stringify(out.interruption!.snapshot));
      await writeFile(join(dir, `decisions${round}.json`), JSON.stringify({ [request.id]: decisionOf(scenario.decisions[round]!) }));
      child(['resume', dir, scenarioFile, join(dir, `snapshot${round}.json`), join(dir, `decisions${round}.json`), join(dir, `out${round + 1}.json`)]);
      round++;
      out = JSON.parse(await readFile(join(dir, `out${round}.json`), 'utf8')) as ChildOutput;
    }
    traces.push(...out.trace);
    pids.add(out.pid);

    expect(round).toBe(2);
    expect(pids.size).toBe(3);
    expect(traces).toEqual(inlineTrace);
    expect(out.outcome).toEqual(outcomeOf(inline));
    expect(out.status).toBe('completed');
    const tools = (out.outcome as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools).toContain('deployed to staging');
    // The subagent's refusal happened in the second child process, inside the subagent's run.
    expect(traces.find((l) => l.startsWith('PermissionDenied'))).toMatch(/deployer\/worker#1 .* permissionReason="not from a subagent"/);
  }, 120_000);
});
