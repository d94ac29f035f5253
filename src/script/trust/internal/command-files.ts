// Internal: not exported from the package.
import { basename, isAbsolute, join, resolve, sep } from 'node:path';
import type Micromatch from 'micromatch';
import { lazyModule } from '../../../core/internal/lazy-module.js';
import { fileReads } from '../../../process/file-reads.js';
import { isInside } from './paths.js';

const micromatch = lazyModule<typeof Micromatch>('micromatch');

/** The variables the config loaders set to the project directory; a command may name its scripts through them. */
const PROJECT_VARIABLES = /\$(?:\{(?:CLAUDE|GEMINI|CURSOR|AGENT_HOOKS)_PROJECT_DIR\}|(?:CLAUDE|GEMINI|CURSOR|AGENT_HOOKS)_PROJECT_DIR\b)/g;

/** How many words of one command are looked at: a command line is short, and a pathological one must stay cheap. */
const MAX_WORDS = 256;

/** How many folders a command's `cd`s may lead to that its relative words are looked for in. */
const MAX_BASES = 16;

/** How many paths one glob may stand for before the rest are left out, with a note. */
const MAX_GLOB_MATCHES = 256;

/**
 * Programs that run the file or folder given to them, so that a folder named after one (`node .claude/guard`,
 * `python tools/check`) is pinned whole: what they run is in it.
 */
const INTERPRETERS = new Set(['node', 'nodejs', 'bun', 'deno', 'tsx', 'ts-node', 'python', 'python3', 'py', 'ruby', 'perl', 'php', 'sh', 'bash', 'dash', 'zsh']);

/** Programs that run the command after them: the program is the word that follows. */
const WRAPPERS = new Set(['env', 'exec', 'command', 'nice', 'nohup', 'time', 'timeout', 'xargs']);

/** A word that a reader takes for a path: it names a folder, starts like a path, or has a script's extension. */
const PATH_LIKE = /[/\\]|^\.{1,2}$|^~|\.(?:sh|bash|zsh|js|mjs|cjs|ts|mts|cts|py|rb|pl|php|ps1)$/;

/** The system's own folders: the tools and data there are the machine's, not something a project brings. */
const SYSTEM_PATH = /^\/(?:usr|bin|sbin|lib|lib32|lib64|opt|etc|dev|proc|System|Library)\//;

/** One token of a command line: a word, or an operator that ends one. */
interface Token {
  /** The word with quotes and escapes removed, or the operator. */
  readonly text: string;
  /** Whether it is an operator (`;`, `&&`, `|`, `>`, …, or a line break). */
  readonly operator: boolean;
  /** Whether it holds `*`, `?` or `[` outside quotes, which the shell expands. */
  readonly glob: boolean;
}

/**
 * The tokens of a shell command line: words with quotes and escapes removed, and the operators between them (`;`
 * `&` `|` `<` `>` `(` `)`, backticks and line breaks). A reader for spotting paths, not a shell: it expands nothing.
 */
function commandTokens(command: string): Token[] {
  const tokens: Token[] = [];
  let word = '';
  let started = false;
  let glob = false;
  let quote: '"' | "'" | undefined;
  const end = (): void => {
    if (started) tokens.push({ text: word, operator: false, glob });
    word = '';
    started = false;
    glob = false;
  };
  for (let i = 0; i < command.length && tokens.length < MAX_WORDS; i++) {
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
    } else if (c === '\n' || ';&|<>()`'.includes(c)) {
      end();
      // `>>`, `&&` and `||` are one operator: what matters is which kind.
      const last = tokens[tokens.length - 1];
      if (last?.operator === true && last.text === c && '>&|'.includes(c)) continue;
      tokens.push({ text: c, operator: true, glob: false });
    } else if (/\s/.test(c)) {
      end();
    } else {
      if ('*?['.includes(c)) glob = true;
      word += c;
      started = true;
    }
  }
  end();
  return tokens;
}

/** What a command refers to in the project, as far as reading it can tell. */
export interface CommandReferences {
  /**
   * Files to pin by their content: real paths, sorted, without duplicates. Anything there that is not a folder is
   * listed, a FIFO or a device too, so that pinning refuses it rather than passing over it.
   */
  readonly files: readonly string[];
  /** Folders a command runs as a program (`node .claude/guard`), to pin with every file under them: real paths. */
  readonly folders: readonly string[];
  /** What the command names that is not pinned, each with the reason, for the user reviewing it. */
  readonly unpinned: readonly string[];
}

/** The real path of `path`, resolved the way the system does (`lib/..` is the parent of where `lib` points). */
const realOf = (path: string): Promise<string | undefined> => fileReads.realpath(path).catch(() => undefined);

