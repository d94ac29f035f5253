/**
 * GitHub Copilot CLI's `disableAllHooks` and its hooks' progress lines, as the binary acts on them, and an agent-hooks
 * agent loading the same files (`withHooksFrom({ copilot: true })`):
 * - `"disableAllHooks": true` at the top level of one hook file skips that file's hooks only;
 * - at the top level of a repository's settings (`.claude/settings.json`, `.claude/settings.local.json`,
 *   `.github/copilot/settings.json`, `.github/copilot/settings.local.json`, merged in that order, the last that sets it
 *   winning) it skips every hook, the user's own in `~/.copilot` included; in `~/.copilot/settings.json` it does
 *   nothing (1.0.102; its reference says otherwise);
 * - it also runs the hooks of a repository's `.claude/settings.json`, `.claude/settings.local.json` and
 *   `.github/copilot/settings.local.json` (camelCase flat entries, PascalCase Claude Code groups), after the hook files;
 *   under a PascalCase event a tool matcher matches Claude Code's name of the tool (`Bash`) as well as Copilot's;
 * - a stdout line that is one JSON object with `"type": "progress"` is a status message, taken out before the answer
 *   is read: a guard that prints one and then denies, denies — under camelCase and PascalCase names alike.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runShellAgent } from '../support/shell-agent.js';
import { copilotDriver } from './drivers/copilot.js';
import { installBridge, makeProject, pinOf, type AgentProject, type AgentRun } from './support/harness.js';
import { startMockServer, type Turn } from './support/mock-server.js';
import { shellScript } from './support/shell-script.js';

/** A preToolUse hook that appends `name` to `order.log` in the project. */
const log = (name: string): string => `cat > /dev/null; echo ${name} >> order.log`;
const hookFile = (name: string, extra: object = {}): object => ({ version: 1, ...extra, hooks: { preToolUse: [{ bash: log(name) }] } });
const BASE: Readonly<Record<string, object>> = { 'home/.copilot/hooks/u.json': hookFile('user'), 'project/.github/hooks/b.json': hookFile('project') };

/** Each case: the files (under the temporary root), and the hooks Copilot CLI 1.0.102 was seen running. */
const SWITCHES: readonly { name: string; files: Readonly<Record<string, object>>; ran: string[] }[] = [
  {
    name: 'a hook file’s own switch skips that file only',
    files: { ...BASE, 'home/.copilot/hooks/v.json': hookFile('user-off', { disableAllHooks: true }), 'project/.github/hooks/a.json': hookFile('project-off', { disableAllHooks: true }) },
    ran: ['user', 'project'],
  },
  {
    name: '.github/copilot/settings.json switches off every hook, the user’s included',
    files: { ...BASE, 'home/.copilot/settings.json': { hooks: { preToolUse: [{ bash: log('user-settings') }] } }, 'project/.github/copilot/settings.json': { disableAllHooks: true } },
    ran: [],
  },
  { name: '.github/copilot/settings.local.json does too', files: { ...BASE, 'project/.github/copilot/settings.local.json': { disableAllHooks: true } }, ran: [] },
  { name: '.claude/settings.json does too', files: { ...BASE, 'project/.claude/settings.json': { disableAllHooks: true } }, ran: [] },
  { name: '.claude/settings.local.json does too', files: { ...BASE, 'project/.claude/settings.local.json': { disableAllHooks: true } }, ran: [] },
  {
    name: 'a later file’s false undoes it',
    files: { ...BASE, 'project/.claude/settings.json': { disableAllHooks: true }, 'project/.github/copilot/settings.local.json': { disableAllHooks: false } },
    ran: ['user', 'project'],
  },
  {
    name: '.github/copilot/ is merged after .claude/',
    files: { ...BASE, 'project/.github/copilot/settings.json': { disableAllHooks: true }, 'project/.claude/settings.json': { disableAllHooks: false } },
    ran: [],
  },
  { name: '~/.copilot/settings.json does not switch them off', files: { ...BASE, 'home/.copilot/settings.json': { disableAllHooks: true } }, ran: ['user', 'project'] },
];

/** A Claude Code-style group under PascalCase `event` that logs `name`. */
const group = (name: string, matcher?: string): object => ({ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command: log(name) }] });

