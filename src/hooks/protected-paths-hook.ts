/**
 * A hook that refuses writes to protected paths.
 *
 * @module
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type Micromatch from 'micromatch';
import {
  CallableMatcher,
  Matcher,
  type AnyHookContext,
  type Hook,
  type HookEventName,
  type HookMatcher,
  type HookOutcome,
  type MatcherLike,
  type MaybePromise,
  type NextFn,
  type ToolCall,
} from '../core/index.js';
import { checkBehaviour, checkPriority, guardToolCall, refuse } from './internal/refuse.js';
import type { LimitBehaviour } from './limit-behaviour.js';
import { lazyModule } from '../core/internal/lazy-module.js';

// Loaded when the first such hook is made: importing the package must not pay for micromatch until then.
const micromatch = lazyModule<typeof Micromatch>('micromatch');

/** Options of a {@link ProtectedPathsHook}. */
export interface ProtectedPathsHookOptions {
  /**
   * The protected paths, as micromatch globs relative to `projectDir` (default
   * {@link ProtectedPathsHook.defaultPatterns}). A glob without a slash matches a file of that name in any folder
   * (`.env` protects `config/.env` too); an absolute glob (`/etc/**`) matches paths outside the project.
   */
  readonly patterns?: readonly string[] | undefined;
  /** More globs, added to `patterns` (or the defaults). */
  readonly extraPatterns?: readonly string[] | undefined;
  /** The directory relative paths are resolved against (default: the working directory when the hook is made). */
  readonly projectDir?: string | undefined;
  /**
   * Which tools write (default: a tool whose name has a word such as write, edit, create, delete, remove, move,
   * rename, append, patch, replace, save, upload, insert, mkdir, touch, copy — `write_file`, `Edit`, `MultiEdit`,
   * `str_replace_based_edit_tool`, `apply_patch`; see {@link ProtectedPathsHook.isWriteTool}). Takes what the
   * builder's `matcher` option takes.
   */
  readonly tools?: MatcherLike | undefined;
  /** The input fields that hold a path (default {@link ProtectedPathsHook.defaultFields}); arrays and objects in them are searched. */
  readonly fields?: readonly string[] | undefined;
  /** Match case-insensitively, as on macOS and Windows file systems (default false). */
  readonly nocase?: boolean | undefined;
  /** `'block'` (default) refuses the call; `'stop'` halts the run. */
  readonly behaviour?: LimitBehaviour | undefined;
  /** The priority to register at when the registration names none (default 100: before ordinary hooks). */
  readonly priority?: number | undefined;
}

const DEFAULT_PATTERNS: readonly string[] = Object.freeze(['.env', '.env.*', '**/.git/**']);
const DEFAULT_FIELDS: readonly string[] = Object.freeze([
  'path',
  'paths',
  'file',
  'files',
  'file_path',
  'filePath',
  'filename',
  'fileName',
  'notebook_path',
  'target',
  'target_file',
  'targetFile',
  'destination',
  'dest',
  'new_path',
  'newPath',
  'old_path',
  'oldPath',
  'source',
  'edits',
]);
const WRITE_WORDS = new Set([
  'write', 'edit', 'create', 'delete', 'remove', 'rm', 'unlink', 'move', 'mv', 'rename', 'append', 'patch', 'replace',
  'save', 'put', 'upload', 'insert', 'mkdir', 'touch', 'copy', 'cp', 'overwrite', 'truncate', 'modify', 'update',
]);

/** The words of a tool name: `str_replace_based_edit_tool`, `MultiEdit`, `write-file` → their lower-case words. */
const wordsOf = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/**
 * Refuses writes to protected paths — by default `.env`, `.env.*` and anything inside a `.git` folder — on tools
 * that write (by their name) and take a path (`path`, `file_path`, `filePath`, `target`, … in their input). Paths are
 * normalised before they are matched: `./.env`, `sub/../.env` and `/project/.env` are the same file when the project
 * is `/project`. Paths are compared as written (symbolic links are not resolved), and a later hook's rewrite of the
 * call is checked too.
 *
 * Shell commands are not read for paths: pair it with {@link DangerousCommandHook}, or ask for approval on shell
 * tools, to cover `echo … > .env`.
 *
 * ```ts
 * const agent = AgentBuilder.new()
 *   .withModel(model)
 *   .withTools(readFile, writeFile)
 *   .withHook(new ProtectedPathsHook({ extraPatterns: ['secrets/**', '*.pem'], projectDir: process.cwd() }))
 *   .build();
 * ```
 */
