/**
 * An agent built here whose one tool is a shell, named as the agent under comparison names its own (`Bash`,
 * `Execute`, `run_shell_command`): what the tests run beside a real agent, or alone, with the hooks that agent's files
 * hold (`withHooksFrom`).
 */
import { execFileSync } from 'node:child_process';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, type AgentWarning, type WithHooksFromOptions } from '../../src/index.js';

/** A tool called `name` that runs its `command` with `sh -c` in `cwd` (with `env`, else ours) and returns what it printed. */
export function shellTool(name: string, cwd: string, env?: NodeJS.ProcessEnv) {
  return defineTool({
    name,
    description: 'Runs a shell command.',
    input: z.object({ command: z.string() }),
    execute: ({ command }) => execFileSync('/bin/sh', ['-c', command], { cwd, env, encoding: 'utf8' }),
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
  /** The model's answers after the commands, in turn (default `done`). */
  readonly answers?: readonly string[];
  /** The shell's environment (default ours). */
  readonly env?: NodeJS.ProcessEnv;
  /** Whether the run happens with `dir` as the working directory, as an agent started there runs (default no). */
  readonly inDir?: boolean;
  /** Whether the run is a session's turn, closed after it (SessionStart and SessionEnd fire), rather than a plain run. */
  readonly inSession?: boolean;
  /** Whether what the run throws is returned as `error` rather than thrown (default thrown). */
  readonly catchError?: boolean;
}

/** What {@link runShellAgent} saw: the model, everything it was told as one JSON text, the warnings, and what was thrown. */
export interface ShellAgentSeen {
  readonly model: ScriptedModel;
  readonly told: string;
  readonly warnings: AgentWarning[];
  readonly error?: unknown;
}

/** Runs the agent once. */
export async function runShellAgent(run: ShellAgentRun): Promise<ShellAgentSeen> {
  const { dir, tool, commands, from, prompt = 'go', answers = ['done'] } = run;
  const model = new ScriptedModel([...commands.map((command) => ({ toolCalls: [{ name: tool, args: { command } }] })), ...answers]);
  const agent = AgentBuilder.new()
    .withModel(model)
    .withTools(shellTool(tool, dir, run.env))
    .withHooksFrom({ projectDir: dir, trust: 'all', homeDir: false, userDir: false, ...from })
    .build();
  const warnings: AgentWarning[] = [];
  agent.events.on('warning', (w) => warnings.push(w));
  const previous = process.cwd();
  if (run.inDir === true) process.chdir(dir);
  let error: unknown;
  try {
    if (run.inSession === true) {
      const session = agent.session();
      await session.run(prompt);
      await session.close();
    } else await agent.run(prompt);
  } catch (thrown) {
    if (run.catchError !== true) throw thrown;
    error = thrown;
  } finally {
    process.chdir(previous);
  }
  return { model, told: JSON.stringify(model.requests), warnings, ...(error === undefined ? {} : { error }) };
}
