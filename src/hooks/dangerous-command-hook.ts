/**
 * A hook that refuses destructive shell commands.
 *
 * @module
 */
import {
  HookOutcome,
  Matcher,
  type AnyHookContext,
  type Hook,
  type HookEventName,
  type HookMatcher,
  type MatcherLike,
  type MaybePromise,
  type NextFn,
  type ToolCall,
} from '../core/index.js';
import { checkBehaviour, checkPriority, guardToolCall, refuse } from './internal/refuse.js';
import { quoteWord, readShell } from './internal/shell-words.js';
import type { LimitBehaviour } from './limit-behaviour.js';

/**
 * What a {@link DangerousCommandPattern} is tested against:
 * - `'command'` — each simple command, normalised: quotes and escapes removed, `sudo`/`env`/`nohup`/`timeout`/`xargs`
 *   and `VAR=value` prefixes dropped, the program's path reduced to its name, words joined by one space, redirections
 *   as words of their own (`echo x > /dev/sda`);
 * - `'pipeline'` — each pipeline: its normalised commands joined by ` | `;
 * - `'raw'` — the whole command text as given, whitespace collapsed.
 *
 * Code that a command runs from a string (`sh -c '…'`, `eval …`, `$(…)`, backticks, `echo '…' | sh`) is read as
 * commands and pipelines of its own, so a pattern for `rm` also sees the `rm` in `bash -c "rm -rf /"`.
 */
export type CommandPatternTarget = 'command' | 'pipeline' | 'raw';

/** One rule of a {@link DangerousCommandHook}. */
export interface DangerousCommandPattern {
  /** A short, stable name (`rm-recursive-root`), for logs and for leaving a default out. */
  readonly name: string;
  /** What a dangerous command looks like (flags `g` and `y` are ignored). */
  readonly pattern: RegExp;
  /** Why it is refused; the model is told. */
  readonly reason: string;
  /** What the pattern is tested against (default `'command'`). */
  readonly target?: CommandPatternTarget | undefined;
}

/** What {@link DangerousCommandHook.check} found. */
export interface DangerousCommandMatch {
  /** The rule that matched. */
  readonly pattern: DangerousCommandPattern;
  /** The text it matched: a normalised command or pipeline, or the raw command. */
  readonly command: string;
}

/** Options of a {@link DangerousCommandHook}. */
export interface DangerousCommandHookOptions {
  /** The rules, replacing the defaults ({@link DangerousCommandHook.defaultPatterns}). */
  readonly patterns?: readonly DangerousCommandPattern[] | undefined;
  /** More rules, checked after `patterns` (or the defaults). */
  readonly extraPatterns?: readonly DangerousCommandPattern[] | undefined;
  /**
   * The input fields that hold a command (default {@link DangerousCommandHook.defaultFields}). A string is a shell
   * command line; an array of strings is read both as an argv (`['rm', '-rf', '/']`) and as a list of command lines,
   * so neither form slips through. An `args`, `argv` or `arguments` array next to a string command is its argv.
   */
  readonly fields?: readonly string[] | undefined;
  /** Which tools to check (default: every tool; only inputs with a command field are looked at). */
  readonly matcher?: MatcherLike | undefined;
  /** `'block'` (default) refuses the call; `'stop'` halts the run. */
  readonly behaviour?: LimitBehaviour | undefined;
  /** The priority to register at when the registration names none (default 100: before ordinary hooks). */
  readonly priority?: number | undefined;
}

/**
 * Targets of rm/chmod/chown/find that take the whole machine, the home directory or the folders above the project
 * with them: `..`, `../..` and `../*` reach past the project, to whatever holds it.
 */
const ROOTS =
  String.raw`(?:\/|\/\*|\/\.|~|~\/|~\/\*|\*|\.\/\*|\.\.(?:\/\.\.)*(?:\/\*?)?|\$HOME|\$\{HOME\}|\$HOME\/\*?|\$\{HOME\}\/\*?|` +
  String.raw`\/(?:bin|boot|dev|etc|home|lib|lib32|lib64|opt|proc|root|run|sbin|srv|sys|usr|var|Users|System|Applications|Library)\/?\*?)`;
