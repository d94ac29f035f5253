// Internal: not exported from the package.
import { isAbsolute, relative, sep } from 'node:path';

/** Whether `path` lies inside the folder `dir`, or is it (both absolute). */
export function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
