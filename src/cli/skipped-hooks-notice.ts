/**
 * What the bridge tells the user when it skipped project hooks for want of trust. Without it the agent gets an empty
 * answer and allows the call: a hook the user counts on is silently not running, and only stderr — which agents
 * keep out of sight — says why.
 *
 * @module
 */
import { basename } from 'node:path';
import type { HookProblem } from '../script/problem.js';
import { isTrustProblem } from './output.js';

/**
 * One message naming every project hook skipped as untrusted or changed (from `problems`, the loaders' problems),
 * and the fix; `undefined` when none was skipped. Its words depend only on which hooks were skipped and how, so the
 * same situation gives the same message, and a new one (another hook edited) gives another.
 */
export function skippedHooksNotice(problems: readonly HookProblem[], projectDir: string): string | undefined {
  const skipped = new Map<string, string>();
  for (const p of problems) {
    if (!isTrustProblem(p)) continue;
    const name = p.hookName ?? basename(p.file);
    skipped.set(name, p.code === 'changed-hook' ? 'which changed since it was trusted' : 'which is not trusted yet');
  }
  if (skipped.size === 0) return undefined;
  const list = [...skipped].map(([name, why]) => `${name}, ${why}`).join('; ');
  const one = skipped.size === 1;
  return (
    `agent-hooks did not run ${one ? 'a project hook' : `${skipped.size} project hooks`}: ${list}. ` +
    `The agent goes on without ${one ? 'it' : 'them'}; other hooks still run. ` +
    `To review and trust ${one ? 'it' : 'them'}, run 'npx agent-hooks trust' in ${projectDir}.`
  );
}