const DEVICES = String.raw`\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|md\d|dm-\d|mapper\/)`;
const SHELL_OR_INTERPRETER = String.raw`(?:(?:ba|z|da|k|mk|fi|c|tc)?sh|python[\d.]*|perl|ruby|node|php)`;
const END = String.raw`(?:\s|$)`;

const DEFAULT_PATTERNS: readonly DangerousCommandPattern[] = Object.freeze([
  {
    name: 'rm-recursive-root',
    pattern: new RegExp(String.raw`^rm(?=.*\s(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)${END})(?=.*\s${ROOTS}${END})`),
    reason: 'rm -r on /, ~, *, .. or a system directory deletes everything under it',
  },
  {
    // The paths come before the expression (after -H/-L/-P/-D/-O); one of them a root, and an action that deletes.
    name: 'find-delete-root',
    pattern: new RegExp(
      String.raw`^find(?=.*\s(?:-delete|-(?:exec|execdir|ok|okdir)\s(?:\S*\/)?rm)${END})(?:\s-[HLP]|\s-D\s\S+|\s-O\d)*(?:\s(?![-(!])\S+)*?\s${ROOTS}${END}`,
    ),
    reason: 'find … -delete (or -exec rm) from /, ~, .. or a system directory deletes everything under it',
  },
  {
    // `find / … | xargs rm`: the paths find lists from a root are fed to rm (normalised, `xargs` is dropped), so it
    // deletes what `find / -delete` would, filtered on the way or not (`| grep …`; up to four commands between, which
    // keeps the pattern linear in the length of the line).
    name: 'find-xargs-rm-root',
    pattern: new RegExp(
      String.raw`(?:^|\s\|\s)find(?:\s-[HLP]|\s-D\s\S+|\s-O\d)*(?:\s(?![-(!|])\S+)*?\s${ROOTS}(?=\s|$)[^|]*(?:\|\s(?!rm${END})[^|]*){0,4}\|\srm${END}`,
    ),
    reason: 'find from /, ~, .. or a system directory piped into rm (find … | xargs rm) deletes everything it lists',
    target: 'pipeline',
  },
  {
    name: 'rm-no-preserve-root',
    pattern: new RegExp(String.raw`^rm\s(?:.*\s)?--no-preserve-root${END}`),
    reason: 'rm --no-preserve-root turns off the protection of /',
  },
  {
    name: 'mkfs',
    pattern: new RegExp(String.raw`^(?:mkfs(?:\.[\w.]+)?|mke2fs)${END}`),
    reason: 'mkfs formats a filesystem, erasing what is on it',
  },
  {
    name: 'dd-to-device',
    pattern: new RegExp(String.raw`^dd\s(?=.*\bof=${DEVICES})`),
    reason: 'dd onto a disk device overwrites it',
  },
  {
    name: 'redirect-to-device',
    pattern: new RegExp(String.raw`(?:^|\s)(?:\d*>>?|&>>?|>\|)\s${DEVICES}`),
    reason: 'writing onto a disk device overwrites it',
  },
  {
    name: 'fork-bomb',
    pattern: /(\S+?)\s*\(\s*\)\s*\{[^}]*?\1\s*\|\s*\1\s*&[^}]*\}\s*;\s*\1/,
    reason: 'a fork bomb exhausts the machine',
    target: 'raw',
  },
  {
    name: 'chmod-recursive-777-root',
    pattern: new RegExp(
      String.raw`^chmod(?=.*\s(?:-[a-zA-Z]*R[a-zA-Z]*|--recursive)${END})(?=.*\s(?:0?777|a\+rwx|ugo\+rwx|a=rwx)${END})(?=.*\s${ROOTS}${END})`,
    ),
    reason: 'chmod -R 777 on / or a system directory makes every file writable by anyone',
  },
  {
    name: 'chown-recursive-root',
    pattern: new RegExp(String.raw`^chown(?=.*\s(?:-[a-zA-Z]*R[a-zA-Z]*|--recursive)${END})(?=.*\s${ROOTS}${END})`),
    reason: 'chown -R on / or a system directory breaks the system',
  },
  {
    name: 'pipe-download-to-shell',
    pattern: new RegExp(String.raw`(?:^|\s\|\s)(?:curl|wget)\s.*\s\|\s${SHELL_OR_INTERPRETER}${END}`),
    reason: 'piping a download into a shell runs code nobody has read',
    target: 'pipeline',
  },
  {
    name: 'run-download',
    pattern: new RegExp(String.raw`(?:^|[\s;&|(])(?:${SHELL_OR_INTERPRETER}|eval|source|\.)\s+(?:-\w+\s+)*["']?(?:<\(|\$\(|\x60)\s*(?:curl|wget)\b`),
    reason: 'running a download as a script runs code nobody has read',
    target: 'raw',
  },
]);

