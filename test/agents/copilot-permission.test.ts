/**
 * What GitHub Copilot CLI does with its permissionRequest hooks' answers with every tool allowed (`COPILOT_ALLOW_ALL`,
 * as the driver runs it), and what an agent-hooks agent loading the same file (`withHooksFrom({ copilot: true })`)
 * and the bridge (`bridge --from copilot`, run by Copilot on permissionRequest) do: the same calls run, the same are
 * denied, the model is told the same, and an interrupt ends both runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentWarning } from '../../src/index.js';
import { runShellAgent } from '../support/shell-agent.js';
import { copilotDriver } from './drivers/copilot.js';
import { REPO, bodyText, makeProject, pinOf, type AgentProject, type AgentRun } from './support/harness.js';
import { shellScript } from './support/shell-script.js';
import { startMockServer, type MockServer, type Turn } from './support/mock-server.js';

/** One permissionRequest hook, answering by the marker its payload holds. */
const ANSWERS = [
  `case "$(cat)" in`,
  `*perm-deny*) echo '{"behavior":"deny","message":"RULE-PERM-DENY"}';;`,
  `*perm-decision*) echo '{"permissionDecision":"deny","permissionDecisionReason":"RULE-PERM-DECISION"}';;`,
  `*perm-ask*) echo '{"behavior":"ask","message":"RULE-PERM-ASK"}';;`,
  `*perm-args*) echo '{"behavior":"allow","updatedInput":{"command":"touch rewritten.txt"},"modifiedArgs":{"command":"touch rewritten.txt"}}';;`,
  `*perm-exit2*) echo RULE-PERM-STDERR >&2; exit 2;;`,
  `*perm-crash*) echo RULE-PERM-CRASH >&2; exit 1;;`,
  `*perm-interrupt*) echo '{"behavior":"deny","message":"RULE-PERM-INTERRUPT","interrupt":true}';;`,
  `esac`,
].join('\n');

const TURNS: readonly Turn[] = [
  { shell: 'touch perm-deny.txt' },
  { shell: 'touch perm-decision.txt' },
  { shell: 'touch perm-ask.txt' },
  { shell: 'touch perm-args.txt' },
  { shell: 'touch perm-exit2.txt' },
  { shell: 'touch perm-crash.txt' },
  { shell: 'touch bridge-deny.txt' },
  { shell: 'touch bridge-stop.txt' },
  // Played only if the interrupt did not end the run.
  { shell: 'touch after-interrupt.txt' },
  { text: 'done' },
];
const FILES = ['perm-deny.txt', 'perm-decision.txt', 'perm-ask.txt', 'perm-args.txt', 'rewritten.txt', 'perm-exit2.txt', 'perm-crash.txt', 'bridge-deny.txt', 'bridge-stop.txt', 'after-interrupt.txt'];

/** The project's own hooks, which the bridge runs: a deny and a stop, by marker. */
const CONFIG = `import { HookOutcome } from ${JSON.stringify(join(REPO, 'dist', 'index.js'))};
export default [{ priority: 500, hook: (ctx, next) => {
  if (ctx.event !== 'PermissionRequest') return next(ctx);
  const command = String(ctx.toolCall.args.command);
  if (command.includes('bridge-deny')) return HookOutcome.block('RULE-BRIDGE-DENY');
  if (command.includes('bridge-stop')) return HookOutcome.stop('RULE-BRIDGE-STOP');
  return next(ctx);
} }];
`;

function withFile(): AgentProject {
  const project = makeProject([]);
  execFileSync('git', ['init', '-q'], { cwd: project.dir, env: project.env });
  mkdirSync(join(project.dir, '.github', 'hooks'), { recursive: true });
  const bridge = `"${join(project.dir, 'node_modules', '.bin', 'agent-hooks')}" bridge --trust-all --from copilot --event permissionRequest`;
  const hooks = { permissionRequest: [{ bash: ANSWERS }, { bash: bridge, timeoutSec: 60 }] };
  writeFileSync(join(project.dir, '.github', 'hooks', 'permission.json'), `${JSON.stringify({ version: 1, hooks }, null, 2)}\n`);
  writeFileSync(join(project.dir, 'agent-hooks.config.mjs'), CONFIG);
  return project;
}

