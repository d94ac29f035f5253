/**
 * Which of Factory Droid's files it takes an event's hooks from, in one folder: `hooks.json` when it hooks the event,
 * else the older `hooks/hooks.json`, else `settings.json`'s `hooks` (Factory Droid 0.215.0). `bridge --install droid`
 * writes `hooks.json`, so it carries the project's hooks of each event it adds over from the other files: a guard in
 * `settings.json` still runs in Factory Droid once the bridge is there, and in an agent built here.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShellAgent } from '../support/shell-agent.js';
import { droidDriver, writeUserSettings } from './drivers/droid.js';
import { makeProject, pinOf } from './support/harness.js';
import { startMockServer, type Turn } from './support/mock-server.js';
import { RUN_MS } from './support/suite.js';

/** Leaves `ran-NAME` in the project; with `deny`, refuses a command holding `own-denied`. */
const hook = (name: string, deny = false) => [
  {
    matcher: 'Execute',
    hooks: [
      {
        type: 'command',
        timeout: 30,
        command: [
          'input=$(cat)',
          `touch "$FACTORY_PROJECT_DIR/ran-${name}"`,
          ...(deny ? ['case "$input" in *own-denied*) printf \'%s\' \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"E2E-DROID-SETTINGS"}}\';; esac'] : []),
        ].join('\n'),
      },
    ],
  },
];
const write = (file: string, value: unknown): void => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
};
const MARKS = ['settings-pre', 'settings-post', 'legacy-post'];
const SHELL = ['rm -rf build', 'touch own-denied.txt', 'touch allowed.txt'];
const TURNS: readonly Turn[] = [...SHELL.map((shell) => ({ shell })), { text: 'done' }];
const PROMPT = 'Clean the build folder, then create own-denied.txt and allowed.txt.';

describe(`droid ${pinOf('droid').version}: an event’s hooks from one file of a folder, and the bridge installed beside a guard in settings.json`, () => {
  it('Factory Droid runs the settings.json guard bridge --install droid carried into hooks.json, and the other files’ hooks by its rule; withHooksFrom({ droid: true }) runs the same', async () => {
    const project = makeProject(['guard-shell']);
    const mock = await startMockServer(droidDriver.api(), TURNS);
    try {
      writeUserSettings(project, mock);
      const folder = join(project.dir, '.factory');
      write(join(folder, 'settings.json'), { hooks: { PreToolUse: hook('settings-pre', true), PostToolUse: hook('settings-post') } });
      write(join(folder, 'hooks', 'hooks.json'), { PostToolUse: hook('legacy-post') });
      write(join(folder, 'hooks.json'), {});
      project.cli('bridge', '--install', 'droid', '--events', 'PreToolUse', '--timeout', '30');
      const carried = JSON.parse(readFileSync(join(folder, 'hooks.json'), 'utf8')) as { PreToolUse: { hooks: { command: string }[] }[] };
      expect(carried.PreToolUse.map((g) => g.hooks[0]!.command)).toEqual([expect.stringContaining('ran-settings-pre'), expect.stringContaining('bridge --from droid')]);

      const run = await droidDriver.run(project, mock, PROMPT, RUN_MS);
      const why = `exit ${run.exitCode}\n${run.stderr.slice(-3000)}`;
      const seen = mock.mainRequests().map((r) => JSON.stringify(r.body)).join('\n');
      expect(existsSync(join(project.dir, 'build', 'keep.txt')), why).toBe(true);
      expect(seen, why).toContain('E2E-DENY');
      expect(existsSync(join(project.dir, 'own-denied.txt')), why).toBe(false);
      expect(seen, why).toContain('E2E-DROID-SETTINGS');
      expect(existsSync(join(project.dir, 'allowed.txt')), why).toBe(true);
      // PostToolUse: settings.json's list, which hooks.json does not replace; the older hooks/hooks.json is not read
      // while there is a hooks.json.
      const ranIn = () => MARKS.filter((m) => existsSync(join(project.dir, `ran-${m}`)));
      expect(ranIn(), why).toEqual(['settings-pre', 'settings-post']);

      for (const name of ['allowed.txt', ...MARKS.map((m) => `ran-${m}`)]) rmSync(join(project.dir, name), { force: true });
      const { told } = await runShellAgent({ dir: project.dir, tool: 'Execute', commands: SHELL, from: { hookmd: true, droid: true }, prompt: PROMPT });
      expect(existsSync(join(project.dir, 'build', 'keep.txt'))).toBe(true);
      expect(told).toContain('E2E-DENY');
      expect(existsSync(join(project.dir, 'own-denied.txt'))).toBe(false);
      expect(told).toContain('E2E-DROID-SETTINGS');
      expect(existsSync(join(project.dir, 'allowed.txt'))).toBe(true);
      expect(ranIn()).toEqual(['settings-pre', 'settings-post']);
    } finally {
      await mock.close();
      project.remove();
    }
  }, RUN_MS + 60_000);
});