/** The paths a glob stands for, matched one path component at a time as the shell does; at most `limit`. */
async function expandGlob(pattern: string, base: string, limit: number): Promise<string[]> {
  const absolute = isAbsolute(pattern);
  const parts = pattern.split(/[/\\]+/).filter((p, i) => p !== '' || (i === 0 && absolute));
  let paths = [absolute ? sep : base];
  for (const part of parts) {
    if (part === '') continue;
    const next: string[] = [];
    for (const dir of paths) {
      if (!/[*?[]/.test(part)) {
        next.push(join(dir, part));
        continue;
      }
      const names = await fileReads.readdir(dir).catch(() => [] as string[]);
      for (const name of names.sort()) if (micromatch().isMatch(name, part, { dot: part.startsWith('.') })) next.push(join(dir, name));
    }
    paths = next.slice(0, limit);
  }
  return paths;
}

/**
 * The project files and folders a command refers to, found by reading it: each word (and the value of a
 * `--flag=value` or `NAME=value` word) that, once the project variables (`$CLAUDE_PROJECT_DIR`, …) are replaced by
 * `projectDir`, names an existing file — absolute, or relative to `cwd` or to any folder a `cd` in the command moves
 * to (a stricter reading than the shell's, never a looser one). Globs are expanded as the shell would. Each path is
 * resolved as the system resolves it (`./lib/../check.sh` where `lib` is a link), and counts when it is in the project
 * as written or once resolved: a link in the project to a file elsewhere is pinned by that file's content. `words`
 * are more such words, read the same way: the values of an entry's `env` (`BASH_ENV=./setup.sh`).
 *
 * Best effort by design: a script named some other way (built at run time, found on `PATH`) is not found — such
 * words are listed in `unpinned` when they look like paths — and a word that merely looks like a path only makes
 * trust stricter. A file written by a redirection (`> log.txt`) is not pinned: it changes on every run.
 */
export async function commandReferences(command: string, projectDir: string, cwd: string = projectDir, words: readonly string[] = []): Promise<CommandReferences> {
  const realProject = (await realOf(projectDir)) ?? projectDir;
  const inProject = (path: string): boolean => isInside(path, projectDir) || isInside(path, realProject);
  const files = new Set<string>();
  const folders = new Set<string>();
  const unpinned = new Set<string>();
  const bases = [cwd];
  const tokens = [...commandTokens(command), ...words.flatMap((w) => [{ text: '\n', operator: true, glob: false }, ...commandTokens(w)])];

  // The program of the current command, once its first word (after `NAME=value` words and wrappers such as `env`) is read.
  let program: string | undefined;
  let previous: Token | undefined;
  for (let t = 0; t < tokens.length; previous = tokens[t], t++) {
    const token = tokens[t]!;
    if (token.operator) {
      if (!'<>'.includes(token.text)) program = undefined;
      continue;
    }
    // What a redirection writes changes on every run; pinning it would untrust the hook each time it runs.
    if (previous?.operator === true && previous.text === '>') continue;
    const expanded = token.text.replace(PROJECT_VARIABLES, () => projectDir);
    let programWord = false;
    if (program === undefined && !expanded.startsWith('-') && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(expanded)) {
      const name = basename(expanded).replace(/[\d.]+$/, '');
      programWord = true;
      program = WRAPPERS.has(name) ? undefined : name;
    }
    if ((expanded === 'cd' || expanded === 'pushd') && tokens[t + 1]?.operator === false) {
      const target = tokens[t + 1]!.text.replace(PROJECT_VARIABLES, () => projectDir);
      if (target.includes('$') || target.startsWith('~') || target.startsWith('-')) {
        unpinned.add(`${tokens[t + 1]!.text} (a folder the command moves to: the files named after it are looked for where the command starts)`);
      } else {
        // Where every cd so far succeeded comes first: that is where the shell most likely is.
        for (const base of bases.splice(0)) bases.push(isAbsolute(target) ? target : `${base}${sep}${target}`, base);
        // Each cd doubles the folders a word may be in: past a few, the others are left to the user's review.
        if (bases.length > MAX_BASES) unpinned.add(`cd ${tokens[t + 1]!.text} (more folders to move through than are followed: a file named after it may not be pinned)`);
        bases.splice(MAX_BASES);
      }
    }
    const eq = expanded.indexOf('=');
    for (const text of eq > 0 ? [expanded, expanded.slice(eq + 1)] : [expanded]) {
      if (text === '' || text.startsWith('-')) continue;
      if (text.includes('$') || text.startsWith('~')) {
        if (PATH_LIKE.test(text)) unpinned.add(`${text} (${text.startsWith('~') ? 'in the home folder' : 'built from a variable'}, so not pinned)`);
        continue;
      }
      const candidates: string[] = [];
      for (const base of isAbsolute(text) ? [cwd] : bases) {
        if (token.glob) {
          const matches = await expandGlob(text, base, MAX_GLOB_MATCHES + 1);
          if (matches.length > MAX_GLOB_MATCHES) unpinned.add(`${text} (a glob matching more than ${MAX_GLOB_MATCHES} paths: the first ${MAX_GLOB_MATCHES} are pinned)`);
          candidates.push(...matches.slice(0, MAX_GLOB_MATCHES));
        } else {
          // Joined as text, not with path.resolve, which would read `lib/..` as the folder that holds `lib`: the
          // system reads it as the parent of where `lib` points, and realpath below does too.
          candidates.push(isAbsolute(text) ? text : `${base}${sep}${text}`);
        }
      }
      for (const candidate of candidates) {
        const real = await realOf(candidate);
        if (real === realProject) continue;
        if (!inProject(resolve(candidate)) && (real === undefined || !isInside(real, realProject))) {
          if (PATH_LIKE.test(text) && !SYSTEM_PATH.test(text)) unpinned.add(`${text} (outside the project, so not pinned)`);
          continue;
        }
        // Missing now, a file appearing here later is a part added, and untrusts the hook then.
        if (real === undefined) continue;
        const info = await fileReads.stat(real).catch(() => undefined);
        if (info === undefined) continue;
        if (!info.isDirectory()) files.add(real);
        else if (!programWord && program !== undefined && INTERPRETERS.has(program)) folders.add(real);
      }
    }
  }
  return { files: [...files].sort(), folders: [...folders].sort(), unpinned: [...unpinned] };
}
