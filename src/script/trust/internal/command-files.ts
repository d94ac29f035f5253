// Internal: not exported from the package.
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { isInside } from './paths.js';

/** The variables the config loaders set to the project directory; a command may name its scripts through them. */
const PROJECT_VARIABLES = /\$(?:\{(?:CLAUDE|GEMINI|CURSOR|AGENT_HOOKS)_PROJECT_DIR\}|(?:CLAUDE|GEMINI|CURSOR|AGENT_HOOKS)_PROJECT_DIR\b)/g;

/** How many words of one command are looked at: a command line is short, and a pathological one must stay cheap. */
const MAX_WORDS = 256;

/**
 * The words of a shell command line with quotes and escapes removed, split at blanks and at the operators that end a
 * word (`;` `&` `|` `<` `>` `(` `)` and backticks). A reader for spotting paths, not a shell: it expands nothing.
 */
export function commandWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let started = false;
  let quote: '"' | "'" | undefined;
  const end = (): void => {
    if (started) words.push(word);
    word = '';
    started = false;
  };
  for (let i = 0; i < command.length && words.length < MAX_WORDS; i++) {
    const c = command[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < command.length) word += command[++i];
      else word += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[++i];
      started = true;
    } else if (/\s/.test(c) || ';&|<>()`'.includes(c)) {
      end();
    } else {
      word += c;
      started = true;
    }
  }
  end();
  return words;
}

/**
 * The files of the project a command refers to: words that, once the project variables (`$CLAUDE_PROJECT_DIR`, …)
 * are replaced by `projectDir`, name an existing file inside the project — absolute, or relative to `cwd`. The value
 * of a `--flag=value` word counts too. Best effort by design: a script named some other way (built at run time, found
 * on `PATH`) is not found, and a word that merely looks like a path only makes trust stricter.
 *
 * @returns absolute paths, sorted, without duplicates.
 */
export async function commandProjectFiles(command: string, projectDir: string, cwd: string = projectDir): Promise<string[]> {
  const candidates = new Set<string>();
  for (const word of commandWords(command)) {
    const expanded = word.replace(PROJECT_VARIABLES, () => projectDir);
    const eq = expanded.indexOf('=');
    for (const text of eq > 0 ? [expanded, expanded.slice(eq + 1)] : [expanded]) {
      if (text === '' || text.startsWith('-') || text.startsWith('~') || text.includes('$')) continue;
      const path = isAbsolute(text) ? resolve(text) : resolve(cwd, text);
      if (path === projectDir || !isInside(path, projectDir)) continue;
      candidates.add(path);
    }
  }
  const files = await Promise.all([...candidates].map(async (path) => ((await stat(path).catch(() => undefined))?.isFile() === true ? path : undefined)));
  return files.filter((f): f is string => f !== undefined).sort();
}
