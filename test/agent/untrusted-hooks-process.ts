/**
 * A child process for the untrusted-hooks test: builds an agent with the project's hooks (not trusted) and runs it
 * twice, so that the parent can read what the process wrote on its own stderr. Prints `{ ran }` on stdout.
 *
 * Usage: node --import tsx untrusted-hooks-process.ts <projectDir> <homeDir>
 */
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool } from 'agent-hooks';

const [projectDir, home] = process.argv.slice(2) as [string, string];
const ran: string[] = [];
const bash = defineTool({ name: 'bash', description: 'Runs a shell command', input: z.object({ command: z.string() }), execute: ({ command }) => (ran.push(command), 'ok') });
const model = new ScriptedModel((request) =>
  request.messages.some((m) => m.role === 'tool') ? 'Done.' : { toolCalls: [{ name: 'bash', args: { command: 'rm -rf /' }, id: 'c1' }] },
);
const agent = AgentBuilder.new().withModel(model).withTools(bash).withHooksFrom({ projectDir, homeDir: home, hostEnv: { HOME: home }, userDir: false }).build();
await agent.run('Clean up');
await agent.run('Clean up again');
process.stdout.write(JSON.stringify({ ran }));
