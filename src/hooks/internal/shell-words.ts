// Internal: not exported from the package.

/**
 * A shell command line read the way a shell would split it, without running or expanding anything: pipelines of
 * simple commands, each a list of words with quotes and escapes removed.
 *
 * This is a reader for spotting commands, not a shell: it knows quoting, escapes, `;` `&&` `||` `|` `&` and newlines,
 * redirections, comments, `$(…)`, backticks and `<(…)`. Code that a command runs from a string — `sh -c '…'`,
 * `eval …`, `echo '…' | sh`, `sh <<< '…'`, substitutions — is read too, as pipelines of its own.
 */
export interface ShellScript {
  /** Every pipeline, including those of nested code; each pipeline a list of commands, each command its words. */
  readonly pipelines: readonly (readonly (readonly string[])[])[];
}

/** How deep code inside code is followed; deeper nesting is left unread (and the raw text is still checked). */
const MAX_DEPTH = 8;

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Commands that run the command given after them. Each maps to the options that take a value (skipped with it);
 * `true` means the wrapper takes one positional argument before the command (`timeout 5 cmd`).
 */
const WRAPPERS: ReadonlyMap<string, { readonly valued: ReadonlySet<string>; readonly positional?: boolean }> = new Map([
  ['sudo', { valued: new Set(['-u', '-g', '-p', '-C', '-D', '-U', '-r', '-t', '-h', '-T', '-R']) }],
  ['doas', { valued: new Set(['-u', '-C']) }],
  ['env', { valued: new Set(['-u', '-C', '-S']) }],
  ['nohup', { valued: new Set() }],
  ['time', { valued: new Set(['-f', '-o']) }],
  ['nice', { valued: new Set(['-n']) }],
  ['ionice', { valued: new Set(['-c', '-n', '-p']) }],
  ['command', { valued: new Set() }],
  ['builtin', { valued: new Set() }],
  ['exec', { valued: new Set(['-a']) }],
  ['stdbuf', { valued: new Set(['-i', '-o', '-e']) }],
  ['timeout', { valued: new Set(['-s', '-k', '--signal', '--kill-after']), positional: true }],
  ['xargs', { valued: new Set(['-I', '-L', '-n', '-P', '-d', '-E', '-s', '-a', '-i', '-l']) }],
  ['watch', { valued: new Set(['-n', '-d']) }],
]);

/** Reads `text` into pipelines of commands. */
export function readShell(text: string): ShellScript {
  const pipelines: string[][][] = [];
  read(text, 0, pipelines);
  return { pipelines };
}

/** Quotes one argv word so that {@link readShell} reads it back as exactly that word. */
export function quoteWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

function read(text: string, depth: number, out: string[][][]): void {
  if (depth > MAX_DEPTH) return;
  const nested: string[] = [];
  const pipelines: string[][][] = [];
  let pipeline: string[][] = [];
  let argv: string[] = [];
  let word: string | null = null;

  const endWord = () => {
    if (word !== null) argv.push(word);
    word = null;
  };
  const endCommand = () => {
    endWord();
    if (argv.length > 0) pipeline.push(argv);
    argv = [];
  };
  const endPipeline = () => {
    endCommand();
    if (pipeline.length > 0) pipelines.push(pipeline);
    pipeline = [];
  };
  const append = (s: string) => {
    word = (word ?? '') + s;
  };

  let sub: Substitution | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const n = text[i + 1];
    if (c === "'") {
      const close = text.indexOf("'", i + 1);
      const end = close === -1 ? text.length : close;
      append(text.slice(i + 1, end));
      i = end;
    } else if (c === '"') {
      i = readDoubleQuoted(text, i + 1, append, nested);
    } else if (c === '\\') {
      if (n === '\n') i++;
      else if (n !== undefined) {
        append(n);
        i++;
      }
    } else if ((sub = substitutionAt(text, i, true)) !== undefined) {
      i = keepSubstitution(text, i, sub, append, nested);
    } else if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
    } else if (c === '\n' || c === ';') {
      endPipeline();
    } else if (c === '&') {
      if (n === '&') {
        endPipeline();
        i++;
      } else if (n === '>') {
        endWord();
        const op = text[i + 2] === '>' ? '&>>' : '&>';
        argv.push(op);
        i += op.length - 1;
      } else {
        endPipeline();
      }
    } else if (c === '|') {
      if (n === '|') {
        endPipeline();
        i++;
      } else {
        if (n === '&') i++;
        endCommand();
      }
    } else if (c === '(' || c === ')') {
      endPipeline();
    } else if ((c === '{' || c === '}') && word === null && (n === undefined || /[\s;]/.test(n))) {
      endPipeline();
    } else if (c === '>' || c === '<') {
      // A file descriptor number written against the operator (`2>`) belongs to it.
      const fd: string = word !== null && /^\d+$/.test(word) ? word : '';
      if (fd !== '') word = null;
      endWord();
      let op = fd + c;
      while (i + 1 < text.length && /[<>&|]/.test(text[i + 1]!) && op.length < fd.length + 3) op += text[++i];
      argv.push(op);
    } else if (c === '#' && word === null) {
      const eol = text.indexOf('\n', i);
      i = eol === -1 ? text.length : eol - 1;
    } else {
      append(c);
    }
  }
  endPipeline();

  for (const p of pipelines) {
    const commands = p.map(unwrap).filter((a) => a.length > 0);
    if (commands.length > 0) out.push(commands);
    nested.push(...codeRunBy(commands));
  }
  for (const code of nested) read(code, depth + 1, out);
}