describe(`copilot ${pinOf('copilot').version}: permissionRequest answers with every tool allowed, and ours`, () => {
  let copilot: { project: AgentProject; mock: MockServer; run: AgentRun; told: string; files: string[] };
  let ours: { project: AgentProject; told: string; files: string[]; requests: number; warnings: AgentWarning[]; error?: string };
  const present = (dir: string) => FILES.filter((f) => existsSync(join(dir, f)));
  beforeAll(async () => {
    const project = withFile();
    const mock = await startMockServer(copilotDriver.api(), TURNS);
    const run = await copilotDriver.run(project, mock, 'Touch the files.', 120_000);
    copilot = { project, mock, run, told: mock.mainRequests().map((r) => bodyText(r.body)).join('\n'), files: present(project.dir) };
    const mine = withFile();
    const seen = await runShellAgent({ dir: mine.dir, env: mine.env, tool: 'bash', ...shellScript(TURNS), from: { copilot: true, hookmd: false }, prompt: 'Touch the files.', inDir: true, catchError: true });
    const { model, warnings } = seen;
    const error = seen.error === undefined ? undefined : String(seen.error);
    ours = { project: mine, told: model.requests.map((r) => JSON.stringify(r.messages)).join('\n'), files: present(mine.dir), requests: model.requests.length, warnings, error };
  }, 300_000);
  afterAll(async () => {
    await copilot?.mock.close();
    copilot?.project.remove();
    ours?.project.remove();
  });

  const explain = (): string =>
    `copilot: exit ${copilot.run.exitCode}, files ${JSON.stringify(copilot.files)}, ${copilot.mock.mainRequests().length} requests\n--- log\n${copilotDriver.log?.(copilot.project).slice(-5000)}\nours: files ${JSON.stringify(ours.files)}, ${ours.requests} requests, error ${ours.error}, warnings ${JSON.stringify(ours.warnings.map((w) => w.message))}`;

  it('behavior "deny" denies, and the model is told its message', () => {
    for (const [who, files, told] of [['copilot', copilot.files, copilot.told], ['ours', ours.files, ours.told]] as const) {
      expect(files, `${who}\n${explain()}`).not.toContain('perm-deny.txt');
      expect(told, `${who}\n${explain()}`).toContain('RULE-PERM-DENY');
    }
  });

  it('permissionDecision, behavior "ask" and new arguments are not read there: the calls run as they were', () => {
    for (const [who, files] of [['copilot', copilot.files], ['ours', ours.files]] as const) {
      expect(files, `${who}\n${explain()}`).toEqual(expect.arrayContaining(['perm-decision.txt', 'perm-ask.txt', 'perm-args.txt']));
      expect(files, `${who}\n${explain()}`).not.toContain('rewritten.txt');
    }
    expect(ours.warnings.map((w) => w.message).join('\n'), explain()).toMatch(/permissionDecision on permissionRequest/);
  });

  it('exit 2 and exit 1 deny, and the model is not told the hook’s stderr', () => {
    for (const [who, files, told] of [['copilot', copilot.files, copilot.told], ['ours', ours.files, ours.told]] as const) {
      expect(files, `${who}\n${explain()}`).not.toContain('perm-exit2.txt');
      expect(files, `${who}\n${explain()}`).not.toContain('perm-crash.txt');
      expect(told, `${who}\n${explain()}`).toContain('Permission denied by hook.');
      expect(told, `${who}\n${explain()}`).toContain('Permission request hook failed');
      expect(told, `${who}\n${explain()}`).not.toContain('RULE-PERM-STDERR');
    }
  });

  it('through the bridge, a block denies with its reason', () => {
    expect(copilot.files, explain()).not.toContain('bridge-deny.txt');
    expect(copilot.told, explain()).toContain('RULE-BRIDGE-DENY');
  });

  it('through the bridge, a stop denies and ends the run, as an interrupt does', () => {
    expect(copilot.files, explain()).not.toContain('bridge-stop.txt');
    expect(copilot.files, explain()).not.toContain('after-interrupt.txt');
    expect(copilot.mock.remaining(), explain()).toBe(2);
  });
});

/** A hook whose own answer is an interrupt: Copilot ends the run, and so do we. */
describe(`copilot ${pinOf('copilot').version}: a permissionRequest interrupt ends the run, and ours`, () => {
  const INTERRUPT_TURNS: readonly Turn[] = [{ shell: 'touch perm-interrupt.txt' }, { shell: 'touch after-interrupt.txt' }, { text: 'done' }];
  let copilot: { project: AgentProject; mock: MockServer; run: AgentRun };
  let ours: { project: AgentProject; requests: number; error?: string };
  beforeAll(async () => {
    const project = withFile();
    const mock = await startMockServer(copilotDriver.api(), INTERRUPT_TURNS);
    copilot = { project, mock, run: await copilotDriver.run(project, mock, 'Touch the files.', 120_000) };
    const mine = withFile();
    const seen = await runShellAgent({ dir: mine.dir, env: mine.env, tool: 'bash', ...shellScript(INTERRUPT_TURNS), from: { copilot: true, hookmd: false }, prompt: 'Touch the files.', inDir: true, catchError: true });
    ours = { project: mine, requests: seen.model.requests.length, error: seen.error === undefined ? undefined : String(seen.error) };
  }, 300_000);
  afterAll(async () => {
    await copilot?.mock.close();
    copilot?.project.remove();
    ours?.project.remove();
  });

  it('the call is denied and no further model call is made', () => {
    const explain = `copilot exit ${copilot.run.exitCode}, remaining ${copilot.mock.remaining()}; ours ${ours.requests} requests, ${ours.error}`;
    expect(existsSync(join(copilot.project.dir, 'perm-interrupt.txt')), explain).toBe(false);
    expect(copilot.mock.remaining(), explain).toBe(2);
    expect(existsSync(join(ours.project.dir, 'perm-interrupt.txt')), explain).toBe(false);
    expect(ours.requests, explain).toBe(1);
  });
});
