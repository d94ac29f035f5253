/**
 * Writing the bridge into an agent whose hooks are one executable per event in a folder (the `scripts` layout of an
 * agent's install shape), rather than entries of a config file.
 *
 * @module
 * @internal
 */
import { InstallBridgeError } from './install-bridge-error.js';
import type { InstallTarget } from './install-targets.js';
import { readProjectFile, replaceProjectFile, type ProjectFile } from './project-file.js';
import { servedFallback } from './served-bridge-line.js';

/** A script that runs `agent-hooks bridge`, however it reaches it. */
const BRIDGE = /(?:agent-hooks|cli\.[cm]?js)["']?\s+bridge\b/;

/** What {@link installScripts} did, as `installBridge` reports it. */
export interface InstalledScripts {
  /** The folder the scripts are in. */
  readonly file: string;
  /** The events (file names) whose script was written. */
  readonly added: readonly string[];
  /** The events whose script ran the bridge by another command and was rewritten. */
  readonly updated: readonly string[];
  /** The events whose script was already this one. */
  readonly present: readonly string[];
}

/**
 * The script for one event: `command` with `NODE_OPTIONS` and `NODE_COMPILE_CACHE` cleared, as every bridge line is,
 * and a project-relative command found from the script's own place, since the agent sets no project variable.
 */
export function hookScript(command: string, target: InstallTarget): string {
  const fromHere = (line: string): string => (line.startsWith('node_modules/') ? `"$(dirname "$0")"/${'../'.repeat(target.file.split('/').length)}${line}` : line);
  const head = `#!/bin/sh\n# ${target.title} runs this file for its hook of the same name; agent-hooks answers it (agent-hooks bridge --install ${target.agent}).\n`;
  // A served line is no command to exec: only its fallback, the command bridge, is found from here and cleared.
  const fallback = servedFallback(command);
  if (fallback !== undefined) return `${head}${command.slice(0, command.length - fallback.length)}NODE_OPTIONS= NODE_COMPILE_CACHE= ${fromHere(fallback)}\n`;
  return `${head}NODE_OPTIONS= NODE_COMPILE_CACHE= exec ${fromHere(command)}\n`;
}

/**
 * Writes one executable script per event in `names` into `target.file` under `projectDir`. A file there that does not
 * run the bridge for this agent is the project's own hook: nothing is written then, since the agent runs one file per
 * event and replacing it would drop that hook.
 *
 * @throws {@link InstallBridgeError} naming such a file, or a link on the way (see `readProjectFile`).
 */
export async function installScripts(target: InstallTarget, projectDir: string, names: readonly string[], command: string): Promise<InstalledScripts> {
  const text = hookScript(command, target);
  const previous: [string, ProjectFile][] = [];
  for (const name of names) {
    const file = await readProjectFile(projectDir, `${target.file}/${name}`);
    if (file.text !== undefined && !(BRIDGE.test(file.text) && file.text.includes(`--from ${target.agent}`))) {
      throw new InstallBridgeError(
        `${file.file} is a hook of the project's own, which ${target.title} runs for ${name}; nothing was changed. ${target.title} runs one file per event: call the bridge from that file yourself (${command}), or move it away and install again.`,
      );
    }
    previous.push([name, file]);
  }
  const added: string[] = [];
  const updated: string[] = [];
  const present: string[] = [];
  for (const [name, file] of previous) {
    const executable = file.mode === undefined || (file.mode & 0o100) !== 0;
    if (file.text === text && executable) {
      present.push(name);
      continue;
    }
    // An agent runs only an executable file: a new one is 0755, an old one keeps its bits and gains the x ones.
    await replaceProjectFile({ ...file, mode: file.mode === undefined ? 0o755 : file.mode | 0o111 }, text);
    (file.text === undefined ? added : updated).push(name);
  }
  return { file: `${projectDir.replace(/\/$/, '')}/${target.file}`, added, updated, present };
}