/** Reads a double-quoted string from `start` (after the quote); returns the index of the closing quote. */
function readDoubleQuoted(text: string, start: number, append: (s: string) => void, nested: string[]): number {
  let i = start;
  let sub: Substitution | undefined;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') return i;
    if (c === '\\' && i + 1 < text.length && '"\\$`\n'.includes(text[i + 1]!)) {
      if (text[i + 1] !== '\n') append(text[i + 1]!);
      i++;
    } else if ((sub = substitutionAt(text, i, false)) !== undefined) {
      i = keepSubstitution(text, i, sub, append, nested);
    } else {
      append(c);
    }
  }
  return i;
}

/** A substitution in a command: the code it runs, and the index of its last character. */
interface Substitution {
  readonly code: string;
  readonly end: number;
}

/**
 * The substitution starting at `i`, if one does: `$(…)` and `` `…` ``, and where `process` says so (outside double
 * quotes) the process substitutions `<(…)` and `>(…)`.
 */
function substitutionAt(text: string, i: number, process: boolean): Substitution | undefined {
  const c = text[i];
  if (text[i + 1] === '(' && (c === '$' || (process && (c === '<' || c === '>')))) {
    const end = balanced(text, i + 1);
    return { code: text.slice(i + 2, end), end };
  }
  if (c === '`') {
    const end = closing(text, i + 1, '`');
    return { code: text.slice(i + 1, end), end };
  }
  return undefined;
}

/** The substitution's code is read as a command of its own, and its text stays part of the word; returns its end. */
function keepSubstitution(text: string, i: number, sub: Substitution, append: (s: string) => void, nested: string[]): number {
  nested.push(sub.code);
  append(text.slice(i, sub.end + 1));
  return sub.end;
}

/** The index of the parenthesis closing the one at `open` (quotes inside are skipped), or the end of the text. */
function balanced(text: string, open: number): number {
  let level = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === "'") i = closing(text, i + 1, "'");
    else if (c === '"') i = closing(text, i + 1, '"');
    else if (c === '(') level++;
    else if (c === ')' && --level === 0) return i;
  }
  return text.length;
}

/** The index of the next unescaped `quote` from `start`, or the end of the text. */
function closing(text: string, start: number, quote: string): number {
  for (let i = start; i < text.length; i++) {
    if (text[i] === '\\' && quote !== "'") i++;
    else if (text[i] === quote) return i;
  }
  return text.length;
}

/**
 * A command's words without what only sets up how it runs: leading `VAR=value` assignments and wrappers such as
 * `sudo`, `env`, `nohup`, `timeout 5`, `xargs`; the command's path is reduced to its name (`/bin/rm` is `rm`).
 */
function unwrap(argv: readonly string[]): string[] {
  let i = 0;
  for (;;) {
    while (i < argv.length && ASSIGNMENT.test(argv[i]!)) i++;
    const name = argv[i] === undefined ? undefined : basename(argv[i]!);
    const wrapper = name === undefined ? undefined : WRAPPERS.get(name);
    if (wrapper === undefined) break;
    i++;
    while (i < argv.length && argv[i]!.startsWith('-') && argv[i] !== '-') {
      const option = argv[i]!;
      i += wrapper.valued.has(option) ? 2 : 1;
      if (option === '--') break;
    }
    if (name === 'env') while (i < argv.length && ASSIGNMENT.test(argv[i]!)) i++;
    if (wrapper.positional) i++;
  }
  const rest = argv.slice(i);
  if (rest.length > 0) rest[0] = basename(rest[0]!);
  return rest;
}

function basename(word: string): string {
  const slash = word.lastIndexOf('/');
  return slash === -1 || slash === word.length - 1 ? word : word.slice(slash + 1);
}

/**
 * The code commands of a pipeline run from strings: `sh -c CODE`, `eval CODE…`, `su -c CODE`, `sh <<< CODE`, and the
 * text that `echo`/`printf` pipe into a shell.
 */
function codeRunBy(commands: readonly (readonly string[])[]): string[] {
  const code: string[] = [];
  commands.forEach((argv, index) => {
    const name = argv[0]!;
    if (name === 'eval') code.push(argv.slice(1).join(' '));
    if (SHELLS.has(name) || name === 'su') {
      const flag = argv.findIndex((w, k) => k > 0 && /^-[A-Za-z]*c[A-Za-z]*$/.test(w));
      if (flag !== -1 && argv[flag + 1] !== undefined) code.push(argv[flag + 1]!);
      const herestring = argv.indexOf('<<<');
      if (herestring !== -1 && argv[herestring + 1] !== undefined) code.push(argv[herestring + 1]!);
      // A shell reading its script from stdin runs whatever an echo or printf before it in the pipeline prints.
      if (flag === -1 && index > 0) {
        for (const earlier of commands.slice(0, index)) {
          if (earlier[0] === 'echo' || earlier[0] === 'printf') code.push(earlier.slice(1).filter((w) => !/^-[neE]+$/.test(w)).join(' '));
        }
      }
    }
  });
  return code;
}
