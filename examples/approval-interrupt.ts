/**
 * Approval across processes: a deploy needs approval, and instead of waiting for an answer the run is interrupted,
 * its snapshot saved in a FileCheckpointer. Later, in another process — a reviewer's web page, a CI job — the same
 * agent is built again and the run resumed by its id with the reviewer's decision (here: approved, but to staging).
 * The hooks that already ran for the deploy do not run again; everything after it fires as in a run never
 * interrupted. A snapshot resumes once: the checkpointer hands it out once (`take`), whichever process asks. (A
 * snapshot kept by hand, without a checkpointer, is refused a second time only by the process that resumed it; another
 * process given the same copy would run the deploy again.)
 *
 * Run with no arguments: this process interrupts the run, then starts a second one (this file, `resume <dir> <id>
 * <request id>`) to resume it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { AgentBuilder, FileCheckpointer, RequireApprovalHook, ResumeError, ScriptedModel, defineTool, type Agent } from 'agent-hooks';

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploys the app',
  input: z.object({ env: z.enum(['staging', 'production']) }),
  execute: ({ env }) => `deployed to ${env}`,
});

const status = defineTool({
  name: 'status',
  description: 'Tells whether the build is green',
  input: z.object({}),
  execute: () => 'build green, 0 open incidents',
});

/**
 * The agent, as both processes build it: same tools, same hooks. The model answers from the conversation alone, as a
 * real one does, so the second process's model goes on where the first one's left off (a list of scripted steps
 * would start again at its first step in the new process, and ask for the deploy again).
 */
function buildAgent(dir: string): { agent: Agent; checkpointer: FileCheckpointer } {
  const model = new ScriptedModel((request) => {
    const deployed = request.messages.find((m) => m.role === 'tool' && m.content.startsWith('deployed'));
    if (deployed !== undefined) return `Status was green; ${deployed.content}.`;
    return { toolCalls: [{ name: 'status', args: {} }, { name: 'deploy', args: { env: 'production' } }] };
  });
  const checkpointer = new FileCheckpointer(dir);
  const agent = AgentBuilder.new()
    .withModel(model)
    .withTools(deploy, status)
    .withHook(new RequireApprovalHook({ matcher: 'deploy', reason: (ctx) => `Deploy to ${ctx.toolCall.arg('env')}?` }))
    .onPermissionRequest((ctx) => console.log(`  PermissionRequest hook: ${ctx.toolCall.name} ${JSON.stringify(ctx.toolCall.args)}`))
    .onNotification((ctx) => console.log(`  Notification hook: ${ctx.message}`))
    .onAfterToolUse((ctx) => console.log(`  PostToolUse hook: ${ctx.toolCall.name} ${JSON.stringify(ctx.toolCall.args)} → ${String(ctx.execution?.result)}`), {
      matcher: 'deploy',
    })
    // No approver: a call that needs approval interrupts the run, and its snapshot is saved in the directory.
    .withApprovalInterrupts()
    .withCheckpointer(checkpointer)
    .build();
  return { agent, checkpointer };
}

/** Records the lifecycle events of a run, to print them on one line. */
function recordEvents(agent: Agent): string[] {
  const events: string[] = [];
  agent.events.on('event', (ctx) => events.push(ctx.event));
  return events;
}

const [mode, dir, id, requestId] = process.argv.slice(2);

if (mode === 'resume' && dir !== undefined && id !== undefined && requestId !== undefined) {
  // Process 2: later, elsewhere. Nothing of process 1 is left but the files in `dir`.
  console.log('Process 2: the reviewer decides');
  const { agent, checkpointer } = buildAgent(dir);
  console.log(`  the checkpointer holds: ${(await checkpointer.list()).join(', ')}`);
  const waiting = await checkpointer.load(id);
  for (const request of waiting?.pending ?? []) console.log(`  waiting: ${request.toolCall.name} ${JSON.stringify(request.toolCall.args)}: ${request.reason}`);

  const decision = { approved: true, updatedInput: { env: 'staging' } };
  console.log('  reviewer: approved, but changed production to staging');
  const events = recordEvents(agent);
  const result = await agent.resume(id, { [requestId]: decision });
  console.log(`  events after the resume: ${events.join(' → ')}`);
  for (const message of result.messages.filter((m) => m.role === 'tool')) console.log(`  tool result: ${message.content}`);
  console.log(`  ${result.status}: ${result.text}`);
  console.log(`  the checkpointer holds: ${(await checkpointer.list()).length} runs`);

  // A snapshot resumes once: by its id (taken out of the store), or the snapshot itself.
  for (const [label, from] of [[`resume('${id}')`, id], ['resume(the loaded snapshot)', waiting!]] as const) {
    try {
      await agent.resume(from, { [requestId]: decision });
      console.log(`  ${label} again: resumed twice!`);
    } catch (error) {
      if (!(error instanceof ResumeError)) throw error;
      console.log(`  ${label} again: ${error.name} ${error.code}`);
    }
  }
} else {
  // Process 1: run until a call needs approval.
  const dir = mkdtempSync(join(tmpdir(), 'agent-hooks-checkpoints-'));
  try {
    console.log('Process 1: the run');
    const { agent } = buildAgent(dir);
    const events = recordEvents(agent);
    const result = await agent.run('Check status, then deploy to production', { checkpointId: 'release-42' });
    console.log(`  events: ${events.join(' → ')}`);
    console.log(`  ${result.status}, saved as '${result.interruption?.id}'`);
    for (const message of result.messages.filter((m) => m.role === 'tool')) console.log(`  tool result: ${message.content}`);
    const pending = result.interruption?.pending ?? [];
    for (const request of pending) {
      console.log(`  pending: ${request.toolCall.name} ${JSON.stringify(request.toolCall.args)}: ${request.reason} (request ${request.id})`);
    }

    // What a reviewer's page or a CI job does later, elsewhere: a process of its own, given the ids.
    console.log();
    const root = fileURLToPath(new URL('..', import.meta.url));
    execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'resume', dir, result.interruption!.id, pending[0]!.id], {
      cwd: root,
      stdio: 'inherit',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
