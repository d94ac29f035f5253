/**
 * The Claude Agent SDK with agent-hooks: `claudeAgentHooks()` answers the SDK's hooks with ours, so the hooks written
 * for our agent refuse a command, rewrite one and gate the stop of the Claude Code agent `query()` runs. The model is
 * a scripted Messages API on 127.0.0.1 (no key, no network); Claude Code is the binary the SDK installs.
 *
 * Run it with `npx tsx examples/claude-agent-sdk.ts`.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { AgentBuilder, HookOutcome } from 'agent-hooks';
import { LoopHooks, claudeAgentHooks } from 'agent-hooks/claude-agent-sdk';
import { startScriptedApi } from './claude-agent-sdk/scripted-messages-api.js';

/** The hooks, written once for any agent: Claude Code calls its shell tool `Bash`. */
const guards = AgentBuilder.new()
  .onBeforeToolUse((ctx) => {
    if (String(ctx.toolCall.arg('command')).includes('rm -rf')) return HookOutcome.block('Destructive command refused');
  }, { matcher: 'Bash', name: 'block-rm-rf' })
  .onBeforeToolUse((ctx) => ctx.toolCall.withArg('command', String(ctx.toolCall.arg('command')).replace('draft', 'final')), { matcher: 'Bash', name: 'finalize' })
  .onStop((ctx) => (ctx.stopHookActive ? undefined : HookOutcome.block('Check notes.txt before you stop.')), { name: 'check-gate' });

// A project of its own, with a HOME of its own: nothing of yours is read or changed.
const root = mkdtempSync(join(tmpdir(), 'agent-hooks-claude-sdk-example-'));
const project = join(root, 'project');
const home = join(root, 'home');
mkdirSync(join(project, 'build'), { recursive: true });
mkdirSync(home);
writeFileSync(join(project, 'build', 'keep.txt'), 'keep');

const api = await startScriptedApi([{ bash: 'rm -rf build' }, { bash: 'echo draft > notes.txt' }, { text: 'Done.' }, { text: 'notes.txt says final. Done.' }]);
const hooks = new LoopHooks(guards);
const trace: string[] = [];
hooks.events.on('event', (ctx) => void trace.push(ctx.event === 'PreToolUse' ? `PreToolUse(${String(ctx.toolCall.arg('command'))})` : ctx.event));

try {
  for await (const message of query({
    prompt: 'Clean up the build folder, then write notes.txt.',
    options: {
      ...claudeAgentHooks(hooks),
      cwd: project,
      env: { PATH: process.env.PATH, HOME: home, ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'scripted', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
      // Headless: nobody to ask, so Bash is allowed and the hooks decide.
      allowedTools: ['Bash'],
      settingSources: [],
    },
  })) {
    if (message.type === 'result') console.log(`query() ended: ${message.subtype}`);
  }
  await hooks.drain();

  console.log(`build/keep.txt still there: ${existsSync(join(project, 'build', 'keep.txt'))}`);
  console.log(`notes.txt: ${readFileSync(join(project, 'notes.txt'), 'utf8').trim()}`);
  const told = (text: string) => api.received.findIndex((body) => body.includes(text));
  console.log(`the model was told "Destructive command refused" in request ${told('Destructive command refused') + 1} of ${api.received.length}`);
  console.log(`the model was told "Check notes.txt before you stop." in request ${told('Check notes.txt before you stop.') + 1}`);
  console.log(`\nOur events, in the order Claude Code fired them:\n  ${trace.join(' → ')}`);
} finally {
  await api.close();
  rmSync(root, { recursive: true, force: true });
}
