/**
 * How an agent's own config files are found and loaded: the part of a profile that `loadAllHookConfigs`,
 * `withHooksFrom`, `loadHookConfigFile` and `agent-hooks validate` read.
 *
 * @module
 * @internal
 */
import { join, resolve } from 'node:path';
import { fileReads } from '../process/file-reads.js';
import type { ConfigLoadOptions, LoadedConfigHooks } from '../config/config-source.js';
import type { AgentId } from './agent-id.js';

/**
 * Where a config file lives: its name, its folder's, and the folder above's.
 *
 * @internal
 */
export interface ConfigFilePlace {
  /** The file's name (`settings.json`). */
  readonly base: string;
  /** Its folder's name (`.claude`). */
  readonly parent: string;
  /** The name of the folder above (`.github` for `.github/hooks/x.json`). */
  readonly grandparent: string;
}

/**
 * One config file format and its loader. Agents that share a format (Copilot and VS Code, in `.github/hooks/`) share
 * one loader, which loads the files once and tells their hooks apart.
 *
 * @internal
 */
export interface ConfigLoader {
  /** The format's name, as `configKindOf` gives it for a file in it (`claude`, `github`, …). */
  readonly kind: string;
  /** The files it reads, for messages (`.claude/settings.json, .claude/settings.local.json`). */
  readonly describedFiles: string;
  /** Whether a file in `place` is in this format. */
  owns(place: ConfigFilePlace): boolean;
  /** The project's files in this format that exist, in the order they load. */
  projectFiles(projectDir: string): Promise<string[]>;
  /** Loads the hooks of the agents `agents` (those of this format that were asked for). */
  load(agents: readonly AgentId[], options: ConfigLoadOptions): Promise<LoadedConfigHooks>;
}

/**
 * Which of `files` (relative to `projectDir`) exist as files, in the order given.
 *
 * @internal
 */
export async function existingFiles(projectDir: string, files: readonly string[]): Promise<string[]> {
  const paths = files.map((f) => join(resolve(projectDir), f));
  const found = await Promise.all(paths.map(async (f) => (await fileReads.stat(f).catch(() => undefined))?.isFile() === true));
  return paths.filter((_, i) => found[i]);
}
