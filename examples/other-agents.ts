/**
 * Hooks written for other agents, running here: a Claude Code PreToolUse hook that denies a force-push, a Claude Code
 * UserPromptSubmit hook whose plain stdout becomes context, a GitHub Copilot hook that rewrites `npm publish` into a
 * dry run, and a Gemini CLI AfterTool hook that adds a note for the model — each loaded from its agent's own config
 * file in examples/other-agents and spoken to in its own protocol.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, loadAllHookConfigs } from 'agent-hooks';

const projectDir = fileURLToPath(new URL('./other-agents/', import.meta.url));
// A project's hooks run only once you trust them (`npx agent-hooks trust`). examples/other-agents is this repository's
// own, so the example trusts it in code: never write trust: 'all' for a project you did not write.
const sources = { hookmd: false, claude: true, copilot: true, gemini: true, homeDir: false, trust: 'all' } as const;

// What the project holds, by agent: the same loaders the agent uses.
const { hooks, problems } = await loadAllHookConfigs(projectDir, sources);
console.log(`${hooks.length} hooks from other agents' configs, ${problems.length} problems:`);
for (const hook of hooks) {
  const origin = 'origin' in hook ? hook.origin : undefined;
  console.log(`  ${origin?.kind.padEnd(7)} ${hook.events[0]?.padEnd(16)} ${hook.name}`);
}

const ran: string[] = [];
const bash = defineTool({
  name: 'bash',
  description: 'Runs a shell command',
  input: z.object({ command: z.string() }),
  execute: ({ command }) => (ran.push(command), `$ ${command}\n(pretend output)`),
});

const model = new ScriptedModel([
  { toolCalls: [{ name: 'bash', args: { command: 'git push --force origin main' } }] },
  { toolCalls: [{ name: 'bash', args: { command: 'npm publish' } }] },
  'Released.',
]);

const agent = AgentBuilder.new()
  .withModel(model)
  .withTools(bash)
  .withHooksFrom({ projectDir, ...sources })
  .build();
agent.events.on('tool:blocked', ({ toolCall, reason }) => console.log(`blocked ${toolCall.name} ${JSON.stringify(toolCall.args)}: ${reason}`));

const result = await agent.run('Ship the release.');
console.log(`ran: ${ran.join('; ')}`);
const context = model.requests[0]!.messages.filter((m) => m.role === 'system').map((m) => m.content);
console.log(`context for the first model call: ${context.join(' | ')}`);
const notes = model.requests[2]!.messages.filter((m) => m.role === 'system').map((m) => m.content);
console.log(`context after the publish: ${notes.join(' | ')}`);
console.log(`status ${result.status}: ${result.text}`);
