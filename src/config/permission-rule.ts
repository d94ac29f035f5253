/**
 * Claude Code's permission rules (`Bash(git *)`, `Edit(src/**)`, `WebFetch(domain:example.com)`) as the `if` filter
 * of a hook handler: the handler runs only on the tool calls its rule matches.
 *
 * @module
 */
import { homedir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import type Micromatch from 'micromatch';
import { CallableMatcher, HookEvent, type AnyHookContext, type HookEventName, type HookMatcher } from '../core/index.js';
import { lazyModule } from '../core/internal/lazy-module.js';
import { configMatcher } from './config-matcher.js';

const micromatch = lazyModule<typeof Micromatch>('micromatch');

/** A permission rule, read: the tool's name and what it says of the call (absent: every call of the tool). */
export interface PermissionRule {
  /** The rule as written, trimmed. */
  readonly text: string;
  /** The tool's name, as Claude Code names it (`Bash`, `Edit`, `mcp__github__create_issue`). */
  readonly tool: string;
  /** The specifier between the parentheses; `undefined` for `Bash` or `Bash()`. */
  readonly specifier: string | undefined;
}

/** Why a text is not a permission rule, with the fix. */
export interface PermissionRuleProblem {
  readonly message: string;
}

const RULE = /^([^\s()]+)(?:\((.*)\))?$/s;

/** The Claude Code tools whose rule specifier is a path, in gitignore's syntax. */
const PATH_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Read', 'Glob', 'Grep', 'LS']);

/**
 * Reads `text` as a permission rule: `Tool` or `Tool(specifier)`. What Claude Code cannot read as one — a condition
 * such as `tool_input.command matches 'git'`, an unclosed parenthesis — matches no call there, so its hook never runs.
 */
export function parsePermissionRule(text: string): PermissionRule | PermissionRuleProblem {
  const trimmed = text.trim();
  const found = RULE.exec(trimmed);
  if (found === null) {
    return {
      message:
        'This is not a permission rule, so Claude Code never runs the hook. Write the tool and what to match, e.g. "Bash(git push*)", "Edit(src/**)" or "Bash".',
    };
  }
  const specifier = found[2]?.trim();
  return { text: trimmed, tool: found[1]!, specifier: specifier === '' ? undefined : specifier };
}

/**
 * Whether the specifier of `rule` is one this library checks the way Claude Code does: a shell command (`Bash`), a
 * path (`Edit`, `Write`, `Read`, …) or a domain (`WebFetch(domain:…)`). For any other, the hook runs on every call of
 * the tool, so it never stops guarding where Claude Code would run it.
 */
export function understoodSpecifier(rule: PermissionRule): boolean {
  if (rule.specifier === undefined) return true;
  if (rule.tool === 'Bash') return true;
  if (PATH_TOOLS.has(rule.tool)) return true;
  return rule.tool === 'WebFetch' && rule.specifier.startsWith('domain:');
}

/**
 * The kernel matcher for `rule` on `event`: the tool's name as a Claude Code matcher names it (so `Bash` is the
 * shell tool of whichever agent runs the hook), and the specifier over the call's input. On an event without a tool
 * call it matches nothing, as in Claude Code.
 *
 * @param projectDir - what a relative path in a path rule is relative to.
 * @param homeDir - what `~/` in a path rule names (default: the user's home directory).
 */
export function permissionRuleMatcher(rule: PermissionRule, event: HookEventName, projectDir: string, homeDir: string = homedir()): HookMatcher {
  if (!HookEvent.isToolEvent(event)) return new CallableMatcher(function noToolCall() {
    return false;
  });
  const tool = configMatcher(rule.tool, event, 'claude');
  const input = specifierTest(rule, projectDir, homeDir);
  return new CallableMatcher(function permissionRule(ctx: AnyHookContext) {
    if (!('toolCall' in ctx)) return false;
    if (tool !== undefined && !tool.matches(ctx)) return false;
    return input === undefined || input(ctx.toolCall.args as Record<string, unknown>);
  });
}

/** The test of the specifier over a call's arguments; `undefined` when every call of the tool matches. */
function specifierTest(rule: PermissionRule, projectDir: string, homeDir: string): ((args: Record<string, unknown>) => boolean) | undefined {
  const spec = rule.specifier;
  if (spec === undefined || !understoodSpecifier(rule)) return undefined;
  if (rule.tool === 'Bash') {
    const pattern = commandPattern(spec);
    return (args) => {
      const command = args.command;
      if (typeof command !== 'string') return true;
      const parts = simpleCommands(command);
      // A command that cannot be taken apart with certainty (a substitution, a subshell, a here-document) matches.
      if (parts === undefined || parts.some(pattern)) return true;
      // Quotes and backslashes taken out, as the shell runs the words: `"rm" -rf x` is `rm -rf x` (Claude Code 2.1.332).
      return simpleCommands(command, 'bare')!.some(pattern);
    };
  }
  if (rule.tool === 'WebFetch') {
    const domain = spec.slice('domain:'.length).trim().toLowerCase();
    return (args) => {
      const url = args.url;
      if (typeof url !== 'string') return true;
      let host: string;
      try {
        host = new URL(url).hostname.toLowerCase();
      } catch {
        return true;
      }
      return host === domain || host.endsWith(`.${domain}`);
    };
  }
  const glob = pathGlob(spec, projectDir, homeDir);
  return (args) => {
    const path = [args.file_path, args.notebook_path, args.path].find((p): p is string => typeof p === 'string' && p !== '');
    if (path === undefined) return true;
    const absolute = isAbsolute(path) ? path : join(projectDir, path);
    return micromatch().isMatch(absolute, glob, { dot: true });
  };
}

/**
 * A path rule as an absolute glob, by the rules of Claude Code's permission settings: `//x` is the absolute path `/x`,
 * `~/x` is in the home directory, `/x` and `./x` and `x/y` are relative to the project, and a pattern with no `/`
 * (`*.env`) matches at any depth, as in gitignore.
 */
function pathGlob(spec: string, projectDir: string, homeDir: string): string {
  if (spec.startsWith('//')) return spec.slice(1);
  if (spec.startsWith('~/')) return join(homeDir, spec.slice(2));
  if (spec.startsWith('/')) return join(projectDir, spec.slice(1));
  if (spec.startsWith('./')) return join(projectDir, spec.slice(2));
  if (!spec.includes('/')) return join(projectDir, '**', spec);
  return join(projectDir, spec);
}

/**
 * A Bash specifier as a test over one simple command (words separated by single spaces): `P:*` is `P` alone or `P`
 * followed by arguments; `*` matches any run of characters, and a trailing ` *` also matches the command without
 * arguments (`git *` matches `git`); anything else is the command exactly.
 */
function commandPattern(spec: string): (command: string) => boolean {
  const normal = spec.replace(/\s+/g, ' ').trim();
  if (normal.endsWith(':*')) {
    const prefix = normal.slice(0, -2);
    return (command) => command === prefix || command.startsWith(`${prefix} `);
  }
  if (!normal.includes('*')) return (command) => command === normal;
  const source = normal
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*');
  const regex = new RegExp(`^${source}$`);
  const bare = normal.endsWith(' *') ? normal.slice(0, -2) : undefined;
  return (command) => command === bare || regex.test(command);
}

/**
 * The simple commands of a shell command line, as a permission rule sees them: split at `&&`, `||`, `;`, `|`, `&` and
 * newlines, leading `NAME=value` assignments and redirections left out, words joined by single spaces. `form` `raw`
 * keeps the quotes and backslashes as written; `bare` takes them out, as the shell does before it runs the words (and
 * as Claude Code 2.1.332 does before it matches a rule: `"rm" -rf x` and `\rm -rf x` are `rm -rf x`).
 * `undefined` when the line holds what cannot be taken apart with certainty: a command substitution (`$(…)`, a
 * backtick), a subshell or group, a here-document, a process substitution, or an unclosed quote.
 *
 * @internal
 */
export function simpleCommands(line: string, form: 'raw' | 'bare' = 'raw'): string[] | undefined {
  const bare = form === 'bare';
  const commands: string[][] = [[]];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  const endWord = (): void => {
    if (inWord) commands[commands.length - 1]!.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = (): void => {
    endWord();
    commands.push([]);
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== undefined) {
      if (c === quote) {
        quote = undefined;
        if (!bare) word += c;
        continue;
      }
      if (quote === '"' && (c === '`' || (c === '$' && line[i + 1] === '('))) return undefined;
      if (quote === '"' && c === '\\' && i + 1 < line.length) {
        const next = line[++i]!;
        // Inside double quotes a backslash escapes only $, `, ", \ and a newline; before anything else it stays.
        word += !bare ? c + next : '$`"\\\n'.includes(next) ? next : c + next;
        continue;
      }
      word += c;
      continue;
    }
    if (c === '\\' && i + 1 < line.length) {
      if (line[i + 1] === '\n') {
        i++;
        continue;
      }
      word += bare ? line[++i]! : c + line[++i]!;
      inWord = true;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      if (!bare) word += c;
      inWord = true;
      continue;
    }
    if (c === '`' || c === '(' || c === ')' || (c === '$' && line[i + 1] === '(')) return undefined;
    if ((c === '{' || c === '}') && !inWord) return undefined;
    if (c === '<' && (line[i + 1] === '<' || line[i + 1] === '(')) return undefined;
    if (c === '>' && line[i + 1] === '(') return undefined;
    if (c === ';' || c === '\n' || c === '|' || c === '&') {
      // `&>` and `>&` are redirections, not operators.
      if (c === '&' && line[i + 1] === '>') {
        endWord();
        word = '&>';
        inWord = true;
        i++;
        if (line[i + 1] === '>') word += line[++i]!;
        endWord();
        continue;
      }
      if ((c === '|' || c === '&') && line[i + 1] === c) i++;
      endCommand();
      continue;
    }
    if (c === ' ' || c === '\t') {
      endWord();
      continue;
    }
    if (c === '>' || c === '<') {
      // A redirection operator, with the descriptor before it (`2>`) and a duplication after it (`>&1`).
      const descriptor = /^\d+$/.test(word) && inWord ? word : '';
      if (descriptor !== '') {
        word = '';
        inWord = false;
      } else endWord();
      let op = descriptor + c;
      while (line[i + 1] === '>' || line[i + 1] === '&' || line[i + 1] === '|') op += line[++i]!;
      commands[commands.length - 1]!.push(op);
      continue;
    }
    word += c;
    inWord = true;
  }
  if (quote !== undefined) return undefined;
  endWord();
  const out: string[] = [];
  for (const words of commands) {
    const kept: string[] = [];
    let leading = true;
    for (let w = 0; w < words.length; w++) {
      const current = words[w]!;
      if (/^\d*(?:[<>]+[&|]?|&>>?)$/.test(current)) {
        // A redirection and its target (`> out.txt`, `2>&1` has its target in the operator).
        if (!/&$/.test(current) || current === '&>' || current === '&>>') w++;
        else if (/^\d+$/.test(words[w + 1] ?? '')) w++;
        continue;
      }
      if (leading && /^[A-Za-z_][A-Za-z0-9_]*=/.test(current)) continue;
      leading = false;
      kept.push(current);
    }
    if (kept.length > 0) out.push(kept.join(' '));
  }
  return out;
}
