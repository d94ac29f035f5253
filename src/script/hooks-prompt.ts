/**
 * The `<available_hooks>` block of the HOOK.md format's progressive disclosure: what a model is told about the hooks
 * around it at start-up (name, description, trigger, where the definition is, and its matcher).
 *
 * @module
 */
import type { Dirent } from 'node:fs';
import { fsPromises } from '../core/internal/node-fs.js';
import { join, resolve } from 'node:path';
import { discoverManifests, type DiscoveryOptions } from './discovery.js';
import { propertiesOf, readHookProperties, type HookProperties } from './hook-properties.js';
import type { HookProblem } from './problem.js';

/** Options of {@link availableHooks}. */
export interface AvailableHooksOptions {
  /** Hook folders (or their HOOK.md), or folders of hook folders, in order. Default: discovery's hooks. */
  readonly dirs?: readonly string[] | undefined;
  /** Where discovery looks, when `dirs` is not given (`projectDir`, `userDir`, `hostEnv`, …). */
  readonly discovery?: DiscoveryOptions | undefined;
}

/** What {@link availableHooks} found: the hooks, their XML block, and the definitions that did not load. */
export interface AvailableHooks {
  /** The hooks, in the order of the block. */
  readonly hooks: readonly HookProperties[];
  /** The `<available_hooks>` block. */
  readonly xml: string;
  /** Every problem found; a hook with an error is left out of the block. */
  readonly problems: readonly HookProblem[];
}

const XML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

/** Text escaped for XML content, as the reference escapes it (quotes too). */
const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

/**
 * The `<available_hooks>` block for `hooks`, laid out as the reference runtime lays it out: one tag or one value per
 * line, every value XML-escaped, `<matcher>` only for a hook that has one.
 */
export function availableHooksXml(hooks: readonly HookProperties[]): string {
  const lines = ['<available_hooks>'];
  const element = (tag: string, value: string): void => {
    lines.push(`<${tag}>`, escapeXml(value), `</${tag}>`);
  };
  for (const hook of hooks) {
    lines.push('<hook>');
    element('name', hook.name);
    element('description', hook.description);
    element('trigger', hook.trigger);
    element('location', hook.location);
    if (hook.matcher !== undefined && (hook.matcher.tool || hook.matcher.pattern)) {
      lines.push('<matcher>');
      if (hook.matcher.tool) element('tool', hook.matcher.tool);
      if (hook.matcher.pattern) element('pattern', hook.matcher.pattern);
      lines.push('</matcher>');
    }
    lines.push('</hook>');
  }
  lines.push('</available_hooks>');
  return lines.join('\n');
}

async function isHookFolder(dir: string): Promise<boolean> {
  for (const name of ['HOOK.md', 'hook.md']) {
    try {
      if ((await fsPromises().stat(join(dir, name))).isFile()) return true;
    } catch {
      // Not this one.
    }
  }
  return false;
}

/** The hook folders of `dir`: itself when it holds a HOOK.md, else its sub-folders that do, in name order. */
async function hookFoldersIn(dir: string): Promise<string[]> {
  if (await isHookFolder(dir)) return [dir];
  let entries: Dirent[];
  try {
    entries = await fsPromises().readdir(dir, { withFileTypes: true });
  } catch {
    return [dir];
  }
  const names = entries.filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => e.name);
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const folders: string[] = [];
  for (const name of names) if (await isHookFolder(join(dir, name))) folders.push(join(dir, name));
  return folders;
}

/**
 * The hooks to disclose to a model, and their `<available_hooks>` block. With `dirs`, each is a hook folder (or its
 * HOOK.md), or a folder of hook folders, read in the order given; without, the hooks discovery finds (the user's and
 * the project's, a project hook replacing the user's of the same name), highest priority first. Only frontmatters are
 * read: nothing runs, so no trust is needed, and a hook whose definition has an error is left out with its problems.
 *
 * ```ts
 * const { xml } = await availableHooks({ dirs: ['.agents/hooks'] });
 * const system = `You work under these hooks:\n${xml}`;
 * ```
 */
export async function availableHooks(options: AvailableHooksOptions = {}): Promise<AvailableHooks> {
  const hooks: HookProperties[] = [];
  const problems: HookProblem[] = [];
  if (options.dirs !== undefined && options.dirs.length > 0) {
    for (const dir of options.dirs) {
      const full = resolve(dir);
      const folders = /\/hook\.md$/i.test(full) ? [full] : await hookFoldersIn(full);
      for (const folder of folders) {
        const read = await readHookProperties(folder);
        problems.push(...read.problems);
        if (read.properties !== undefined) hooks.push(read.properties);
      }
    }
  } else {
    const found = await discoverManifests({ checkEntries: false, ...options.discovery });
    problems.push(...found.problems);
    const ordered = [...found.manifests].sort((a, b) => b.priority - a.priority);
    hooks.push(...ordered.map(propertiesOf));
  }
  return { hooks, xml: availableHooksXml(hooks), problems };
}
