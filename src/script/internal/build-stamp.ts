// Internal: not exported from the package.
import { nodeFs } from '../../core/internal/node-fs.js';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const { statSync } = nodeFs;

/**
 * A value the build writes into every file it makes, the same in all of them and new on every build (tsup.config.ts);
 * absent when the sources run as they are.
 */
declare const BUILT_AGENT_HOOKS_BUILD: string | undefined;

/**
 * The build of agent-hooks a cache was written by. In a build: the build's own value with the folder of the calling
 * module's file (`import.meta.url`), so that every file of one build — the executable's first stage, its run of a
 * hook, the bridged call — reads the others' caches, and a copy of the package installed elsewhere keeps its own. From
 * the sources: the calling module's file, by path, size and time, which an edit rewrites. The URL alone when there is
 * no file to stat (an unusual loader). A cache stamped by another build is read as empty.
 */
export function buildStamp(moduleUrl: string): string {
  try {
    const path = fileURLToPath(moduleUrl);
    if (typeof BUILT_AGENT_HOOKS_BUILD === 'string') return `${dirname(path)}:${BUILT_AGENT_HOOKS_BUILD}`;
    const stat = statSync(path);
    return `${path}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return moduleUrl;
  }
}