const DEFAULT_FIELDS: readonly string[] = Object.freeze(['command', 'cmd', 'commands', 'script', 'scripts', 'commandLine', 'command_line', 'shell_command']);
const ARGV_FIELDS = ['args', 'argv', 'arguments'] as const;

const strings = (value: unknown): value is readonly string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/**
 * Refuses destructive shell commands on any tool whose input holds a command (`command`, `cmd`, `script`, …; an
 * argv array too): `rm -rf /` and its variants (`rm -fr ~`, `rm -r -f /*`, `rm -rf ../..`,
 * `sudo rm -rf --no-preserve-root /`), `find / -delete` (and `find ~ … -delete`, `find .. -exec rm …`,
 * `find / -print0 | xargs -0 rm -rf`), `mkfs`,
 * `dd … of=/dev/sda`, `> /dev/sda`, fork bombs, `chmod -R 777 /`, `curl … | sh` — also inside
 * `bash -c "…"`, `$(…)` and `echo '…' | sh`. Rules are regexes with a reason; add your own or replace the defaults.
 *
 * Text that is only data is not a command: `grep "rm -rf /" notes.md` and `echo 'rm -rf /'` are allowed, since the
 * quoted words are arguments of grep and echo. A path inside the project, or a named folder elsewhere, passes:
 * `rm -rf ./build`, `rm -rf ../build`, `find . -name '*.o' -delete`, `find /tmp/cache -delete`. Rules of target
 * `'raw'` (the fork bomb, `sh <(curl …)`) see the text as given, quotes and all. A rewrite of the call by a later hook
 * is checked too.
 *
 * ```ts
 * const agent = AgentBuilder.new()
 *   .withModel(model)
 *   .withTools(bash)
 *   .withHook(new DangerousCommandHook({
 *     extraPatterns: [{ name: 'git-force-push', pattern: /^git push\s.*(--force|-f)\b/, reason: 'force-push rewrites shared history' }],
 *   }))
 *   .build();
 * ```
 */
export class DangerousCommandHook implements Hook {
  /** The default rules: rm -r of /, ~, * or .., find -delete from them (or piped into xargs rm), --no-preserve-root, mkfs, dd and redirections onto disks, fork bombs, chmod -R 777 /, chown -R /, downloads run as scripts. */
  static readonly defaultPatterns: readonly DangerousCommandPattern[] = DEFAULT_PATTERNS;
  /** The input fields read by default. */
  static readonly defaultFields: readonly string[] = DEFAULT_FIELDS;

  /** Always `'DangerousCommandHook'`. */
  readonly name = 'DangerousCommandHook';
  /** Runs before tools: PreToolUse. */
  readonly events: readonly HookEventName[] = ['PreToolUse'];
  /** The tools checked. */
  readonly matcher: HookMatcher | undefined;
  /** The priority it registers at by default. */
  readonly priority: number;
  /** The rules, in the order they are checked. */
  readonly patterns: readonly DangerousCommandPattern[];
  private readonly fields: readonly string[];
  private readonly behaviour: LimitBehaviour;
  private readonly compiled: readonly { readonly rule: DangerousCommandPattern; readonly regex: RegExp; readonly target: CommandPatternTarget }[];

