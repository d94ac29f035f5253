/**
 * Approval: a PreToolUse hook answers `ask` instead of allowing or refusing. PermissionRequest hooks see the call
 * first and may grant it (`HookOutcome.allow()`) or refuse it; otherwise a Notification fires and the approver — a
 * person, a policy, another model — decides. An agent without an approver refuses every call a hook asked about.
 */
import { z } from 'zod';
import { AgentBuilder, HookOutcome, ScriptedModel, defineTool } from 'agent-hooks';

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploys the app',
  input: z.object({ env: z.enum(['staging', 'production']) }),
  execute: ({ env }) => `deployed to ${env}`,
});

const model = new ScriptedModel([
  { toolCalls: [{ name: 'deploy', args: { env: 'staging' } }, { name: 'deploy', args: { env: 'production' } }] },
  'Staging is live; production was not approved.',
]);

const agent = AgentBuilder.new()
  .withModel(model)
  .withTools(deploy)
  // Every deploy needs approval…
  .onBeforeToolUse((ctx) => HookOutcome.ask(`Deploy to ${ctx.toolCall.arg('env')}?`), { matcher: 'deploy' })
  // …but a policy grants staging on its own, so nobody is asked.
  .onPermissionRequest((ctx) => {
    console.log(`PermissionRequest ${ctx.toolCall.name} ${JSON.stringify(ctx.toolCall.args)}: ${ctx.permissionReason}`);
    if (ctx.toolCall.arg('env') === 'staging') return HookOutcome.allow();
  })
  // What a UI would show before it asks.
  .onNotification((ctx) => console.log(`Notification (${ctx.notificationType}): ${ctx.message}`))
  .withApprover(({ toolCall, reason }) => {
    console.log(`approver asked: ${reason} → no`);
    // `stopRun: true` would also end the run (its Stop gate sees stopReason 'tool_rejected').
    return { approved: false, reason: `${toolCall.arg('env')} deploys need a change ticket` };
  })
  .build();
agent.events.on('tool:blocked', ({ toolCall, reason, by }) => console.log(`refused by the ${by}: ${toolCall.name} ${JSON.stringify(toolCall.args)}: ${reason}`));

const result = await agent.run('Deploy everywhere');
for (const message of result.messages.filter((m) => m.role === 'tool')) console.log(`tool result: ${message.content}`);
console.log(`${result.status}: ${result.text}`);