/** The settings files Copilot CLI reads hooks from, besides its hook folders, and the order it runs them in. */
const SOURCES: readonly { name: string; files: Readonly<Record<string, object>>; ran: string[]; copilotHome?: string }[] = [
  {
    name: '$COPILOT_HOME/hooks and $COPILOT_HOME/settings.json in place of ~/.copilot; exec with args, and command',
    files: {
      ...BASE,
      'home/.copilot/settings.json': { hooks: { preToolUse: [{ bash: log('user-settings') }] } },
      'copilot-home/hooks/u.json': hookFile('copilot-home'),
      'copilot-home/settings.json': { hooks: { preToolUse: [{ bash: log('copilot-home-settings') }] } },
      'project/.github/hooks/e.json': { version: 1, hooks: { preToolUse: [{ exec: 'sh', args: ['-c', `${log('exec')} "$0"`, 'one word'] }, { command: log('command') }] } },
    },
    copilotHome: 'copilot-home',
    ran: ['copilot-home', 'copilot-home-settings', 'exec one word', 'command', 'project'],
  },
  {
    name: 'the repository’s .claude/ and .github/copilot/ settings, settings.local.json too, after the hook files',
    files: {
      ...BASE,
      'home/.copilot/settings.json': { hooks: { preToolUse: [{ bash: log('user-settings') }] } },
      // The user's own Claude Code settings are not Copilot's.
      'home/.claude/settings.json': { hooks: { PreToolUse: [group('user-claude')] } },
      'project/.claude/settings.json': { hooks: { preToolUse: [{ bash: log('claude-camel') }], PreToolUse: [group('claude')] } },
      'project/.claude/settings.local.json': { hooks: { PreToolUse: [group('claude-local', 'Edit|Bash')] } },
      'project/.github/copilot/settings.json': { hooks: { preToolUse: [{ bash: log('settings') }] } },
      'project/.github/copilot/settings.local.json': { hooks: { preToolUse: [{ bash: log('settings-local') }] } },
    },
    ran: ['user', 'user-settings', 'project', 'claude-camel', 'claude', 'claude-local', 'settings', 'settings-local'],
  },
  {
    name: 'a PascalCase hook’s matcher matches Claude Code’s name of the tool too, in a hook file as in settings',
    files: {
      'project/.github/hooks/p.json': {
        version: 1,
        hooks: { preToolUse: [{ matcher: 'Bash', bash: log('camel-Bash') }, { matcher: 'bash', bash: log('camel-bash') }], PreToolUse: [{ matcher: 'Bash', bash: log('Pascal-Bash') }, { matcher: 'bash', bash: log('Pascal-bash') }, { matcher: 'Edit', bash: log('Pascal-Edit') }] },
      },
    },
    ran: ['camel-bash', 'Pascal-Bash', 'Pascal-bash'],
  },
  {
    name: 'a settings file with an empty matcher is not read at all',
    files: {
      ...BASE,
      'project/.claude/settings.json': { hooks: { PreToolUse: [group('claude-empty', ''), group('claude')], Stop: [group('claude-stop')] } },
      'project/.claude/settings.local.json': { hooks: { PreToolUse: [group('claude-local')] } },
    },
    ran: ['user', 'project', 'claude-local'],
  },
];

/** Guards that report their progress, then deny: `one.txt` by camelCase answer, `two.txt` by Claude-compatible answer. */
const PROGRESS: Readonly<Record<string, object>> = {
  'project/.github/hooks/camel.json': {
    version: 1,
    hooks: { preToolUse: [{ bash: `input=$(cat); case "$input" in *one.txt*) printf '%s\\n' '{"type":"progress","message":"checking"}' '{"permissionDecision":"deny","permissionDecisionReason":"not one"}';; esac` }] },
  },
  'project/.github/hooks/pascal.json': {
    version: 1,
    hooks: { PreToolUse: [{ bash: `input=$(cat); case "$input" in *two.txt*) printf '%s\\n' '{"type": "progress", "message": "checking", "temporary": true}' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not two"}}';; esac` }] },
  },
};

const ONE_CALL: readonly Turn[] = [{ shell: 'touch one.txt' }, { text: 'done' }];
const THREE_CALLS: readonly Turn[] = [{ shell: 'touch one.txt' }, { shell: 'touch two.txt' }, { shell: 'touch three.txt' }, { text: 'done' }];

function withFiles(files: Readonly<Record<string, object>>): AgentProject {
  const project = makeProject([]);
  execFileSync('git', ['init', '-q'], { cwd: project.dir, env: project.env });
  for (const [path, config] of Object.entries(files)) {
    mkdirSync(join(project.root, path, '..'), { recursive: true });
    writeFileSync(join(project.root, path), `${JSON.stringify(config, null, 2)}\n`);
  }
  return project;
}

interface Seen {
  readonly order: string[];
  readonly touched: string[];
  readonly explain: string;
  readonly warnings: string[];
}

const seen = (project: AgentProject, explain: string, warnings: string[] = []): Seen => ({
  order: existsSync(join(project.dir, 'order.log')) ? readFileSync(join(project.dir, 'order.log'), 'utf8').trim().split('\n') : [],
  touched: ['one.txt', 'two.txt', 'three.txt'].filter((f) => existsSync(join(project.dir, f))),
  explain,
  warnings,
});

