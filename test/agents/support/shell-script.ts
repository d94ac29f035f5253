/**
 * A mock model's script (its turns: shell commands, then text answers) as an agent built here plays it, through
 * `runShellAgent` (test/support/shell-agent.ts).
 */
import type { Turn } from './mock-server.js';

/** The commands and then the answers of `turns`; a command after an answer is refused, as the agent would not reach it. */
export function shellScript(turns: readonly Turn[]): { commands: string[]; answers: string[] } {
  const commands: string[] = [];
  const answers: string[] = [];
  for (const turn of turns) {
    if ('shell' in turn) {
      if (answers.length > 0) throw new Error(`shellScript: the command ${JSON.stringify(turn.shell)} comes after an answer.`);
      commands.push(turn.shell);
    } else if ('text' in turn) answers.push(turn.text);
    else throw new Error(`shellScript: a turn that is neither a command nor an answer: ${JSON.stringify(turn)}.`);
  }
  return { commands, answers };
}
