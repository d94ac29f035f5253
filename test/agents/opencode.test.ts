/**
 * OpenCode and Kilo through `agent-hooks/opencode`, the plugin `agent-hooks bridge --install opencode` (or `kilo`)
 * writes into the project's plugin folder: the project's HOOK.md hooks, unchanged, run inside the agent's own process
 * (neither has command hooks). The shell guard of the shared cases is the same HOOK.md folder Claude Code's suite runs
 * (`tool: Shell`, reading `tool_input.command`): written once, it denies OpenCode's `bash` as it denies Claude's `Bash`.
 *
 * What the plugin cannot do there, and this file names in place of the shared cases:
 * - a stop gate: `session.idle` is a bus event whose answer OpenCode never reads, so a Stop hook's block cannot keep
 *   the agent working (the plugin says so as a warning); and `run` exits at `session.idle` without waiting for the
 *   plugin's handler, so headless a Stop hook may not even start;
 * - "the agent kills the bridge": there is no bridge process and OpenCode gives a plugin no timeout of its own; a
 *   hanging HOOK.md hook is ended at its own `timeout`, which the failures session proves.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kiloDriver, opencodeDriver } from './drivers/opencode.js';
import { pinOf, type AgentDriver, type SessionView } from './support/harness.js';
import { defineAgentSuite, explain, RUN_MS, seenFrom, session, type Session } from './support/suite.js';

const STOP_GATE = 'session.idle is a bus event whose answer OpenCode never reads: a Stop hook cannot keep it working';

function inPlugin(driver: AgentDriver): AgentDriver {
  return {
    ...driver,
    unsupported: {
      'stop gate: blocks once, the agent goes on with the reason, and the second payload says the gate is active': STOP_GATE,
      'at its own hook timeout: no hook process is left': 'no bridge process to kill: the plugin runs in the agent’s own process, and a hanging hook ends at its own timeout (the failures session)',
    },
    differs: {
      'the agent ran to its end': {
        title: `the agent ran to its end without obeying the stop gate's block (${driver.name} reads no answer to session.idle, and \`run\` exits on it without waiting for the plugin)`,
        check: (s: SessionView) => {
          expect(s.run.timedOut).toBe(false);
          // The model's last scripted answer was for the turn a stop gate would have added.
          expect(s.mock.remaining()).toBe(1);
          // The Stop hook may have started before `run` exited, or not: never twice.
          expect(s.project.evidenceOf('stop-gate').length).toBeLessThanOrEqual(1);
        },
      },
    },
  };
}

defineAgentSuite(inPlugin(opencodeDriver));
defineAgentSuite(inPlugin(kiloDriver));

/** Your own callbacks in the plugin (`createAgentHooksPlugin`), crashing and hanging under each `onHookError` policy. */
const OWN_HOOKS = (name: string, policy: 'block' | 'ignore', tag: string): string => `import { createAgentHooksPlugin } from 'agent-hooks/opencode';
const mine = (ctx, word) => ctx.event === 'PreToolUse' && String(ctx.toolCall.args.command).includes(word);
export const ${name} = createAgentHooksPlugin({
  onHookError: '${policy}',
  hookTimeout: 2000,
  hooks: [
    { name: 'crashes-${tag}', handle: (ctx, next) => { if (mine(ctx, 'cb-crash-${tag}')) throw new Error('E2E-CALLBACK-CRASH-${tag}'); return next(ctx); } },
    { name: 'hangs-${tag}', handle: (ctx, next) => (mine(ctx, 'cb-hang-${tag}') ? new Promise(() => {}) : next(ctx)) },
  ],
});
`;

