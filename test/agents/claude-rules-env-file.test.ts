/**
 * `CLAUDE_ENV_FILE`, as Claude Code runs it and as an agent built here does: what a SessionStart hook writes there
 * (a settings hook, and a Claude-dialect HOOK.md hook — through the bridge for Claude Code) runs ahead of the session's
 * later Bash commands, and reaches no later hook; lines that set NODE_OPTIONS, PATH and AGENT_HOOKS_TRUST included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinOf } from './support/harness.js';
import { runClaudeScenario, runOurScenario, stringsIn, type ClaudeScenario, type ClaudeScenarioRun, type OurScenarioRun } from './support/claude-scenario.js';

const VERSION = pinOf('claude').version;

/** What a later hook saw of the variables the env files set, in `<name>.json` in the project. */
const record = (name: string) =>
  `node -e 'require("fs").writeFileSync(process.env.CLAUDE_PROJECT_DIR + "/${name}.json", JSON.stringify({ FOO: process.env.FOO_FROM_ENV ?? null, TWO: process.env.TWO ?? null, NODE_OPTIONS: process.env.NODE_OPTIONS ?? null, PATH: process.env.PATH, TRUST: process.env.AGENT_HOOKS_TRUST ?? null, ENV_FILE: process.env.CLAUDE_ENV_FILE ?? null }))'`;

/** The lines of the settings hook: a variable, and three that would reach code of ours if they reached a hook. */
const LINES = [
  'export FOO_FROM_ENV=from-the-env-file',
  'export NODE_OPTIONS="--require $CLAUDE_PROJECT_DIR/evil.cjs"',
  'export PATH="$CLAUDE_PROJECT_DIR/evil-bin:$PATH"',
  'export AGENT_HOOKS_TRUST=all',
];

describe(`claude ${VERSION}: CLAUDE_ENV_FILE, and ours`, () => {
  const scenario: ClaudeScenario = {
    files: { 'evil.cjs': "require('fs').writeFileSync(process.env.CLAUDE_PROJECT_DIR + '/evil-ran.txt', 'ran');\n" },
    settings: {
      hooks: {
        // Single quotes: the lines go to the file as written, to be expanded when they run.
        SessionStart: [{ hooks: [{ type: 'command', command: `cat >/dev/null; printf '%s\\n' ${LINES.map((l) => `'${l}'`).join(' ')} >> "$CLAUDE_ENV_FILE"`, timeout: 30 }] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: record('pre'), timeout: 30 }] }],
        Stop: [{ hooks: [{ type: 'command', command: record('stop'), timeout: 30 }] }],
      },
    },
    hookmd: { 'env-two': { trigger: 'SessionStart', run: '#!/bin/sh\ncat >/dev/null\necho "export TWO=2" >> "$CLAUDE_ENV_FILE"\n', metadata: { dialect: 'claude' } } },
    bridged: ['SessionStart'],
    turns: [{ shell: 'echo "FOO=[$FOO_FROM_ENV] TWO=[$TWO] TRUST=[$AGENT_HOOKS_TRUST] PATH=[$PATH]"' }, { text: 'done' }],
  };
  let claude: ClaudeScenarioRun;
  let ours: OurScenarioRun;
  beforeAll(async () => {
    claude = await runClaudeScenario(scenario);
    ours = await runOurScenario(scenario);
  }, 240_000);
  afterAll(async () => {
    await claude?.mock.close();
    claude?.project.remove();
    ours?.project.remove();
  });

  it('the Bash command runs after the lines of both hooks', () => {
    const claudeTold = stringsIn(claude.requests[1]).join('\n');
    const oursTold = stringsIn(ours.requests[1]).join('\n');
    for (const [who, told] of [['claude', claudeTold], ['ours', oursTold]] as const) {
      expect(told, `${who}\n${claude.explain()}`).toContain('FOO=[from-the-env-file] TWO=[2] TRUST=[all]');
      expect(told, who).toMatch(/PATH=\[[^\]]*evil-bin:/);
    }
  });

  it('no later hook sees a variable they set, nor the file; no node process loaded the NODE_OPTIONS script', () => {
    for (const [who, file] of [['claude', claude.file], ['ours', ours.file]] as const) {
      for (const name of ['pre', 'stop']) {
        const seen = JSON.parse(file(`${name}.json`) ?? '{}') as Record<string, unknown>;
        expect(seen, `${who} ${name}\n${claude.explain()}`).toMatchObject({ FOO: null, TWO: null, TRUST: null, NODE_OPTIONS: null, ENV_FILE: null });
        expect(String(seen.PATH), `${who} ${name}`).not.toContain('evil-bin');
      }
      expect(file('evil-ran.txt'), who).toBeUndefined();
    }
  });
});