export class ProtectedPathsHook implements Hook {
  /** The globs protected by default. */
  static readonly defaultPatterns: readonly string[] = DEFAULT_PATTERNS;
  /** The input fields read by default. */
  static readonly defaultFields: readonly string[] = DEFAULT_FIELDS;

  /** Whether a tool's name says it writes (the default `tools` rule): one of its words is a write verb. */
  static isWriteTool(name: string): boolean {
    return wordsOf(name).some((w) => WRITE_WORDS.has(w) || (w.endsWith('s') && WRITE_WORDS.has(w.slice(0, -1))));
  }

  /** Always `'ProtectedPathsHook'`. */
  readonly name = 'ProtectedPathsHook';
  /** Runs before tools: PreToolUse. */
  readonly events: readonly HookEventName[] = ['PreToolUse'];
  /** The tools that write. */
  readonly matcher: HookMatcher | undefined;
  /** The priority it registers at by default. */
  readonly priority: number;
  /** The protected globs. */
  readonly patterns: readonly string[];
  /** The directory relative paths are resolved against. */
  readonly projectDir: string;
  private readonly fields: ReadonlySet<string>;
  private readonly behaviour: LimitBehaviour;
  private readonly compiled: readonly { readonly glob: string; readonly test: (path: string) => boolean }[];

  constructor(options: ProtectedPathsHookOptions = {}) {
    const patterns = [...(options.patterns ?? DEFAULT_PATTERNS), ...(options.extraPatterns ?? [])];
    const mmOptions = { dot: true, nocase: options.nocase === true };
    this.compiled = patterns.map((glob) => {
      if (typeof glob !== 'string' || glob.trim() === '') {
        throw new TypeError(`ProtectedPathsHook: every pattern must be a non-empty glob string, got ${JSON.stringify(glob)}.`);
      }
      const test = micromatch().matcher(glob, mmOptions);
      // micromatch's own `basename` option also changes how globs with slashes match, so a name-only glob is applied
      // to the last segment here instead.
      return { glob, test: glob.includes('/') ? test : (path: string) => test(path.slice(path.lastIndexOf('/') + 1)) };
    });
    this.patterns = Object.freeze(patterns);
    this.projectDir = resolve(options.projectDir ?? process.cwd());
    this.fields = new Set(options.fields ?? DEFAULT_FIELDS);
    this.behaviour = checkBehaviour('ProtectedPathsHook', options.behaviour);
    this.priority = checkPriority('ProtectedPathsHook', options.priority, 100);
    this.matcher =
      options.tools === undefined
        ? new CallableMatcher((ctx) => 'toolCall' in ctx && ProtectedPathsHook.isWriteTool(ctx.toolCall.name))
        : Matcher.from(options.tools);
  }

  /**
   * The glob that protects `path`, or `undefined`. `path` is normalised first: resolved against the project
   * directory, then made relative to it (a path outside the project stays absolute).
   */
  protects(path: string): string | undefined {
    const normal = this.normalise(path);
    return this.compiled.find((p) => p.test(normal))?.glob;
  }

  /** `path` as the globs see it: relative to the project with `/` separators, or absolute when outside it. */
  normalise(path: string): string {
    const absolute = resolve(this.projectDir, path);
    const rel = relative(this.projectDir, absolute);
    const outside = rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
    return (outside ? absolute : rel === '' ? '.' : rel).split(sep).join('/');
  }

  handle(ctx: AnyHookContext, next: NextFn): MaybePromise<HookOutcome> {
    // A later hook may rewrite the path; guardToolCall checks the call that would run.
    return guardToolCall(ctx, next, (call) => this.refusal(call), this.matcher);
  }

  private refusal(call: ToolCall): HookOutcome | undefined {
    for (const path of this.pathsOf(call.args, 0)) {
      const glob = this.protects(path);
      if (glob !== undefined) {
        return refuse(this.behaviour, `Protected path: ${call.name} may not write to ${this.normalise(path)} (it matches '${glob}').`);
      }
    }
    return undefined;
  }

  /** Every string under a path field of `value`, through arrays and nested objects (a few levels deep). */
  private pathsOf(value: unknown, depth: number): string[] {
    if (depth > 4 || value === null || typeof value !== 'object') return [];
    const found: string[] = [];
    const collect = (v: unknown): void => {
      if (typeof v === 'string') {
        if (v.length > 0) found.push(v);
      } else if (Array.isArray(v)) v.forEach(collect);
      else found.push(...this.pathsOf(v, depth + 1));
    };
    if (Array.isArray(value)) {
      for (const item of value) found.push(...this.pathsOf(item, depth + 1));
      return found;
    }
    for (const [key, v] of Object.entries(value)) if (this.fields.has(key)) collect(v);
    return found;
  }
}
