/**
 * The bridge line of an event an agent fires as it exits (Claude Code's StopFailure). Such an agent starts the hook,
 * writes the payload and exits at once, sending SIGTERM on its way out to every process the hook has started, and
 * SIGKILL some 1.5 s later (checked with Claude Code 2.1.332): a command bridge, which needs Node's start before it
 * can run a hook, never gets that far. The line keeps the shell that runs it (`trap '' TERM HUP INT`), starts the
 * bridge in the background of a subshell that exits at once — so that the bridge is no longer among the hook's
 * processes when the agent looks for them — on the payload (a background command reads `/dev/null` unless told
 * otherwise), in a session of its own where `setsid` is there; and `--detached` tells the bridge that its parent
 * going away is expected, so it runs the hooks to their end, each within its own timeout.
 *
 * @module
 * @internal
 */
import { nodeFs, fsPromises } from '../core/internal/node-fs.js';
import { delimiter, isAbsolute, join } from 'node:path';
import { shellWord } from './bridge-command.js';

const { constants } = nodeFs;

/** What the line starts with: the agent's parting signals ignored, the payload kept on fd 3, a subshell opened. */
const PREFIX = "trap '' TERM HUP INT; exec 3<&0; ( ";
/** What it ends with: the bridge in the background on the payload, the subshell closed. */
const SUFFIX = ' <&3 3<&- & )';

/** The bridge's option for a call it runs after the agent has gone. */
export const DETACHED_OPTION = '--detached';

/**
 * `setsid` by its absolute real path, looked up on `path` (a line must not look a program up on a `PATH` the project
 * may have changed), or `undefined` when there is none (macOS has none of its own; the line works without it).
 *
 * @internal
 */
export async function findSetsid(path: string | undefined): Promise<string | undefined> {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    const file = join(dir, 'setsid');
    if (await fsPromises().access(file, constants.X_OK).then(() => true, () => false)) return fsPromises().realpath(file).catch(() => file);
  }
  return undefined;
}

/**
 * `line` (a bridge line, `VAR= … cmd bridge --from AGENT …`) as the line of an event the agent fires as it exits:
 * `trap '' TERM HUP INT; exec 3<&0; ( VAR= … /usr/bin/setsid cmd bridge --from AGENT … --detached <&3 3<&- & )`.
 *
 * @internal
 */
export function detachedBridgeLine(line: string, setsid: string | undefined): string {
  if (isDetachedLine(line)) return line;
  const assignments = /^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*/.exec(line)![0];
  const launcher = setsid === undefined ? '' : `${shellWord(setsid)} `;
  return `${PREFIX}${assignments}${launcher}${line.slice(assignments.length)} ${DETACHED_OPTION}${SUFFIX}`;
}

/**
 * Whether `line` is a detached bridge line ({@link detachedBridgeLine}).
 *
 * @internal
 */
export const isDetachedLine = (line: string): boolean => line.startsWith(PREFIX) && line.endsWith(` ${DETACHED_OPTION}${SUFFIX}`);

/**
 * The command inside a detached line, as the agent's other lines are (`VAR= … cmd bridge --from AGENT`, with
 * `setsid` between), for the checks that read a line's front; any other line as it is.
 *
 * @internal
 */
export const undetached = (line: string): string => (isDetachedLine(line) ? line.slice(PREFIX.length, line.length - SUFFIX.length) : line);
