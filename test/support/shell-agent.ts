/**
 * An agent built here whose one tool is a shell, named as the agent under comparison names its own (`Bash`,
 * `Execute`, `run_shell_command`): what the tests run beside a real agent, or alone, with the hooks that agent's files
 * hold (`withHooksFrom`).
 */
import { execFileSync } from 'node:child_process';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, type WithHooksFromOptions } from '../../src/index.js';

/** A tool called `name` that runs its `command` with `sh -c` in `cwd` and returns what it printed. */
export function shellTool(name: string, cwd: string) {
  return defineTool({
    name,
    description: 'Runs a shell command.',
    input: z.object({ command: z.string() }),
    execute: ({ command }) => execFileSync('/bin/sh', ['-c', command], { cwd, encoding: 'utf8' }),
  });
}

/** What {@link runShellAgent} needs. */
export interface ShellAgentRun {
  /** The project: the shell's directory, and `withHooksFrom`'s `projectDir`. */
  readonly dir: string;
  /** The shell tool's name. */
  readonly tool: string;
  /** The commands the model runs, one tool call each, before it answers `done`. */
  readonly commands: readonly string[];
  /** The files to load hooks from (`trust: 'all'`, no home and no user folder unless given here). */
  readonly from: Omit<WithHooksFromOptions, 'projectDir'>;
  /** The prompt (default `go`). */
  readonly prompt?: string;
}

/** Runs the agent once; returns its model, and everything the model was told as one JSON text. */
export async function runShellAgent({ dir, tool, commands, from, prompt = 'go' }: ShellAgentRun): Promise<{ model: ScriptedModel; told: string }> {
  const model = new ScriptedModel([...commands.map((command) => ({ toolCalls: [{ name: tool, args: { command } }] })), 'done']);
  const agent = AgentBuilder.new()
    .withModel(model)
    .withTools(shellTool(tool, dir))
    .withHooksFrom({ projectDir: dir, trust: 'all', homeDir: false, userDir: false, ...from })
    .build();
  await agent.run(prompt);
  return { model, told: JSON.stringify(model.requests) };
}
