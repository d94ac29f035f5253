/**
 * The built-in hooks at work: an agent on the scripted model, guarded and recorded by ready-made Hook classes, and
 * what each of them did.
 *
 *   - DangerousCommandHook refuses `rm -rf ~`;          - ProtectedPathsHook keeps `.env` unwritten;
 *   - RequireApprovalHook asks before each deploy;     - RateLimitHook allows two searches a minute;
 *   - ToolCallLimitHook allows bash twice per run;     - AuditLogHook writes a JSON line per event;
 *   - ExecutionTimingHook times the run, its steps and its tool calls.
 *
 * Run it with `npx tsx examples/built-in-hooks.ts`. Files go to a temporary folder, removed at the end.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  AgentBuilder,
  AuditLogHook,
  DangerousCommandHook,
  ExecutionTimingHook,
  ProtectedPathsHook,
  RateLimitHook,
  RequireApprovalHook,
  ScriptedModel,
  ToolCallLimitHook,
  defineTool,
  type ExecutionTimings,
  type ToolCallCounts,
} from 'agent-hooks';

const project = mkdtempSync(join(tmpdir(), 'agent-hooks-built-ins-'));
writeFileSync(join(project, '.env'), 'API_KEY=secret\n');

// Tools. bash and deploy only pretend; write_file writes inside the temporary project.
const bash = defineTool({ name: 'bash', input: z.object({ command: z.string() }), execute: ({ command }) => `$ ${command}\n(pretend output)` });
const writeFile = defineTool({
  name: 'write_file',
  input: z.object({ path: z.string(), content: z.string() }),
  execute: ({ path, content }) => (writeFileSync(join(project, path), content), `wrote ${path}`),
});
const deploy = defineTool({ name: 'deploy', input: z.object({ env: z.string() }), execute: ({ env }) => `deployed to ${env}` });
const search = defineTool({ name: 'search', input: z.object({ query: z.string() }), execute: ({ query }) => `3 results for ${query}` });

const call = (name: string, args: Record<string, unknown>) => ({ name, args });
const model = new ScriptedModel([
  { toolCalls: [call('bash', { command: 'ls -la' }), call('bash', { command: 'rm -rf ~' })] },
  { toolCalls: [call('write_file', { path: 'notes.md', content: '# Notes\n' }), call('write_file', { path: './sub/../.env', content: 'API_KEY=stolen\n' })] },
  { toolCalls: [call('deploy', { env: 'staging' }), call('deploy', { env: 'production' })] },
  { toolCalls: [call('search', { query: 'a' }), call('search', { query: 'b' }), call('search', { query: 'c' })] },
  { toolCalls: [call('bash', { command: 'git status' }), call('bash', { command: 'npm test' })] },
  'Done.',
]);

const auditFile = join(project, '.agent', 'audit.jsonl');
const timing = new ExecutionTimingHook();
const agent = AgentBuilder.new()
  .withModel(model)
  .withTools(bash, writeFile, deploy, search)
  .withHook(new DangerousCommandHook())
  .withHook(new ProtectedPathsHook({ projectDir: project }))
  .withHook(new RequireApprovalHook({ matcher: 'deploy', reason: (ctx) => `Deploy to ${String(ctx.toolCall.args.env)}?` }))
  .withHook(new RateLimitHook({ limit: 2, windowMs: 60_000, matcher: 'search' }))
  .withHook(new ToolCallLimitHook({ perTool: { bash: 2 } }))
  .withHook(new AuditLogHook(auditFile))
  .withHook(timing)
  .withApprover(({ toolCall, reason }) => {
    const approved = toolCall.args.env !== 'production';
    console.log(`  approver             ${reason} ${approved ? 'yes' : 'no'}`);
    return approved ? true : { approved: false, reason: 'production deploys wait for Monday' };
  })
  .build();

// What each hook decided, from the agent's own per-hook events. Hooks end innermost first, and the hooks around the one
// that decided pass its outcome on: the first hook of a dispatch to end with something other than proceed decided it.
let decided = false;
agent.events.on('event', () => (decided = false));
agent.events.on('hook:end', ({ hookName, event, outcome }) => {
  if (decided || outcome.type === 'proceed') return;
  decided = true;
  console.log(`  ${hookName.padEnd(20)} ${event} → ${outcome}`);
});
agent.events.on('dispatched', ({ context, outcome }) => {
  if (context.event === 'PreToolUse' && outcome.type === 'proceed') console.log(`  ${'ran'.padEnd(20)} ${context.toolCall.name} ${JSON.stringify(context.toolCall.args)}`);
});
agent.events.on('warning', (w) => console.log(`  warning: ${w.message}`));

console.log('Tool calls:');
const session = agent.session();
const result = await session.run('Tidy up, take notes, deploy and look things up');
// Closing the session fires SessionEnd: the audit log is flushed and closed.
await session.close();

const counts = result.metadata[ToolCallLimitHook.metadataKey] as ToolCallCounts;
const timings = result.metadata[ExecutionTimingHook.metadataKey] as ExecutionTimings;
const audit = readFileSync(auditFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { event: string; outcome: string });

console.log('\nAfter the run:');
console.log(`  status               ${result.status} after ${result.steps.length} steps`);
console.log(`  .env                 ${readFileSync(join(project, '.env'), 'utf8').trim()} (unchanged); notes.md ${existsSync(join(project, 'notes.md')) ? 'written' : 'missing'}`);
console.log(`  ToolCallLimitHook    counted ${counts.total} calls: ${Object.entries(counts.byTool).map(([tool, n]) => `${tool} ${n}`).join(', ')}`);
console.log(`  ExecutionTimingHook  run ${timings.run!.durationMs.toFixed(1)} ms, ${timings.steps.length} steps, ${timings.tools.length} tool calls timed`);
console.log(
  `  AuditLogHook         ${audit.length} lines in .agent/audit.jsonl, from ${audit[0]!.event} to ${audit.at(-1)!.event}; ` +
    `${audit.filter((l) => l.event === 'PreToolUse' && l.outcome !== 'proceed').length} PreToolUse lines not proceed`,
);

rmSync(project, { recursive: true, force: true });