  constructor(options: DangerousCommandHookOptions = {}) {
    const patterns = [...(options.patterns ?? DEFAULT_PATTERNS), ...(options.extraPatterns ?? [])];
    this.compiled = patterns.map((rule, i) => {
      if (rule === null || typeof rule !== 'object' || !(rule.pattern instanceof RegExp) || typeof rule.reason !== 'string' || rule.reason.trim() === '') {
        throw new TypeError(`DangerousCommandHook: pattern #${i + 1} needs { name, pattern: RegExp, reason: string }, got ${String(rule?.name ?? rule)}.`);
      }
      const target = rule.target ?? 'command';
      if (!['command', 'pipeline', 'raw'].includes(target)) {
        throw new TypeError(`DangerousCommandHook: pattern '${rule.name}' has target ${JSON.stringify(target)}; use 'command', 'pipeline' or 'raw'.`);
      }
      // A global or sticky regex remembers where it stopped, and would skip matches on the next command.
      return { rule, regex: new RegExp(rule.pattern.source, rule.pattern.flags.replace(/[gy]/g, '')), target };
    });
    this.patterns = Object.freeze(patterns);
    this.fields = Object.freeze([...(options.fields ?? DEFAULT_FIELDS)]);
    this.behaviour = checkBehaviour('DangerousCommandHook', options.behaviour);
    this.priority = checkPriority('DangerousCommandHook', options.priority, 100);
    this.matcher = Matcher.from(options.matcher);
  }

  /**
   * The first rule a command breaks, or `undefined`. Takes a command line, or a tool's input (its command fields are
   * read as the hook reads them).
   */
  check(input: string | Readonly<Record<string, unknown>>): DangerousCommandMatch | undefined {
    const lines = typeof input === 'string' ? [input] : this.commandsOf(input);
    for (const line of lines) {
      const found = this.checkLine(line);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  handle(ctx: AnyHookContext, next: NextFn): MaybePromise<HookOutcome> {
    // A later hook may rewrite the command; guardToolCall checks the call that would run.
    return guardToolCall(ctx, next, (call) => this.refusal(call), this.matcher);
  }

  private refusal(call: ToolCall): HookOutcome | undefined {
    const found = this.check(call.args);
    if (found === undefined) return undefined;
    const shown = found.command.length > 200 ? `${found.command.slice(0, 200)}…` : found.command;
    return refuse(this.behaviour, `Dangerous command refused: ${found.pattern.reason} (${found.pattern.name}: \`${shown}\`).`);
  }

  private checkLine(line: string): DangerousCommandMatch | undefined {
    let script: ReturnType<typeof readShell> | undefined;
    for (const { rule, regex, target } of this.compiled) {
      if (target === 'raw') {
        const raw = line.replace(/\s+/g, ' ').trim();
        if (regex.test(raw)) return { pattern: rule, command: raw };
        continue;
      }
      script ??= readShell(line);
      for (const pipeline of script.pipelines) {
        const texts = target === 'pipeline' ? [pipeline.map((argv) => argv.join(' ')).join(' | ')] : pipeline.map((argv) => argv.join(' '));
        for (const text of texts) if (regex.test(text)) return { pattern: rule, command: text };
      }
    }
    return undefined;
  }

  /** The command lines of a tool input. */
  private commandsOf(input: Readonly<Record<string, unknown>>): string[] {
    if (input === null || typeof input !== 'object') return [];
    const lines: string[] = [];
    for (const field of this.fields) {
      if (!Object.hasOwn(input, field)) continue;
      const value = input[field];
      if (typeof value === 'string') {
        const argv = ARGV_FIELDS.map((f) => input[f]).find(strings);
        lines.push(argv === undefined ? value : [value, ...argv.map(quoteWord)].join(' '));
      } else if (strings(value) && value.length > 0) {
        lines.push(value.map(quoteWord).join(' '), ...value);
      }
    }
    return lines;
  }
}
