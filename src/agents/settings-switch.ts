/**
 * A switch in an agent's settings files, such as `disableAllHooks`, read as the agents that have one read it: the
 * files merge in order and the last one that sets the key decides.
 *
 * @module
 * @internal
 */
import { isRecord } from '../dialects/wire-output.js';
import { fileReads } from '../process/file-reads.js';

/**
 * The file of `files` (in their merge order) whose `key` is `true` and set by no file after it; `undefined` when the
 * last one that sets it says anything else, or none sets it.
 *
 * @internal
 */
export function switchedOnBy<F extends { readonly settings: unknown }>(files: readonly F[], key: string): F | undefined {
  let decided: F | undefined;
  for (const file of files) {
    if (!isRecord(file.settings) || !(key in file.settings)) continue;
    decided = file.settings[key] === true ? file : undefined;
  }
  return decided;
}

/**
 * A settings file's JSON, or `undefined` when it is missing or not JSON (its loader reports that).
 *
 * @internal
 */
export async function settingsOf(file: string): Promise<unknown> {
  try {
    return JSON.parse(await fileReads.readFile(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}
