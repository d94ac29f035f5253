// Internal: not exported from the package.
import { nodeFs } from '../../core/internal/node-fs.js';
import { fileURLToPath } from 'node:url';

const { statSync } = nodeFs;

/**
 * The build of agent-hooks a cache was written by: the calling module's own file (`import.meta.url`), by path, size and
 * time, which a rebuild rewrites; the URL alone when there is no file to stat (an unusual loader). A cache stamped by
 * another build is read as empty.
 */
export function buildStamp(moduleUrl: string): string {
  try {
    const path = fileURLToPath(moduleUrl);
    const stat = statSync(path);
    return `${path}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return moduleUrl;
  }
}
