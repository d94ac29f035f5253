/**
 * Whether a hook request is for the project the server serves. The http entries carry no project: the same URL is
 * written into every project, so a Claude Code session in another project reaches this server too, and must not get
 * this project's hooks — nor an allow — for its own calls. The request's `cwd` (Claude Code's working folder, which
 * stays inside the project it was started in) says where it comes from.
 *
 * @module
 */
import type { Stats } from 'node:fs';
import { nodeFs } from '../../core/internal/node-fs.js';
import { dirname, isAbsolute, join, sep } from 'node:path';

const { realpathSync, statSync } = nodeFs;

/** The files that make a folder a Claude Code project of its own, with its own entries (and its own hooks). */
const PROJECT_SETTINGS = [join('.claude', 'settings.json'), join('.claude', 'settings.local.json')];

// Synchronous on purpose: these are a few calls on the request's own folders, each microseconds, where the promise
// API sent every request twice through libuv's four threads, whose queue — at a hundred requests in flight — made
// the tail of the latencies (`npm run bench -- serve`).
const statOf = (path: string): Stats | undefined => {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
};
const exists = (path: string): boolean => statOf(path) !== undefined;

/**
 * Why a request whose hook input names `cwd` is not for `project` (a real path, as `realpath` gives it): a `cwd` that
 * is missing, not absolute, not an existing folder, outside the project, or inside a folder of the project that is a
 * Claude Code project of its own (it has `.claude/settings.json` or `.claude/settings.local.json`, so its own entries
 * sent the request).
 *
 * @returns `undefined` when the request is the project's.
 * @internal
 */
export async function otherProject(cwd: unknown, project: string): Promise<string | undefined> {
  const serves = `this server serves ${project} only`;
  if (typeof cwd !== 'string' || cwd === '') return `The hook input names no cwd, so its project is unknown: ${serves}.`;
  if (!isAbsolute(cwd)) return `The hook input's cwd ${JSON.stringify(cwd)} is not an absolute path, so its project is unknown: ${serves}.`;
  let real: string;
  try {
    real = realpathSync.native(cwd);
  } catch {
    return `The hook input's cwd ${cwd} does not exist, so its project is unknown: ${serves}.`;
  }
  if (statOf(real)?.isDirectory() !== true) return `The hook input's cwd ${cwd} is not a folder, so its project is unknown: ${serves}.`;
  if (real !== project && !real.startsWith(project.endsWith(sep) ? project : `${project}${sep}`)) {
    return `The hook request comes from ${cwd}, outside the project this server serves (${project}): its hooks are not this project's. Serve that project with its own server on another port (agent-hooks serve --port N, and bridge --install claude --http --port N there).`;
  }
  for (let dir = real; dir !== project; dir = dirname(dir)) {
    for (const file of PROJECT_SETTINGS) {
      if (exists(join(dir, file))) {
        return `The hook request comes from ${cwd}, in ${dir}, a Claude Code project of its own (${file}) inside the one this server serves (${project}): its hooks are not this project's. Serve it with its own server on another port.`;
      }
    }
  }
  return undefined;
}