async function copilotSees(files: Readonly<Record<string, object>>, turns: readonly Turn[], copilotHome?: string): Promise<Seen> {
  const project = withFiles(files);
  if (copilotHome !== undefined) project.env.COPILOT_HOME = join(project.root, copilotHome);
  const mock = await startMockServer(copilotDriver.api(), turns);
  try {
    const run: AgentRun = await copilotDriver.run(project, mock, 'Touch the files.', 120_000);
    return seen(project, `copilot: exit ${run.exitCode}, timed out ${run.timedOut}, ${mock.remaining()} turns left\n${copilotDriver.log?.(project).slice(-3000)}`);
  } finally {
    await mock.close();
    project.remove();
  }
}

async function oursSees(files: Readonly<Record<string, object>>, turns: readonly Turn[], copilotHome?: string): Promise<Seen> {
  const project = withFiles(files);
  try {
    const { warnings } = await runShellAgent({
      dir: project.dir,
      tool: 'bash',
      ...shellScript(turns),
      prompt: 'Touch the files.',
      env: project.env,
      inDir: true,
      from: { homeDir: project.home, copilot: true, hookmd: false, hostEnv: copilotHome === undefined ? {} : { COPILOT_HOME: join(project.root, copilotHome) } },
    });
    return seen(project, 'ours', warnings.map((w) => `${w.code}: ${w.message}`));
  } finally {
    project.remove();
  }
}

describe(`copilot ${pinOf('copilot').version}: disableAllHooks, and ours`, () => {
  const results: { copilot: Seen; ours: Seen }[] = [];
  beforeAll(async () => {
    for (const { files } of SWITCHES) results.push({ copilot: await copilotSees(files, ONE_CALL), ours: await oursSees(files, ONE_CALL) });
  }, 600_000);

  it.each(SWITCHES.map((s, i) => [s.name, i] as const))('%s', (_, i) => {
    const { copilot, ours } = results[i]!;
    expect(copilot.touched, copilot.explain).toEqual(['one.txt']);
    expect(copilot.order, copilot.explain).toEqual(SWITCHES[i]!.ran);
    expect(ours.order, `ours: ${JSON.stringify(ours.warnings)}`).toEqual(copilot.order);
  });
});

describe(`copilot ${pinOf('copilot').version}: the settings files it reads hooks from, and ours`, () => {
  const results: { copilot: Seen; ours: Seen }[] = [];
  beforeAll(async () => {
    for (const { files, copilotHome } of SOURCES) results.push({ copilot: await copilotSees(files, ONE_CALL, copilotHome), ours: await oursSees(files, ONE_CALL, copilotHome) });
  }, 300_000);

  it.each(SOURCES.map((s, i) => [s.name, i] as const))('%s', (_, i) => {
    const { copilot, ours } = results[i]!;
    expect(copilot.order, copilot.explain).toEqual(SOURCES[i]!.ran);
    expect(ours.order, `ours: ${JSON.stringify(ours.warnings)}`).toEqual(copilot.order);
  });
});

describe(`copilot ${pinOf('copilot').version}: a guard’s progress lines before its deny, and ours`, () => {
  let copilot: Seen;
  let ours: Seen;
  beforeAll(async () => {
    copilot = await copilotSees(PROGRESS, THREE_CALLS);
    ours = await oursSees(PROGRESS, THREE_CALLS);
  }, 300_000);

  it('denies both calls, camelCase and PascalCase, and lets the third run', () => {
    expect(copilot.touched, copilot.explain).toEqual(['three.txt']);
    expect(ours.touched).toEqual(copilot.touched);
  });
});

describe(`copilot ${pinOf('copilot').version}: the Claude Code bridge in .claude/settings.json beside its own`, () => {
  let project: AgentProject;
  let run: AgentRun;
  let remaining: number;
  beforeAll(async () => {
    project = makeProject(['guard-shell']);
    execFileSync('git', ['init', '-q'], { cwd: project.dir, env: project.env });
    installBridge(project, 'claude', ['PreToolUse'], 30);
    installBridge(project, 'copilot', ['PreToolUse'], 30);
    const mock = await startMockServer(copilotDriver.api(), [{ shell: 'touch one.txt' }, { shell: 'rm -rf build' }, { text: 'done' }]);
    run = await copilotDriver.run(project, mock, 'Touch the file.', 120_000);
    remaining = mock.remaining();
    await mock.close();
  }, 300_000);

  it('runs the bridge twice on a call it lets through — its own line, then Claude Code’s — and once on a call the first denies', () => {
    const explain = `exit ${run.exitCode}, ${remaining} turns left\n${copilotDriver.log?.(project).slice(-3000)}`;
    const seen = project.evidenceOf('guard-shell') as { tool_name: string; tool_input: { command: string } }[];
    expect(seen.map((p) => [p.tool_name, p.tool_input.command]), explain).toEqual([
      ['bash', 'touch one.txt'],
      ['Bash', 'touch one.txt'],
      ['bash', 'rm -rf build'],
    ]);
    expect(existsSync(join(project.dir, 'build')), explain).toBe(true);
    project.remove();
  });
});
