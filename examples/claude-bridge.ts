/**
 * The bridge in Claude Code: one line in .claude/settings.json makes Claude Code run a project's HOOK.md hooks (here
 * those of examples/claude-bridge/.agents/hooks), and the bridge answers in Claude Code's own format.
 *
 * In a real project: `npx agent-hooks bridge --install claude` writes the line, `npx agent-hooks trust` shows the
 * project's hooks and trusts them once you have read them, and Claude Code runs
 * `NODE_OPTIONS= NODE_COMPILE_CACHE= "$CLAUDE_PROJECT_DIR"/node_modules/.bin/agent-hooks bridge --from claude` (both
 * cleared, so that a project's settings cannot load code into it) with its JSON payload on stdin. Here the same command line runs
 * from source, on a copy of the example project, with the payloads Claude Code sends.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
const cli = fileURLToPath(new URL('../src/cli/index.ts', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'agent-hooks-bridge-'));
const project = join(scratch, 'project');
cpSync(fileURLToPath(new URL('./claude-bridge/', import.meta.url)), project, { recursive: true });
// What `npm install --save-dev agent-hooks` leaves in a project: node_modules/.bin/agent-hooks (here, the source).
mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
writeFileSync(join(project, 'node_modules', '.bin', 'agent-hooks'), `#!/bin/sh\nexec ${JSON.stringify(tsx)} ${JSON.stringify(cli)} "$@"\n`, { mode: 0o755 });
// Claude Code sets CLAUDE_PROJECT_DIR; an empty config home keeps your own user-level hooks out of the example.
const env = { ...process.env, CLAUDE_PROJECT_DIR: project, XDG_CONFIG_HOME: join(scratch, 'config'), NO_COLOR: '1' };

/** Runs `agent-hooks <args>` as Claude Code would: the payload on stdin; exit code, stdout and stderr back. */
function agentHooks(args: string[], payload?: object) {
  const { status, stdout, stderr } = spawnSync(tsx, [cli, ...args], { cwd: project, env, input: payload ? JSON.stringify(payload) : '', encoding: 'utf8' });
  const shown = (text: string) => text.trim().replaceAll(project, '<project>').replaceAll(scratch, '<scratch>');
  return { status, stdout: shown(stdout), stderr: shown(stderr) };
}

// 1. Install: the line goes into .claude/settings.json for the events the project's hooks use.
console.log(agentHooks(['bridge', '--install', 'claude']).stdout);
const settings = JSON.parse(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, unknown> };
console.log(`settings.json hooks: ${JSON.stringify(settings.hooks)}\n`);

// 2. Trust: the bridge runs a project's hooks only once you trust them (an untrusted one is skipped, with a line on
//    stderr and, once per session, a systemMessage that tells the user). `agent-hooks trust` lists each hook and what
//    it runs, and asks; --all trusts them without asking — here,
//    in the example's own config home, since the project is this repository's.
console.log(`${agentHooks(['trust', '--all']).stdout}\n`);

// 3. What Claude Code sends, and what the bridge answers.
const common = { session_id: 'demo', transcript_path: join(scratch, 'transcript.jsonl'), cwd: project, permission_mode: 'default' };
const calls = [
  { ...common, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf build/' }, tool_use_id: 'toolu_1' },
  { ...common, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls build/' }, tool_use_id: 'toolu_2' },
  { ...common, hook_event_name: 'Stop', stop_hook_active: false },
  { ...common, hook_event_name: 'Stop', stop_hook_active: true },
];
for (const payload of calls) {
  const { status, stdout, stderr } = agentHooks(['bridge', '--from', 'claude'], payload);
  const input = 'tool_input' in payload ? ` ${JSON.stringify(payload.tool_input)}` : ` stop_hook_active=${payload.stop_hook_active}`;
  console.log(`Claude Code → ${payload.hook_event_name}${input}`);
  console.log(`bridge      ← exit ${status}, stdout ${stdout === '' ? '(empty: go on)' : stdout}${stderr ? `, stderr ${stderr}` : ''}`);
}
rmSync(scratch, { recursive: true, force: true });
