// Internal: not exported from the package.
/**
 * What an agent says on stderr when it skipped project hooks for want of trust. A guard the user counts on that does
 * not run must not go unsaid: events and `ready()` reach only a program that asks for them.
 *
 * @module
 */
import { describeSkippedHook, isSkippedProjectHook } from '../../config/untrusted-hooks-error.js';
import type { HookProblem } from '../../script/problem.js';

/** One line naming each project hook of `projectDir` skipped for want of trust, and the fix; `undefined` when none was. */
export function skippedHooksNotice(problems: readonly HookProblem[], projectDir: string): string | undefined {
  const skipped = problems.filter(isSkippedProjectHook);
  if (skipped.length === 0) return undefined;
  const one = skipped.length === 1;
  return (
    `agent-hooks: ${one ? 'a project hook does' : `${skipped.length} project hooks do`} not run in this agent: ${skipped.map(describeSkippedHook).join('; ')}. ` +
    `The agent runs without ${one ? 'it' : 'them'}. To review and trust ${one ? 'it' : 'them'}, run 'npx agent-hooks trust' in ${projectDir}. ` +
    `(withHooksFrom: strict: true refuses to run instead; stderrNotice: false leaves this line out.)`
  );
}