for (const driver of [opencodeDriver, kiloDriver]) {
  const folder = driver.name === 'kilo' ? '.kilo' : '.opencode';
  describe(`${driver.name} ${pinOf(driver.name).version}, the plugin beyond the shared cases`, () => {
    describe('your own callbacks, crashing and hanging, under onHookError block and ignore', () => {
      let s: Session;
      beforeAll(async () => {
        const own: AgentDriver = {
          ...driver,
          async configure(project, mock, options) {
            await driver.configure(project, mock, options);
            writeFileSync(join(project.dir, folder, 'plugin', 'closed.js'), OWN_HOOKS('ClosedHooks', 'block', 'closed'));
            writeFileSync(join(project.dir, folder, 'plugin', 'open.js'), OWN_HOOKS('OpenHooks', 'ignore', 'open'));
          },
        };
        s = await session(
          own,
          [],
          ['PreToolUse'],
          30,
          [
            { shell: 'touch cb-crash-closed.txt' },
            { shell: 'touch cb-crash-open.txt' },
            { shell: 'touch cb-hang-closed.txt' },
            { shell: 'touch cb-hang-open.txt' },
            { text: 'Done.' },
          ],
          'Create the four files.',
        );
      }, RUN_MS + 30_000);
      afterAll(async () => {
        await s?.mock.close();
        s?.project.remove();
      });
      const ran = (file: string) => existsSync(join(s.project.dir, file));

      it('a crashing callback under block refuses the call, and the model is told why', () => {
        expect(s.run.timedOut, explain(s)).toBe(false);
        expect(ran('cb-crash-closed.txt'), explain(s)).toBe(false);
        expect(seenFrom(s, 1), explain(s)).toContain('E2E-CALLBACK-CRASH-closed');
      });
      it('a crashing callback under ignore: the call runs, and the crash is said on stderr', () => {
        expect(ran('cb-crash-open.txt'), explain(s)).toBe(true);
        expect(s.run.stderr, explain(s)).toContain('E2E-CALLBACK-CRASH-open');
      });
      it('a hanging callback under block refuses the call at its timeout', () => {
        expect(ran('cb-hang-closed.txt'), explain(s)).toBe(false);
      });
      it('a hanging callback under ignore: the call runs at its timeout, and the hang is said on stderr', () => {
        expect(ran('cb-hang-open.txt'), explain(s)).toBe(true);
        expect(s.run.stderr, explain(s)).toMatch(/hangs-open \(PreToolUse\): .*2000/);
      });
    });

    describe('a prompt a UserPromptSubmit hook blocks', () => {
      let s: Session;
      beforeAll(async () => {
        const gate: AgentDriver = {
          ...driver,
          async configure(project, mock, options) {
            await driver.configure(project, mock, options);
            writeFileSync(
              join(project.dir, folder, 'plugin', 'gate.js'),
              `import { createAgentHooksPlugin } from 'agent-hooks/opencode';
import { HookOutcome } from 'agent-hooks';
export const PromptGate = createAgentHooksPlugin({
  hooks: [(ctx, next) => (ctx.event === 'UserPromptSubmit' && ctx.prompt.includes('deploy') ? HookOutcome.block('E2E-PROMPT-REJECTED: no deploys from here.') : next(ctx))],
});
`,
            );
          },
        };
        s = await session(gate, [], ['UserPromptSubmit'], 30, [{ shell: 'touch deployed.txt' }, { text: 'Deployed.' }], 'Please deploy to production.');
      }, RUN_MS + 30_000);
      afterAll(async () => {
        await s?.mock.close();
        s?.project.remove();
      });

      it('is rejected: the model is never asked, and the reason is on stderr (OpenCode itself reports only a server error)', () => {
        expect(s.run.timedOut, explain(s)).toBe(false);
        expect(s.run.stdout, explain(s)).toContain('Unexpected server error');
        expect(s.mock.mainRequests().length, explain(s)).toBe(0);
        expect(existsSync(join(s.project.dir, 'deployed.txt')), explain(s)).toBe(false);
        expect(s.run.stderr, explain(s)).toContain('agent-hooks: this prompt was rejected: E2E-PROMPT-REJECTED: no deploys from here.');
      });
    });

    describe('started in a subfolder of the project', () => {
      let s: Session;
      beforeAll(async () => {
        const inSub: AgentDriver = {
          ...driver,
          run(project, mock, prompt, timeoutMs) {
            mkdirSync(join(project.dir, 'sub', 'build'), { recursive: true });
            writeFileSync(join(project.dir, 'sub', 'build', 'keep.txt'), 'built\n');
            return driver.run({ ...project, dir: join(project.dir, 'sub') }, mock, prompt, timeoutMs);
          },
        };
        s = await session(inSub, ['guard-shell'], ['PreToolUse'], 30, [{ shell: 'rm -rf build' }, { text: 'Done.' }], 'Clean the build folder.');
      }, RUN_MS + 30_000);
      afterAll(async () => {
        await s?.mock.close();
        s?.project.remove();
      });

      it('the project’s hooks still run: the plugin file names the project it sits in', () => {
        expect(s.run.timedOut, explain(s)).toBe(false);
        const guard = s.project.evidenceOf('guard-shell') as { tool_input?: { command?: string } }[];
        expect(guard.map((p) => p.tool_input?.command), explain(s)).toContain('rm -rf build');
        expect(existsSync(join(s.project.dir, 'sub', 'build', 'keep.txt')), explain(s)).toBe(true);
      });
    });

    describe('the package the plugin file imports is missing', () => {
      let s: Session;
      beforeAll(async () => {
        const bare: AgentDriver = {
          ...driver,
          async configure(project, mock, options) {
            await driver.configure(project, mock, options);
            rmSync(join(project.dir, 'node_modules', 'agent-hooks'));
          },
        };
        s = await session(bare, ['guard-shell'], ['PreToolUse'], 30, [{ shell: 'touch unguarded.txt' }, { text: 'Done.' }], 'Create the file.');
      }, RUN_MS + 30_000);
      afterAll(async () => {
        await s?.mock.close();
        s?.project.remove();
      });

      it('every tool call is refused rather than run unguarded, and the model and stderr say why', () => {
        expect(s.run.timedOut, explain(s)).toBe(false);
        expect(existsSync(join(s.project.dir, 'unguarded.txt')), explain(s)).toBe(false);
        expect(seenFrom(s, 1), explain(s)).toContain('agent-hooks could not be loaded');
        expect(s.run.stderr, explain(s)).toContain("run 'npm install --save-dev agent-hooks'");
      });
    });
  });
}
